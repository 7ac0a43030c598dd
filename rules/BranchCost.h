//===- BranchCost.h - what a divergent body costs its kernel ----*- C++ -*-===//
//
// A divergence warning is worth acting on where the idle lanes of the body
// waste a real share of the kernel's issue slots: a loop body run for one
// lane of each warp does, a lane-0 epilogue that writes the block's result
// once after a long loop does not. What the divergence rules share: the
// option that sets the share, and the words that give it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_RULES_BRANCHCOST_H
#define WARPLINT_RULES_BRANCHCOST_H

#include "rules/RuleSet.h"

namespace warplint {

/// The share of the kernel's estimated warp instructions, in percent, below
/// which a divergent body's finding is a remark, not a warning.
extern const RuleOption MinKernelShare;

/// Gives the body's cost in `out`'s message where it is estimated
/// (BranchFacts::wasteShare), and makes `out` a remark where that is under
/// the rule's MinKernelShare.
void weighBody(const BranchFacts &f, const RuleContext &opts, Finding &out);

} // namespace warplint

#endif
