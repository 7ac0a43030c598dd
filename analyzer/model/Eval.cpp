#include "Eval.h"

#include <array>

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

namespace warplint {

int Context::addAtom(std::string name, AtomKind kind, std::string why) {
  Atom a;
  a.name = std::move(name);
  a.kind = kind;
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

void visitWithLoops(const LaneExpr &root, const Context &ctx,
                    const std::function<bool(const Node &)> &fn) {
  std::vector<char> loopSeen(ctx.loops.size());
  std::vector<LaneExpr> roots{root};
  auto visit = [&](const Node &n) {
    if (!fn(n))
      return false;
    if ((n.op == Op::LoopVar || n.op == Op::LoopActive) &&
        size_t(n.value) < loopSeen.size() && !loopSeen[n.value]) {
      loopSeen[n.value] = 1;
      const Loop &l = ctx.loops[n.value];
      for (const LaneExpr *x : {&l.init, &l.next, &l.cond})
        roots.push_back(*x);
      if (l.iterOf >= 0 && !loopSeen[l.iterOf]) {
        loopSeen[l.iterOf] = 1;
        const Loop &p = ctx.loops[l.iterOf];
        for (const LaneExpr *x : {&p.init, &p.next, &p.cond})
          roots.push_back(*x);
      }
    }
    return true;
  };
  // Loop parts are walked as further roots; a node shared between them is
  // visited once per root at most, which keeps this linear in practice.
  for (size_t i = 0; i < roots.size(); ++i)
    visitNodes(roots[i], visit);
}

void classifyAtoms(Context &ctx, const std::vector<LaneExpr> &exprs,
                   const std::vector<LaneExpr> &offsets) {
  std::vector<LaneExpr> roots = exprs;
  for (const Loop &l : ctx.loops)
    for (const LaneExpr *x : {&l.init, &l.next, &l.cond})
      roots.push_back(*x);
  for (const LaneExpr &r : roots)
    visitNodes(r, [&](const Node &n) {
      if ((n.op == Op::Shl || n.op == Op::Shr) && n.b &&
          n.b->op == Op::Unknown && size_t(n.b->value) < ctx.atoms.size()) {
        Atom &a = ctx.atoms[n.b->value];
        int64_t one = 0;
        bool log2 = n.op == Op::Shl && constValue(n.a, one) && one == 1;
        if (a.role == AtomRole::Size || (a.role == AtomRole::Log2Size && !log2))
          a.role = log2 ? AtomRole::Log2Size : AtomRole::Shift;
      }
      return true;
    });
  // Offsets: atoms that some lane-varying address adds, and that no
  // expression multiplies, divides, masks or shifts (sums and comparisons
  // keep a value an offset; anything else makes it a size or stride).
  std::vector<char> inAddress(ctx.atoms.size()), scaled(ctx.atoms.size());
  std::set<std::tuple<const Node *, bool, bool>> seen;
  std::function<void(const LaneExpr &, bool, bool)> walk =
      [&](const LaneExpr &e, bool keeps, bool address) {
        if (!e || !seen.insert({e.get(), keeps, address}).second)
          return;
        switch (e->op) {
        case Op::Unknown:
          if (size_t(e->value) < ctx.atoms.size()) {
            if (!keeps)
              scaled[e->value] = 1;
            else if (address)
              inAddress[e->value] = 1;
          }
          return;
        case Op::LoopVar:
        case Op::LoopActive:
          if (size_t(e->value) < ctx.loops.size()) {
            const Loop &l = ctx.loops[e->value];
            walk(l.init, keeps, address);
            walk(l.next, keeps, address);
            walk(l.cond, keeps, false);
          }
          return;
        case Op::Add: case Op::Sub: case Op::Neg: case Op::Min: case Op::Max:
        case Op::Select:
          break;
        case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq:
        case Op::Ne: case Op::LAnd: case Op::LOr: case Op::LNot:
        case Op::Assumed:
          address = false;
          break;
        case Op::Mul:
        case Op::Shl: {
          // Scaling by a constant (an element size) keeps an offset; a
          // constant shifted by the value does not.
          bool constB = e->b && e->b->op == Op::Const;
          bool constA = e->op == Op::Mul && e->a && e->a->op == Op::Const;
          keeps &= constA || constB;
          break;
        }
        default:
          keeps = false;
          break;
        }
        bool sel = e->op == Op::Select;
        walk(e->a, keeps, address && !sel);
        walk(e->b, keeps, address);
        walk(e->c, keeps, address);
      };
  for (const LaneExpr &r : offsets)
    if (r && props(r, ctx).laneVarying)
      walk(r, true, true);
  for (const LaneExpr &r : roots)
    walk(r, true, false);
  for (size_t i = 0; i < ctx.atoms.size(); ++i)
    if (inAddress[i] && !scaled[i] && ctx.atoms[i].role == AtomRole::Size)
      ctx.atoms[i].role = AtomRole::Offset;
}

Props props(const LaneExpr &e, const Context &ctx) {
  Props p;
  // A loop's condition counts only where the expression asks whether the
  // lane is still inside (LoopActive), not for its variable's value.
  std::vector<char> condWanted(ctx.loops.size());
  visitNodes(e, [&](const Node &n) {
    if (n.op == Op::LoopActive && size_t(n.value) < condWanted.size())
      condWanted[n.value] = 1;
    return true;
  });
  std::vector<char> loopSeen(ctx.loops.size());
  std::vector<LaneExpr> roots{e};
  auto visit = [&](const Node &n) {
    switch (n.op) {
    case Op::ThreadIdx:
      p.laneVarying = true;
      return false;
    case Op::BlockIdx:
      p.usesBlockIdx = true;
      return false;
    case Op::GridDim:
      // A grid the launch shows is a constant.
      if (size_t(n.value) >= 3 || ctx.grid[n.value] <= 0)
        p.usesGridDim = p.hasUnknown = true;
      return false;
    case Op::Data:
      // A load every warp reads from one address (markWarpUniformData())
      // is one unknown value per warp, as a uniform atom is.
      if (ctx.atoms[n.value].kind == AtomKind::Data) {
        p.hasData = p.laneVarying = true;
        return false;
      }
      [[fallthrough]];
    case Op::Unknown:
      p.hasUnknown = true;
      if (ctx.atoms[n.value].kind == AtomKind::Data)
        p.hasData = p.laneVarying = true;
      else
        insertSorted(p.unknowns, int(n.value));
      return false;
    case Op::TooDeep:
      p.hasData = p.laneVarying = true;
      return false;
    case Op::LaneRank:
      // Varies by lane; the mask it counts is the access's own (data
      // conditions in it are assumed, not data in the value).
      p.laneVarying = true;
      return false;
    case Op::LoopVar:
    case Op::LoopActive: {
      int id = int(n.value);
      insertSorted(p.loops, id);
      if (loopSeen[id])
        return false;
      loopSeen[id] = 1;
      const Loop &l = ctx.loops[id];
      if (l.iterOf >= 0)
        insertSorted(p.loops, l.iterOf);
      roots.push_back(l.init);
      roots.push_back(l.next);
      if (n.op == Op::LoopActive || condWanted[id])
        roots.push_back(l.cond);
      return false;
    }
    default:
      return true;
    }
  };
  for (size_t i = 0; i < roots.size(); ++i)
    visitNodes(roots[i], visit);
  return p;
}

std::vector<char> sequenceInvariantLoops(const Context &ctx) {
  std::vector<char> invariant(ctx.loops.size());
  for (size_t l = 0; l < ctx.loops.size(); ++l) {
    const Loop &loop = ctx.loops[l];
    Props p = props(loop.init, ctx), q = props(loop.next, ctx);
    // The update refers to the variable itself; any other loop disqualifies.
    bool otherLoop = false;
    for (int x : p.loops)
      otherLoop |= x != int(l);
    for (int x : q.loops)
      otherLoop |= x != int(l);
    invariant[l] = !p.usesBlockIdx && !q.usesBlockIdx && !otherLoop &&
                   loop.iterOf < 0;
    if (invariant[l] && loop.cond) {
      Props c = props(loop.cond, ctx);
      bool other = false;
      for (int x : c.loops)
        other |= x != int(l);
      if (!c.usesBlockIdx && !other)
        invariant[l] = 2;
    }
  }
  return invariant;
}

WarpEval::WarpEval(const Context &ctx, const Shape &shape, const Env &env,
                   int warp, LoopSequences *sequences)
    : Ctx(ctx), Sh(shape), En(env), Seq(sequences),
      SlotLoops() {
  // Thread coordinates of lane 0 by division, then stepped lane by lane
  // (a WarpEval is built for every warp of every sample).
  int64_t linear = int64_t(warp) * WarpSize;
  int64_t x = linear % shape.x, y = (linear / shape.x) % shape.y,
          z = linear / (shape.x * shape.y);
  for (int l = 0; l < WarpSize; ++l, ++linear) {
    if (linear < shape.threads())
      Present |= 1u << l;
    Tid[0][l] = x;
    Tid[1][l] = y;
    Tid[2][l] = z;
    if (++x == shape.x) {
      x = 0;
      if (++y == shape.y) {
        y = 0;
        ++z;
      }
    }
  }
}

static Lanes splat(int64_t v) {
  Lanes r;
  r.fill(v);
  return r;
}

WarpEval::LoopState &WarpEval::state(int loop) {
  for (size_t i = 0; i < SlotLoops.size(); ++i)
    if (SlotLoops[i] == loop)
      return States[i];
  SlotLoops.push_back(loop);
  States.emplace_back();
  return States.back();
}

// States may grow (and move) while a loop's init or update is evaluated, so
// they are looked up again after each evaluation.
const Lanes &WarpEval::loopValue(int loop) {
  if (state(loop).hasOverride)
    return state(loop).override;
  if (state(loop).hasCache)
    return state(loop).cache;
  const Loop &l = Ctx.loops[loop];
  int src = l.iterOf < 0 ? loop : l.iterOf;
  int iter = src < int(En.loopIter.size()) ? En.loopIter[src] : 0;
  if (Seq && Seq->invariant[loop]) {
    Lanes v = sharedValue(loop, size_t(iter));
    LoopState &st = state(loop);
    st.hasCache = true;
    st.cache = v;
    return st.cache;
  }
  Lanes v = value(l.init);
  for (int i = 0; i < iter; ++i) {
    state(loop).override = v;
    state(loop).hasOverride = true;
    ++Gen;
    v = value(l.next);
    state(loop).hasOverride = false;
    ++Gen;
  }
  LoopState &st = state(loop);
  st.hasCache = true;
  st.cache = v;
  return st.cache;
}

Lanes WarpEval::sharedValue(int loop, size_t i) {
  const Loop &l = Ctx.loops[loop];
  if (Seq->values[loop].empty())
    Seq->values[loop].push_back(value(l.init));
  while (Seq->values[loop].size() <= i) {
    state(loop).override = Seq->values[loop].back();
    state(loop).hasOverride = true;
    ++Gen;
    Lanes next = value(l.next);
    state(loop).hasOverride = false;
    ++Gen;
    Seq->values[loop].push_back(next);
  }
  return Seq->values[loop][i];
}

LaneMask WarpEval::loopActive(int loop) {
  if (state(loop).hasActive)
    return state(loop).active;
  if (Seq && Seq->invariant[loop] == 2 && Ctx.loops[loop].cond) {
    // Shared across environments: extend the sequence to this iteration.
    const Loop &l = Ctx.loops[loop];
    int iter = loop < int(En.loopIter.size()) ? En.loopIter[loop] : 0;
    int first = l.testAfterBody ? 1 : 0;
    while (int(Seq->active[loop].size()) <= iter) {
      size_t i = Seq->active[loop].size();
      LaneMask prev = i ? Seq->active[loop].back() : AllLanes;
      LaneMask now = prev;
      if (prev && int(i) >= first) {
        state(loop).override = sharedValue(loop, i);
        state(loop).hasOverride = true;
    ++Gen;
        now &= cond(l.cond, true);
        state(loop).hasOverride = false;
    ++Gen;
      }
      Seq->active[loop].push_back(now);
    }
    LoopState &st = state(loop);
    st.hasActive = true;
    st.active = Seq->active[loop][iter];
    return st.active;
  }
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
        state(loop).override = v;
        state(loop).hasOverride = true;
    ++Gen;
        active &= cond(l.cond, true);
        state(loop).hasOverride = false;
    ++Gen;
      }
      if (i < iter) {
        state(loop).override = v;
        state(loop).hasOverride = true;
    ++Gen;
        v = value(l.next);
        state(loop).hasOverride = false;
    ++Gen;
      }
    }
  }
  LoopState &st = state(loop);
  st.hasActive = true;
  st.active = active;
  return active;
}

