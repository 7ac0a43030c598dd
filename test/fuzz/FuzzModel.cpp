//===- FuzzModel.cpp - the model's builders and evaluator ----------------===//
//
// The input is a small program that builds a kernel's model the way the front
// end does (analyzer/frontend/walker/): atoms, loops whose initial value,
// update and condition refer to the values in scope when the front end
// creates them, expressions over the model's node kinds, and block shapes of
// at most 256 threads. Every expression goes through the builders (folding,
// hash-consing, the depth limit); then accesses, branches, loop exits, reach
// and hazards are analyzed as the front end asks for them, and the request
// cost functions get raw lane addresses.
//
// Besides crashes and sanitizer reports, one property is checked: for every
// expression without loops, the evaluator's per-lane values (WarpEval) equal
// a direct evaluation of the expression as the program wrote it, in C's
// semantics on 64-bit integers as Expr.h documents them (wrapping arithmetic,
// conditions 0 or 1), wherever that direct evaluation is defined (no division
// by zero, no shift outside 0..62). That checks the builders' folding and the
// evaluator's memo against one plain recursive definition. And every warp
// period claimed for an access (Period.h) holds in the evaluator, warp by
// warp.
//
// Program bytes (each read returns 0 once the input is exhausted):
//   atoms:  count, then per atom its kind and up to 3 known values;
//   shapes: count (1..3), then x, y, z of each;
//   env:    a blockIdx and unknown values for the second environment checked;
//   then instructions until the input ends (see `step`).
//
//===----------------------------------------------------------------------===//
#include "model/Divergence.h"
#include "model/Eval.h"
#include "model/Explain.h"
#include "model/Expr.h"
#include "model/Memory.h"
#include "model/Period.h"
#include "model/Sampling.h"
#include "model/Vectorize.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <vector>

using namespace warplint;

namespace {

struct Input {
  const uint8_t *p, *end;
  bool done() const { return p >= end; }
  uint8_t u8() { return p < end ? *p++ : 0; }
  int64_t i64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v = v << 8 | u8();
    return int64_t(v);
  }
  /// A constant: mostly ones that matter to the model, sometimes any.
  int64_t constant() {
    static const int64_t table[] = {
        0,    1,    2,   3,   4,   -1,  -2,  7,        8,        16,
        31,   32,   33,  63,  64,  128, 256, 1024,     4096,     -32,
        1000, 1023, 100, 255, 127, 62,  5,   INT64_MIN, INT64_MAX, 1 << 20};
    uint8_t b = u8();
    if (b == 0xff)
      return i64();
    return table[b % (sizeof(table) / sizeof(table[0]))];
  }
};

/// An expression as the program wrote it, before the builders.
struct Raw {
  Op op;
  int64_t value = 0;
  int a = -1, b = -1, c = -1; // operands: indices into the pool
};

struct Entry {
  LaneExpr e;
  Raw raw;
  int maxVar = -1;    // highest loop whose variable it uses
  int maxActive = -1; // highest loop whose activity it uses
  bool tooDeep = false;
};

const Op Binary[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Rem, Op::Shl,
                     Op::Shr, Op::And, Op::Or,  Op::Xor, Op::Min, Op::Max,
                     Op::Lt,  Op::Le,  Op::Gt,  Op::Ge,  Op::Eq,  Op::Ne,
                     Op::LAnd, Op::LOr};
const Op Unary[] = {Op::Neg, Op::Not, Op::LNot};

// An operation as a failure message names it.
const char *opName(const Raw &r) {
  return r.op == Op::Bits ? bitFnName(BitFn(r.value)) : opSpelling(r.op);
}

