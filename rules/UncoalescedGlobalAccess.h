//===- UncoalescedGlobalAccess.h --------------------------------*- C++ -*-===//
#ifndef WARPLINT_RULES_UNCOALESCEDGLOBALACCESS_H
#define WARPLINT_RULES_UNCOALESCEDGLOBALACCESS_H

#include "rules/Rule.h"

namespace warplint {

/// Flags a global load or store whose warp touches at least `threshold` times
/// the 32-byte sectors its active lanes need.
std::optional<Finding> checkUncoalescedGlobalAccess(const AccessFacts &facts,
                                                    const RuleOptions &opts);

} // namespace warplint

#endif
