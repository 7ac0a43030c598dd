//===- SmemBankConflict.h ---------------------------------------*- C++ -*-===//
#ifndef WARPLINT_RULES_SMEMBANKCONFLICT_H
#define WARPLINT_RULES_SMEMBANKCONFLICT_H

#include "rules/Rule.h"

namespace warplint {

/// Flags a shared-memory load or store whose warp needs at least twice the
/// wavefronts its active lanes would with no bank conflict.
std::optional<Finding> checkSmemBankConflict(const AccessFacts &facts,
                                             const RuleOptions &opts);

} // namespace warplint

#endif
