#include "model/Explain.h"
#include "model/Sampling.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace warplint {

static Lanes warp0(const LaneExpr &e, const Context &ctx, const Shape &shape) {
  Env env = representativeEnv(ctx);
  WarpEval ev(ctx, shape, env, 0);
  return ev.value(e);
}

int64_t adjacentDistance(const LaneExpr &e, const Context &ctx,
                         const Shape &shape) {
  if (shape.threads() < 2)
    return 0;
  Lanes v = warp0(e, ctx, shape);
  return wrapSub(v[1], v[0]);
}

// |x| without overflow (for INT64_MIN too).
static uint64_t magnitude(int64_t x) {
  return x < 0 ? 0 - uint64_t(x) : uint64_t(x);
}

static bool varies(const LaneExpr &e, const Context &ctx, const Shape &shape) {
  if (!e)
    return false;
  Lanes v = warp0(e, ctx, shape);
  int n = int(std::min<int64_t>(WarpSize, shape.threads()));
  for (int l = 1; l < n; ++l)
    if (v[l] != v[0])
      return true;
  return false;
}

LaneExpr spreadingTerm(const LaneExpr &e, const Context &ctx,
                       const Shape &shape) {
  if (!e || !varies(e, ctx, shape))
    return nullptr;
  bool a = varies(e->a, ctx, shape), b = varies(e->b, ctx, shape);
  switch (e->op) {
  case Op::Add:
  case Op::Sub: {
    if (a != b)
      return spreadingTerm(a ? e->a : e->b, ctx, shape);
    // Both vary (x*1024 + y with 16x16 blocks): follow the one that sets the
    // distance between lanes 0 and 1.
    Lanes va = warp0(e->a, ctx, shape), vb = warp0(e->b, ctx, shape);
    uint64_t da = magnitude(wrapSub(va[1], va[0])),
             db = magnitude(wrapSub(vb[1], vb[0]));
    if (da != db)
      return spreadingTerm(da > db ? e->a : e->b, ctx, shape);
    return e;
  }
  case Op::Mul:
  case Op::Shl: {
    if (e->origin >= 0 || a == b)
      return e;
    const LaneExpr &inner = a ? e->a : e->b;
    int64_t d = adjacentDistance(inner, ctx, shape);
    if (d == 1 || d == -1)
      return e; // contiguous index scaled by a struct or row size
    return spreadingTerm(inner, ctx, shape);
  }
  default:
    return e;
  }
}

WarpRequest firstRequest(const LaneExpr &offset, const LaneExpr &mask,
                         const Context &ctx, const Shape &shape, bool wholeWarp,
                         const std::vector<std::pair<int, int>> *iteration) {
  PreparedConditions p = prepareConditions(ctx, mask);
  Env env = representativeEnv(ctx);
  if (iteration)
    for (const auto &[loop, k] : *iteration)
      if (size_t(loop) < env.loopIter.size())
        env.loopIter[size_t(loop)] = k;
  WarpRequest r;
  // Block 0, then for a whole warp an inner block (block 0's warps may all
  // be at a boundary).
  for (int64_t b = 0; b < (wholeWarp ? 2 : 1); ++b) {
    for (int d = 0; d < 3; ++d)
      env.blockIdx[d] = std::min(b, env.gridDim[d] - 1);
    for (int w = 0; w < shape.warps(); ++w) {
      WarpEval ev(p.ctx, shape, env, w);
      LaneMask m = ev.mask(p.mask);
      if (!m || (r.active && m != ev.present()))
        continue;
      r.addr = ev.value(offset);
      r.active = m;
      r.warp = w;
      if (!wholeWarp || m == ev.present())
        return r;
    }
  }
  return r;
}

const AccessResult::Iteration *worstIterationToDraw(const AccessResult &r) {
  const auto &its = r.iterations.empty() ? r.loopIterations : r.iterations;
  const AccessResult::Iteration *worst = AccessResult::worstIteration(its);
  if (!worst || worst == &its.front() || worst->at.empty())
    return nullptr;
  return worst;
}

