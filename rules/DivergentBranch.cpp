#include "rules/KernelShare.h"
#include "rules/RuleSet.h"

#include "model/Explain.h"

namespace warplint {

static std::string lanePhrase(LaneMask taken, LaneMask active) {
  LaneMask skipped = active & ~taken;
  if (active == AllLanes && taken == 0xaaaaaaaau)
    return "odd lanes only take it: half the warp idles";
  if (active == AllLanes && taken == 0x55555555u)
    return "even lanes only take it: half the warp idles";
  return "lanes " + laneList(taken) + " take it, lanes " + laneList(skipped) +
         " skip it";
}

static bool one(LaneMask m) { return __builtin_popcount(m) == 1; }

/// "lane 7" or "lanes 0..15".
static std::string lanesNamed(LaneMask m) {
  return (one(m) ? "lane " : "lanes ") + laneList(m);
}

/// "warp 3", or "warp 3 of block 136" where the example is not block 0's.
static std::string warpPlace(const BranchResult &r) {
  std::string s = "warp " + std::to_string(r.warp);
  if (r.block[0] || r.block[1] || r.block[2])
    s += " of block " + blockText(r.block);
  return s;
}

static std::optional<Finding> checkDivergentBranch(const BranchFacts &f,
                                                   const RuleContext &opts) {
  const BranchResult &r = f.result;
  Finding out;
  std::string sources;
  for (const std::string &s : f.laneSources)
    sources += (sources.empty() ? "'" : ", '") + s + "'";
  if (!r.evaluated) {
    if (!opts.shared().warnDataDependentBranches || f.weight < MinBranchWeight)
      return std::nullopt;
    out.message = f.kind + " condition depends on data loaded per lane (" +
                  sources + "): warps may split here";
    return out;
  }
  if (!r.divergent || f.weight < MinBranchWeight)
    return std::nullopt;
  std::string body = "~" + std::to_string(f.weight) + " statements";
  if (f.kind == "loop") {
    out.message = "loop trip count differs across the warp: in " +
                  warpPlace(r) + ", " + lanesNamed(r.active & ~r.taken) +
                  (one(r.active & ~r.taken) ? " stops" : " stop") +
                  " after " + std::to_string(r.iteration) +
                  (r.iteration == 1 ? " iteration" : " iterations") +
                  " while " + lanesNamed(r.taken) +
                  (one(r.taken) ? " runs on (" : " run on (") + body +
                  " per iteration, with the others idle)";
  } else if (f.kind == "exit") {
    // The lanes that leave are done: nothing runs twice, but the rest runs
    // with fewer lanes.
    int stay = __builtin_popcount(r.active & ~r.taken);
    out.message = "lanes " + laneList(r.taken) + " of " +
                  warpPlace(r) + " leave early: the rest (" + body +
                  ") runs with " + std::to_string(stay) + " of " +
                  std::to_string(__builtin_popcount(r.active)) + " lanes";
  } else if (f.kind == "switch") {
    out.message = "switch sends the lanes of warp " + std::to_string(r.warp) +
                  " to different cases (" + body + " in the cases run one after another)";
  } else {
    out.message = "branch diverges within a warp: " +
                  lanePhrase(r.taken, r.active) + "; the warp runs both paths (" +
                  body + ")";
  }
  if (!sources.empty())
    out.notes.push_back({f.condOrigin, "the condition varies with " + sources});
  // The message names the warp of its lanes, except an if's: the note does.
  if (r.divergentShare > 0 && r.divergentShare < 1)
    out.notes.push_back(
        {-1, formatFigure(100 * r.divergentShare) +
                 "% of the warps that reach it split" +
                 (f.kind == "if" || f.kind == "ternary"
                      ? "; the lanes named are those of " + warpPlace(r)
                      : "")});
  if (f.reductionModulo)
    out.notes.push_back(
        {-1, "interleaved addressing (tid % (2*s) == 0) keeps every warp "
             "busy with a few lanes; use sequential addressing: for (s = "
             "blockDim.x / 2; s > 0; s >>= 1) if (tid < s) sdata[tid] += "
             "sdata[tid + s]; so that whole warps drop out together"});
  else if (f.laneModulo)
    out.notes.push_back(
        {-1, "branch on the warp index instead of lane bits (for example "
             "(threadIdx.x / 32) % k rather than threadIdx.x % k) so that all "
             "32 lanes of a warp take the same path"});
  weighBody(f, opts, out);
  return out;
}

const RuleDef &divergentBranchRule() {
  static const RuleDef rule(
      "divergent-branch",
      "Flags branches whose condition splits the active lanes of a warp "
      "around work large enough to stay a real branch.",
      checkDivergentBranch, {&MinKernelShare});
  return rule;
}

} // namespace warplint
