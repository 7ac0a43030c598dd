#include "rules/RuleSet.h"

namespace warplint {

static std::optional<Finding> checkPartialWarpBlock(const LaunchFacts &f,
                                                    const RuleContext &) {
  int64_t threads = f.block.threads();
  if (threads <= 0 || threads % WarpSize == 0)
    return std::nullopt;
  int64_t idle = WarpSize - threads % WarpSize;
  int64_t up = threads + idle;
  Finding out;
  out.message = "block of " + std::to_string(threads) +
                " threads is not a whole number of warps: its last warp runs "
                "with " + std::to_string(idle) + " of 32 lanes idle in every "
                "block";
  std::string hint = "use " + std::to_string(up) + " threads";
  if (threads > WarpSize)
    hint += " (or " + std::to_string(up - WarpSize) + ")";
  out.notes.push_back({-1, hint + " per block, and guard the extra threads"});
  return out;
}

const RuleDef &partialWarpBlockRule() {
  static const RuleDef rule(
      "partial-warp-block",
      "Flags launches whose block is not a whole number of warps.",
      checkPartialWarpBlock);
  return rule;
}

} // namespace warplint