// The bit intrinsics written another way than the model's applyBits(): bit
// by bit from the other end, on the operand's low 32 or 64 bits.
int64_t referenceBits(BitFn f, int64_t x) {
  bool wide = f == BitFn::Brev64 || f == BitFn::Popc64 ||
              f == BitFn::Clz64 || f == BitFn::Ffs64;
  int width = wide ? 64 : 32;
  uint64_t u = wide ? uint64_t(x) : uint64_t(uint32_t(uint64_t(x)));
  auto bit = [&](int i) { return (u >> i) & 1; };
  switch (f) {
  case BitFn::Brev32:
  case BitFn::Brev64: {
    // Shift the bits in from the lowest: bit 0 ends up on top.
    uint64_t r = 0;
    for (int i = 0; i < width; ++i)
      r = (r << 1) | bit(i);
    return int64_t(r);
  }
  case BitFn::Popc32:
  case BitFn::Popc64: {
    int n = 0;
    for (uint64_t v = u; v; v &= v - 1)
      ++n;
    return n;
  }
  case BitFn::Clz32:
  case BitFn::Clz64: {
    int n = 0;
    while (n < width && !bit(width - 1 - n))
      ++n;
    return n;
  }
  case BitFn::Ffs32:
  case BitFn::Ffs64:
    for (int i = 0; i < width; ++i)
      if (bit(i))
        return i + 1;
    return 0;
  }
  return 0;
}

struct Group {
  int first, end; // loop ids [first, end)
};

struct Program {
  Input in;
  Context ctx;
  std::vector<Shape> shapes;
  Env env2;
  std::vector<Entry> pool;
  std::vector<Group> open;
  struct Task {
    int kind;
    int x, y, z; // pool indices, -1: none
    int bytes, space;
  };
  std::vector<Task> tasks;
  static constexpr size_t MaxNodes = 160, MaxLoops = 8, MaxTasks = 6;
  explicit Program(Input i) : in(i) {}

  int pick() { // a pool index, recent ones more likely
    if (pool.empty())
      return -1;
    uint8_t b = in.u8();
    size_t back = b < 192 ? b % 8 : b;
    return int(pool.size() - 1 - back % pool.size());
  }

  int push(LaneExpr e, Raw raw) {
    Entry n{std::move(e), raw};
    for (int i : {raw.a, raw.b, raw.c})
      if (i >= 0) {
        n.maxVar = std::max(n.maxVar, pool[i].maxVar);
        n.maxActive = std::max(n.maxActive, pool[i].maxActive);
        n.tooDeep |= pool[i].tooDeep;
      }
    if (raw.op == Op::LoopVar)
      n.maxVar = int(raw.value);
    if (raw.op == Op::LoopActive)
      n.maxActive = int(raw.value);
    n.tooDeep |= n.e->op == Op::TooDeep;
    pool.push_back(std::move(n));
    return int(pool.size()) - 1;
  }

  /// A pool entry usable as loop `g`'s update or condition: no loop created
  /// after the group, no group loop's activity (as the front end builds
  /// them, before walking the body); or null.
  int usableIn(const Group &g) {
    int i = pick();
    for (; i >= 0; --i)
      if (pool[i].maxVar < g.end && pool[i].maxActive < g.first)
        return i;
    return -1;
  }

  void closeGroup() {
    Group g = open.back();
    open.pop_back();
    for (int l = g.first; l < g.end; ++l) {
      int i = usableIn(g);
      ctx.loops[l].next = i >= 0 ? pool[i].e : loopVar(l) + cst(1);
    }
    uint8_t flags = in.u8();
    int c = flags & 1 ? usableIn(g) : -1;
    Loop &p = ctx.loops[g.first];
    p.cond = c >= 0 ? pool[c].e : nullptr;
    p.testAfterBody = flags & 2;
    p.straight = flags & 4;
  }