static bool farSide(const LaneExpr &e, bool positive, const Context &ctx,
                    std::vector<char> &seen) {
  if (!e)
    return false;
  switch (e->op) {
  case Op::LNot:
    return farSide(e->a, !positive, ctx, seen);
  case Op::LAnd:
  case Op::LOr:
    return farSide(e->a, positive, ctx, seen) ||
           farSide(e->b, positive, ctx, seen);
  case Op::Assumed:
    return (e->value == AssumedPastBound && positive) ||
           (e->value == AssumedWithinBound && !positive);
  case Op::LoopActive: {
    // Inside a loop that runs while its lanes are past a bound (each loop
    // looked into once).
    const size_t l = size_t(e->value);
    if (l >= ctx.loops.size() || seen[l])
      return false;
    seen[l] = 1;
    return farSide(ctx.loops[l].cond, positive, ctx, seen);
  }
  default:
    return false;
  }
}

bool assumesFarSide(const LaneExpr &e, const Context &ctx) {
  std::vector<char> seen(ctx.loops.size(), 0);
  return farSide(e, true, ctx, seen);
}

std::optional<Crossing> crossingWarp(const LaneExpr &mask, int loop,
                                     const Context &ctx, const Shape &shape) {
  const LaneExpr loopCond = loop >= 0 ? ctx.loops[size_t(loop)].cond : nullptr;
  if (readsData(mask, ctx) || readsData(loopCond, ctx) || shape.warps() < 1)
    return std::nullopt;
  Crossing c;
  c.env = representativeEnv(ctx);
  // The lanes of warp `w` that reach it and, for a loop, enter it: the
  // conditions as written (WarpEval::mask).
  auto lanes = [&](int w, LaneMask &reach) {
    WarpEval ev(ctx, shape, c.env, w);
    reach = (mask ? ev.mask(mask) : AllLanes) & ev.present();
    LaneMask in = reach;
    if (loop >= 0 && reach) {
      std::vector<LaneMask> seq = ev.loopActiveSequence(loop, 1);
      in = seq.empty() ? 0 : seq[0] & reach;
    }
    if (ev.undefined)
      reach = in = 0;
    return in;
  };
  auto reached = [&](int64_t b) {
    c.env.blockIdx[0] = b;
    for (int w = 0; w < shape.warps(); ++w) {
      LaneMask reach = 0;
      lanes(w, reach);
      if (reach)
        return true;
    }
    return false;
  };
  // The first block with a lane past the bound (the far side of a guard on
  // a growing index: every later block is past it too), probed at 0, 1, 2,
  // 4, ... and then halved down to.
  const int64_t blocks = std::max<int64_t>(1, c.env.gridDim[0]);
  std::vector<int64_t> probes;
  for (int64_t b = 0; b < blocks; b = b ? 2 * b : 1)
    probes.push_back(b);
  if (probes.back() != blocks - 1)
    probes.push_back(blocks - 1);
  int64_t lo = -1, hi = -1;
  for (size_t i = 0; i < probes.size() && hi < 0; ++i)
    (reached(probes[i]) ? hi : lo) = probes[i];
  while (hi >= 0 && hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    (reached(mid) ? hi : lo) = mid;
  }
  for (int64_t b = hi; b >= 0 && b <= hi + 1 && b < blocks && c.warp < 0; ++b) {
    c.env.blockIdx[0] = b;
    for (int w = 0; w < shape.warps() && c.warp < 0; ++w) {
      LaneMask reach;
      if (lanes(w, reach))
        c.warp = w;
    }
  }
  Props p = unionProps(ctx, {mask, loopCond});
  if (c.warp < 0) {
    // None in the grid at these values: a bound past every lane of a block
    // (`threadIdx.x >= n` at n = 1024). With one unknown the project does
    // not give, it is set so that warp 0 of block 0 crosses the bound: the
    // value, within the range over which the lanes change, where about half
    // the lanes that reach it run it (or enter the loop).
    std::vector<int> free;
    for (int u : p.unknowns)
      if (ctx.atoms[size_t(u)].known.empty())
        free.push_back(u);
    if (free.size() != 1)
      return std::nullopt;
    const size_t u = size_t(free[0]);
    c.env.blockIdx[0] = 0;
    const int present =
        __builtin_popcount(WarpEval(ctx, shape, c.env, 0).present());
    auto at = [&](int64_t v, int &reachCount) {
      c.env.unknowns.set(u, v);
      LaneMask reach;
      int in = __builtin_popcount(lanes(0, reach));
      reachCount = __builtin_popcount(reach);
      return in;
    };
    std::vector<int64_t> tries{0};
    for (int k = 0; k <= 30; ++k)
      tries.push_back(int64_t(1) << k);
    std::vector<int> sig;
    for (int64_t v : tries) {
      int r, in = at(v, r);
      sig.push_back(r + in * 64);
    }
    size_t a = 0, e = tries.size() - 1;
    while (a + 1 < tries.size() && sig[a + 1] == sig[0])
      ++a;
    while (e > 0 && sig[e - 1] == sig.back())
      --e;
    if (a >= e)
      return std::nullopt;
    const int64_t from = tries[a], to = tries[e];
    const int64_t step = std::max<int64_t>(1, (to - from) / 1024);
    int64_t best = -1;
    int bestScore = 1 << 30;
    for (int64_t v = from; v <= to; v += step) {
      int r, in = at(v, r);
      if (in == 0 || (in == present && r == present))
        continue;
      int score = std::abs(2 * in - present) * 64 + std::abs(2 * r - present);
      if (score < bestScore)
        best = v, bestScore = score;
    }
    if (best < 0)
      return std::nullopt;
    c.env.unknowns.set(u, best);
    c.warp = 0;
    c.moved = true;
  }
  for (int u : p.unknowns) {
    const Atom &a = ctx.atoms[size_t(u)];
    int64_t v = c.env.unknowns[size_t(u)];
    c.values += (c.values.empty() ? "'" : ", '") + a.name + "' " +
                (!a.known.empty()
                     ? "= " + std::to_string(v) +
                           (a.knownFrom.empty() ? "" : " (" + a.knownFrom + ")")
                 : c.moved ? "set to " + std::to_string(v)
                           : "taken as " + std::to_string(v));
  }
  if (p.usesGridDim && ctx.grid[0] <= 0)
    c.values += std::string(c.values.empty() ? "" : ", ") +
                "gridDim.x taken as " + std::to_string(c.env.gridDim[0]);
  return c;
}

