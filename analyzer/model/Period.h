//===- Period.h - how an access repeats along a 1-D launch's warps -*- C++ -*-===//
//
// Most addresses of a 1-D launch are a function of the global thread index
// T = blockIdx.x * blockDim.x + threadIdx.x and of values uniform across the
// grid: `in[T]`, `in[(T * 3 + s) % n]`, `tile[T % 1024]`. Such a function
// often repeats: f(T + Q) = f(T) + D for every T, with Q a small period and D
// a shift. Where the shift is a whole number of 128-byte rows, warp g + Q/32
// costs what warp g costs, so the model evaluates one period of warps and
// reuses each warp's figures for the warps a period further on. The period
// is derived from the expression, rule by rule (docs/model.md, "Warps that
// repeat"), never guessed from samples.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_PERIOD_H
#define WARPLINT_MODEL_PERIOD_H

#include "model/Eval.h"

#include <optional>

namespace warplint {

/// Along the global warps g of a 1-D launch (g = blockIdx.x * blockDim.x / 32
/// + warp): warp g + warps has the same active lanes as warp g, the same
/// evaluation flags, and each lane's address `shift` bytes (wrapping) further.
struct WarpPeriod {
  int64_t warps = 1;
  int64_t shift = 0;
  /// No warp's evaluation is undefined (WarpEval::undefined): no division
  /// or shift by a value that varies, none by zero or out of range.
  bool total = true;
};

/// Is `n` the global index along x, `blockIdx.x * blockDim.x + threadIdx.x`
/// (either operand order)?
bool isGlobalIndexX(const Node &n);

/// The period of `offset` under `mask` (null: every lane) for the warps of
/// blocks 0 .. blocks - 1 of `shape`, under `env`'s unknowns and grid, or
/// nothing where the rules cannot show one (the expression reads threadIdx.x
/// or blockIdx.x otherwise than through T, or a loop, data, another
/// dimension's block index, or divides by a value that may be zero). The
/// shape must be one-dimensional, a whole number of warps wide, and `env`
/// must draw no data (Env::dataSeed).
std::optional<WarpPeriod> warpPeriod(const LaneExpr &offset,
                                     const LaneExpr &mask, const Context &ctx,
                                     const Shape &shape, const Env &env,
                                     int64_t blocks);

} // namespace warplint

#endif
