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
/// where there is one (in block 0, else in an inner block).
WarpRequest firstRequest(const LaneExpr &offset, const LaneExpr &mask,
                         const Context &ctx, const Shape &shape,
                         bool wholeWarp = false);

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
