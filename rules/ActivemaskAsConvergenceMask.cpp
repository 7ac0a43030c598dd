#include "rules/SyncRules.h"

namespace warplint {

std::optional<Finding> checkActivemaskAsConvergenceMask(const SyncFacts &f,
                                                        const RuleOptions &) {
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

} // namespace warplint
