//===- Sampling.h - the environments the model evaluates --------*- C++ -*-===//
//
// Blocks and loop iterations are averaged over, as the hardware does; uniform
// unknowns (kernel parameters, gridDim) are sampled to find out whether a
// result depends on them. Shared by the memory and branch models.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_SAMPLING_H
#define WARPLINT_MODEL_SAMPLING_H

#include "Eval.h"

#include <vector>

namespace warplint {

/// Block 0, first iteration, unknowns at 1024.
Env representativeEnv(const Context &ctx);

/// The representative assignment, then (if `p` depends on any uniform
/// unknown or gridDim) one assignment per sample value, each unknown cycling
/// through 1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 64, 100, 128, 1000, 1024.
std::vector<Env> unknownAssignments(const Context &ctx, const Props &p);

/// 32 environments over blockIdx and the iterations of the loops `p` uses
/// (each loop alone sees iterations 0..31), or just `base` if it uses neither.
std::vector<Env> enumeratedEnvs(const Context &ctx, const Props &p,
                                const Env &base);

/// Props of several expressions together.
Props unionProps(const Context &ctx, const std::vector<LaneExpr> &exprs);

} // namespace warplint

#endif