  void step() {
    uint8_t op = in.u8();
    if (pool.size() >= MaxNodes)
      op = 18 + op % 2; // only tasks and closing groups from here
    switch (op % 20) {
    case 0:
    case 1: {
      int64_t v = in.constant();
      push(cst(v), {Op::Const, v});
      return;
    }
    case 2:
    case 3: {
      static const Op builtins[] = {Op::ThreadIdx, Op::BlockIdx, Op::BlockDim,
                                    Op::GridDim};
      uint8_t b = in.u8();
      Op o = builtins[b % 4];
      int d = (b >> 2) % 3;
      LaneExpr e = o == Op::ThreadIdx  ? threadIdx(d)
                   : o == Op::BlockIdx ? blockIdx(d)
                   : o == Op::BlockDim ? blockDim(d)
                                       : gridDim(d);
      push(e, {o, d});
      return;
    }
    case 4: {
      if (ctx.atoms.empty())
        return;
      uint8_t b = in.u8();
      int atom = (b >> 1) % int(ctx.atoms.size());
      bool isData = ctx.atoms[atom].kind == AtomKind::Data;
      Op o = isData && (b & 1) ? Op::Data : Op::Unknown;
      push(o == Op::Data ? data(atom) : unknown(atom), {o, atom});
      return;
    }
    case 5: {
      if (ctx.loops.empty())
        return;
      uint8_t b = in.u8();
      int l = (b >> 1) % int(ctx.loops.size());
      if (b & 1)
        push(loopActive(l), {Op::LoopActive, l});
      else
        push(loopVar(l), {Op::LoopVar, l});
      return;
    }
    case 6: case 7: case 8: case 9: case 10: case 11: {
      if (pool.empty())
        return;
      Op o = Binary[in.u8() % (sizeof(Binary) / sizeof(Binary[0]))];
      int a = pick(), b = pick();
      push(bin(o, pool[a].e, pool[b].e), {o, 0, a, b});
      return;
    }
    case 12: {
      if (pool.empty())
        return;
      // The three unary operators, or one of the eight bit intrinsics.
      unsigned k = in.u8() % 11;
      int a = pick();
      if (k < 3)
        push(un(Unary[k], pool[a].e), {Unary[k], 0, a});
      else
        push(bits(BitFn(k - 3), pool[a].e), {Op::Bits, int64_t(k - 3), a});
      return;
    }
    case 13: {
      if (pool.empty())
        return;
      int c = pick(), t = pick(), f = pick();
      push(select(pool[c].e, pool[t].e, pool[f].e), {Op::Select, 0, c, t, f});
      return;
    }
    case 14: {
      if (pool.empty())
        return;
      int a = pick();
      int origin = in.u8();
      // The same value, tagged with where the front end found it.
      Entry copy = pool[a];
      copy.e = withOrigin(pool[a].e, origin);
      copy.tooDeep |= copy.e->op == Op::TooDeep;
      pool.push_back(copy);
      return;
    }
    case 15:
    case 16: {
      // A loop with up to three induction variables, starting from values
      // in scope now.
      if (ctx.loops.size() >= MaxLoops)
        return;
      int vars = 1 + in.u8() % 3;
      vars = std::min<int>(vars, int(MaxLoops - ctx.loops.size()));
      Group g{int(ctx.loops.size()), int(ctx.loops.size()) + vars};
      for (int v = 0; v < vars; ++v) {
        int i = pick();
        Loop l;
        l.var = "i" + std::to_string(g.first + v);
        l.init = i >= 0 ? pool[i].e : cst(0);
        if (v > 0)
          l.iterOf = g.first;
        ctx.addLoop(l);
      }
      open.push_back(g);
      return;
    }
    case 17:
      if (!open.empty())
        closeGroup();
      return;
    default: {
      if (pool.empty() || tasks.size() >= MaxTasks)
        return;
      uint8_t b = in.u8();
      Task t;
      t.kind = b % 6;
      t.x = pick();
      t.y = b & 0x40 ? pick() : -1;
      t.z = pick();
      static const int sizes[] = {1, 2, 4, 8, 16, 4, 4, 8};
      t.bytes = sizes[in.u8() % 8];
      t.space = (b >> 3) % 3;
      tasks.push_back(t);
      return;
    }
    }
  }