std::vector<LaneMask> WarpEval::loopActiveSequence(int loop, int maxIter) {
  std::vector<LaneMask> out;
  const Loop &l = Ctx.loops[loop];
  LaneMask active = AllLanes;
  Lanes v = value(l.init);
  for (int i = 0; i < maxIter && active; ++i) {
    state(loop).override = v;
    state(loop).hasOverride = true;
    ++Gen;
    if (l.cond && i >= (l.testAfterBody ? 1 : 0))
      active &= cond(l.cond, true);
    out.push_back(active);
    v = value(l.next);
    state(loop).hasOverride = false;
    ++Gen;
  }
  return out;
}

// Shared nodes (more than one parent) are memoized: a chain of conditional
// updates evaluates each select once, not once per path. Values depend on
// the loop overrides in force, so the memo is keyed by their generation.
Lanes WarpEval::value(const LaneExpr &e) {
  if (e.use_count() <= 1 || e->depth < 3)
    return compute(e);
  MemoEntry *m = memoFind(e.get());
  if (m && m->gen == Gen)
    return m->value;
  uint64_t gen = Gen;
  Lanes v = compute(e);
  if (gen != Gen)
    return v;
  // compute() may have added entries: look again before adding one.
  if ((m = memoFind(e.get()))) {
    m->gen = gen;
    m->value = v;
    return v;
  }
  constexpr size_t Searched = 16;
  if (Memo.empty())
    Memo.reserve(Searched);
  Memo.push_back({e.get(), gen, v});
  if (Memo.size() > Searched) {
    if (MemoIndex.empty())
      for (size_t i = 0; i < Memo.size(); ++i)
        MemoIndex.emplace(Memo[i].node, i);
    else
      MemoIndex.emplace(e.get(), Memo.size() - 1);
  }
  return v;
}

