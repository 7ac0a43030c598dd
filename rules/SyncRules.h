//===- SyncRules.h - barrier and warp-synchronous correctness ---*- C++ -*-===//
//
// Since Volta the threads of a warp are scheduled independently: these rules
// find code that assumes otherwise. One file per rule; this header declares
// them together.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_RULES_SYNCRULES_H
#define WARPLINT_RULES_SYNCRULES_H

#include "rules/Rule.h"

namespace warplint {

/// __syncthreads() (or a cooperative-groups block sync) that only some
/// threads of a block reach: undefined behaviour.
std::optional<Finding> checkDivergentSyncthreads(const SyncFacts &,
                                                 const RuleOptions &);

/// __shfl, __any, __all, __ballot: the pre-Volta intrinsics without a mask.
std::optional<Finding> checkLegacyWarpIntrinsic(const SyncFacts &,
                                                const RuleOptions &);

/// A *_sync intrinsic or __syncwarp() with the full mask in code that only
/// some lanes of the warp reach.
std::optional<Finding> checkFullMaskInDivergentCode(const SyncFacts &,
                                                    const RuleOptions &);

/// __activemask() used as the mask of a warp collective under a
/// lane-dependent condition or loop.
std::optional<Finding> checkActivemaskAsConvergenceMask(const SyncFacts &,
                                                        const RuleOptions &);

/// A shared-memory value exchanged between lanes of one warp with no
/// __syncwarp() between the store and the load.
std::optional<Finding> checkMissingSyncwarp(const HazardFacts &,
                                            const RuleOptions &);

/// A launch whose block is not a whole number of warps.
std::optional<Finding> checkPartialWarpBlock(const LaunchFacts &,
                                             const RuleOptions &);

} // namespace warplint

#endif