  void header() {
    int atoms = in.u8() % 6;
    for (int i = 0; i < atoms; ++i) {
      uint8_t b = in.u8();
      AtomKind k = b % 3 == 0   ? AtomKind::Parameter
                   : b % 3 == 1 ? AtomKind::Uniform
                                : AtomKind::Data;
      int a = ctx.addAtom("a" + std::to_string(i), k);
      int known = (b >> 2) % 8 < 5 ? 0 : (b >> 2) % 8 - 4;
      for (int j = 0; j < known; ++j)
        ctx.atoms[a].known.push_back(in.constant());
      if (known)
        ctx.atoms[a].knownFrom = "the fuzzer";
    }
    int n = 1 + in.u8() % 3;
    for (int i = 0; i < n; ++i) {
      Shape s;
      s.x = 1 + (in.u8() | in.u8() << 8) % 256;
      s.y = 1 + in.u8() % std::max<int64_t>(1, 256 / s.x);
      s.z = 1 + in.u8() % std::max<int64_t>(1, 256 / (s.x * s.y));
      shapes.push_back(s);
    }
    env2 = representativeEnv(ctx);
    for (int d = 0; d < 3; ++d) {
      env2.blockIdx[d] = in.u8();
      env2.gridDim[d] = 1 + in.u8();
    }
    for (size_t u = 0; u < ctx.atoms.size(); ++u)
      env2.unknowns.set(u, in.constant());
  }
};

/// The expression as written, per lane, in C's semantics on int64; false
/// where some operation is undefined (division by zero, shift outside 0..62).
struct Reference {
  const Program &P;
  const Shape &sh;
  const Env &env;
  int warp;
  std::vector<char> done, ok;
  std::vector<Lanes> val;
  Reference(const Program &p, const Shape &s, const Env &e, int w)
      : P(p), sh(s), env(e), warp(w), done(p.pool.size()), ok(p.pool.size()),
        val(p.pool.size()) {}

  bool eval(int i) {
    if (done[i])
      return ok[i];
    const Raw &r = P.pool[i].raw;
    bool good = true;
    Lanes out{};
    Lanes a{}, b{}, c{};
    if (r.a >= 0) { good &= eval(r.a); a = val[r.a]; }
    if (r.b >= 0) { good &= eval(r.b); b = val[r.b]; }
    if (r.c >= 0) { good &= eval(r.c); c = val[r.c]; }
    for (int l = 0; l < WarpSize && good; ++l) {
      int64_t t = int64_t(warp) * WarpSize + l;
      int64_t tid[3] = {t % sh.x, (t / sh.x) % sh.y, t / (sh.x * sh.y)};
      int64_t dim[3] = {sh.x, sh.y, sh.z};
      int64_t x = a[l], y = b[l], &o = out[l];
      switch (r.op) {
      case Op::Const: o = r.value; break;
      case Op::ThreadIdx: o = tid[r.value]; break;
      case Op::BlockIdx: o = env.blockIdx[r.value]; break;
      case Op::BlockDim: o = dim[r.value]; break;
      case Op::GridDim: o = env.gridDim[r.value]; break;
      case Op::Unknown:
      case Op::Data:
        o = env.unknowns[size_t(r.value)];
        break;
      case Op::Add: o = wrapAdd(x, y); break;
      case Op::Sub: o = wrapSub(x, y); break;
      case Op::Mul: o = wrapMul(x, y); break;
      case Op::Div:
      case Op::Rem:
        if (y == 0)
          good = false;
        else if (y == -1)
          o = r.op == Op::Div ? wrapNeg(x) : 0;
        else
          o = r.op == Op::Div ? x / y : x % y;
        break;
      case Op::Shl:
      case Op::Shr:
        if (y < 0 || y > 62)
          good = false;
        else
          o = r.op == Op::Shl ? int64_t(uint64_t(x) << y) : x >> y;
        break;
      case Op::And: o = x & y; break;
      case Op::Or: o = x | y; break;
      case Op::Xor: o = x ^ y; break;
      case Op::Min: o = std::min(x, y); break;
      case Op::Max: o = std::max(x, y); break;
      case Op::Lt: o = x < y; break;
      case Op::Le: o = x <= y; break;
      case Op::Gt: o = x > y; break;
      case Op::Ge: o = x >= y; break;
      case Op::Eq: o = x == y; break;
      case Op::Ne: o = x != y; break;
      case Op::LAnd: o = x != 0 && y != 0; break;
      case Op::LOr: o = x != 0 || y != 0; break;
      case Op::Neg: o = wrapNeg(x); break;
      case Op::Not: o = ~x; break;
      case Op::LNot: o = x == 0; break;
      case Op::Bits: o = referenceBits(BitFn(r.value), x); break;
      case Op::Select: o = x ? y : c[l]; break;
      default: good = false; break; // loops: not modelled here
      }
    }
    done[i] = 1;
    ok[i] = good;
    val[i] = out;
    return good;
  }
};