std::vector<std::string> laneSources(const LaneExpr &e, const Context &ctx) {
  std::vector<std::string> out;
  auto add = [&](const std::string &s) {
    if (std::find(out.begin(), out.end(), s) == out.end())
      out.push_back(s);
  };
  static const char *const dims[] = {"x", "y", "z"};
  visitWithLoops(e, ctx, [&](const Node &n) {
    switch (n.op) {
    case Op::ThreadIdx:
      add(std::string("threadIdx.") + dims[n.value]);
      return false;
    case Op::Data:
    case Op::Unknown:
      if (ctx.atoms[n.value].kind == AtomKind::Data)
        add(ctx.atoms[n.value].name);
      return false;
    case Op::LoopVar:
      if (props(loopVar(int(n.value)), ctx).laneVarying)
        add(ctx.loops[n.value].var);
      return true;
    default:
      return true;
    }
  });
  return out;
}

static std::string plainRangeOf(const Atom &a) {
  if (!a.known.empty()) {
    std::string v;
    for (int64_t x : a.known)
      v += (v.empty() ? "" : ", ") + std::to_string(x);
    return "'" + a.name + "' = " + v +
           (a.knownFrom.empty() ? "" : " (" + a.knownFrom + ")");
  }
  switch (a.role) {
  case AtomRole::Size: return "'" + a.name + "' >= 32";
  case AtomRole::Shift: return "'" + a.name + "' in 0..31";
  case AtomRole::Log2Size: return "'" + a.name + "' in 5..20";
  case AtomRole::Offset: return "'" + a.name + "' at any alignment";
  }
  return "";
}

/// The range, and the parameters the launches relate to an unknown one.
static std::string rangeOf(const Atom &a) {
  std::string r = plainRangeOf(a);
  if (!a.related.empty() && a.known.empty())
    r += " (with " + a.related + ")";
  return r;
}

