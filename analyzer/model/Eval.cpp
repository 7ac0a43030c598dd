#include "Eval.h"

#include <algorithm>

namespace warplint {

int Context::addAtom(std::string name, AtomKind kind, std::string why) {
  Atom a{std::move(name), kind};
  if (!why.empty())
    a.why = std::move(why);
  atoms.push_back(std::move(a));
  return int(atoms.size()) - 1;
}

int Context::addLoop(Loop loop) {
  loops.push_back(std::move(loop));
  return int(loops.size()) - 1;
}

static void insertSorted(std::vector<int> &v, int x) {
  auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it == v.end() || *it != x)
    v.insert(it, x);
}

static void collect(const LaneExpr &e, const Context &ctx, Props &p,
                    std::vector<int> &visiting) {
  if (!e)
    return;
  switch (e->op) {
  case Op::ThreadIdx:
    p.laneVarying = true;
    return;
  case Op::BlockIdx:
    p.usesBlockIdx = true;
    return;
  case Op::GridDim:
    p.usesGridDim = p.hasUnknown = true;
    return;
  case Op::Unknown:
    p.hasUnknown = true;
    if (ctx.atoms[e->value].kind == AtomKind::Data)
      p.hasData = p.laneVarying = true;
    else
      insertSorted(p.unknowns, int(e->value));
    return;
  case Op::Data:
    p.hasData = p.laneVarying = true;
    return;
  case Op::LoopVar:
  case Op::LoopActive: {
    int id = int(e->value);
    insertSorted(p.loops, id);
    if (std::find(visiting.begin(), visiting.end(), id) != visiting.end())
      return;
    visiting.push_back(id);
    const Loop &l = ctx.loops[id];
    if (l.iterOf >= 0)
      insertSorted(p.loops, l.iterOf);
    collect(l.init, ctx, p, visiting);
    collect(l.next, ctx, p, visiting);
    if (e->op == Op::LoopActive)
      collect(l.cond, ctx, p, visiting);
    visiting.pop_back();
    return;
  }
  default:
    collect(e->a, ctx, p, visiting);
    collect(e->b, ctx, p, visiting);
    collect(e->c, ctx, p, visiting);
  }
}

Props props(const LaneExpr &e, const Context &ctx) {
  Props p;
  std::vector<int> visiting;
  collect(e, ctx, p, visiting);
  return p;
}

WarpEval::WarpEval(const Context &ctx, const Shape &shape, const Env &env,
                   int warp)
    : Ctx(ctx), Sh(shape), En(env), LoopCache(ctx.loops.size()),
      Override(ctx.loops.size()), ActiveCache(ctx.loops.size()),
      HasCache(ctx.loops.size()), HasOverride(ctx.loops.size()),
      HasActive(ctx.loops.size()) {
  for (int l = 0; l < WarpSize; ++l) {
    int64_t linear = int64_t(warp) * WarpSize + l;
    if (linear < shape.threads())
      Present |= 1u << l;
    Tid[0][l] = linear % shape.x;
    Tid[1][l] = (linear / shape.x) % shape.y;
    Tid[2][l] = linear / (shape.x * shape.y);
  }
}

static Lanes splat(int64_t v) {
  Lanes r;
  r.fill(v);
  return r;
}

const Lanes &WarpEval::loopValue(int loop) {
  if (HasOverride[loop])
    return Override[loop];
  if (HasCache[loop])
    return LoopCache[loop];
  const Loop &l = Ctx.loops[loop];
  int src = l.iterOf < 0 ? loop : l.iterOf;
  int iter = src < int(En.loopIter.size()) ? En.loopIter[src] : 0;
  Lanes v = value(l.init);
  for (int i = 0; i < iter; ++i) {
    Override[loop] = v;
    HasOverride[loop] = 1;
    v = value(l.next);
    HasOverride[loop] = 0;
  }
  HasCache[loop] = 1;
  return LoopCache[loop] = v;
}

LaneMask WarpEval::loopActive(int loop) {
  if (HasActive[loop])
    return ActiveCache[loop];
  const Loop &l = Ctx.loops[loop];
  int iter = loop < int(En.loopIter.size()) ? En.loopIter[loop] : 0;
  LaneMask active = AllLanes;
  if (l.cond) {
    // Lanes enter iteration `iter` if the condition held before each of the
    // iterations so far (for a do-while, after each body before it).
    Lanes v = value(l.init);
    int first = l.testAfterBody ? 1 : 0;
    for (int i = 0; i <= iter && active; ++i) {
      if (i >= first) {
        Override[loop] = v;
        HasOverride[loop] = 1;
        active &= cond(l.cond, true);
        HasOverride[loop] = 0;
      }
      if (i < iter) {
        Override[loop] = v;
        HasOverride[loop] = 1;
        v = value(l.next);
        HasOverride[loop] = 0;
      }
    }
  }
  HasActive[loop] = 1;
  return ActiveCache[loop] = active;
}

std::vector<LaneMask> WarpEval::loopActiveSequence(int loop, int maxIter) {
  std::vector<LaneMask> out;
  const Loop &l = Ctx.loops[loop];
  LaneMask active = AllLanes;
  Lanes v = value(l.init);
  for (int i = 0; i < maxIter && active; ++i) {
    Override[loop] = v;
    HasOverride[loop] = 1;
    if (l.cond && i >= (l.testAfterBody ? 1 : 0))
      active &= cond(l.cond, true);
    out.push_back(active);
    v = value(l.next);
    HasOverride[loop] = 0;
  }
  return out;
}