void checkAgainstReference(Program &p, const Shape &sh, const Env &env,
                           int warp) {
  Reference ref(p, sh, env, warp);
  WarpEval ev(p.ctx, sh, env, warp);
  for (size_t i = 0; i < p.pool.size(); ++i) {
    const Entry &n = p.pool[i];
    if (n.maxVar >= 0 || n.maxActive >= 0 || n.tooDeep)
      continue;
    if (!ref.eval(int(i)))
      continue;
    Lanes got = ev.value(n.e);
    for (int l = 0; l < WarpSize; ++l)
      if (got[l] != ref.val[i][l]) {
        std::fprintf(stderr,
                     "model value differs from the expression as written: "
                     "node %zu (%s), warp %d lane %d: evaluator %lld, "
                     "written %lld\n",
                     i, opName(n.raw), warp, l, (long long)got[l],
                     (long long)ref.val[i][l]);
        abort();
      }
  }
  if (ev.undefined) {
    // Only a node whose direct evaluation is undefined, or which the
    // builders could not build, may make the evaluator's result undefined;
    // each node was evaluated above on its own, so re-check them one by one.
    for (size_t i = 0; i < p.pool.size(); ++i) {
      const Entry &n = p.pool[i];
      if (n.maxVar >= 0 || n.maxActive >= 0 || n.tooDeep || !ref.eval(int(i)))
        continue;
      WarpEval one(p.ctx, sh, env, warp);
      one.value(n.e);
      if (one.undefined) {
        std::fprintf(stderr,
                     "evaluator reports an undefined operation in node %zu "
                     "(%s), whose direct evaluation is defined\n",
                     i, opName(n.raw));
        abort();
      }
    }
  }
}

/// Every warp period claimed (Period.h) for an access's address and mask
/// holds in the evaluator: warp g + period has the same active lanes and
/// flags as warp g, and every address moved by the shift.
void checkPeriods(Program &p, const Env &base) {
  for (const Program::Task &t : p.tasks) {
    if (t.kind > 1)
      continue;
    const LaneExpr &x = p.pool[t.x].e;
    LaneExpr y = t.y >= 0 ? p.pool[t.y].e : nullptr;
    for (const Shape &sh : p.shapes) {
      const int64_t blocks = 3;
      auto period = warpPeriod(x, y, p.ctx, sh, base, blocks);
      if (!period)
        continue;
      const int64_t blockWarps = sh.x / WarpSize, warps = blocks * blockWarps;
      auto eval = [&](int64_t g) {
        Env env = base;
        env.blockIdx[0] = g / blockWarps;
        WarpEval ev(p.ctx, sh, env, int(g % blockWarps));
        LaneMask m = ev.mask(y);
        Lanes v = ev.value(x);
        return std::make_tuple(m, v, ev.undefined, ev.assumedGuard,
                               ev.usedDataCondition);
      };
      for (int64_t g = 0; g + period->warps < warps; ++g) {
        auto [m0, v0, u0, a0, d0] = eval(g);
        auto [m1, v1, u1, a1, d1] = eval(g + period->warps);
        bool same = m0 == m1 && u0 == u1 && a0 == a1 && d0 == d1 &&
                    (!period->total || !u0);
        for (int l = 0; l < WarpSize; ++l)
          same &= v1[l] == wrapAdd(v0[l], period->shift);
        if (!same) {
          std::fprintf(stderr,
                       "warp period %lld (shift %lld) does not hold between "
                       "warps %lld and %lld of a %lldx%lldx%lld block\n",
                       (long long)period->warps, (long long)period->shift,
                       (long long)g, (long long)(g + period->warps),
                       (long long)sh.x, (long long)sh.y, (long long)sh.z);
          abort();
        }
      }
    }
  }
}

