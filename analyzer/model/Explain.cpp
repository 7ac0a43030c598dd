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
                         const Context &ctx, const Shape &shape,
                         bool wholeWarp) {
  PreparedConditions p = prepareConditions(ctx, mask);
  Env env = representativeEnv(ctx);
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
