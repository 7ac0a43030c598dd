//===- MathCosts.h - what a call of a CUDA math function issues --*- C++ -*-===//
//
// The work estimate counts an expression's operations as one warp
// instruction each; a math library call is many: a double exp() is 49 warp
// instructions on an H200, a double pow() 189, a float sinf() 27, and under
// -use_fast_math sinf() is 2. Measured per function with Nsight Compute
// (bench-kernels/math-costs, scripts/math-costs.py writes the table).
// Clang-free.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_WALKER_MATHCOSTS_H
#define WARPLINT_FRONTEND_WALKER_MATHCOSTS_H

#include <optional>
#include <string_view>

namespace warplint {

/// Warp instructions one call of the CUDA math function `name` issues, as
/// nvcc builds it (with -use_fast_math where `fastMath`), or nothing for a
/// function the table does not hold. `name` is the callee's unqualified
/// name (std::exp is "exp"), libdevice's too (`__nv_expf`,
/// `__nv_fast_expf`); `floatResult` picks a C++ overload's float version
/// (exp(float) is expf).
std::optional<int> mathCallCost(std::string_view name, bool floatResult,
                                bool fastMath);

/// Warp instructions a floating-point division issues.
int divisionCost(bool isDouble, bool fastMath);

} // namespace warplint

#endif
