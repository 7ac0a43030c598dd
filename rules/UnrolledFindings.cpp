#include "rules/UnrolledFindings.h"

#include "model/Explain.h"
#include "rules/DataFindings.h"

#include <algorithm>
#include <cmath>

namespace warplint {

/// "j = 16, 8, 4, 2": the values, the first five of many and how many more.
static std::string valueList(const std::string &var,
                             const std::vector<int64_t> &values) {
  std::string out = "'" + var + "' = ";
  const size_t shown = values.size() <= 6 ? values.size() : 5;
  for (size_t i = 0; i < shown; ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  if (shown < values.size())
    out += " and " + std::to_string(values.size() - shown) + " more";
  return out;
}

namespace {
/// What the two findings share: the iterations of `its` that reach the
/// threshold, named by `var`'s values ("in 5 of its 8 unrolled iterations
/// ('j' = 16, 8, 4, 2, 1)"), the worst one's figures, then `mean`.
std::optional<Finding> iterationFinding(const AccessFacts &f,
                                        const SharedOptions &opts,
                                        double threshold, const char *unit,
                                        const std::vector<AccessResult::Iteration> &its,
                                        const std::string &var,
                                        const char *itsName,
                                        const std::string &mean,
                                        const std::string &note) {
  // The iterations of the representative run that reach the threshold,
  // and the worst of them.
  std::vector<int64_t> bad;
  for (const AccessResult::Iteration &it : its)
    if (it.ratio() >= threshold - 1e-9)
      bad.push_back(it.value);
  const AccessResult::Iteration *worst = AccessResult::worstIteration(its);
  if (bad.empty() || !worst)
    return std::nullopt;
  const double worstRatio = worst->ratio();
  const bool shared = std::string(unit) == "wavefront";
  const std::string units = std::string(unit) + "s";
  // Nested loops repeat the inner variable's values: the count alone says
  // it.
  std::vector<int64_t> sorted = bad;
  std::sort(sorted.begin(), sorted.end());
  const bool repeats =
      std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
  const std::string which = std::to_string(bad.size()) + " of its " +
                            std::to_string(its.size()) + " " + itsName +
                            (repeats ? "" : " (" + valueList(var, bad) + ")");
  Finding out;
  const std::string kind =
      accessKind(f, shared ? "shared" : "global", accessOp(f));
  if (shared) {
    const int ways = int(std::lround(worstRatio));
    const bool alike = std::abs(worstRatio - ways) < 0.01;
    out.message = kind + " has " +
                  (alike ? "a " + std::to_string(ways) + "-way bank conflict"
                         : std::string("bank conflicts")) +
                  " in " + which;
  } else {
    out.message = kind + " is uncoalesced in " + which;
  }
  out.message += ": " + formatFigure(worst->actual) + " " + units +
                 " per request where " + formatFigure(worst->ideal) +
                 " would do; " + mean;
  out.notes.push_back({-1, note});
  if (!qualifyDataMask(out, f.result, opts))
    return std::nullopt;
  return out;
}
} // namespace

std::optional<Finding> unrolledFinding(const AccessFacts &f,
                                       const SharedOptions &opts,
                                       double threshold, const char *unit) {
  const AccessResult &r = f.result;
  if (r.iterations.size() < 2 ||
      r.minWorstIterationRealistic < threshold - 1e-9)
    return std::nullopt;
  return iterationFinding(
      f, opts, threshold, unit, r.iterations, r.unrolledVar,
      "unrolled iterations",
      formatFigure(r.actual) + " where " + formatFigure(r.ideal) +
          " would do on average over the " +
          std::to_string(r.iterations.size()),
      "nvcc unrolls the loop over '" + r.unrolledVar +
          "' (its bounds are constants): each iteration is an instruction of "
          "its own, with its own " +
          std::string(unit) + "s, as the profiler shows them");
}

std::optional<Finding> loopIterationFinding(const AccessFacts &f,
                                            const SharedOptions &opts,
                                            double threshold,
                                            const char *unit) {
  const AccessResult &r = f.result;
  if (r.loopIterations.size() < 2 || r.exact ||
      r.minWorstIterationRealistic < threshold - 1e-9 ||
      r.minVerdictRealistic < LoopMeanBar - 1e-9)
    return std::nullopt;
  Dependence dep = describeDependence(r, f.ctx);
  std::string mean = formatRange(r.minActualRealistic, r.maxActualRealistic) +
                     " where " + formatFigure(r.ideal) +
                     " would do on average over the iterations";
  if (!dep.assumption.empty())
    mean += " (" + dep.assumption + ")";
  return iterationFinding(
      f, opts, threshold, unit, r.loopIterations, r.loopVar, "iterations",
      mean,
      "the loop over '" + r.loopVar +
          "' runs a number of iterations that depends on values the kernel is "
          "passed; under every value sampled some of them reach " +
          formatFigure(threshold) + "x, and the GPU shows the line's " +
          std::string(unit) + "s summed over them (the mean here)");
}

} // namespace warplint
