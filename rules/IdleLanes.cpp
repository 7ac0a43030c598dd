// idle-lanes: a branch or loop body that runs with most lanes of its warps
// idle, so that it costs several times the warp instructions a layout with
// its active lanes packed into full warps would (docs/rules/idle-lanes.md).
#include "rules/KernelShare.h"
#include "rules/RuleSet.h"

#include "model/Explain.h"

namespace warplint {

/// Warps that run a body over the fewest that could (BranchResult::Fill)
/// from which it warns.
static const RuleOption IssueRatio{
    "IssueRatio", 2.0,
    "warn where a body's lanes are spread over at least this many times the "
    "warps they would fill",
    0.0};

static std::optional<Finding> checkIdleLanes(const BranchFacts &f,
                                             const RuleContext &opts) {
  const BranchResult &r = f.result;
  if (!r.evaluated || !r.divergent || f.weight < 1)
    return std::nullopt;
  // The body of an if or loop; after an early exit, the rest.
  const BranchResult::Fill &fill = f.kind == "exit" ? r.restFill : r.takenFill;
  // As the GPU runs it (BranchFacts::predicated).
  double lanes = f.predicated ? fill.lanesPredicated : fill.lanesBranched;
  // Warn where the lanes on the path are scattered over several times the
  // warps they would fill (a layout change packs them: whole warps then
  // skip it), or a loop runs most of its lanes idle (the warp runs the
  // longest lane's trip count). A tree reduction's `tid < s` also leaves
  // lanes idle, but its lanes are already contiguous: nothing to repack.
  bool scattered = fill.spread >= opts[IssueRatio];
  if (lanes > 16 || !(scattered || f.kind == "loop"))
    return std::nullopt;
  // A split that happens once (lane 0 writes the block's result) costs a
  // few idle instructions; one that repeats, in a loop whose iterations
  // change it (a tree reduction's `tid % (2*s) == 0`) or as a loop's own
  // lane-dependent trip count, costs them every iteration.
  if (!(f.kind == "loop" || f.condUsesLoop))
    return std::nullopt;
  // A one-line fix-up of a local (`if (i < 0) i = -i;` at an edge) costs an
  // instruction or two; warn where the body does real work: memory
  // accesses, or a few statements. A loop nvcc unrolls (a constant bound)
  // is predicated code, not a loop run for the longest lane.
  if (!f.bodyAccessesMemory && f.weight < MinBranchWeight)
    return std::nullopt;
  if (f.unrolled)
    return std::nullopt;
  Finding out;
  std::string what = f.kind == "loop" ? "loop body" : f.kind == "exit"
                                                          ? "code after the exit"
                                                          : "branch body";
  out.message = what + " runs at " + formatFigure(lanes) +
                " of 32 lanes on average";
  if (scattered)
    out.message += ", its lanes spread over " + formatFigure(fill.spread) +
                   "x the warps they would fill if contiguous";
  if (f.predicated)
    out.notes.push_back(
        {-1, "small enough for nvcc to predicate: every warp that reaches it "
             "issues it, with or without lanes on the path"});
  std::string sources;
  for (const std::string &s : f.laneSources)
    sources += (sources.empty() ? "'" : ", '") + s + "'";
  if (!sources.empty())
    out.notes.push_back(
        {f.condOrigin, "which lanes run it varies with " + sources});
  if (f.reductionModulo)
    out.notes.push_back(
        {-1, "interleaved addressing (tid % (2*s) == 0) keeps every warp "
             "issuing for a few lanes; use sequential addressing: for (s = "
             "blockDim.x / 2; s > 0; s >>= 1) if (tid < s) sdata[tid] += "
             "sdata[tid + s]; so that whole warps drop out together"});
  else if (f.kind == "loop")
    out.notes.push_back(
        {-1, "give the lanes of a warp the same trip count (split the work "
             "per warp, not per lane), or compact the lanes that still "
             "have work into fewer warps"});
  else
    out.notes.push_back(
        {-1, "index so that the lanes that run it are contiguous (tid < n "
             "rather than tid % k == 0), so that whole warps skip it"});
  weighBody(f, opts, out);
  return out;
}

const RuleDef &idleLanesRule() {
  static const RuleDef rule(
      "idle-lanes",
      "Flags branch and loop bodies that run with most lanes of their warps "
      "idle, at several times the warp instructions of a layout with the "
      "active lanes packed into full warps.",
      checkIdleLanes, {&IssueRatio, &MinKernelShare});
  return rule;
}

} // namespace warplint