Dependence describeDependence(const AccessResult &r, const Context &ctx) {
  Dependence d;
  if (r.dependsOn.empty())
    return d;
  std::string names;
  for (size_t i = 0; i < r.dependsOn.size(); ++i) {
    const Atom &a = ctx.atoms[r.dependsOn[i]];
    names += (i ? ", " : "") + rangeOf(a);
  }
  bool anyKnown = false, allKnown = true;
  for (int u : r.dependsOn) {
    anyKnown |= !ctx.atoms[u].known.empty();
    allKnown &= !ctx.atoms[u].known.empty();
  }
  d.known = anyKnown;
  d.assumption = allKnown ? names
                 : anyKnown ? "with " + names
                            : "assuming " + names;
  if (r.dependsOn.size() != 1 || r.samples.empty() || r.exact)
    return d;
  const std::string &name = ctx.atoms[r.dependsOn[0]].name;
  // The block shape in use only: its samples span the unknown's range.
  std::vector<const AccessResult::Sample *> byValue;
  for (const auto &s : r.samples)
    if (s.shape == 0)
      byValue.push_back(&s);
  if (byValue.empty())
    return d;
  std::sort(byValue.begin(), byValue.end(), [](auto *x, auto *y) {
    return x->value < y->value;
  });
  // From the top down: the least value from which every sample has the
  // representative figure (the one the message quotes).
  double figure = r.actual;
  size_t from = byValue.size();
  while (from > 0 && std::abs(byValue[from - 1]->actual - figure) < 1e-9)
    --from;
  if (from < byValue.size() && from > 0)
    d.condition = "for " + name + " >= " + std::to_string(byValue[from]->value);
  // Stride as a*v + b through two samples of distinct value, checked on all.
  const AccessResult::Sample *p = nullptr, *q = nullptr;
  for (auto *s : byValue) {
    if (!s->stride)
      return d;
    if (!p)
      p = s;
    else if (s->value != p->value && !q)
      q = s;
  }
  if (!p || !q)
    return d;
  // A shift amount: stride = a << v.
  if (!sampledAsSize(ctx.atoms[r.dependsOn[0]].role)) {
    bool pow2 = true;
    int64_t a = 0;
    for (auto *s : byValue) {
      int64_t v = s->value;
      if (v < 0 || v > 40 || *s->stride % (int64_t(1) << v) != 0) {
        pow2 = false;
        break;
      }
      int64_t k = *s->stride >> v;
      if (a && k != a)
        pow2 = false;
      a = k;
    }
    if (pow2 && a) {
      d.stride = (a == 1 ? "" : std::to_string(a) + "*") + "2^" + name + " bytes";
      return d;
    }
  }
  // In int64 without overflow: values or strides at the ends of the range
  // (a wrapped address, a huge known value) give no formula.
  int64_t dv, ds, av, b;
  if (__builtin_sub_overflow(q->value, p->value, &dv) ||
      __builtin_sub_overflow(*q->stride, *p->stride, &ds) ||
      (dv == -1 && ds == INT64_MIN) || ds % dv != 0)
    return d;
  int64_t a = ds / dv;
  if (__builtin_mul_overflow(a, p->value, &av) ||
      __builtin_sub_overflow(*p->stride, av, &b))
    return d;
  for (auto *s : byValue) {
    int64_t sv, t;
    if (__builtin_mul_overflow(a, s->value, &sv) ||
        __builtin_add_overflow(sv, b, &t) || *s->stride != t)
      return d;
  }
  if (a == 0)
    return d;
  std::string t = (a == 1 ? "" : a == -1 ? "-" : std::to_string(a) + "*") + name;
  if (b)
    t += (b > 0 ? "+" : "-") + std::to_string(magnitude(b));
  d.stride = t + " bytes";
  return d;
}

std::string laneList(LaneMask m) {
  std::vector<int> lanes;
  for (int l = 0; l < WarpSize; ++l)
    if ((m >> l) & 1)
      lanes.push_back(l);
  if (lanes.empty())
    return "none";
  if (lanes.size() == 1)
    return std::to_string(lanes[0]);
  int step = lanes[1] - lanes[0];
  bool arith = true;
  for (size_t i = 2; i < lanes.size(); ++i)
    arith &= lanes[i] - lanes[i - 1] == step;
  std::string first = std::to_string(lanes.front()),
              last = std::to_string(lanes.back());
  if (arith && step == 1)
    return first + ".." + last;
  if (arith && lanes.size() > 3)
    return first + ", " + std::to_string(lanes[1]) + ", " +
           std::to_string(lanes[2]) + ", ..., " + last;
  // Runs of consecutive lanes: "8..15, 24..31", "1..3, 5..7, 9..11, ...".
  std::vector<std::pair<int, int>> runs;
  for (int l : lanes) {
    if (!runs.empty() && runs.back().second == l - 1)
      runs.back().second = l;
    else
      runs.push_back({l, l});
  }
  auto text = [](const std::pair<int, int> &r) {
    return r.first == r.second ? std::to_string(r.first)
           : r.second == r.first + 1
               ? std::to_string(r.first) + ", " + std::to_string(r.second)
               : std::to_string(r.first) + ".." + std::to_string(r.second);
  };
  std::string s;
  size_t shown = runs.size() > 5 ? 3 : runs.size();
  for (size_t i = 0; i < shown; ++i)
    s += (i ? ", " : "") + text(runs[i]);
  if (shown < runs.size())
    s += ", ..., " + text(runs.back());
  return s;
}

} // namespace warplint
