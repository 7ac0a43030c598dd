//===- UnrolledFindings.h - an unrolled loop's worst iterations -*- C++ -*-===//
//
// nvcc unrolls a loop with constant bounds fully: an access in it becomes
// one instruction per iteration, each with its own sectors or wavefronts,
// and the profiler shows each apart. A bitonic network's `j = 1` step can be
// 2-way while its average over the eight steps is 1.4x: the mean hides the
// iterations that cost. What the memory rules share for such accesses.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_RULES_UNROLLEDFINDINGS_H
#define WARPLINT_RULES_UNROLLEDFINDINGS_H

#include "rules/RuleSet.h"

namespace warplint {

/// For an access in loops nvcc unrolls (AccessResult::iterations) whose
/// mean stays under `threshold` x ideal while its worst iteration reaches it
/// under every realistic value of the unknowns: a finding about the
/// iterations that do, naming the loop variable's values, with the mean
/// beside it. `unit` is "sector" or "wavefront".
std::optional<Finding> unrolledFinding(const AccessFacts &f,
                                       const SharedOptions &opts,
                                       double threshold, const char *unit);

/// For an access in loops nvcc does not unroll, whose trip counts depend on
/// values the kernel is passed (AccessResult::loopIterations): where the
/// mean over the iterations stays under `threshold` at some realistic
/// value, but under every realistic value some iterations reach it (a
/// butterfly's small strides are 4-way whatever the size) and the mean is
/// at least LoopMeanBar x ideal, a finding about those iterations, with the
/// mean's range beside it (the figure the GPU shows for the line).
std::optional<Finding> loopIterationFinding(const AccessFacts &f,
                                            const SharedOptions &opts,
                                            double threshold, const char *unit);
/// The least mean over a looped access's iterations that such a finding
/// needs: half a request's cost in excess on average.
constexpr double LoopMeanBar = 1.5;

} // namespace warplint

#endif
