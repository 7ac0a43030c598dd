#include "rules/DataFindings.h"

#include "model/Explain.h"

namespace warplint {

static const RuleOption Threshold{
    "Threshold", 2.0,
    "warn when a warp's lanes read at least this many distinct addresses", 1.0};

static std::optional<Finding>
checkConstantNonuniformAccess(const AccessFacts &f, const RuleContext &opts) {
  const AccessResult &r = f.result;
  if (f.space != Space::Constant || !r.evaluated ||
      r.minActualRealistic < opts[Threshold])
    return std::nullopt;
  Finding out;
  out.message = "__constant__ load is not uniform across the warp: " +
                formatFigure(r.actual) +
                " distinct addresses per request are served one after "
                "another (" +
                formatFigure(r.actual) + "-way serialized) where 1 would do";
  LaneExpr term = spreadingTerm(f.access.offset, f.ctx, f.shape);
  if (term && term->origin >= 0)
    out.notes.push_back({term->origin, "differs between the lanes of a warp"});
  out.notes.push_back(
      {-1, "the constant cache broadcasts one address per pass: index it "
           "with warp-uniform values (blockIdx, loop counters), or move "
           "lane-indexed tables to global memory (const __restrict__ or "
           "__ldg) or shared memory"});
  if (!qualifyDataMask(out, r, opts.shared()))
    return std::nullopt;
  return out;
}

const RuleDef &constantNonuniformAccessRule() {
  static const RuleDef rule(
      "constant-nonuniform-access",
      "Flags __constant__ loads whose lanes read different addresses, which "
      "the constant cache serves one after another.",
      checkConstantNonuniformAccess, {&Threshold});
  return rule;
}

} // namespace warplint
