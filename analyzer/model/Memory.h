//===- Memory.h - per-warp memory cost of one access ------------*- C++ -*-===//
//
// An Access is one load or store instruction as the model sees it: the byte
// offset each lane touches (relative to an allocation base assumed 256-byte
// aligned, as cudaMalloc returns), the condition under which a lane executes
// it, and the bytes each lane moves. analyzeAccess() evaluates it for every
// warp of a block over sampled environments and averages the way Nsight
// Compute does: total cost / total requests (a warp with no active lane issues
// no request).
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_MEMORY_H
#define WARPLINT_MODEL_MEMORY_H

#include "Eval.h"

#include <functional>
#include <optional>

namespace warplint {

struct Access {
  LaneExpr offset;     // bytes from the allocation base
  LaneExpr mask;       // null: every lane of the block executes it
  int elementBytes = 4;
};

/// Distinct 32-byte sectors the active lanes touch (an element that straddles
/// a sector boundary touches both).
int sectorsForRequest(const Lanes &addr, LaneMask active, int bytes);
/// ceil(active lanes * bytes / 32).
int idealSectors(int activeLanes, int bytes);

/// Cost of one request: what the hardware spends and the least it could.
struct Cost {
  double actual = 0, ideal = 0;
};
using CostModel =
    std::function<Cost(const Lanes &addr, LaneMask active, int bytes)>;
Cost globalSectors(const Lanes &addr, LaneMask active, int bytes);

struct AccessResult {
  bool evaluated = false;
  std::string unknownReason; // why not evaluated

  // Per-request averages for the first shape with unknowns at their
  // representative value (1024).
  double actual = 0, ideal = 0, activeLanes = 0;
  double requestsPerBlock = 0;
  // Extremes of actual and actual/ideal over every sampled unknown value and
  // every candidate shape. exact: they agree with the representative value.
  double minActual = 0, maxActual = 0, minRatio = 0, maxRatio = 0;
  bool exact = true;
  // Bytes between adjacent active lanes, when that is one constant everywhere.
  std::optional<int64_t> laneStride;
  // The most common distance between adjacent active lanes of the first warp
  // that issues a request (representative environment).
  int64_t commonStride = 0;
  bool maskDataDependent = false;
  bool guardAssumed = false;
  std::vector<int> dependsOn; // uniform unknown atoms it depends on
};

/// shapes[0] is the block shape in use; the others are alternatives that the
/// result must hold for too (an assumed block shape).
AccessResult analyzeAccess(const Access &access, const Context &ctx,
                           const std::vector<Shape> &shapes,
                           const CostModel &cost);

/// The environment reported as "representative": block 0, first iteration,
/// unknowns at 1024.
Env representativeEnv(const Context &ctx);

} // namespace warplint

#endif
