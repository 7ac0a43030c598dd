//===- ConstantNonuniformAccess.h -------------------------------*- C++ -*-===//
#ifndef WARPLINT_RULES_CONSTANTNONUNIFORMACCESS_H
#define WARPLINT_RULES_CONSTANTNONUNIFORMACCESS_H

#include "rules/Rule.h"

namespace warplint {

/// Flags a __constant__ load whose lanes read different addresses, which the
/// constant cache serves one after another.
std::optional<Finding>
checkConstantNonuniformAccess(const AccessFacts &facts, const RuleOptions &opts);

} // namespace warplint

#endif
