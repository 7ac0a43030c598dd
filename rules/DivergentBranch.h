//===- DivergentBranch.h ----------------------------------------*- C++ -*-===//
#ifndef WARPLINT_RULES_DIVERGENTBRANCH_H
#define WARPLINT_RULES_DIVERGENTBRANCH_H

#include "rules/Rule.h"

namespace warplint {

/// Flags a branch whose condition splits the active lanes of a warp around a
/// body large enough to stay a real branch.
std::optional<Finding> checkDivergentBranch(const BranchFacts &facts,
                                            const RuleOptions &opts);

} // namespace warplint

#endif
