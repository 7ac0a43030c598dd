#include "Sampling.h"

#include <algorithm>

namespace warplint {

// Values an unknown uniform takes when the model checks whether a result
// depends on it: small and large, odd and even, powers of two and not.
static const int64_t Samples[] = {1,  2,  3,  4,  5,   7,   8,    16,
                                  31, 32, 33, 64, 100, 128, 1000, 1024};
constexpr int NumSamples = sizeof(Samples) / sizeof(Samples[0]);
// 32 samples cover every alignment of a 32-byte sector for elements >= 1 byte
// and every bank of a 32-bank shared memory.
constexpr int NumEnumerated = 32;

Env representativeEnv(const Context &ctx) {
  Env env;
  env.unknowns.assign(ctx.atoms.size(), 1024);
  env.loopIter.assign(ctx.loops.size(), 0);
  return env;
}

std::vector<Env> unknownAssignments(const Context &ctx, const Props &p) {
  std::vector<Env> out{representativeEnv(ctx)};
  if (p.unknowns.empty() && !p.usesGridDim)
    return out;
  for (int m = 0; m < NumSamples; ++m) {
    Env env = representativeEnv(ctx);
    for (size_t i = 0; i < p.unknowns.size(); ++i)
      env.unknowns[p.unknowns[i]] = Samples[(m + 7 * i) % NumSamples];
    for (int d = 0; d < 3; ++d)
      env.gridDim[d] = Samples[(m + 3 + 5 * d) % NumSamples];
    out.push_back(env);
  }
  return out;
}

std::vector<Env> enumeratedEnvs(const Context &ctx, const Props &p,
                                const Env &base) {
  if (!p.usesBlockIdx && p.loops.empty())
    return {base};
  // Loops that share an iteration count (several induction variables of one
  // loop) are sampled through their primary loop.
  std::vector<int> primaries;
  for (int l : p.loops) {
    int primary = ctx.loops[l].iterOf < 0 ? l : ctx.loops[l].iterOf;
    if (!std::count(primaries.begin(), primaries.end(), primary))
      primaries.push_back(primary);
  }
  std::vector<Env> envs;
  for (int e = 0; e < NumEnumerated; ++e) {
    Env env = base;
    env.blockIdx[0] = e;
    env.blockIdx[1] = (5 * e + 1) % NumEnumerated;
    env.blockIdx[2] = (3 * e + 2) % NumEnumerated;
    // Odd multipliers permute 0..31, so each loop alone sees every iteration.
    for (size_t i = 0; i < primaries.size(); ++i)
      env.loopIter[primaries[i]] = int((e * (2 * i + 1)) % NumEnumerated);
    envs.push_back(env);
  }
  return envs;
}

Props unionProps(const Context &ctx, const std::vector<LaneExpr> &exprs) {
  Props all;
  for (const LaneExpr &e : exprs) {
    if (!e)
      continue;
    Props p = props(e, ctx);
    all.laneVarying |= p.laneVarying;
    all.hasUnknown |= p.hasUnknown;
    all.hasData |= p.hasData;
    all.usesBlockIdx |= p.usesBlockIdx;
    all.usesGridDim |= p.usesGridDim;
    for (int u : p.unknowns)
      if (!std::count(all.unknowns.begin(), all.unknowns.end(), u))
        all.unknowns.push_back(u);
    for (int l : p.loops)
      if (!std::count(all.loops.begin(), all.loops.end(), l))
        all.loops.push_back(l);
  }
  std::sort(all.unknowns.begin(), all.unknowns.end());
  std::sort(all.loops.begin(), all.loops.end());
  return all;
}

} // namespace warplint
