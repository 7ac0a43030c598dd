#include "rules/SyncRules.h"

#include "model/Explain.h"

namespace warplint {

std::optional<Finding> checkDivergentSyncthreads(const SyncFacts &f,
                                                 const RuleOptions &) {
  bool blockBarrier = f.callee.rfind("__syncthreads", 0) == 0 ||
                      f.callee == "thread_block::sync" ||
                      f.callee == "cooperative_groups::sync";
  if (!blockBarrier || !f.reach.evaluated || !f.reach.partialBlock)
    return std::nullopt;
  Finding out;
  out.message = f.callee + "() is reached by only some threads of the block";
  if (f.reach.warp >= 0)
    out.message += " (in warp " + std::to_string(f.reach.warp) + ", lanes " +
                   laneList(f.reach.active) + " only)";
  out.message += ": undefined behaviour: the threads that reach it wait until "
                 "every other thread of the block exits or reaches a barrier";
  out.notes.push_back(
      {-1, "move the barrier out of the condition so that every thread of "
           "the block reaches it, and keep only the work inside"});
  return out;
}

} // namespace warplint
