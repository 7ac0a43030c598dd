#include "rules/RuleSet.h"

namespace warplint {

// __launch_bounds__(N) promises the compiler blocks of at most N threads; it
// allocates registers for the warps of N threads. An N that is not a
// multiple of 32 is almost always a typo or a block size chosen without the
// warp in mind: a block of N threads runs its last warp with lanes idle on
// every instruction, as a launch of N threads does (partial-warp-block).
static std::optional<Finding> checkLaunchBoundsPartialWarp(const KernelFacts &f,
                                                           const RuleContext &) {
  if (!f.maxThreadsPerBlock || *f.maxThreadsPerBlock <= 0 ||
      *f.maxThreadsPerBlock % WarpSize == 0)
    return std::nullopt;
  int64_t n = *f.maxThreadsPerBlock;
  int64_t idle = WarpSize - n % WarpSize;
  int64_t up = n + idle;
  Finding out;
  out.message = "__launch_bounds__(" + std::to_string(n) + ") of '" + f.name +
                "' is not a whole number of warps: a block of " +
                std::to_string(n) + " threads, the largest it allows, runs "
                "its last warp with " + std::to_string(idle) +
                " of 32 lanes idle";
  std::string hint = "bound the block at " + std::to_string(up) + " threads";
  if (n > WarpSize)
    hint += " (or " + std::to_string(up - WarpSize) + ")";
  out.notes.push_back({-1, hint + ", a multiple of 32, and launch it with "
                               "whole warps"});
  return out;
}

const RuleDef &launchBoundsPartialWarpRule() {
  static const RuleDef rule(
      "launch-bounds-partial-warp",
      "Flags __launch_bounds__ whose maximum block size is not a whole number "
      "of warps.",
      checkLaunchBoundsPartialWarp);
  return rule;
}

} // namespace warplint