WarpEval::MemoEntry *WarpEval::memoFind(const Node *n) {
  if (!MemoIndex.empty()) {
    auto it = MemoIndex.find(n);
    return it == MemoIndex.end() ? nullptr : &Memo[it->second];
  }
  for (MemoEntry &m : Memo)
    if (m.node == n)
      return &m;
  return nullptr;
}

static LaneExpr prepare(const LaneExpr &e, const Context &ctx, bool &guard,
                        bool &data);

Lanes WarpEval::compute(const LaneExpr &e) {
  switch (e->op) {
  case Op::TooDeep:
    undefined = true;
    return splat(0);
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
  case Op::LaneRank: {
    LaneMask m = Present;
    if (e->a) {
      bool guard = false, data = false;
      m &= mask(prepare(e->a, Ctx, guard, data));
    }
    Lanes r;
    int64_t below = 0;
    for (int l = 0; l < WarpSize; ++l) {
      r[l] = below;
      below += (m >> l) & 1;
    }
    return r;
  }
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
      x = e->op == Op::Neg ? wrapNeg(x) : e->op == Op::Not ? ~x : !x;
    return a;
  }
  default:
    break;
  }
  Lanes a = value(e->a), b = value(e->b);
  // One loop per operation (not a switch per lane), so that the compiler
  // vectorizes the common ones: this is the model's innermost loop.
