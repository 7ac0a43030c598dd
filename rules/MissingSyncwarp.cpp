#include "rules/RuleSet.h"

namespace warplint {

static std::optional<Finding> checkMissingSyncwarp(const HazardFacts &f,
                                                   const RuleContext &) {
  if (!f.result.intraWarp)
    return std::nullopt;
  Finding out;
  out.message = "shared load reads '" + f.array + "' that lane " +
                std::to_string(f.result.writer) +
                " of the same warp stored (line " + std::to_string(f.storeLine) +
                ") with no __syncwarp() between: since Volta the lanes of a "
                "warp are not in lockstep, so lane " +
                std::to_string(f.result.reader) + " may read the old value";
  if (f.volatileAccess)
    out.notes.push_back(
        {-1, "'volatile' keeps each access in memory, but does not order one "
             "lane's store before another lane's load: the lockstep idiom "
             "it served is a race since Volta's independent thread "
             "scheduling"});
  out.notes.push_back({-1, "put __syncwarp() between each step that writes "
                           "and the next that reads; or exchange the values "
                           "in registers with __shfl_down_sync"});
  return out;
}

const RuleDef &missingSyncwarpRule() {
  static const RuleDef rule(
      "missing-syncwarp",
      "Flags shared-memory values passed between lanes of one warp with no "
      "__syncwarp() between the store and the load.",
      checkMissingSyncwarp);
  return rule;
}

} // namespace warplint
