#include "rules/RuleSet.h"

#include "model/Explain.h"

namespace warplint {

static std::optional<Finding> checkDivergentSyncthreads(const SyncFacts &f,
                                                        const RuleContext &) {
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

const RuleDef &divergentSyncthreadsRule() {
  static const RuleDef rule(
      "divergent-syncthreads",
      "Flags __syncthreads() and block-wide syncs that only some threads of "
      "a block reach.",
      checkDivergentSyncthreads);
  return rule;
}

} // namespace warplint