#define WARPLINT_LANEWISE(EXPR)                                                \
  for (int l = 0; l < WarpSize; ++l) {                                         \
    int64_t x = a[l], y = b[l];                                                \
    a[l] = (EXPR);                                                             \
  }                                                                            \
  return a;
  switch (e->op) {
  case Op::Add: WARPLINT_LANEWISE(wrapAdd(x, y))
  case Op::Sub: WARPLINT_LANEWISE(wrapSub(x, y))
  case Op::Mul: WARPLINT_LANEWISE(wrapMul(x, y))
  case Op::And: WARPLINT_LANEWISE(x & y)
  case Op::Or: WARPLINT_LANEWISE(x | y)
  case Op::Xor: WARPLINT_LANEWISE(x ^ y)
  case Op::Min: WARPLINT_LANEWISE(std::min(x, y))
  case Op::Max: WARPLINT_LANEWISE(std::max(x, y))
  case Op::Lt: WARPLINT_LANEWISE(int64_t(x < y))
  case Op::Le: WARPLINT_LANEWISE(int64_t(x <= y))
  case Op::Gt: WARPLINT_LANEWISE(int64_t(x > y))
  case Op::Ge: WARPLINT_LANEWISE(int64_t(x >= y))
  case Op::Eq: WARPLINT_LANEWISE(int64_t(x == y))
  case Op::Ne: WARPLINT_LANEWISE(int64_t(x != y))
  case Op::LAnd: WARPLINT_LANEWISE(int64_t(x && y))
  case Op::LOr: WARPLINT_LANEWISE(int64_t(x || y))
  default:
    break;
  }
