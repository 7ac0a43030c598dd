//===- DataFindings.h - findings that rest on data --------------*- C++ -*-===//
//
// What the memory rules share for accesses whose address or active lanes
// depend on data loaded at run time: the figure warplint takes for them,
// and how the options ask for such findings to be reported.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_RULES_DATAFINDINGS_H
#define WARPLINT_RULES_DATAFINDINGS_H

#include "rules/RuleSet.h"

namespace warplint {

/// For an access under a condition on data: says the figure is an upper
/// bound among the lanes that take it, and sets the severity the options
/// ask for. Returns false when such findings are turned off. The same for
/// an access only the lanes past a bounds guard's bound run
/// (AccessResult::tailGuard): an upper bound, a remark. With a `threshold`
/// (the finding's figure is the access's own, not a known value's or an
/// unrolled iteration's), DataLevel::Auto makes it a warning where the
/// figure with a few random lanes taking the branch
/// (AccessResult::minSparseVerdict) reaches it too, quoting that figure in
/// `unit`s ("sector" or "wavefront").
bool qualifyDataMask(Finding &f, const AccessResult &r,
                     const SharedOptions &opts, double threshold = 0,
                     const char *unit = "");

/// For an access whose address depends on data (AccessResult::
/// dataEstimated): a finding when its figure with the data drawn at random
/// reaches `threshold` x ideal, at the severity the options ask for.
/// `unit` is "sector" or "wavefront".
std::optional<Finding> dataAddressFinding(const AccessFacts &f,
                                          const SharedOptions &opts,
                                          double threshold, const char *unit);

/// For an access whose address depends on data: whether warplint takes
/// its random-data figure (the kinds of data address whose estimate the GPU
/// bears out, or every kind under --data-addresses=warning or remark)
/// rather than its figure with neighbouring lanes agreeing on the data (a
/// mesh's connectivity, sorted or consecutive indices). The figure taken
/// is the line's figure in the report, stated as an assumption.
bool expectsRandomData(const AccessFacts &f, const SharedOptions &opts);

} // namespace warplint

#endif
