#include "model/Eval.h"

#include <atomic>

#include <array>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <unordered_map>

namespace warplint {

uint64_t newContextSerial() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

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

// Does `e` depend on loop `loop`'s variable or activity (directly, through
// another loop's parts, or through an induction variable that counts with
// it)?
static bool usesLoop(const LaneExpr &e, const Context &ctx, int loop) {
  if (!e)
    return false;
  bool found = false;
  visitWithLoops(e, ctx, [&](const Node &n) {
    if (found)
      return false;
    if ((n.op == Op::LoopVar || n.op == Op::LoopActive) &&
        (int(n.value) == loop ||
         (size_t(n.value) < ctx.loops.size() &&
          ctx.loops[n.value].iterOf == loop))) {
      found = true;
      return false;
    }
    return true;
  });
  return found;
}

static bool isVar(const LaneExpr &e, int loop) {
  return e->op == Op::LoopVar && int(e->value) == loop;
}

// The one operand of binary `e` that uses the loop, or null when both or
// neither do.
static const LaneExpr *operandUsing(const LaneExpr &e, const Context &ctx,
                                    int loop) {
  bool ua = usesLoop(e->a, ctx, loop), ub = usesLoop(e->b, ctx, loop);
  return ua == ub ? nullptr : ua ? &e->a : &e->b;
}

// A comparison operand monotone in the loop's variable: the variable under
// additions and subtractions of, minimums and maximums with, values that do
// not depend on the loop, and multiplications by constants. `path` gets the
// operations from the variable outwards.
static bool monotoneSide(const LaneExpr &e, const Context &ctx, int loop,
                         std::vector<Context::LoopForm::Step> &path) {
  if (isVar(e, loop))
    return true;
  switch (e->op) {
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Min:
  case Op::Max: {
    const LaneExpr *with = operandUsing(e, ctx, loop);
    if (!with)
      return false;
    const LaneExpr &other = with == &e->a ? e->b : e->a;
    if (e->op == Op::Mul && other->op != Op::Const)
      return false;
    if (!monotoneSide(*with, ctx, loop, path))
      return false;
    path.push_back({e->op, other});
    return true;
  }
  default:
    return false;
  }
}

// A loop condition whose lanes, once out, stay out: a conjunction of
// comparisons monotone in the variable and of conditions free of the loop.
static bool monotoneCond(const LaneExpr &e, const Context &ctx, int loop,
                         Context::LoopForm &form) {
  if (!usesLoop(e, ctx, loop))
    return true;
  switch (e->op) {
  case Op::LAnd:
    return monotoneCond(e->a, ctx, loop, form) &&
           monotoneCond(e->b, ctx, loop, form);
  case Op::Lt:
  case Op::Le:
  case Op::Gt:
  case Op::Ge: {
    const LaneExpr *with = operandUsing(e, ctx, loop);
    std::vector<Context::LoopForm::Step> path;
    if (!with || !monotoneSide(*with, ctx, loop, path))
      return false;
    form.sides.push_back(std::move(path));
    return true;
  }
  default:
    return false;
  }
}

void Context::markFinalOverBudget(int loop) const {
  loopForm(loop);
  LoopForms[size_t(loop)].finalOverBudget = true;
}

const Context::LoopForm &Context::loopForm(int loop) const {
  if (LoopForms.size() < loops.size())
    LoopForms.resize(loops.size());
  const Loop &l = loops[size_t(loop)];
  LoopForm &f = LoopForms[size_t(loop)];
  if (f.next == l.next && f.cond == l.cond && (f.next || f.cond))
    return f;
  f = LoopForm();
  f.next = l.next;
  f.cond = l.cond;
  const LaneExpr &n = l.next;
  // A second variable of another loop's iterations (`pos -= blockDim.x`
  // beside `j`) has the form too where its step uses neither loop.
  auto free = [&](const LaneExpr &x) {
    return !usesLoop(x, *this, loop) &&
           (l.iterOf < 0 || !usesLoop(x, *this, l.iterOf));
  };
  if (n && (n->op == Op::Add || n->op == Op::Sub)) {
    if (isVar(n->a, loop) && free(n->b)) {
      f.step = n->b;
      f.negative = n->op == Op::Sub;
    } else if (n->op == Op::Add && isVar(n->b, loop) && free(n->a)) {
      f.step = n->a;
    }
  }
  f.nextFree = n && !usesLoop(n, *this, loop);
  f.condFree = l.cond && !usesLoop(l.cond, *this, loop);
  if (f.step && l.cond) {
    f.monotone = monotoneCond(l.cond, *this, loop, f);
    if (!f.monotone)
      f.sides.clear();
  }
  return f;
}

// The signed terms of `e` as a sum, products of sums multiplied out
// (`(tid + 1) * size` is tid * size + size), without origins, so that equal
// terms of two expressions are one node.
static void expandTerms(const LaneExpr &e, bool negative, OriginFreeMemo &memo,
                        std::vector<std::pair<LaneExpr, bool>> &out) {
  constexpr size_t MaxTerms = 64;
  if (out.size() >= MaxTerms) {
    out.push_back({withoutOrigins(e, memo), negative});
    return;
  }
  switch (e->op) {
  case Op::Add:
  case Op::Sub:
    expandTerms(e->a, negative, memo, out);
    expandTerms(e->b, e->op == Op::Sub ? !negative : negative, memo, out);
    return;
  case Op::Neg:
    expandTerms(e->a, !negative, memo, out);
    return;
  case Op::Mul: {
    std::vector<std::pair<LaneExpr, bool>> a, b;
    expandTerms(e->a, false, memo, a);
    expandTerms(e->b, false, memo, b);
    if (a.size() * b.size() <= 16 && (a.size() > 1 || b.size() > 1)) {
      for (const auto &[x, nx] : a)
        for (const auto &[y, ny] : b)
          out.push_back({bin(Op::Mul, x, y), negative != (nx != ny)});
      return;
    }
    break;
  }
  default:
    break;
  }
  out.push_back({withoutOrigins(e, memo), negative});
}

bool exitsTogether(const Context &ctx, int loop) {
  const Loop &l = ctx.loops[size_t(loop)];
  if (!l.cond || l.iterOf >= 0)
    return false;
  const Context::LoopForm &form = ctx.loopForm(loop);
  if (!form.step || !form.monotone || props(form.step, ctx).laneVarying)
    return false;
  OriginFreeMemo memo;
  // v + rest < bound with v = init + k * step: a lane's distance to the
  // bound at iteration k is init + rest - bound + k * step, equal across
  // lanes where the terms that vary by lane cancel.
  std::function<bool(const LaneExpr &)> together = [&](const LaneExpr &e) {
    if (!usesLoop(e, ctx, loop))
      return !props(e, ctx).laneVarying;
    if (e->op == Op::LAnd)
      return together(e->a) && together(e->b);
    if (e->op != Op::Lt && e->op != Op::Le && e->op != Op::Gt &&
        e->op != Op::Ge)
      return false;
    const LaneExpr *with = operandUsing(e, ctx, loop);
    if (!with)
      return false;
    const LaneExpr &bound = with == &e->a ? e->b : e->a;
    // Terms of (v + rest) - bound, v replaced by init.
    std::vector<std::pair<LaneExpr, bool>> terms;
    expandTerms(*with, false, memo, terms);
    bool var = false;
    for (auto &[t, negative] : terms) {
      if (!var && !negative && isVar(t, loop)) {
        var = true;
        t = nullptr;
      } else if (usesLoop(t, ctx, loop)) {
        return false;
      }
    }
    if (!var)
      return false;
    expandTerms(bound, true, memo, terms);
    expandTerms(l.init, false, memo, terms);
    std::map<const Node *, int> count;
    for (const auto &[t, negative] : terms)
      if (t)
        count[t.get()] += negative ? -1 : 1;
    for (const auto &[t, negative] : terms)
      if (t && count[t.get()] != 0 && props(t, ctx).laneVarying)
        return false;
    return true;
  };
  return together(l.cond);
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
    if ((n.op == Op::LoopVar || n.op == Op::LoopActive ||
         n.op == Op::LoopFinal) &&
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

LaneVariation warpVaryingSources(const LaneExpr &e, const Context &ctx) {
  LaneVariation src;
  if (!e)
    return src;
  visitWithLoops(e, ctx, [&](const Node &n) {
    if (n.op == Op::ThreadIdx && n.value >= 0 && n.value < 3)
      src.thread[n.value] = true;
    src.other |= n.op == Op::LaneRank || n.op == Op::TooDeep ||
                 (n.op == Op::Data && size_t(n.value) < ctx.atoms.size() &&
                  ctx.atoms[n.value].kind == AtomKind::Data);
    return true;
  });
  return src;
}

bool uniformInWarps(const LaneVariation &src, const Shape &shape) {
  return !src.other && (!src.thread[0] || shape.x == 1) &&
         (!src.thread[1] || shape.y == 1 || shape.x % WarpSize == 0) &&
         (!src.thread[2] || shape.z == 1 ||
          (int64_t(shape.x) * shape.y) % WarpSize == 0);
}

void classifyAtoms(Context &ctx, const std::vector<LaneExpr> &exprs,
                   const std::vector<LaneExpr> &offsets) {
  std::vector<LaneExpr> roots = exprs;
  for (const Loop &l : ctx.loops)
    for (const LaneExpr *x : {&l.init, &l.next, &l.cond})
      roots.push_back(*x);
  // The atom a shift amount is, or is a constant away from (`1 << (log2n -
  // 1)`, `x << (s + 1)`): -1 if none.
  auto shiftAtom = [&](const LaneExpr &b) -> int64_t {
    if (!b)
      return -1;
    const LaneExpr *u = &b;
    int64_t c = 0;
    if ((b->op == Op::Add || b->op == Op::Sub) && b->a && b->b) {
      if (b->b->op == Op::Const)
        u = &b->a;
      else if (b->op == Op::Add && constValue(b->a, c))
        u = &b->b;
    }
    return (*u)->op == Op::Unknown && size_t((*u)->value) < ctx.atoms.size()
               ? (*u)->value
               : -1;
  };
  for (const LaneExpr &r : roots)
    visitNodes(r, [&](const Node &n) {
      int64_t amount = n.op == Op::Shl || n.op == Op::Shr ? shiftAtom(n.b) : -1;
      if (amount >= 0) {
        Atom &a = ctx.atoms[size_t(amount)];
        int64_t one = 0;
        bool log2 = n.op == Op::Shl && constValue(n.a, one) && one == 1;
        // (`1 << s` anywhere makes s a log2 size, which may also shift an
        // index: `blockIdx.x << log2N` is blockIdx.x * N.)
        if (log2 && (a.role == AtomRole::Size || a.role == AtomRole::Shift))
          a.role = AtomRole::Log2Size;
        else if (!log2 && a.role == AtomRole::Size)
          a.role = AtomRole::Shift;
      }
      // Data shifted right by a constant: its high bits are read.
      if (int64_t k = 0; n.op == Op::Shr && constValue(n.b, k) && k > 0)
        visitNodes(n.a, [&](const Node &d) {
          if (d.op == Op::Data && size_t(d.value) < ctx.atoms.size())
            ctx.atoms[size_t(d.value)].wholeBits = true;
          return true;
        });
      // `hi - lo` of two unknowns: `lo` is where a range starts.
      if (n.op == Op::Sub && n.a && n.a->op == Op::Unknown && n.b &&
          n.b->op == Op::Unknown && n.a->value != n.b->value &&
          size_t(n.b->value) < ctx.atoms.size())
        ctx.atoms[n.b->value].origin = true;
      return true;
    });
  // Offsets: atoms that some lane-varying address adds, and that no
  // expression multiplies, divides, masks or shifts (sums and comparisons
  // keep a value an offset; anything else makes it a size or stride).
  std::vector<char> inAddress(ctx.atoms.size()), scaled(ctx.atoms.size()),
      bounds(ctx.atoms.size());
  // An atom a lane-varying value is compared below (`i < n`, `n > i`, `i
  // <= n - 1`): a count of elements, so a size, even where an address adds
  // it scaled only by a constant (`states[n * STATE_m + i]`).
  auto upper = [&](const LaneExpr &lo, const LaneExpr &hi) {
    if (!lo || !hi || !props(lo, ctx).laneVarying)
      return;
    const LaneExpr *u = &hi;
    int64_t c = 0;
    if (((*u)->op == Op::Add || (*u)->op == Op::Sub) && constValue((*u)->b, c))
      u = &(*u)->a;
    if ((*u)->op == Op::Unknown && size_t((*u)->value) < ctx.atoms.size())
      bounds[(*u)->value] = 1;
  };
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
        case Op::LoopFinal:
          if (size_t(e->value) < ctx.loops.size()) {
            const Loop &l = ctx.loops[e->value];
            walk(l.init, keeps, address);
            walk(l.next, keeps, address);
            walk(l.cond, keeps, false);
            // A value after the loop also depends on when the loop whose
            // iterations it counts with ends.
            if (e->op == Op::LoopFinal && l.iterOf >= 0) {
              const Loop &p = ctx.loops[l.iterOf];
              walk(p.init, keeps, false);
              walk(p.next, keeps, false);
              walk(p.cond, keeps, false);
            }
          }
          return;
        case Op::Add: case Op::Sub: case Op::Neg: case Op::Min: case Op::Max:
        case Op::Select:
          break;
        case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
          if (e->op == Op::Lt || e->op == Op::Le)
            upper(e->a, e->b);
          else
            upper(e->b, e->a);
          address = false;
          break;
        case Op::Eq:
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
    if (inAddress[i] && !scaled[i] && !bounds[i] &&
        ctx.atoms[i].role == AtomRole::Size)
      ctx.atoms[i].role = AtomRole::Offset;
  ++ctx.generation; // roles changed
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
  // Loops a LoopFinal reads: their parts count for what the value depends
  // on, but the expression is not evaluated per iteration of them.
  std::vector<char> finalOnly(ctx.loops.size());
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
    case Op::LoopFinal: {
      int id = int(n.value);
      const Loop &l = ctx.loops[id];
      int primary = l.iterOf >= 0 ? l.iterOf : id;
      finalOnly[id] = finalOnly[primary] = 1;
      for (int x : {id, primary})
        if (!loopSeen[x]) {
          loopSeen[x] = 1;
          roots.push_back(ctx.loops[x].init);
          roots.push_back(ctx.loops[x].next);
        }
      roots.push_back(ctx.loops[primary].cond);
      return false;
    }
    case Op::LoopVar:
    case Op::LoopActive: {
      int id = int(n.value);
      if (!finalOnly[id])
        insertSorted(p.loops, id);
      if (loopSeen[id])
        return false;
      loopSeen[id] = 1;
      const Loop &l = ctx.loops[id];
      if (l.iterOf >= 0 && !finalOnly[id])
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
    : Ctx(ctx), Sh(shape), En(env), Warp(warp), Seq(sequences),
      SlotLoops() {
  // Thread coordinates of lane 0 by division, then stepped lane by lane
  // (a WarpEval is built for every warp of every sample).
  int64_t linear = int64_t(warp) * WarpSize;
  int64_t x = linear % shape.x, y = (linear / shape.x) % shape.y,
          z = linear / (shape.x * shape.y);
  if (x + WarpSize <= shape.x && linear + WarpSize <= shape.threads()) {
    // The whole warp within one row of the block (blocks 32 wide or more).
    for (int l = 0; l < WarpSize; ++l) {
      Tid[0][l] = x + l;
      Tid[1][l] = y;
      Tid[2][l] = z;
    }
    Present = AllLanes;
    return;
  }
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

// SplitMix64's finalizer: a well-mixed 64-bit value of a 64-bit key.
static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

Lanes WarpEval::drawData(int atom) {
  // A datum whose address is built from the datum itself: never followed.
  if (std::find(Drawing.begin(), Drawing.end(), atom) != Drawing.end()) {
    stop(EvalStop::DataCycle);
    return splat(0);
  }
  Drawing.push_back(atom);
  ++Draws;
  Lanes r = drawDataOf(atom);
  --Draws;
  Drawing.pop_back();
  return r;
}

Lanes WarpEval::drawDataOf(int atom) {
  const Atom &at = Ctx.atoms[atom];
  // Values an index plausibly takes: 0..1023, as many as the
  // representative size of an unknown (docs/model.md: an index below the
  // sizes it is compared with), or its type's range when that is narrower.
  // A value whose high bits an expression reads (`(w >> 8) & 0xff`) takes
  // its type's whole range.
  const bool narrow = at.dataBits > 0 && at.dataBits < 10;
  const bool whole = at.wholeBits && at.dataBits >= 10;
  const int bits = narrow  ? at.dataBits
                   : whole ? std::min(at.dataBits, 62)
                           : DataIndexBits;
  const bool sign = narrow && at.dataSigned;
  const uint64_t span = uint64_t(1) << bits;
  auto draw = [&](uint64_t key) {
    int64_t v = int64_t(mix(key) % span);
    return sign ? v - int64_t(span / 2) : v;
  };
  Lanes r;
  const uint64_t seed = mix(En.dataSeed);
  // Deeper than MaxDataNesting loads inside one another (a chain
  // `x = a[x + 1]; x = a[x + 2]; ...`), the address is not followed: each
  // access of such a chain would evaluate the whole chain before it, and the
  // chain's cost would grow with its length squared. The value is drawn
  // per lane, as a datum each lane computed.
  const bool follow = at.loadAddress && Draws <= MaxDataNesting;
  if (En.dataAgree) {
    // One value for the whole warp: the one its first present lane draws.
    int first = Present ? __builtin_ctz(Present) : 0;
    Lanes a = follow ? value(at.loadAddress) : Lanes{};
    const uint64_t from = at.loadBase ? at.loadBase : uint64_t(atom) + 1;
    int64_t v = follow
                    ? draw(seed ^ mix(from ^ mix(uint64_t(a[first]))))
                    : draw(mix(seed ^ mix(uint64_t(atom) + 1)) ^
                           mix(uint64_t(Warp)));
    r.fill(v);
    return r;
  }
  if (follow) {
    // One value per element loaded: lanes reading one element agree.
    const uint64_t from = at.loadBase ? at.loadBase : uint64_t(atom) + 1;
    Lanes a = value(at.loadAddress);
    for (int l = 0; l < WarpSize; ++l)
      r[l] = draw(seed ^ mix(from ^ mix(uint64_t(a[l]))));
    return r;
  }
  // A value each lane computed for itself (a loop's exit): one per thread.
  uint64_t where = mix(seed ^ mix(uint64_t(atom) + 1));
  where = mix(where ^ uint64_t(En.blockIdx[0]) ^
              (uint64_t(En.blockIdx[1]) << 20) ^ (uint64_t(En.blockIdx[2]) << 40));
  for (int l = 0; l < WarpSize; ++l)
    r[l] = draw(where ^ mix(uint64_t(Warp) * WarpSize + uint64_t(l)));
  return r;
}

WarpEval::LoopState &WarpEval::state(int loop) {
  if (LastSlot < SlotLoops.size() && SlotLoops[LastSlot] == loop)
    return States[LastSlot];
  if (!SlotOf.empty()) {
    int slot = SlotOf[size_t(loop)];
    if (slot >= 0) {
      LastSlot = size_t(slot);
      return States[LastSlot];
    }
  } else {
    for (size_t i = 0; i < SlotLoops.size(); ++i)
      if (SlotLoops[i] == loop) {
        LastSlot = i;
        return States[i];
      }
  }
  if (SlotLoops.empty()) {
    SlotLoops.reserve(4);
    States.reserve(4);
  }
  SlotLoops.push_back(loop);
  States.emplace_back();
  LastSlot = States.size() - 1;
  // Past a few loops in use (an access deep in a nest of them), a search
  // per lookup would make each lookup cost the nest's depth: an index by
  // loop id from then on.
  if (!SlotOf.empty()) {
    SlotOf[size_t(loop)] = int(LastSlot);
  } else if (SlotLoops.size() > MaxSearchedSlots) {
    SlotOf.assign(Ctx.loops.size(), -1);
    States.reserve(Ctx.loops.size());
    for (size_t i = 0; i < SlotLoops.size(); ++i)
      SlotOf[size_t(SlotLoops[i])] = int(i);
  }
  return States.back();
}

std::string evalStopReason(EvalStop why) {
  switch (why) {
  case EvalStop::DataCycle:
    return "the address is loaded from data read at an address built from "
           "itself";
  case EvalStop::LoopCycle:
    return "the value is defined through a loop whose parts depend on the "
           "value itself";
  case EvalStop::Depth:
    return "depth limit (the value takes more than " +
           std::to_string(WarpEval::MaxEvalDepth) +
           " nested steps to evaluate: loops and loads built on one "
           "another)";
  case EvalStop::None:
    break;
  }
  return "";
}

void WarpEval::stop(EvalStop why) {
  if (stopped == EvalStop::None)
    stopped = why;
  undefined = true;
}

bool WarpEval::enter(int loop, int what) {
  LoopState &st = state(loop);
  if (st.from[what] >= 0) {
    // Back at a value still being computed: it depends on itself, through
    // a datum drawn since it began (its address built from it) or through
    // loops alone.
    stop(Draws > st.from[what] ? EvalStop::DataCycle : EvalStop::LoopCycle);
    return false;
  }
  st.from[what] = Draws;
  return true;
}

void WarpEval::leave(int loop, int what) { state(loop).from[what] = -1; }

// States may grow (and move) while a loop's init or update is evaluated, so
// they are looked up again after each evaluation.
const Lanes &WarpEval::loopValue(int loop) {
  if (state(loop).hasOverride)
    return state(loop).override;
  if (state(loop).hasCache)
    return state(loop).cache;
  static const Lanes zero{};
  if (stopped != EvalStop::None || !enter(loop, 0))
    return zero;
  Lanes v = loopValueOf(loop);
  leave(loop, 0);
  LoopState &st = state(loop);
  st.hasCache = true;
  st.cache = v;
  return st.cache;
}

Lanes WarpEval::loopValueOf(int loop) {
  const Loop &l = Ctx.loops[loop];
  int src = l.iterOf < 0 ? loop : l.iterOf;
  int iter = src < int(En.loopIter.size()) ? En.loopIter[src] : 0;
  const Context::LoopForm &form = Ctx.loopForm(loop);
  // A stepped variable is computed in place (init + iter * step): cheaper
  // than reading back a value the shared sequence stored, which for a
  // nest of many loops falls out of the cache.
  if (Seq && Seq->invariant[loop] && !(form.step && iter > 1))
    return sharedValue(loop, size_t(iter));
  if (form.nextFree && iter > 0) {
    // Every iteration after the first has the update's value.
    return value(l.next);
  }
  Lanes v = value(l.init);
  if (form.step && iter > 1) {
    // init + iter * step, in the same wrapping arithmetic as the steps.
    Lanes s = value(form.step);
    for (int x = 0; x < WarpSize; ++x) {
      int64_t d = wrapMul(int64_t(iter), s[x]);
      v[x] = form.negative ? wrapSub(v[x], d) : wrapAdd(v[x], d);
    }
  } else {
    for (int i = 0; i < iter && stopped == EvalStop::None; ++i)
      v = nextAt(loop, v);
  }
  return v;
}

bool WarpEval::affineStart(int loop, int kmax, Lanes &v0, Lanes &step) {
  const Context::LoopForm &form = Ctx.loopForm(loop);
  if (!form.step || !form.monotone)
    return false;
  const Loop &l = Ctx.loops[loop];
  v0 = value(l.init);
  step = value(form.step);
  // The values from the first tested iteration to kmax, bounded in
  // doubles: they must stay well inside int64_t for the comparisons to be
  // monotone (and then the wrapping steps are exact too).
  double maxV0 = 0, maxStep = 0;
  for (int x = 0; x < WarpSize; ++x) {
    if (form.negative)
      step[x] = wrapNeg(step[x]);
    maxV0 = std::max(maxV0, std::abs(double(v0[x])));
    maxStep = std::max(maxStep, std::abs(double(step[x])));
  }
  const double limit = 0x1p61;
  double vmax = maxV0 + maxStep * kmax;
  if (!(vmax <= limit))
    return false;
  // Each comparison operand that uses the variable, bounded over that range.
  for (const auto &path : form.sides) {
    double b = vmax;
    for (const Context::LoopForm::Step &st : path) {
      double o = 0;
      if (st.other->op == Op::Const)
        o = std::abs(double(st.other->value));
      else
        for (int64_t x : value(st.other))
          o = std::max(o, std::abs(double(x)));
      b = st.op == Op::Mul                         ? b * o
          : st.op == Op::Add || st.op == Op::Sub ? b + o
                                                 : std::max(b, o);
      if (!(b <= limit))
        return false;
    }
  }
  return true;
}

static Lanes affineAt(const Lanes &v0, const Lanes &step, int k) {
  Lanes v;
  for (int x = 0; x < WarpSize; ++x)
    v[x] = v0[x] + step[x] * k;
  return v;
}

uint64_t WarpEval::setOverride(int loop, const Lanes &v) {
  LoopState &st = state(loop);
  // Overrides nest (a loop's activity asked while its update is evaluated
  // at another value): the one in force comes back when the inner one is
  // cleared, so the variable never reads as if no override were set.
  if (st.hasOverride)
    Shadowed.push_back(st.override);
  if (st.overrides++ == 0) {
    const uint32_t bit = loopBit(loop);
    ++OverCount[__builtin_ctz(bit)];
    OverBits |= bit;
  }
  st.override = v;
  st.hasOverride = true;
  uint64_t saved = Gen;
  Gen = ++LastGen;
  return saved;
}

void WarpEval::clearOverride(int loop, uint64_t saved) {
  LoopState &st = state(loop);
  if (--st.overrides > 0) {
    st.override = Shadowed.back();
    Shadowed.pop_back();
  } else {
    st.hasOverride = false;
    const uint32_t bit = loopBit(loop);
    if (--OverCount[__builtin_ctz(bit)] == 0)
      OverBits &= ~bit;
  }
  Gen = saved;
}

Lanes WarpEval::nextAt(int loop, const Lanes &v) {
  uint64_t saved = setOverride(loop, v);
  Lanes next = value(Ctx.loops[loop].next);
  clearOverride(loop, saved);
  return next;
}

LaneMask WarpEval::condAt(int loop, const Lanes &v) {
  uint64_t saved = setOverride(loop, v);
  LaneMask m = cond(Ctx.loops[loop].cond, true);
  clearOverride(loop, saved);
  return m;
}

bool WarpEval::affineExits(int loop, int maxIter, Lanes &exit) {
  const Loop &l = Ctx.loops[loop];
  const int first = l.testAfterBody ? 1 : 0;
  Lanes v0, step;
  if (!l.cond || maxIter <= first + 1 ||
      !affineStart(loop, maxIter - 1, v0, step))
    return false;
  // Monotone (Context::LoopForm): a lane is inside at iteration k >= first
  // while the condition holds at `first` and at k, so each lane has one
  // exit. Lanes may sit at different iterations in one evaluation: the
  // variable enters the condition only through lane-wise operations.
  const LaneMask in = condAt(loop, affineAt(v0, step, first));
  const LaneMask toEnd = condAt(loop, affineAt(v0, step, maxIter - 1)) & in;
  Lanes lo; // inside at lo, out at exit
  for (int x = 0; x < WarpSize; ++x) {
    lo[x] = first;
    exit[x] = !((in >> x) & 1)    ? first
              : (toEnd >> x) & 1 ? maxIter
                                 : maxIter - 1;
  }
  for (;;) {
    LaneMask open = 0;
    Lanes mid, v;
    for (int x = 0; x < WarpSize; ++x) {
      mid[x] = lo[x] + (exit[x] - lo[x]) / 2;
      if (mid[x] != lo[x])
        open |= LaneMask(1) << x;
      v[x] = v0[x] + step[x] * mid[x];
    }
    if (!open)
      return true;
    LaneMask m = condAt(loop, v);
    for (int x = 0; x < WarpSize; ++x)
      if ((open >> x) & 1)
        ((m >> x) & 1 ? lo[x] : exit[x]) = mid[x];
  }
}

int WarpEval::tripCount(int loop, int maxIter, LaneMask lanes) {
  Lanes exit;
  if (affineExits(loop, maxIter, exit)) {
    // Iterations in which one of `lanes` is inside: up to the last exit.
    int64_t n = Ctx.loops[loop].testAfterBody ? 1 : 0;
    for (int x = 0; x < WarpSize; ++x)
      if ((lanes >> x) & 1)
        n = std::max(n, exit[x]);
    return int(n);
  }
  int n = 0;
  for (LaneMask m : loopActiveSequence(loop, maxIter))
    n += (m & lanes) != 0;
  return n;
}

Lanes WarpEval::sharedValue(int loop, size_t i) {
  const Loop &l = Ctx.loops[loop];
  if (Seq->stopped != EvalStop::None)
    stop(Seq->stopped);
  if (stopped != EvalStop::None)
    return splat(0);
  if (Seq->values[loop].empty())
    Seq->values[loop].push_back(value(l.init));
  while (Seq->values[loop].size() <= i && stopped == EvalStop::None) {
    Lanes next = nextAt(loop, Seq->values[loop].back());
    Seq->values[loop].push_back(next);
  }
  if (stopped != EvalStop::None) {
    // What was appended is no value: no later evaluation may read it.
    Seq->stopped = stopped;
    return splat(0);
  }
  return Seq->values[loop][i];
}

LaneMask WarpEval::loopActive(int loop) {
  if (state(loop).hasActive)
    return state(loop).active;
  if (stopped != EvalStop::None || !enter(loop, 1))
    return 0;
  LaneMask active = loopActiveOf(loop);
  leave(loop, 1);
  LoopState &st = state(loop);
  st.hasActive = true;
  st.active = active;
  return active;
}

LaneMask WarpEval::loopActiveOf(int loop) {
  if (Seq && Seq->invariant[loop] == 2 && Ctx.loops[loop].cond) {
    // Shared across environments: extend the sequence to this iteration.
    if (Seq->stopped != EvalStop::None) {
      stop(Seq->stopped);
      return 0;
    }
    const Loop &l = Ctx.loops[loop];
    int iter = loop < int(En.loopIter.size()) ? En.loopIter[loop] : 0;
    int first = l.testAfterBody ? 1 : 0;
    while (int(Seq->active[loop].size()) <= iter &&
           stopped == EvalStop::None) {
      size_t i = Seq->active[loop].size();
      LaneMask prev = i ? Seq->active[loop].back() : AllLanes;
      LaneMask now = prev;
      if (prev && int(i) >= first)
        now &= condAt(loop, sharedValue(loop, i));
      Seq->active[loop].push_back(now);
    }
    if (stopped != EvalStop::None) {
      Seq->stopped = stopped;
      return 0;
    }
    return Seq->active[loop][iter];
  }
  const Loop &l = Ctx.loops[loop];
  int iter = loop < int(En.loopIter.size()) ? En.loopIter[loop] : 0;
  LaneMask active = AllLanes;
  const int firstTested = l.testAfterBody ? 1 : 0;
  Lanes v0, step;
  const Context::LoopForm &form = Ctx.loopForm(loop);
  if (l.cond && form.condFree && form.step) {
    // A condition that does not read the variable has one value at every
    // iteration: lanes are inside while it held at the first test. What
    // the stepped form below evaluates is evaluated too, for its flags (a
    // division by zero in the start or step, a guard assumed).
    value(l.init);
    if (iter >= 1)
      value(form.step);
    if (iter >= firstTested)
      active = cond(l.cond, true);
  } else if (l.cond && iter > firstTested + 1 &&
             affineStart(loop, iter, v0, step)) {
    // Monotone: inside at the first tested iteration and at this one.
    active = condAt(loop, affineAt(v0, step, firstTested)) &
             condAt(loop, affineAt(v0, step, iter));
  } else if (l.cond) {
    // Lanes enter iteration `iter` if the condition held before each of the
    // iterations so far (for a do-while, after each body before it).
    Lanes v = value(l.init);
    for (int i = 0; i <= iter && active; ++i) {
      if (i >= firstTested)
        active &= condAt(loop, v);
      // From the second iteration on the value no longer changes (an update
      // that does not read the variable): neither does the condition.
      if (form.nextFree && i >= std::max(1, firstTested))
        break;
      if (i < iter)
        v = nextAt(loop, v);
      if (stopped != EvalStop::None)
        break;
    }
  }
  return active;
}

Lanes WarpEval::loopFinal(int loop) {
  if (stopped != EvalStop::None || !enter(loop, 2))
    return splat(0);
  Lanes v = loopFinalOf(loop);
  leave(loop, 2);
  return v;
}

Lanes WarpEval::loopFinalOf(int loop) {
  const Loop &l = Ctx.loops[loop];
  const int primary = l.iterOf >= 0 ? l.iterOf : loop;
  const Loop &p = Ctx.loops[primary];
  if (!p.cond) {
    undefined = true;
    return splat(0);
  }
  const Context::LoopForm &form = Ctx.loopForm(loop);
  if (form.finalOverBudget) {
    undefined = loopUnended = true;
    return splat(0);
  }
  const int first = p.testAfterBody ? 1 : 0;
  Lanes exit, v0, step;
  // A variable that steps by a constant amount of its own: init + k * step
  // (loopForm() gives a second variable a step only where it is free of
  // the primary loop).
  bool linear = primary == loop || (form.step && l.init &&
                                    !usesLoop(l.init, Ctx, primary));
  if (linear && affineExits(primary, MaxAffineSteps, exit)) {
    // Monotone and affine: each lane's exit iteration, bisected.
    bool ok = true;
    if (primary == loop) {
      ok = affineStart(loop, MaxAffineSteps - 1, v0, step);
    } else {
      v0 = value(l.init);
      Lanes s = value(form.step);
      for (int x = 0; x < WarpSize; ++x)
        step[x] = form.negative ? wrapNeg(s[x]) : s[x];
    }
    if (ok) {
      Lanes out;
      for (int x = 0; x < WarpSize; ++x) {
        loopUnended |= exit[x] >= MaxAffineSteps && ((Present >> x) & 1);
        undefined |= loopUnended;
        out[x] = wrapAdd(v0[x], wrapMul(step[x], exit[x]));
      }
      return out;
    }
  }
  // Stepped: the primary variable and this one together, each lane's value
  // taken at the first test it fails.
  Lanes vp = value(p.init);
  Lanes vl = primary == loop ? vp : value(l.init);
  Lanes out = vl;
  LaneMask open = Present;
  for (int i = 0; open && stopped == EvalStop::None; ++i) {
    if (i > MaxFinalSteps || loopUnended ||
        (FinalBudgetSpent |= ++FinalSteps > MaxTotalFinalSteps)) {
      // Still inside: the model does not follow it further.
      undefined = loopUnended = true;
      if (FinalBudgetSpent)
        Ctx.markFinalOverBudget(loop);
      break;
    }
    uint64_t sp = setOverride(primary, vp);
    uint64_t sl = primary == loop ? 0 : setOverride(loop, vl);
    if (i >= first) {
      LaneMask in = cond(p.cond, true);
      for (int x = 0; x < WarpSize; ++x)
        if (((open & ~in) >> x) & 1)
          out[x] = vl[x];
      open &= in;
    }
    Lanes np, nl;
    if (open) {
      np = value(p.next);
      nl = primary == loop ? np : value(l.next);
    }
    if (primary != loop)
      clearOverride(loop, sl);
    clearOverride(primary, sp);
    vp = np;
    vl = nl;
  }
  return out;
}

std::vector<LaneMask> WarpEval::loopActiveSequence(int loop, int maxIter) {
  std::vector<LaneMask> out;
  const Loop &l = Ctx.loops[loop];
  const int first = l.testAfterBody ? 1 : 0;
  Lanes exit;
  if (affineExits(loop, maxIter, exit)) {
    for (int i = 0; i < maxIter; ++i) {
      LaneMask active = AllLanes;
      if (i >= first) {
        active = 0;
        for (int x = 0; x < WarpSize; ++x)
          if (exit[x] > i)
            active |= LaneMask(1) << x;
      }
      out.push_back(active);
      if (!active)
        break;
    }
    return out;
  }
  LaneMask active = AllLanes;
  Lanes v = value(l.init);
  // A condition that reads neither the loop's variables nor anything the
  // loop updates (a condition on data taken as true, a bound of the
  // enclosing loops) has one value for every iteration: asked once, not at
  // each of up to maxIter steps (the work estimate asks for every warp).
  if (l.cond) {
    Props cp = props(l.cond, Ctx);
    bool invariant = std::none_of(cp.loops.begin(), cp.loops.end(), [&](int x) {
      return x == loop || Ctx.loops[x].iterOf == loop;
    });
    if (invariant) {
      for (int i = 0; i < first && i < maxIter; ++i)
        out.push_back(active);
      if (int(out.size()) == maxIter)
        return out;
      uint64_t saved = setOverride(loop, v);
      active &= cond(l.cond, true);
      clearOverride(loop, saved);
      if (stopped != EvalStop::None) {
        out.push_back(active); // as the steps below leave it
        return out;
      }
      out.resize(active ? size_t(maxIter) : out.size() + 1, active);
      return out;
    }
  }
  for (int i = 0; i < maxIter && active && stopped == EvalStop::None; ++i) {
    uint64_t saved = setOverride(loop, v);
    if (l.cond && i >= first)
      active &= cond(l.cond, true);
    out.push_back(active);
    v = value(l.next);
    clearOverride(loop, saved);
  }
  return out;
}

// Shared nodes (more than one parent) are memoized: a chain of conditional
// updates evaluates each select once, not once per path. Values depend on
// the loop overrides in force, so the memo is keyed by their generation.
Lanes WarpEval::value(const LaneExpr &e) {
  // Once stopped, nothing is a value: return at once (a cycle cut short
  // would otherwise be evaluated again by every caller).
  if (stopped != EvalStop::None)
    return splat(0);
  if (Depth >= MaxEvalDepth) {
    stop(EvalStop::Depth);
    return splat(0);
  }
  // (Where every lane has one value, computed once: the nested steps
  // compute() would take stay within the limit, and no datum is drawn per
  // lane.)
  if (e->uniform && !En.dataSeed && Depth + int(e->depth) < MaxEvalDepth)
    return splat(SharedUniforms && e->depth > 2 ? sharedUniformValue(e)
                                                : uniformValue(e));
  ++Depth;
  Lanes v = memoValue(e);
  --Depth;
  return v;
}

int64_t WarpEval::uniformValue(const LaneExpr &e) {
  if (e.use_count() <= 1 || e->depth < 3)
    return uniformValueOf(e);
  if (auto it = UniformMemo.find(e.get()); it != UniformMemo.end())
    return it->second;
  const int64_t v = uniformValueOf(e);
  UniformMemo.emplace(e.get(), v);
  return v;
}

int64_t WarpEval::sharedUniformValue(const LaneExpr &e) {
  auto &kept = SharedUniforms->values;
  if (auto it = kept.find(e.get()); it != kept.end())
    return it->second;
  // Evaluated with the flags cleared, to see which it sets, and kept only
  // where it set none: a value read from here sets none. (The flags set
  // before are set again after: a uniform value reads none of them.)
  const bool data = usedDataCondition, guard = assumedGuard, tail = assumedTail,
             undef = undefined, unended = loopUnended;
  usedDataCondition = assumedGuard = assumedTail = undefined = loopUnended =
      false;
  const int64_t v = uniformValue(e);
  const bool flagged = usedDataCondition || assumedGuard || assumedTail ||
                       undefined || loopUnended || stopped != EvalStop::None;
  usedDataCondition |= data;
  assumedGuard |= guard;
  assumedTail |= tail;
  undefined |= undef;
  loopUnended |= unended;
  if (!flagged)
    kept.emplace(e.get(), v);
  return v;
}

int64_t WarpEval::uniformValueOf(const LaneExpr &e) {
  switch (e->op) {
  case Op::Const:
    return e->value;
  case Op::BlockIdx:
    return En.blockIdx[e->value];
  case Op::BlockDim:
    return e->value == 0 ? Sh.x : e->value == 1 ? Sh.y : Sh.z;
  case Op::GridDim:
    return En.gridDim[e->value];
  case Op::Unknown:
    return En.unknowns[size_t(e->value)];
  case Op::Assumed:
    return 1;
  case Op::Select: {
    // Every operand, as compute() evaluates them (their flags included).
    int64_t c = uniformValue(e->a), t = uniformValue(e->b),
            f = uniformValue(e->c);
    return c ? t : f;
  }
  case Op::Neg:
    return wrapNeg(uniformValue(e->a));
  case Op::Not:
    return ~uniformValue(e->a);
  case Op::LNot:
    return !uniformValue(e->a);
  case Op::Bits:
    return applyBits(BitFn(e->value), uniformValue(e->a));
  default:
    break;
  }
  if (!e->a || !e->b)
    return compute(e)[0]; // (no other uniform node: kept total)
  const int64_t x = uniformValue(e->a), y = uniformValue(e->b);
  switch (e->op) {
  case Op::Add:
    return wrapAdd(x, y);
  case Op::Sub:
    return wrapSub(x, y);
  case Op::Mul:
    return wrapMul(x, y);
  case Op::And:
    return x & y;
  case Op::Or:
    return x | y;
  case Op::Xor:
    return x ^ y;
  case Op::Min:
    return std::min(x, y);
  case Op::Max:
    return std::max(x, y);
  case Op::Lt:
    return x < y;
  case Op::Le:
    return x <= y;
  case Op::Gt:
    return x > y;
  case Op::Ge:
    return x >= y;
  case Op::Eq:
    return x == y;
  case Op::Ne:
    return x != y;
  case Op::LAnd:
    return x && y;
  case Op::LOr:
    return x || y;
  case Op::Div:
  case Op::Rem:
    if (y == 0) {
      undefined = true;
      return 0;
    }
    return e->op == Op::Div ? wrapDiv(x, y) : wrapRem(x, y);
  case Op::Shl:
  case Op::Shr:
    if (y < 0 || y > 62) {
      undefined |= !En.dataSeed;
      return e->op == Op::Shr && x < 0 ? -1 : 0;
    }
    return e->op == Op::Shl ? wrapShl(x, y) : x >> y;
  default:
    return compute(e)[0];
  }
}

Lanes WarpEval::memoValue(const LaneExpr &e) {
  // Under a loop override (a loop's iterations stepped through), a value
  // that reads none of the loops overridden is the same at every step (the
  // other loops' values are kept per warp): kept across them, under a
  // generation of its own that only overrides read (the evaluations without
  // one stay as they were).
  const bool across =
      Gen != 0 && !(e->loopBits & OverBits) && !En.dataSeed && e->depth >= 2;
  if (!across && (e.use_count() <= 1 || e->depth < 3))
    return compute(e);
  MemoEntry *m = memoFind(e.get());
  if (m && (m->gen == Gen || (across && (m->gen == 0 || m->gen == AnyLoop))))
    return m->value;
  uint64_t gen = across ? AnyLoop : Gen;
  const uint64_t before = Gen;
  Lanes v = compute(e);
  if (before != Gen)
    return v;
  // compute() may have added entries: look again before adding one.
  if ((m = memoFind(e.get()))) {
    m->gen = gen;
    m->value = v;
    return v;
  }
  if (SmallCount < InlineMemo) {
    SmallMemo[SmallCount++] = {e.get(), gen, v};
    return v;
  }
  if (MemoIndex.empty())
    for (size_t i = 0; i < InlineMemo; ++i)
      MemoIndex.emplace(SmallMemo[i].node, i);
  Memo.push_back({e.get(), gen, v});
  MemoIndex.emplace(e.get(), InlineMemo + Memo.size() - 1);
  return v;
}

WarpEval::MemoEntry *WarpEval::memoFind(const Node *n) {
  if (!MemoIndex.empty()) {
    auto it = MemoIndex.find(n);
    if (it == MemoIndex.end())
      return nullptr;
    return it->second < InlineMemo ? &SmallMemo[it->second]
                                   : &Memo[it->second - InlineMemo];
  }
  for (size_t i = 0; i < SmallCount; ++i)
    if (SmallMemo[i].node == n)
      return &SmallMemo[i];
  return nullptr;
}

static LaneExpr prepare(const LaneExpr &e, const Context &ctx, bool &guard,
                        bool &data, bool drawLowBits = false);

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
    if (En.dataSeed && size_t(e->value) < Ctx.atoms.size() &&
        Ctx.atoms[e->value].kind == AtomKind::Data)
      return drawData(int(e->value));
    // Data atoms have no value; callers check Props::hasData first. A fixed
    // value keeps the evaluation total.
    return splat(En.unknowns[size_t(e->value)]);
  case Op::LoopVar:
    return loopValue(int(e->value));
  case Op::LoopActive: {
    LaneMask m = loopActive(int(e->value));
    Lanes r;
    for (int l = 0; l < WarpSize; ++l)
      r[l] = (m >> l) & 1;
    return r;
  }
  case Op::LoopFinal:
    return loopFinal(int(e->value));
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
  case Op::Bits: {
    Lanes a = value(e->a);
    for (auto &x : a)
      x = applyBits(BitFn(e->value), x);
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
  if (e->op == Op::Div || e->op == Op::Rem) {
    // Operands within 2^52 and no zero divisor: the double quotient,
    // truncated, is the exact integer one (its error is below 1/|y|), and
    // far cheaper than a 64-bit idiv per lane.
    bool exact = true;
    for (int l = 0; l < WarpSize; ++l)
      exact &= b[l] != 0 && a[l] > -(int64_t(1) << 52) &&
               a[l] < (int64_t(1) << 52) && b[l] > -(int64_t(1) << 52) &&
               b[l] < (int64_t(1) << 52);
    if (exact) {
      for (int l = 0; l < WarpSize; ++l) {
        int64_t q = int64_t(double(a[l]) / double(b[l]));
        a[l] = e->op == Op::Div ? q : a[l] - q * b[l];
      }
      return a;
    }
  }
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
        // Drawn data may be any value: shift as the hardware does (all
        // bits out) rather than give up on the request.
        undefined |= !En.dataSeed;
        r = e->op == Op::Shr && x < 0 ? -1 : 0;
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

namespace {
/// Does `e` read threadIdx.x, and anything else that tells lanes, blocks or
/// iterations apart (threadIdx.y or .z, blockIdx, a loop, data)?
struct ThreadXUse {
  bool x = false, other = false;
};
ThreadXUse threadXUse(const LaneExpr &e) {
  ThreadXUse u;
  visitNodes(e, [&](const Node &n) {
    if (n.op == Op::ThreadIdx)
      (n.value == 0 ? u.x : u.other) = true;
    else if (n.op == Op::BlockIdx || n.op == Op::LoopVar ||
             n.op == Op::LoopFinal || n.op == Op::LoopActive ||
             n.op == Op::Data)
      u.other = true;
    return !(u.x && u.other);
  });
  return u;
}
} // namespace

// Is `e` a condition the model must assume rather than evaluate?
static bool isGuard(const LaneExpr &e, const Context &ctx) {
  Props p = props(e, ctx);
  if (!p.hasUnknown)
    return false;
  // A count of threads whose values are known (a launch passes the
  // constant 9 for `threadIdx.x < n_steps`) is evaluated: 9 lanes of each
  // block, not a whole warp. Only on threadIdx.x alone: a bound on a global
  // index or a loop variable trims blocks and iterations the samples do not
  // stand for, and stays a guard.
  const ThreadXUse use = threadXUse(e);
  if (isComparison(e->op) && use.x && !use.other &&
      std::all_of(p.unknowns.begin(), p.unknowns.end(), [&](int u) {
        return size_t(u) < ctx.atoms.size() && !ctx.atoms[u].known.empty();
      }))
    return false;
  if (!p.laneVarying)
    return true; // uniform condition on unknowns: selects whole warps
  if (!isComparison(e->op))
    return false;
  // A lane-varying value against an unknown bound: `i < n`, `row*w + c >= n`.
  // An equality on threadIdx.x is no bound: `threadIdx.x == best` picks one
  // lane, and the unknown's samples say which. (On threadIdx.y, `j == my -
  // 1` picks whole warps of a block 32 or more wide: a guard.)
  if (e->op == Op::Eq && use.x)
    return false;
  Props a = props(e->a, ctx), b = props(e->b, ctx);
  return (!a.laneVarying && a.hasUnknown) || (!b.laneVarying && b.hasUnknown);
}

bool readsData(const LaneExpr &e, const Context &ctx) {
  if (!e)
    return false;
  bool onData = false;
  visitNodes(e, [&](const Node &n) {
    if (n.op == Op::Unknown && size_t(n.value) < ctx.atoms.size() &&
        ctx.atoms[n.value].fromData)
      onData = true;
    return !onData;
  });
  return onData || props(e, ctx).hasData;
}

// The atom a leaf names (an unknown or a value loaded per lane), or null.
static const Atom *atomOf(const Node &n, const Context &ctx) {
  return (n.op == Op::Unknown || n.op == Op::Data) &&
                 size_t(n.value) < ctx.atoms.size()
             ? &ctx.atoms[size_t(n.value)]
             : nullptr;
}

// `a == b` holds once per grid: one side reads a counter; the other reads
// neither a counter nor any value a lane loads (whose equality with the
// count says nothing of how often it holds).
static bool onceEquality(const LaneExpr &a, const LaneExpr &b,
                         const Context &ctx) {
  if (!a || !b)
    return false;
  auto reads = [&](const LaneExpr &e, bool &counter, bool &data) {
    visitNodes(e, [&](const Node &n) {
      if (const Atom *at = atomOf(n, ctx)) {
        counter |= at->counter;
        data |= !at->counter && (at->fromData || at->kind == AtomKind::Data);
      }
      data |= n.op == Op::TooDeep;
      return true;
    });
  };
  bool counterA = false, dataA = false, counterB = false, dataB = false;
  reads(a, counterA, dataA);
  reads(b, counterB, dataB);
  return counterA != counterB && !(counterA ? dataB : dataA);
}

bool oncePerGrid(const LaneExpr &c, const Context &ctx) {
  if (!c)
    return false;
  if (const Atom *a = atomOf(*c, ctx))
    return a->lastArrival;
  switch (c->op) {
  case Op::Eq:
    return onceEquality(c->a, c->b, ctx);
  case Op::Ne: // `flag != 0`
    return c->b && c->b->op == Op::Const && c->b->value == 0 && c->a &&
           atomOf(*c->a, ctx) && atomOf(*c->a, ctx)->lastArrival;
  case Op::LNot:
    if (c->a && c->a->op == Op::Ne) // the rest after `if (x != c) return;`
      return onceEquality(c->a->a, c->a->b, ctx);
    return c->a && c->a->op == Op::LNot && oncePerGrid(c->a->a, ctx);
  default:
    return false;
  }
}

LaneExpr oncePerGridConjunct(const LaneExpr &mask, const Context &ctx) {
  if (!mask)
    return nullptr;
  if (mask->op == Op::LAnd) {
    if (LaneExpr a = oncePerGridConjunct(mask->a, ctx))
      return a;
    return oncePerGridConjunct(mask->b, ctx);
  }
  return oncePerGrid(mask, ctx) ? mask : nullptr;
}

const Atom *counterRead(const LaneExpr &e, const Context &ctx) {
  const Atom *found = nullptr;
  visitNodes(e, [&](const Node &n) {
    if (const Atom *a = atomOf(n, ctx); a && (a->counter || a->lastArrival))
      found = a;
    return !found;
  });
  return found;
}

// Which side of its bound a guard's true side is: past it where the
// lane-varying operand is above the uniform one (`i >= n`, `(i + 1) * 4 >
// n`, `n < i`), within it where below, neither for a condition that selects
// whole warps or an equality. The index is taken to grow with the thread
// index, as it does in the guards that keep lanes within an array.
static Assumption boundSide(const LaneExpr &e, const Context &ctx) {
  if (!isComparison(e->op) || e->op == Op::Eq || e->op == Op::Ne)
    return AssumedGuard;
  const bool leftVaries = props(e->a, ctx).laneVarying;
  if (leftVaries == props(e->b, ctx).laneVarying)
    return AssumedGuard;
  const bool greater = e->op == Op::Gt || e->op == Op::Ge;
  return greater == leftVaries ? AssumedPastBound : AssumedWithinBound;
}

// Does the condition `e` read data only through its low bits (`(len & 15)
// == 3`, `h % 4 != 0`, `key & 1`)? A field of an index's low bits falls on
// each of its values about equally often whatever the data, as the random
// draws of analyzeDataAddress() have it (0..1023 for an index): drawn with
// the data, the condition picks the lanes it would. A comparison of the
// whole value (`x > 0`, `a[i] == b[i]`) depends on the data's distribution,
// which the draws do not know.
static bool testsDataLowBits(const LaneExpr &e, const Context &ctx) {
  bool masked = false, other = false;
  auto dataLoop = [&](int64_t id) {
    if (id < 0 || size_t(id) >= ctx.loops.size())
      return true;
    const Loop &l = ctx.loops[size_t(id)];
    return readsData(l.init, ctx) || readsData(l.next, ctx) ||
           readsData(l.cond, ctx);
  };
  visitNodes(e, [&](const Node &n) {
    if (other)
      return false;
    const bool constMask = n.b && n.b->op == Op::Const && n.b->value > 0 &&
                           n.b->value < (int64_t(1) << DataIndexBits);
    if ((n.op == Op::And && constMask) ||
        (n.op == Op::Rem && constMask && n.b->value > 1)) {
      if (readsData(n.a, ctx)) {
        // (Not an address's bits: its alignment is no draw's.)
        visitWithLoops(n.a, ctx, [&](const Node &x) {
          other |= (x.op == Op::Data || x.op == Op::Unknown) &&
                   size_t(x.value) < ctx.atoms.size() &&
                   ctx.atoms[x.value].pointer;
          return !other;
        });
        masked = true;
        return false; // the data within is read through its low bits
      }
      return true;
    }
    switch (n.op) {
    case Op::Data:
    case Op::Assumed:
    case Op::TooDeep:
      other = true;
      break;
    case Op::Unknown:
      other |= size_t(n.value) < ctx.atoms.size() &&
               (ctx.atoms[n.value].fromData ||
                ctx.atoms[n.value].kind == AtomKind::Data);
      break;
    case Op::LoopVar:
    case Op::LoopActive:
    case Op::LoopFinal:
      other |= dataLoop(n.value);
      break;
    default:
      break;
    }
    return !other;
  });
  return masked && !other;
}

static LaneExpr prepare(const LaneExpr &e, const Context &ctx, bool &guard,
                        bool &data, bool drawLowBits) {
  if (!e)
    return e;
  switch (e->op) {
  case Op::LNot: {
    // The negation of a condition on data (`!found`, a flag the block
    // shares) is a condition on data too, and as such taken as true.
    bool onData = false;
    LaneExpr inner = prepare(e->a, ctx, guard, onData, drawLowBits);
    data |= onData;
    if (onData && inner != e->a && e->a->op != Op::LAnd &&
        e->a->op != Op::LOr && e->a->op != Op::LNot)
      return assumed(AssumedData);
    return un(Op::LNot, inner);
  }
  case Op::LAnd:
  case Op::LOr:
    return bin(e->op, prepare(e->a, ctx, guard, data, drawLowBits),
               prepare(e->b, ctx, guard, data, drawLowBits));
  case Op::LoopActive:
  case Op::Assumed:
    return e;
  default:
    break;
  }
  if (readsData(e, ctx)) {
    data = true;
    if (drawLowBits && testsDataLowBits(e, ctx))
      return e;
    return assumed(AssumedData);
  }
  if (isGuard(e, ctx)) {
    guard = true;
    return assumed(boundSide(e, ctx));
  }
  return e;
}

// A loop that halves one value for the warp until it is gone (`for (; s >
// 0; s >>= 1)` from a parameter, a bitonic merge's stride): its condition
// is its trip count, log2 of the start, not a bound the samples should
// assume holds. Assumed, it ran all 32 sampled iterations, most of them
// with s = 0 (1.16 wavefronts where the GPU measures 1.56).
static bool halvingExit(int loop, const Context &ctx) {
  const Loop &l = ctx.loops[size_t(loop)];
  if (!l.cond || !l.next || l.iterOf >= 0 || !isComparison(l.cond->op))
    return false;
  Props pc = props(l.cond, ctx);
  if (pc.laneVarying || pc.hasData)
    return false;
  const LaneExpr &n = l.next;
  auto isVar = [&](const LaneExpr &x) {
    return x && x->op == Op::LoopVar && x->value == loop;
  };
  if (!isVar(n->a) || !n->b || n->b->op != Op::Const)
    return false;
  return (n->op == Op::Shr && n->b->value >= 1 && n->b->value < 63) ||
         (n->op == Op::Div && n->b->value >= 2);
}

namespace {
/// The prepared copies of the last few contexts, recognized by address,
/// sizes and loop conditions (nodes are hash-consed: equal conditions are
/// the same nodes).
struct PreparedLoops {
  uint64_t serial = 0, generation = 0;
  size_t atoms = 0;
  std::vector<const Node *> conds;
  std::shared_ptr<const Context> prepared; // null: nothing to prepare
  bool guard = false, data = false;
};

bool sameContext(const PreparedLoops &e, const Context &ctx) {
  if (e.serial != ctx.serial || e.generation != ctx.generation ||
      e.atoms != ctx.atoms.size() ||
      e.conds.size() != ctx.loops.size())
    return false;
  for (size_t i = 0; i < e.conds.size(); ++i)
    if (e.conds[i] != ctx.loops[i].cond.get())
      return false;
  return true;
}
} // namespace

PreparedConditions prepareConditions(const Context &ctx, const LaneExpr &mask,
                                     bool drawLowBits) {
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
    e.serial = ctx.serial;
    e.generation = ctx.generation;
    e.atoms = ctx.atoms.size();
    std::vector<LaneExpr> conds;
    bool changed = false;
    for (size_t i = 0; i < ctx.loops.size(); ++i) {
      const Loop &l = ctx.loops[i];
      e.conds.push_back(l.cond.get());
      conds.push_back(halvingExit(int(i), ctx) ? l.cond
                                               : prepare(l.cond, ctx, e.guard,
                                                         e.data));
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
  bool maskData = false;
  LaneExpr m = prepare(mask, ctx, guard, maskData, drawLowBits);
  std::shared_ptr<const Context> prepared = hit->prepared;
  const Context &use = prepared ? *prepared : ctx;
  // Conditions kept to be drawn with the data: the mask still reads data.
  const bool drawn = drawLowBits && maskData && props(m, ctx).hasData;
  return PreparedConditions{std::move(prepared), use,  std::move(m), guard,
                            data || maskData,    drawn};
}

namespace {
/// The lanes a deep conjunction or disjunction of conditions selects, kept
/// across WarpEvals. A branch nested d deep is under the d conditions
/// around it, and each rule that asks for its lanes (the branch's split,
/// its loop exits, the work estimate) builds a WarpEval per warp and
/// sample: evaluated afresh, the conditions of a nest cost its depth
/// squared. Its enclosing branch's conditions are the same nodes (nodes
/// are hash-consed), so their lanes are looked up instead, per warp and
/// sample: by everything the evaluation reads (the context, the shape, the
/// warp, the block, the grid, and the values of the unknowns and loop
/// iterations the condition reads, through its loops too). Evaluations
/// that draw data do not use it (cond()).
class CondCache {
public:
  /// Conditions at least this deep are kept (shallower ones cost less to
  /// evaluate than to look up).
  static constexpr uint32_t MinDepth = 12;
  /// The results' table grows to this many 20-byte slots (10 MiB), and
  /// starts again once three quarters of them are in use.
  static constexpr size_t MaxSlots = size_t(1) << 19;
  /// Conditions whose reads are kept before those start again.
  static constexpr size_t MaxConditions = size_t(1) << 14;

  struct Result {
    LaneMask lanes = 0;
    uint8_t flags = 0;
  };
  enum Flag : uint8_t { Data = 1, Guard = 2, Tail = 4, Unended = 8 };

  struct ReadSet {
    LaneExpr node; // kept alive: its address stays its identity
    std::vector<int> atoms, loops;
    /// Lookups within other conditions that found an entry, and those that
    /// did not: a condition each evaluation meets under other iterations
    /// (an access's own loops) is not kept past MinTries with few found.
    uint32_t found = 0, missed = 0;
    bool kept = true;
  };
  static constexpr uint32_t MinTries = 256;

  /// What `e` reads, with the key of its value under this evaluation in
  /// `out`; null where it is not kept.
  ReadSet *key(const LaneExpr &e, bool positive, const Context &ctx,
               const Shape &sh, const Env &env, int warp,
               std::pair<uint64_t, uint64_t> &out) {
    if (ctx.serial != Serial || ctx.generation != Generation) {
      clear();
      Serial = ctx.serial;
      Generation = ctx.generation;
    }
    auto it = Reads.find(e.get());
    if (it == Reads.end()) {
      if (Reads.size() >= MaxConditions)
        clear();
      ReadSet r;
      r.node = e;
      visitWithLoops(e, ctx, [&](const Node &n) {
        if ((n.op == Op::Unknown || n.op == Op::Data) &&
            !std::count(r.atoms.begin(), r.atoms.end(), int(n.value)))
          r.atoms.push_back(int(n.value));
        if ((n.op == Op::LoopVar || n.op == Op::LoopActive ||
             n.op == Op::LoopFinal) &&
            size_t(n.value) < ctx.loops.size()) {
          for (int l : {int(n.value), ctx.loops[n.value].iterOf})
            if (l >= 0 && !std::count(r.loops.begin(), r.loops.end(), l))
              r.loops.push_back(l);
        }
        return true;
      });
      it = Reads.emplace(e.get(), std::move(r)).first;
    }
    ReadSet &r = it->second;
    if (!r.kept)
      return nullptr;
    // Two independent multiplicative chains of one step per value (a
    // condition deep in a nest reads every loop around it, so the steps
    // are the cost of a lookup), each mixed in full at the end.
    uint64_t h1 = 0x243f6a8885a308d3ull, h2 = 0x13198a2e03707344ull;
    auto add = [&](uint64_t v) {
      h1 = (h1 ^ v) * 0x100000001b3ull;
      h2 = ((h2 + v) ^ (h2 >> 29)) * 0x9e3779b97f4a7c15ull;
    };
    add(uint64_t(uintptr_t(e.get())));
    add(positive);
    add(uint64_t(sh.x) | uint64_t(sh.y) << 21 | uint64_t(sh.z) << 42);
    add(uint64_t(warp));
    for (int d = 0; d < 3; ++d) {
      add(uint64_t(env.blockIdx[d]));
      add(uint64_t(env.gridDim[d]));
    }
    for (int a : r.atoms)
      add(uint64_t(env.unknowns[size_t(a)]));
    for (int l : r.loops)
      add(size_t(l) < env.loopIter.size() ? uint64_t(env.loopIter[size_t(l)])
                                          : 0);
    out = {mixKey(h1), mixKey(h2 ^ h1)};
    return &r;
  }
  std::optional<Result> find(const std::pair<uint64_t, uint64_t> &k) {
    std::optional<Result> r = lookup(k);
    ++(r ? Counts.found : Counts.missed);
    return r;
  }
  CondCacheCounts Counts;
  void put(const std::pair<uint64_t, uint64_t> &k, Result r) {
    if (4 * (Count + 1) > 3 * Slots.size()) {
      if (Slots.size() >= MaxSlots)
        clearResults();
      else
        grow();
    }
    if (insert(k, r))
      ++Count;
  }

private:
  std::optional<Result> lookup(const std::pair<uint64_t, uint64_t> &k) const {
    if (Slots.empty())
      return std::nullopt;
    const Slot want = slot(k, {}, Gen);
    for (size_t i = size_t(k.first) & (Slots.size() - 1);;
         i = (i + 1) & (Slots.size() - 1)) {
      const Slot &s = Slots[i];
      if (s.gen() != Gen)
        return std::nullopt;
      if (s.sameKey(want))
        return Result{s.lanes, uint8_t(s.tag & 15)};
    }
  }
  static uint64_t mixKey(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
  /// The results, by open addressing: a slot holds 96 bits of the key (its
  /// first 64 also place it), the lanes, and a tag of the result's flags
  /// and the generation it was written in. A slot is in use where that is
  /// the current generation, so starting again (once per kernel) costs no
  /// pass over the table.
  struct Slot {
    uint32_t k[3] = {0, 0, 0};
    LaneMask lanes = 0;
    uint32_t tag = 0;
    uint32_t gen() const { return tag >> 4; }
    bool sameKey(const Slot &o) const {
      return k[0] == o.k[0] && k[1] == o.k[1] && k[2] == o.k[2];
    }
  };
  static Slot slot(const std::pair<uint64_t, uint64_t> &k, Result r,
                   uint32_t gen) {
    Slot s;
    s.k[0] = uint32_t(k.first);
    s.k[1] = uint32_t(k.first >> 32);
    s.k[2] = uint32_t(k.second);
    s.lanes = r.lanes;
    s.tag = gen << 4 | (r.flags & 15);
    return s;
  }
  static constexpr uint32_t MaxGen = (uint32_t(1) << 28) - 1;
  bool insert(const std::pair<uint64_t, uint64_t> &k, Result r) {
    const Slot put = slot(k, r, Gen);
    for (size_t i = size_t(k.first) & (Slots.size() - 1);;
         i = (i + 1) & (Slots.size() - 1)) {
      Slot &s = Slots[i];
      if (s.gen() == Gen && !s.sameKey(put))
        continue;
      bool added = s.gen() != Gen;
      s = put;
      return added;
    }
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(Slots);
    Slots.assign(std::max<size_t>(1024, 2 * old.size()), Slot());
    const uint32_t was = Gen;
    Gen = 1;
    Count = 0;
    for (const Slot &s : old)
      if (s.gen() == was)
        Count += insert({uint64_t(s.k[1]) << 32 | s.k[0], s.k[2]},
                        {s.lanes, uint8_t(s.tag & 15)});
  }
  void clearResults() {
    Count = 0;
    if (++Gen > MaxGen) { // wrapped: no slot may look current
      std::fill(Slots.begin(), Slots.end(), Slot());
      Gen = 1;
    }
  }
  void clear() {
    Reads.clear();
    clearResults();
  }
  uint64_t Serial = 0, Generation = 0;
  std::unordered_map<const Node *, ReadSet> Reads;
  std::vector<Slot> Slots; // a power of two in size, or empty
  size_t Count = 0;
  uint32_t Gen = 1;
};
thread_local CondCache Conds;
} // namespace

CondCacheCounts condCacheCounts() { return Conds.Counts; }

LaneMask WarpEval::cond(const LaneExpr &e, bool positive) {
  switch (e->op) {
  case Op::LNot:
    return cond(e->a, !positive);
  case Op::LAnd:
  case Op::LOr: {
    // Deep ones from the cache where no loop override is in force (the
    // values read then are not the environment's), and no data is drawn
    // (a drawn datum reads its load's address, which the key does not
    // follow).
    std::pair<uint64_t, uint64_t> k;
    CondCache::ReadSet *reads = nullptr;
    if (e->depth >= CondCache::MinDepth && Gen == 0 && Draws == 0 &&
        En.dataSeed == 0)
      reads = Conds.key(e, positive, Ctx, Sh, En, Warp, k);
    if (reads) {
      if (std::optional<CondCache::Result> r = Conds.find(k)) {
        ++reads->found;
        usedDataCondition |= (r->flags & CondCache::Data) != 0;
        assumedGuard |= (r->flags & CondCache::Guard) != 0;
        assumedTail |= (r->flags & CondCache::Tail) != 0;
        loopUnended |= (r->flags & CondCache::Unended) != 0;
        return r->lanes;
      }
    }
    // Within the evaluation of a kept condition, deeper ones are looked up
    // but not kept (their flags would not be theirs alone). Only those
    // lookups tell whether keeping a condition pays: at the top, each
    // environment and warp of a branch meets its own condition once, and
    // every lookup misses until a branch nested in it asks.
    if (reads && InSubEval && ++reads->missed >= CondCache::MinTries &&
        reads->found * 4 < reads->missed)
      reads->kept = false;
    if (reads && !InSubEval) {
      // The flags kept are the condition's alone. An evaluation that finds
      // its loops evaluated already (by this WarpEval, or by another
      // environment through shared sequences) sets none for them: unless
      // this one has evaluated nothing yet and shares no loop of it, the
      // condition is evaluated by a WarpEval of its own.
      bool fresh = SlotLoops.empty() && SmallCount == 0 && Memo.empty() &&
                   UniformMemo.empty() && !usedDataCondition && !assumedGuard &&
                   !assumedTail && !loopUnended && !undefined &&
                   stopped == EvalStop::None;
      for (int l : reads->loops)
        fresh &= !Seq || Seq->invariant[size_t(l)] == 0;
      std::unique_ptr<WarpEval> own;
      if (!fresh)
        own = std::make_unique<WarpEval>(Ctx, Sh, En, Warp);
      WarpEval &ev = fresh ? *this : *own;
      ev.InSubEval = true;
      LaneMask x = ev.cond(e->a, positive), y = ev.cond(e->b, positive);
      ev.InSubEval = false;
      bool conj = (e->op == Op::LAnd) == positive;
      LaneMask lanes = conj ? (x & y) : (x | y);
      // One that stopped or hit an undefined operation is not kept.
      if (!ev.undefined && ev.stopped == EvalStop::None)
        Conds.put(k,
                  {lanes, uint8_t((ev.usedDataCondition ? CondCache::Data : 0) |
                                  (ev.assumedGuard ? CondCache::Guard : 0) |
                                  (ev.assumedTail ? CondCache::Tail : 0) |
                                  (ev.loopUnended ? CondCache::Unended : 0))});
      if (own) {
        usedDataCondition |= own->usedDataCondition;
        assumedGuard |= own->assumedGuard;
        assumedTail |= own->assumedTail;
        loopUnended |= own->loopUnended;
        undefined |= own->undefined;
        if (own->stopped != EvalStop::None)
          stop(own->stopped);
      }
      return lanes;
    }
    LaneMask x = cond(e->a, positive), y = cond(e->b, positive);
    bool conj = (e->op == Op::LAnd) == positive;
    return conj ? (x & y) : (x | y);
  }
  case Op::LoopActive: {
    LaneMask m = loopActive(int(e->value));
    return positive ? m : ~m;
  }
  case Op::Assumed:
    if (e->value == AssumedData) {
      usedDataCondition = true;
    } else {
      assumedGuard = true;
      // The bound's far side: `i >= n`, or `i < n` negated.
      assumedTail |= (e->value == AssumedPastBound && positive) ||
                     (e->value == AssumedWithinBound && !positive);
    }
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
