//===- Explain.h - which part of an address spreads the lanes ---*- C++ -*-===//
#ifndef WARPLINT_MODEL_EXPLAIN_H
#define WARPLINT_MODEL_EXPLAIN_H

#include "model/Eval.h"
#include "model/Memory.h"

#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// Value of lane 1 minus value of lane 0 in warp 0 (representative
/// environment): the distance the rules quote for "adjacent lanes".
int64_t adjacentDistance(const LaneExpr &e, const Context &ctx,
                         const Shape &shape);

/// The sub-expression of a byte offset that makes adjacent lanes far apart:
/// walking down from the root through additions to the lane-varying operand,
/// the first scaling node (*, <<, /, %, &, ^) that has a source origin.
/// Nodes without an origin are the model's own element-size scaling; the walk
/// passes through them unless the operand below is already contiguous, in
/// which case the scaling itself (an array-of-structures stride) is the cause.
///   offset = ((bid*256 + tid) * 32) * 4   -> `(bid*256 + tid) * 32`
///   offset = (bid*256 + tid) * 12 + 4     -> the *12 (struct size)
/// Returns null when no lane-varying term exists.
LaneExpr spreadingTerm(const LaneExpr &offset, const Context &ctx,
                       const Shape &shape);

/// The first warp request of an access in the representative environment:
/// each lane's byte offset and the lanes active. active == 0: none issued.
struct WarpRequest {
  Lanes addr{};
  LaneMask active = 0;
  int warp = -1;
};
/// With `wholeWarp`, the first request of a warp whose every lane is active
/// where there is one (in block 0, else in an inner block). With
/// `iteration`, at that iteration of the loops it names (AccessResult::
/// Iteration::at) rather than the first.
WarpRequest
firstRequest(const LaneExpr &offset, const LaneExpr &mask, const Context &ctx,
             const Shape &shape, bool wholeWarp = false,
             const std::vector<std::pair<int, int>> *iteration = nullptr);

/// The iteration an access's picture shows where its figures differ by
/// iteration (AccessResult::iterations, else loopIterations): the worst,
/// the first of equals; null where there are none or the first is as bad.
const AccessResult::Iteration *worstIterationToDraw(const AccessResult &r);

/// Does the prepared condition `e` (prepareConditions) take lanes past a
/// bounds guard's bound to run (`i >= n`, the else of `i < n`, a loop
/// `while ((i + 1) * 4 > n)`)? The model's figures then are a whole warp's,
/// an upper bound. Follows the loops it is inside (their conditions in
/// `ctx`, the prepared context).
bool assumesFarSide(const LaneExpr &e, const Context &ctx);

/// Where the GPU runs what lanes past a bound run (--explain draws that warp
/// rather than a whole one): the conditions of `mask`, and `loop`'s own with
/// `loop` >= 0 (the lanes that enter it), evaluated as written. At the
/// representative (or the project's) values, the first warp, blocks counted
/// along x, with a lane there; where there is none in the grid, warp 0 of
/// block 0 with the one unknown the conditions read set so that the bound
/// falls inside it. Empty where neither finds one, or where the conditions
/// read data.
struct Crossing {
  Env env; // the block, and the unknowns' values, to draw with
  int warp = -1;
  /// The values the bound was evaluated at: "'n' = 65535 (the launch at
  /// k.cu:9)", "'n' taken as 1024".
  std::string values;
  bool moved = false; // an unknown set so that the bound falls in warp 0
};
std::optional<Crossing> crossingWarp(const LaneExpr &mask, int loop,
                                     const Context &ctx, const Shape &shape);

/// What makes `e` differ between lanes: "threadIdx.x", loop variables whose
/// value is lane-dependent, values loaded per lane. In first-use order.
std::vector<std::string> laneSources(const LaneExpr &e, const Context &ctx);

/// How a figure that depends on one unknown does, as a user reads it:
///   condition: "for cols >= 8" — the least sampled value from which every
///     larger sample has the representative figure (empty when every sample
///     has it, or when the result depends on several unknowns);
///   stride: "4*cols bytes" — the lane stride as a*v+b when every sample
///     agrees with one such line (empty otherwise);
///   assumption: what the verdict rests on: "assuming 'cols' >= 32 (a size)"
///     or "'cols' = 1024 at the launch in main.cu:52".
struct Dependence {
  std::string condition, stride, assumption;
  bool known = false; // some unknown has values the project shows
};
Dependence describeDependence(const AccessResult &r, const Context &ctx);

/// "0..31", "0..15", "0, 2, 4, ..., 30", "0, 5, 9": lanes of a mask.
std::string laneList(LaneMask m);

} // namespace warplint

#endif