void runTasks(Program &p) {
  std::vector<MergeInput> merges;
  for (const Program::Task &t : p.tasks) {
    const LaneExpr &x = p.pool[t.x].e;
    LaneExpr y = t.y >= 0 ? p.pool[t.y].e : nullptr;
    const LaneExpr &z = p.pool[t.z].e;
    switch (t.kind) {
    case 0:
    case 1: {
      Access acc{x, y, t.bytes};
      CostModel cost = t.space == 0   ? globalSectors
                       : t.space == 1 ? sharedWavefronts
                                      : constantAddresses;
      AccessResult r = analyzeAccess(acc, p.ctx, p.shapes, cost);
      if (r.evaluated) {
        describeDependence(r, p.ctx);
        WarpRequest req = firstRequest(x, y, p.ctx, p.shapes[0]);
        sameAddressLanes(req.addr, req.active);
        laneList(req.active);
        adjacentDistance(x, p.ctx, p.shapes[0]);
        spreadingTerm(x, p.ctx, p.shapes[0]);
      }
      laneSources(x, p.ctx);
      merges.push_back({acc, t.space, t.bytes});
      break;
    }
    case 2:
      analyzeBranch(x, y, p.ctx, p.shapes);
      pictureBranch(x, y, p.ctx, p.shapes[0], 8);
      break;
    case 3:
      if (!p.ctx.loops.empty()) {
        int loop = int(uint64_t(t.z) % p.ctx.loops.size());
        analyzeLoopExit(loop, y, p.ctx, p.shapes);
        pictureLoop(loop, y, p.ctx, p.shapes[0], 8);
      }
      break;
    case 4:
      analyzeReach(x, p.ctx, p.shapes);
      break;
    case 5:
      analyzeHazard(x, y, t.bytes, z, nullptr, t.bytes, p.ctx, p.shapes);
      break;
    }
  }
  if (merges.size() >= 2)
    mergeAdjacent(merges, p.ctx, p.shapes[0]);
}

/// The request cost functions on lane addresses straight from the input.
void rawCosts(Input &in) {
  Lanes addr;
  for (auto &a : addr)
    a = wrapAdd(wrapMul(in.constant(), 4), in.u8() % 4);
  LaneMask active = LaneMask(in.i64());
  static const int sizes[] = {1, 2, 4, 8, 16};
  int bytes = sizes[in.u8() % 5];
  Cost g = globalSectors(addr, active, bytes);
  Cost s = sharedWavefronts(addr, active, bytes);
  Cost c = constantAddresses(addr, active, bytes);
  int lanes = __builtin_popcount(active);
  // A request moves at least the sectors it ideally needs, and at most two
  // sectors per active lane (an element straddles at most one boundary).
  if (g.actual > 2 * lanes || (lanes && g.actual < 1) ||
      s.actual < s.ideal || c.actual > lanes) {
    std::fprintf(stderr,
                 "request costs out of range: %d lanes, sectors %g, "
                 "wavefronts %g (ideal %g), addresses %g\n",
                 lanes, g.actual, s.actual, s.ideal, c.actual);
    abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Input in{data, data + size};
  if (size && data[0] == 'R') {
    ++in.p;
    rawCosts(in);
    return 0;
  }
  Program p(in);
  p.header();
  while (!p.in.done())
    p.step();
  while (!p.open.empty())
    p.closeGroup();
  if (p.pool.empty())
    return 0;
  if (p.tasks.empty())
    p.tasks.push_back({0, int(p.pool.size()) - 1, -1, 0, 4, 0});
  // As the front end does once a kernel's expressions are built.
  std::vector<LaneExpr> exprs;
  for (const Entry &n : p.pool)
    exprs.push_back(n.e);
  classifyAtoms(p.ctx, exprs);

  Env env1 = representativeEnv(p.ctx);
  const Shape &sh = p.shapes[0];
  checkAgainstReference(p, sh, env1, 0);
  p.env2.loopIter.assign(p.ctx.loops.size(), 0);
  checkAgainstReference(p, sh, p.env2, sh.warps() - 1);
  checkPeriods(p, env1);
  runTasks(p);
  return 0;
}