#undef WARPLINT_LANEWISE
  for (int l = 0; l < WarpSize; ++l) {
    int64_t x = a[l], y = b[l], &r = a[l];
    switch (e->op) {
    case Op::Div:
    case Op::Rem:
      if (y == 0) {
        undefined = true;
        r = 0;
      } else {
        r = e->op == Op::Div ? wrapDiv(x, y) : wrapRem(x, y);
      }
      break;
    case Op::Shl:
    case Op::Shr:
      if (y < 0 || y > 62) {
        undefined = true;
        r = 0;
      } else {
        r = e->op == Op::Shl ? wrapShl(x, y) : x >> y;
      }
      break;
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
  bool onData = false;
  visitNodes(e, [&](const Node &n) {
    if (n.op == Op::Unknown && size_t(n.value) < ctx.atoms.size() &&
        ctx.atoms[n.value].fromData)
      onData = true;
    return !onData;
  });
  if (onData || props(e, ctx).hasData) {
    data = true;
    return assumed(1);
  }
  if (isGuard(e, ctx)) {
    guard = true;
    return assumed(0);
  }
  return e;
}

namespace {
/// The prepared copies of the last few contexts, recognized by address,
/// sizes and loop conditions (nodes are hash-consed: equal conditions are
/// the same nodes).
struct PreparedLoops {
  const Context *original = nullptr;
  size_t atoms = 0;
  std::vector<const Node *> conds;
  std::shared_ptr<const Context> prepared; // null: nothing to prepare
  bool guard = false, data = false;
};

bool sameContext(const PreparedLoops &e, const Context &ctx) {
  if (e.original != &ctx || e.atoms != ctx.atoms.size() ||
      e.conds.size() != ctx.loops.size())
    return false;
  for (size_t i = 0; i < e.conds.size(); ++i)
    if (e.conds[i] != ctx.loops[i].cond.get())
      return false;
  return true;
}
} // namespace

PreparedConditions prepareConditions(const Context &ctx,
                                     const LaneExpr &mask) {
  static thread_local std::array<PreparedLoops, 4> cache;
  static thread_local size_t next = 0;
  const PreparedLoops *hit = nullptr;
  for (const PreparedLoops &e : cache)
    if (sameContext(e, ctx)) {
      hit = &e;
      break;
    }
  if (!hit) {
    PreparedLoops e;
    e.original = &ctx;
    e.atoms = ctx.atoms.size();
    std::vector<LaneExpr> conds;
    bool changed = false;
    for (const Loop &l : ctx.loops) {
      e.conds.push_back(l.cond.get());
      conds.push_back(prepare(l.cond, ctx, e.guard, e.data));
      changed |= conds.back() != l.cond;
    }
    if (changed) {
      auto copy = std::make_shared<Context>(ctx);
      for (size_t i = 0; i < conds.size(); ++i)
        copy->loops[i].cond = conds[i];
      e.prepared = std::move(copy);
    }
    cache[next] = std::move(e);
    hit = &cache[next];
    next = (next + 1) % cache.size();
  }
  bool guard = hit->guard, data = hit->data;
  LaneExpr m = prepare(mask, ctx, guard, data);
  std::shared_ptr<const Context> prepared = hit->prepared;
  const Context &use = prepared ? *prepared : ctx;
  return PreparedConditions{std::move(prepared), use, std::move(m), guard,
                            data};
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
