//===- KnownValues.h - values the project shows, one by one -----*- C++ -*-===//
//
// An unknown whose values the project shows (every launch passes a
// constant, a host loop runs the kernel over sizes `for (size = 1; size <=
// 256; size <<= 1)`) takes each of them in a run of its own, as a template
// argument does: the access is as bad as its worst value, and a warning
// says for which values it is bad and for which it is clean. What the
// memory rules share for such accesses.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_RULES_KNOWNVALUES_H
#define WARPLINT_RULES_KNOWNVALUES_H

#include "rules/RuleSet.h"

namespace warplint {

/// For an access that depends only on values the project shows
/// (AccessResult::valuesKnown), bad for some of them and clean for others:
/// a finding at the worst value, naming the values that reach `threshold`
/// and those that do not. `unit` is "sector" or "wavefront".
std::optional<Finding> knownValuesFinding(const AccessFacts &f,
                                          const SharedOptions &opts,
                                          double threshold, const char *unit);

} // namespace warplint

#endif
