#include "rules/KnownValues.h"

#include "rules/DataFindings.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace warplint {

/// "1, 2, 4 or 8" (`last`: "or", "and"); "1 to 256" for more than five
/// values.
static std::string valuesText(const std::vector<int64_t> &v,
                              const char *last) {
  if (v.size() > 5)
    return std::to_string(v.front()) + " to " + std::to_string(v.back());
  std::string out;
  for (size_t i = 0; i < v.size(); ++i)
    out += (i == 0 ? "" : i + 1 == v.size() ? std::string(" ") + last + " "
                                            : std::string(", ")) +
           std::to_string(v[i]);
  return out;
}

std::optional<Finding> knownValuesFinding(const AccessFacts &f,
                                          const SharedOptions &opts,
                                          double threshold, const char *unit) {
  const AccessResult &r = f.result;
  // One unknown, in the address or else in which lanes take it.
  if (!r.valuesKnown || r.dependsOn.size() > 1 || r.sampleAtom < 0 ||
      r.worstKnownVerdict < threshold - 1e-9)
    return std::nullopt;
  // Each value's verdict and figures, from the samples of the block shape
  // the figures are for (the representative value is among them).
  struct Value {
    double verdict = 0, actual = 0, ratio = 0;
  };
  std::map<int64_t, Value> values;
  for (const AccessResult::Sample &s : r.samples)
    if (s.shape == int(r.shape)) {
      Value &v = values[s.value];
      if (s.verdict > v.verdict)
        v = {s.verdict, s.actual, s.ratio};
    }
  std::vector<int64_t> bad, clean;
  const Value *worst = nullptr;
  bool alike = true; // the bad values' figures are one
  for (const auto &[value, v] : values) {
    const bool isBad = v.verdict >= threshold - 1e-9;
    (isBad ? bad : clean).push_back(value);
    if (isBad && worst && std::abs(v.actual - worst->actual) > 1e-9)
      alike = false;
    if (!worst || v.verdict > worst->verdict)
      worst = &v;
  }
  if (bad.empty() || clean.empty() || !worst || worst->ratio <= 0)
    return std::nullopt;
  const Atom &atom = f.ctx.atoms[size_t(r.sampleAtom)];
  const bool shared = std::string(unit) == "wavefront";
  const std::string when = "when '" + atom.name + "' = " +
                           valuesText(bad, "or") + " (clean for " +
                           valuesText(clean, "and") + ")";
  const std::string figures = (alike ? "" : "up to ") +
                              formatFigure(worst->actual) + " " + unit +
                              "s per request where " +
                              formatFigure(worst->actual / worst->ratio) +
                              " would do";
  Finding out;
  const std::string kind =
      accessKind(f, shared ? "shared" : "global", accessOp(f));
  if (shared) {
    const long ways = std::lround(worst->ratio);
    out.message =
        kind + " has " +
        (std::abs(worst->ratio - double(ways)) < 0.01
             ? "a " + std::to_string(ways) + "-way bank conflict "
             : std::string("bank conflicts ")) +
        when + ": " + figures;
  } else {
    out.message = kind + " is uncoalesced " + when + ": " + figures;
  }
  out.notes.push_back(
      {-1, "each value of '" + atom.name + "' the project shows is a run of "
               "its own, as a template argument is" +
               (atom.knownFrom.empty() ? "" : " (" + atom.knownFrom + ")")});
  if (!qualifyDataMask(out, r, opts))
    return std::nullopt;
  return out;
}

} // namespace warplint
