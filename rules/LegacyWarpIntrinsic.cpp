#include "rules/RuleSet.h"

namespace warplint {

static std::optional<Finding> checkLegacyWarpIntrinsic(const SyncFacts &f,
                                                       const RuleContext &) {
  static const char *const legacy[] = {"__shfl",  "__shfl_up", "__shfl_down",
                                       "__shfl_xor", "__any",  "__all",
                                       "__ballot"};
  bool isLegacy = false;
  for (const char *l : legacy)
    isLegacy |= f.callee == l;
  if (!isLegacy)
    return std::nullopt;
  Finding out;
  out.message = "'" + f.callee +
                "' is the pre-Volta warp intrinsic without a mask: it assumes "
                "the warp is converged, which independent thread scheduling "
                "no longer guarantees";
  std::string args;
  for (const std::string &a : f.argText)
    args += ", " + a;
  std::string mask =
      f.reach.evaluated && !f.reach.partialWarp ? "0xffffffff" : "mask";
  out.notes.push_back({-1, "use '" + f.callee + "_sync(" + mask + args + ")'" +
                               (mask == "mask"
                                    ? " with the mask of the lanes that reach "
                                      "this call"
                                    : "")});
  return out;
}

const RuleDef &legacyWarpIntrinsicRule() {
  static const RuleDef rule(
      "legacy-warp-intrinsic",
      "Flags __shfl, __any, __all and __ballot, the warp intrinsics without "
      "a mask that assume a converged warp.",
      checkLegacyWarpIntrinsic);
  return rule;
}

} // namespace warplint
