#include "model/Sampling.h"

#include <algorithm>

namespace warplint {

// Values an unknown takes when the model checks whether a result depends on
// it: small and large, odd and even, powers of two and not; per role, then
// its realistic range alone (the values that decide warnings).
static const int64_t SizeSamples[] = {1,  2,  3,  4,  5,   7,   8,    16,
                                      31, 32, 33, 64, 100, 128, 1000, 1024};
static const int64_t SizeRealistic[] = {32, 33, 64, 100, 128, 1000, 1024, 4096};
static const int64_t ShiftSamples[] = {0, 1, 2,  3,  4,  5,  6,  7,
                                       8, 9, 10, 12, 16, 20, 24, 31};
static const int64_t ShiftRealistic[] = {0, 1, 2, 3, 5, 8, 16, 31};
static const int64_t Log2Realistic[] = {5, 6, 7, 8, 10, 12, 16, 20};
constexpr int NumSamples = 16, NumRealistic = 8;
// 32 samples cover every alignment of a 32-byte sector for elements >= 1 byte
// and every bank of a 32-bank shared memory.
constexpr int NumEnumerated = 32;

int64_t representativeValue(const Atom &a) {
  if (!a.known.empty())
    return a.known.front();
  // An offset of unknown alignment: odd, so no sector or bank boundary
  // lines up with it (1024 + 1).
  if (a.role == AtomRole::Offset)
    return 1025;
  if (a.role == AtomRole::Size && a.origin)
    return 0;
  return a.role == AtomRole::Size ? 1024 : 10;
}

bool isRealistic(const Atom &a, int64_t v) {
  if (!a.known.empty())
    return std::count(a.known.begin(), a.known.end(), v) > 0;
  switch (a.role) {
  case AtomRole::Size: return v >= 32;
  case AtomRole::Shift: return v >= 0 && v <= 31;
  case AtomRole::Log2Size: return v >= 5 && v <= 20;
  case AtomRole::Offset: return true;
  }
  return true;
}

static int64_t sample(const Atom &a, size_t i, bool realistic) {
  // (An unsigned index: with a signed one, GCC 12 under
  // -fsanitize=undefined -O2 computed every sample as the first.)
  if (!a.known.empty())
    return a.known[i % a.known.size()];
  if (realistic) {
    const int64_t *values = sampledAsSize(a.role)       ? SizeRealistic
                            : a.role == AtomRole::Shift ? ShiftRealistic
                                                        : Log2Realistic;
    return values[i % NumRealistic];
  }
  const int64_t *values = sampledAsSize(a.role) ? SizeSamples : ShiftSamples;
  return values[i % NumSamples];
}

std::shared_ptr<const std::vector<int64_t>>
Context::representativeValues() const {
  if (!RepValues || RepAtoms != atoms.size() || RepGeneration != generation) {
    auto values = std::make_shared<std::vector<int64_t>>(atoms.size());
    for (size_t i = 0; i < atoms.size(); ++i)
      (*values)[i] = representativeValue(atoms[i]);
    RepValues = std::move(values);
    RepAtoms = atoms.size();
    RepGeneration = generation;
  }
  return RepValues;
}

Env representativeEnv(const Context &ctx) {
  Env env;
  env.unknowns = UnknownValues(ctx.representativeValues());
  for (int d = 0; d < 3; ++d)
    if (ctx.grid[d] > 0)
      env.gridDim[d] = ctx.grid[d];
  env.loopIter.assign(ctx.loops.size(), 0);
  return env;
}

/// Samples of several unknowns never take one value together; one assignment
/// where the sizes do asks whether a difference of two (`last - first + 1`)
/// matters.
static void coincide(const Context &ctx, const Props &p, std::vector<Env> &out) {
  int sizes = 0;
  for (int u : p.unknowns)
    sizes += ctx.atoms[u].known.empty() && sampledAsSize(ctx.atoms[u].role);
  if (sizes < 2)
    return;
  Env env = out.front();
  env.realistic = false;
  for (int u : p.unknowns)
    if (ctx.atoms[u].known.empty() && sampledAsSize(ctx.atoms[u].role))
      env.unknowns.set(size_t(u), 1024);
  out.push_back(env);
}


std::vector<Env> unknownAssignments(const Context &ctx, const Props &p) {
  std::vector<Env> out{representativeEnv(ctx)};
  if (p.unknowns.empty() && !p.usesGridDim)
    return out;
  bool allKnown = !p.usesGridDim;
  for (int u : p.unknowns)
    allKnown &= !ctx.atoms[u].known.empty();
  // Every value over the whole range, then the realistic range alone (with
  // several unknowns, cycling them together through the whole range would
  // rarely put all of them in their realistic range at once).
  for (int pass = 0; pass < 2; ++pass) {
    bool realistic = pass == 1;
    if (realistic && !allKnown)
      coincide(ctx, p, out);
    int n = allKnown ? 0 : realistic ? NumRealistic : NumSamples;
    if (allKnown && pass == 0) {
      n = 1;
      for (int u : p.unknowns)
        n = std::max<int>(n, int(ctx.atoms[u].known.size()));
    }
    for (int m = 0; m < n; ++m) {
      Env env = out.front(); // a copy: cheaper than the atoms' values again
      env.realistic = true;
      env.realisticPass = realistic;
      for (size_t i = 0; i < p.unknowns.size(); ++i) {
        const Atom &a = ctx.atoms[p.unknowns[i]];
        int64_t v = sample(a, size_t(m) + (realistic ? 3 : 7) * i, realistic);
        env.unknowns.set(size_t(p.unknowns[i]), v);
        env.realistic &= isRealistic(a, v);
      }
      for (int d = 0; d < 3; ++d)
        if (ctx.grid[d] <= 0)
          env.gridDim[d] = SizeSamples[(m + 3 + 5 * d) % NumSamples];
      out.push_back(env);
    }
  }
  return out;
}

EnvEnumeration::EnvEnumeration(const Context &ctx, const Props &p) {
  active = p.usesBlockIdx || !p.loops.empty();
  for (int d = 0; d < 3; ++d)
    grid[d] = ctx.grid[d];
  // Loops that share an iteration count (several induction variables of one
  // loop) are sampled through their primary loop.
  for (int l : p.loops) {
    int primary = ctx.loops[l].iterOf < 0 ? l : ctx.loops[l].iterOf;
    if (!std::count(primaries.begin(), primaries.end(), primary))
      primaries.push_back(primary);
  }
}

int EnvEnumeration::size() const {
  return !active ? 1 : tuples.empty() ? NumEnumerated : count;
}

void EnvEnumeration::useTuples(std::vector<std::vector<int>> t) {
  if (!active || primaries.size() < 2 || t.empty() || t.size() > MaxTuples)
    return;
  for (const auto &x : t)
    if (x.size() != primaries.size())
      return;
  tuples = std::move(t);
  const int n = int(tuples.size());
  // Every tuple equally often, as many blocks as that leaves; or one
  // sample each of 32 tuples spread over them.
  count = n <= NumEnumerated ? n * (NumEnumerated / n) : NumEnumerated;
}

void EnvEnumeration::apply(Env &env, int e) const {
  if (!active)
    return;
  env.blockIdx[0] = e;
  env.blockIdx[1] = (5 * e + 1) % NumEnumerated;
  env.blockIdx[2] = (3 * e + 2) % NumEnumerated;
  // Within the grid where the launch gives an extent that divides the
  // samples (two blocks in z), each block as often as the others. Of a
  // grid that does not (12 blocks), the samples past its end stay there
  // and, as a bounds guard on the grid's threads leaves them no lane, each
  // block within counts once.
  for (int d = 0; d < 3; ++d) {
    if (grid[d] > 0 && grid[d] < NumEnumerated && NumEnumerated % grid[d] == 0)
      env.blockIdx[d] %= grid[d];
    // A grid the launch gives, of many blocks: the samples spread over it
    // (an odd stride keeps every residue modulo 32, so every alignment of a
    // block's offset, as blocks 0..31 did), so that what grows with the
    // block (a causal mask's rows) is seen across the grid, not at its
    // start.
    if (grid[d] >= 2 * NumEnumerated && grid[d] % NumEnumerated == 0) {
      int64_t stride = grid[d] / NumEnumerated + 1;
      if (stride % 2 == 0)
        ++stride;
      env.blockIdx[d] = (env.blockIdx[d] * stride) % grid[d];
    }
  }
  if (mirrored)
    for (int d = 0; d < 3; ++d)
      env.blockIdx[d] = std::max<int64_t>(0, env.gridDim[d] - 1 - env.blockIdx[d]);
  if (!tuples.empty()) {
    const size_t n = tuples.size();
    const std::vector<int> &t =
        n <= size_t(NumEnumerated) ? tuples[size_t(e) % n]
                                   : tuples[size_t(e) * n / NumEnumerated];
    for (size_t i = 0; i < primaries.size(); ++i)
      env.loopIter[primaries[i]] = t[i];
    return;
  }
  if (!fitted.empty()) {
    for (size_t i = 0; i < primaries.size(); ++i)
      env.loopIter[primaries[i]] = fitted[size_t(e)][i];
    return;
  }
  // Odd multipliers permute 0..31, so each loop alone sees every iteration.
  for (size_t i = 0; i < primaries.size(); ++i)
    env.loopIter[primaries[i]] = int((e * (2 * i + 1)) % NumEnumerated);
}

// For loops whose trip count depends on the block (a causal mask: `for
// (col = lane; col <= row; col += 32)`, `row` from blockIdx), per sample
// the iteration to take: the sample's own where its block runs that many,
// else that one modulo the block's trip count (warp 0's, outer loops at
// their fitted iteration). Sampled as enumerated, block e at iteration e,
// such a loop ran in block 0's sample alone, and its figure was block 0's
// (1 active lane of a causal row loop where most rows run 32). Empty where
// no loop's activity reads the block.
std::vector<std::vector<int>>
fittedIterations(const Context &ctx, const Shape &shape, const Env &base,
                 const EnvEnumeration &en) {
  const std::vector<int> &loops = en.loops();
  if (en.tupled() || en.size() <= 1)
    return {};
  bool byBlock = false;
  for (int l : loops)
    byBlock |= props(loopActive(l), ctx).usesBlockIdx;
  if (!byBlock)
    return {};
  std::vector<std::vector<int>> out(size_t(en.size()));
  for (int e = 0; e < en.size(); ++e) {
    Env env = base;
    en.apply(env, e);
    for (int l : loops) {
      WarpEval ev(ctx, shape, env, 0);
      int n = 0;
      for (LaneMask m : ev.loopActiveSequence(l, 33))
        n += m != 0;
      if (ev.undefined)
        return {};
      int &it = env.loopIter[size_t(l)];
      if (n >= 1 && n <= 32)
        it %= n;
      out[size_t(e)].push_back(it);
    }
  }
  return out;
}

std::vector<Env> enumeratedEnvs(const Context &ctx, const Props &p,
                                const Env &base) {
  EnvEnumeration en(ctx, p);
  std::vector<Env> envs(size_t(en.size()), base);
  for (int e = 0; e < en.size(); ++e)
    en.apply(envs[e], e);
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

namespace {
// Does every warp of every shape read `addr` at one address on all its
// present lanes?
bool uniformPerWarp(const LaneExpr &addr, const Context &ctx,
                    const std::vector<Shape> &shapes) {
  Props p = props(addr, ctx);
  if (p.hasData)
    return false;
  std::vector<Env> assignments = unknownAssignments(ctx, p);
  if (assignments.size() > 3)
    assignments.resize(3);
  EnvEnumeration en(ctx, p);
  for (const Shape &sh : shapes)
    for (const Env &base : assignments) {
      Env env = base;
      for (int w = 0; w < std::min(sh.warps(), 32); ++w)
        for (int e = 0; e < en.size(); ++e) {
          en.apply(env, e);
          WarpEval ev(ctx, sh, env, w);
          Lanes v = ev.value(addr);
          LaneMask present = ev.present();
          if (ev.undefined)
            return false;
          int first = present ? __builtin_ctz(present) : 0;
          for (int l = 0; l < WarpSize; ++l)
            if (((present >> l) & 1) && v[l] != v[first])
              return false;
        }
    }
  return true;
}

// Is Data atom `a` a term of the sum `e`, perhaps inside a constant factor
// (the element size: `(idx + lane) * 4`)?
bool addsUnscaled(const LaneExpr &e, int a, int depth) {
  if (!e || depth > 8)
    return false;
  for (const auto &[t, negated] : addends(e)) {
    if (!t)
      continue;
    if (t->op == Op::Data && t->value == a)
      return true;
    if (t->op == Op::Mul && t->b && t->b->op == Op::Const &&
        addsUnscaled(t->a, a, depth + 1))
      return true;
    if (t->op == Op::Mul && t->a && t->a->op == Op::Const &&
        addsUnscaled(t->b, a, depth + 1))
      return true;
  }
  return false;
}
} // namespace

DataMarks markWarpUniformData(Context &ctx, const std::vector<LaneExpr> &exprs,
                              const std::vector<Shape> &shapes) {
  DataMarks out;
  std::vector<int> candidates;
  for (const LaneExpr &e : exprs)
    visitWithLoops(e, ctx, [&](const Node &n) {
      if (n.op == Op::Data && size_t(n.value) < ctx.atoms.size() &&
          ctx.atoms[n.value].kind == AtomKind::Data &&
          ctx.atoms[n.value].loadAddress &&
          std::find(candidates.begin(), candidates.end(), int(n.value)) ==
              candidates.end())
        candidates.push_back(int(n.value));
      return true;
    });
  // (A flag, a bool the block shares, stays data: it is no size or offset,
  // and a condition on it is one on data, which neither value of it
  // decides.)
  for (int a : candidates)
    if (ctx.atoms[a].dataBits != 1 &&
        uniformPerWarp(ctx.atoms[a].loadAddress, ctx, shapes))
      out.atoms.push_back(a);
  // Their roles: an offset where an address adds the value as it is (its
  // alignment unknown), else a size.
  for (int a : out.atoms) {
    out.roles.push_back(ctx.atoms[a].role);
    ctx.atoms[a].kind = AtomKind::Uniform;
    ctx.atoms[a].role = AtomRole::Size;
    for (const LaneExpr &e : exprs)
      if (addsUnscaled(e, a, 0))
        ctx.atoms[a].role = AtomRole::Offset;
  }
  if (!out.atoms.empty())
    ++ctx.generation;
  return out;
}

void restoreData(Context &ctx, const DataMarks &marks) {
  for (size_t i = 0; i < marks.atoms.size(); ++i) {
    ctx.atoms[marks.atoms[i]].kind = AtomKind::Data;
    ctx.atoms[marks.atoms[i]].role = marks.roles[i];
  }
  if (!marks.atoms.empty())
    ++ctx.generation;
}

} // namespace warplint