Lanes WarpEval::value(const LaneExpr &e) {
  switch (e->op) {
  case Op::Const:
    return splat(e->value);
  case Op::ThreadIdx:
    return Tid[e->value];
  case Op::BlockIdx:
    return splat(En.blockIdx[e->value]);
  case Op::BlockDim:
    return splat(e->value == 0 ? Sh.x : e->value == 1 ? Sh.y : Sh.z);
  case Op::GridDim:
    return splat(En.gridDim[e->value]);
  case Op::Unknown:
  case Op::Data:
    // Data atoms have no value; callers check Props::hasData first. A fixed
    // value keeps the evaluation total.
    return splat(size_t(e->value) < En.unknowns.size() ? En.unknowns[e->value]
                                                       : 1024);
  case Op::LoopVar:
    return loopValue(int(e->value));
  case Op::LoopActive: {
    LaneMask m = loopActive(int(e->value));
    Lanes r;
    for (int l = 0; l < WarpSize; ++l)
      r[l] = (m >> l) & 1;
    return r;
  }
  case Op::Assumed:
    return splat(1);
  case Op::Select: {
    Lanes c = value(e->a), t = value(e->b), f = value(e->c);
    for (int l = 0; l < WarpSize; ++l)
      t[l] = c[l] ? t[l] : f[l];
    return t;
  }
  case Op::Neg:
  case Op::Not:
  case Op::LNot: {
    Lanes a = value(e->a);
    for (auto &x : a)
      x = e->op == Op::Neg ? -x : e->op == Op::Not ? ~x : !x;
    return a;
  }
  default:
    break;
  }
  Lanes a = value(e->a), b = value(e->b);
  for (int l = 0; l < WarpSize; ++l) {
    int64_t x = a[l], y = b[l], &r = a[l];
    switch (e->op) {
    case Op::Add: r = x + y; break;
    case Op::Sub: r = x - y; break;
    case Op::Mul: r = x * y; break;
    case Op::Div:
    case Op::Rem:
      if (y == 0) {
        undefined = true;
        r = 0;
      } else {
        r = e->op == Op::Div ? x / y : x % y;
      }
      break;
    case Op::Shl:
    case Op::Shr:
      if (y < 0 || y > 62) {
        undefined = true;
        r = 0;
      } else {
        r = e->op == Op::Shl ? x << y : x >> y;
      }
      break;
    case Op::And: r = x & y; break;
    case Op::Or: r = x | y; break;
    case Op::Xor: r = x ^ y; break;
    case Op::Min: r = std::min(x, y); break;
    case Op::Max: r = std::max(x, y); break;
    case Op::Lt: r = x < y; break;
    case Op::Le: r = x <= y; break;
    case Op::Gt: r = x > y; break;
    case Op::Ge: r = x >= y; break;
    case Op::Eq: r = x == y; break;
    case Op::Ne: r = x != y; break;
    case Op::LAnd: r = x && y; break;
    case Op::LOr: r = x || y; break;
    default: r = 0; break;
    }
  }
  return a;
}

LaneMask WarpEval::mask(const LaneExpr &c) {
  return c ? cond(c, true) & Present : Present;
}

// Is `e` a condition the model must assume rather than evaluate?
static bool isGuard(const LaneExpr &e, const Context &ctx) {
  Props p = props(e, ctx);
  if (!p.hasUnknown)
    return false;
  if (!p.laneVarying)
    return true; // uniform condition on unknowns: selects whole warps
  if (!isComparison(e->op))
    return false;
  // A lane-varying value against an unknown bound: `i < n`, `row*w + c >= n`.
  Props a = props(e->a, ctx), b = props(e->b, ctx);
  return (!a.laneVarying && a.hasUnknown) || (!b.laneVarying && b.hasUnknown);
}

static LaneExpr prepare(const LaneExpr &e, const Context &ctx, bool &guard,
                        bool &data) {
  if (!e)
    return e;
  switch (e->op) {
  case Op::LNot:
    return un(Op::LNot, prepare(e->a, ctx, guard, data));
  case Op::LAnd:
  case Op::LOr:
    return bin(e->op, prepare(e->a, ctx, guard, data),
               prepare(e->b, ctx, guard, data));
  case Op::LoopActive:
  case Op::Assumed:
    return e;
  default:
    break;
  }
  if (props(e, ctx).hasData) {
    data = true;
    return assumed(1);
  }
  if (isGuard(e, ctx)) {
    guard = true;
    return assumed(0);
  }
  return e;
}

PreparedConditions prepareConditions(const Context &ctx,
                                     const LaneExpr &mask) {
  PreparedConditions p;
  p.ctx = ctx;
  for (Loop &l : p.ctx.loops)
    l.cond = prepare(l.cond, ctx, p.guard, p.data);
  p.mask = prepare(mask, ctx, p.guard, p.data);
  return p;
}

LaneMask WarpEval::cond(const LaneExpr &e, bool positive) {
  switch (e->op) {
  case Op::LNot:
    return cond(e->a, !positive);
  case Op::LAnd:
  case Op::LOr: {
    LaneMask x = cond(e->a, positive), y = cond(e->b, positive);
    bool conj = (e->op == Op::LAnd) == positive;
    return conj ? (x & y) : (x | y);
  }
  case Op::LoopActive: {
    LaneMask m = loopActive(int(e->value));
    return positive ? m : ~m;
  }
  case Op::Assumed:
    (e->value ? usedDataCondition : assumedGuard) = true;
    return AllLanes;
  default:
    break;
  }
  Lanes v = value(e);
  LaneMask m = 0;
  for (int l = 0; l < WarpSize; ++l)
    if ((v[l] != 0) == positive)
      m |= 1u << l;
  return m;
}

} // namespace warplint
