#include "rules/RuleSet.h"

namespace warplint {

static std::optional<Finding>
checkActivemaskAsConvergenceMask(const SyncFacts &f, const RuleContext &) {
  if (!f.maskFromActivemask || !f.laneVaryingPath)
    return std::nullopt;
  Finding out;
  out.message = f.callee +
                " takes its mask from __activemask() under a lane-dependent "
                "condition: __activemask() gives the lanes that happen to be "
                "converged at that moment, not the lanes that take this path, "
                "so lanes that also arrive may be left out";
  out.notes.push_back(
      {-1, "compute the mask before the branch or loop with "
           "__ballot_sync(0xffffffff, condition) and use it for every step"});
  return out;
}

const RuleDef &activemaskAsConvergenceMaskRule() {
  static const RuleDef rule(
      "activemask-as-convergence-mask",
      "Flags __activemask() used as the mask of a warp collective under a "
      "lane-dependent condition or loop.",
      checkActivemaskAsConvergenceMask);
  return rule;
}

} // namespace warplint
