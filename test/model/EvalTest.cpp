// Table-driven tests of the evaluator: warp formation, operators, conditions.
#include "model/Eval.h"
#include "model/Sampling.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

namespace warplint {
namespace {

// Blocks and an environment that outlive every evaluator: a WarpEval
// keeps references to its shape and environment.
const Shape Block32{32, 1, 1}, Block40{40, 1, 1}, Block64{64, 1, 1},
    Block256{256, 1, 1};
const Env NoEnv;

struct ValueRow {
  const char *name;
  LaneExpr e;
  Shape shape;
  int warp;
  std::vector<int64_t> lanes; // expected values of the first lanes
};

TEST(Eval, ConstantsFoldWrapping) {
  int64_t v = 0;
  EXPECT_TRUE(constValue(bin(Op::Add, cst(INT64_MAX), cst(1)), v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_TRUE(constValue(bin(Op::Div, cst(INT64_MIN), cst(-1)), v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_TRUE(constValue(un(Op::Neg, cst(INT64_MIN)), v));
  EXPECT_EQ(v, INT64_MIN);
}

TEST(Expr, BitIntrinsicsFoldOnConstants) {
  int64_t v = 0;
  EXPECT_TRUE(constValue(bits(BitFn::Brev32, cst(1)), v));
  EXPECT_EQ(v, int64_t(0x80000000));
  EXPECT_TRUE(constValue(bits(BitFn::Clz32, cst(0)), v));
  EXPECT_EQ(v, 32);
  EXPECT_TRUE(constValue(bits(BitFn::Ffs32, cst(0)), v));
  EXPECT_EQ(v, 0);
  // Only the low 32 bits count for the 32-bit forms.
  EXPECT_TRUE(constValue(bits(BitFn::Popc32, cst(int64_t(0xff00000000) | 7)), v));
  EXPECT_EQ(v, 3);
  EXPECT_STREQ(bitFnName(BitFn::Brev64), "__brevll");
}

TEST(Eval, Values) {
  const ValueRow rows[] = {
      {"threadIdx.x warp 1", threadIdx(0), {256, 1, 1}, 1, {32, 33, 34}},
      {"16x16: y varies in a warp", threadIdx(1), {16, 16, 1}, 0,
       {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1}},
      {"16x16: x wraps", threadIdx(0), {16, 16, 1}, 0,
       {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1}},
      {"8x8x4: z", threadIdx(2), {8, 8, 4}, 1, {0, 0}},
      {"8x4x4: z in warp 0", threadIdx(2), {8, 2, 4}, 0,
       {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
      {"xor swizzle", bin(Op::Xor, threadIdx(0), cst(1)), {32, 1, 1}, 0,
       {1, 0, 3, 2}},
      {"shift", bin(Op::Shl, threadIdx(0), cst(3)), {32, 1, 1}, 0, {0, 8, 16}},
      {"select", select(bin(Op::Lt, threadIdx(0), cst(2)), cst(7), cst(9)),
       {32, 1, 1}, 0, {7, 7, 9}},
      {"blockDim", blockDim(1), {16, 16, 1}, 0, {16}},
      // Integers wrap as the GPU's do, with no undefined behaviour here.
      {"add wraps", bin(Op::Add, threadIdx(0), cst(INT64_MAX)), {32, 1, 1}, 0,
       {INT64_MAX, INT64_MIN, INT64_MIN + 1}},
      {"multiply wraps", bin(Op::Mul, bin(Op::Add, threadIdx(0), cst(1)), cst(INT64_MIN)),
       {32, 1, 1}, 0, {INT64_MIN, 0, INT64_MIN}},
      {"negative shifted", bin(Op::Shl, bin(Op::Sub, threadIdx(0), cst(1)), cst(62)),
       {32, 1, 1}, 0, {INT64_MIN / 2, 0, INT64_MAX / 2 + 1}},
      {"min / -1", bin(Op::Div, bin(Op::Add, threadIdx(0), cst(INT64_MIN)), cst(-1)),
       {32, 1, 1}, 0, {INT64_MIN, INT64_MAX}},
      // The bit intrinsics, on the operand's low 32 or 64 bits.
      {"5-bit reversal", bin(Op::Shr, bits(BitFn::Brev32, threadIdx(0)), cst(27)),
       {32, 1, 1}, 0, {0, 16, 8, 24, 4, 20, 12, 28, 2}},
      {"__brev of a negative", bits(BitFn::Brev32, bin(Op::Sub, threadIdx(0), cst(1))),
       {32, 1, 1}, 0, {0xffffffff, 0, 0x80000000}},
      {"__brevll", bits(BitFn::Brev64, threadIdx(0)), {32, 1, 1}, 0,
       {0, INT64_MIN, 0x4000000000000000}},
      {"__popc", bits(BitFn::Popc32, threadIdx(0)), {32, 1, 1}, 0,
       {0, 1, 1, 2, 1, 2, 2, 3}},
      {"__popcll of -1", bits(BitFn::Popc64, bin(Op::Sub, threadIdx(0), cst(1))),
       {32, 1, 1}, 0, {64, 0, 1}},
      {"__clz", bits(BitFn::Clz32, threadIdx(0)), {32, 1, 1}, 0,
       {32, 31, 30, 30, 29}},
      {"__clzll", bits(BitFn::Clz64, threadIdx(0)), {32, 1, 1}, 0, {64, 63, 62}},
      {"__ffs", bits(BitFn::Ffs32, threadIdx(0)), {32, 1, 1}, 0,
       {0, 1, 2, 1, 3, 1, 2, 1, 4}},
      {"__ffsll above 32 bits", bits(BitFn::Ffs64, bin(Op::Shl, threadIdx(0), cst(40))),
       {32, 1, 1}, 0, {0, 41, 42}},
  };
  Context ctx;
  for (const ValueRow &row : rows) {
    Env env;
    WarpEval ev(ctx, row.shape, env, row.warp);
    Lanes v = ev.value(row.e);
    for (size_t l = 0; l < row.lanes.size(); ++l)
      EXPECT_EQ(v[l], row.lanes[l]) << row.name << " lane " << l;
  }
}

// A value every lane shares (Node::uniform) is computed once for the warp:
// the same value and the same flags as the lane-by-lane evaluation of the
// same operations on a lane-varying leaf that holds that value in every lane
// (threadIdx.y of a 32-wide block is 0 in each).
TEST(Eval, UniformValuesMatchTheLanewiseEvaluation) {
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Parameter);
  struct Row {
    const char *name;
    std::function<LaneExpr(LaneExpr)> f;
    bool undefined;
  };
  const Row rows[] = {
      {"sum", [&](LaneExpr x) { return bin(Op::Add, x, unknown(n)); }, false},
      {"product wraps",
       [&](LaneExpr x) { return bin(Op::Mul, x, cst(INT64_MAX)); }, false},
      {"division", [&](LaneExpr x) { return bin(Op::Div, unknown(n), x); },
       false},
      {"division by zero",
       [&](LaneExpr x) { return bin(Op::Div, x, bin(Op::Sub, x, x)); }, true},
      {"remainder by zero",
       [&](LaneExpr x) { return bin(Op::Rem, x, bin(Op::Sub, x, x)); }, true},
      {"min / -1",
       [&](LaneExpr x) {
         return bin(Op::Div, bin(Op::Add, x, cst(INT64_MIN)), cst(-1));
       },
       false},
      {"shift out of range",
       [&](LaneExpr x) { return bin(Op::Shl, x, cst(70)); }, true},
      {"negative shifted right out of range",
       [&](LaneExpr x) { return bin(Op::Shr, un(Op::Neg, x), cst(64)); }, true},
      {"comparisons and logic",
       [&](LaneExpr x) {
         return bin(Op::LOr, bin(Op::Lt, x, unknown(n)),
                    un(Op::LNot, bin(Op::Ne, x, cst(3))));
       },
       false},
      {"select, bits, min and max",
       [&](LaneExpr x) {
         return select(bin(Op::Ge, x, cst(2)),
                       bits(BitFn::Popc32, bin(Op::Xor, x, unknown(n))),
                       bin(Op::Max, un(Op::Not, x), bin(Op::Min, x, cst(-5))));
       },
       false},
      {"shared sub-expressions",
       [&](LaneExpr x) {
         LaneExpr a = x;
         for (int i = 0; i < 40; ++i)
           a = bin(Op::Add, bin(Op::Mul, a, cst(3)), bin(Op::Shr, a, cst(1)));
         return a;
       },
       false},
  };
  for (int64_t block : {0, 1, 7}) {
    Env env;
    env.blockIdx[0] = block;
    env.unknowns.set(size_t(n), 37);
    for (const Row &row : rows) {
      LaneExpr uniform = row.f(blockIdx(0));
      LaneExpr lanewise = row.f(bin(Op::Add, blockIdx(0), threadIdx(1)));
      ASSERT_TRUE(uniform->uniform) << row.name;
      ASSERT_FALSE(lanewise->uniform) << row.name;
      WarpEval u(ctx, Block32, env, 0), l(ctx, Block32, env, 0);
      Lanes uv = u.value(uniform), lv = l.value(lanewise);
      EXPECT_EQ(uv, lv) << row.name << " in block " << block;
      EXPECT_EQ(u.undefined, l.undefined) << row.name << " in block " << block;
      if (block == 1)
        EXPECT_EQ(u.undefined, row.undefined) << row.name;
      // Kept for the environment's other warps (WarpEval::shareUniforms):
      // the same value and the same flags for each, the first evaluation's
      // or a later one's, and the flags an evaluation had set stay set.
      UniformValues shared;
      for (int w : {0, 1, 0}) {
        WarpEval s(ctx, Block64, env, w);
        s.shareUniforms(&shared);
        s.assumedGuard = w == 1;
        EXPECT_EQ(s.value(uniform), uv) << row.name << " in warp " << w;
        EXPECT_EQ(s.undefined, u.undefined) << row.name << " in warp " << w;
        EXPECT_EQ(s.assumedGuard, w == 1) << row.name << " in warp " << w;
      }
      EXPECT_EQ(shared.values.count(uniform.get()),
                uniform->depth > 2 && !u.undefined ? 1u : 0u)
          << row.name;
    }
  }
  // Lane-varying leaves, loops and data are never uniform.
  EXPECT_FALSE(threadIdx(0)->uniform);
  EXPECT_FALSE(loopVar(ctx.addLoop(Loop{}))->uniform);
  EXPECT_FALSE(data(ctx.addAtom("d", AtomKind::Data))->uniform);
  EXPECT_TRUE(bin(Op::Mul, gridDim(0), blockDim(0))->uniform);
}

struct MaskRow {
  const char *name;
  LaneExpr cond;
  LaneMask expected;
  bool guard;
};

TEST(Eval, Masks) {
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Parameter);
  int d = ctx.addAtom("a[tid]", AtomKind::Data);
  int steps = ctx.addAtom("steps", AtomKind::Parameter);
  ctx.atoms[size_t(steps)].known = {9}; // the launch's constant
  LaneExpr t = threadIdx(0);
  const MaskRow rows[] = {
      {"tid > 2", bin(Op::Gt, t, cst(2)), 0xfffffff8u, false},
      {"odd", bin(Op::Eq, bin(Op::Rem, t, cst(2)), cst(1)), 0xaaaaaaaau, false},
      {"not odd", un(Op::LNot, bin(Op::Eq, bin(Op::Rem, t, cst(2)), cst(1))),
       0x55555555u, false},
      {"tid < n is a guard", bin(Op::Lt, t, unknown(n)), AllLanes, true},
      {"negated guard still assumed", un(Op::LNot, bin(Op::Lt, t, unknown(n))),
       AllLanes, true},
      {"guard && odd", bin(Op::LAnd, bin(Op::Lt, t, unknown(n)),
                           bin(Op::Eq, bin(Op::And, t, cst(1)), cst(1))),
       0xaaaaaaaau, true},
      {"data is assumed", bin(Op::Gt, data(d), cst(0)), AllLanes, false},
      // An equality on threadIdx.x picks a lane (n reads 1024 here): no
      // guard. On threadIdx.y it picks whole rows, whole warps: a guard.
      {"tid == n - 1000 picks lane 24",
       bin(Op::Eq, t, bin(Op::Sub, unknown(n), cst(1000))), 1u << 24, false},
      {"tid.y == n is a guard", bin(Op::Eq, threadIdx(1), unknown(n)), AllLanes,
       true},
      // A thread count the launch gives is evaluated; on a global index it
      // stays a guard.
      {"tid < steps (9, known) runs 9 lanes", bin(Op::Lt, t, unknown(steps)),
       0x1ffu, false},
      {"gid < steps stays a guard",
       bin(Op::Lt, bin(Op::Add, bin(Op::Mul, blockIdx(0), cst(256)), t),
           unknown(steps)),
       AllLanes, true},
  };
  for (const MaskRow &row : rows) {
    Env env = representativeEnv(ctx); // known values at their first
    PreparedConditions p = prepareConditions(ctx, row.cond);
    WarpEval ev(p.ctx, Block256, env, 0);
    EXPECT_EQ(ev.mask(p.mask), row.expected) << row.name;
    EXPECT_EQ(ev.assumedGuard, row.guard) << row.name;
    EXPECT_EQ(p.guard, row.guard) << row.name;
  }
}

// The loop conditions prepared for a context are kept for the next call on
// it, until its atoms change: a value loaded per lane that the analysis
// took as one per warp (markWarpUniformData()) and gave back is data again,
// and a loop bounded by it is bounded by data.
TEST(Eval, PreparedConditionsFollowTheContextsChanges) {
  Context ctx;
  int a = ctx.addAtom("len[t]", AtomKind::Data);
  ctx.addLoop({"i", cst(0), loopVar(0) + cst(1),
               bin(Op::Lt, loopVar(0), data(a))});
  EXPECT_TRUE(prepareConditions(ctx, nullptr).data);
  ctx.atoms[a].kind = AtomKind::Uniform;
  ++ctx.generation;
  PreparedConditions uniform = prepareConditions(ctx, nullptr);
  EXPECT_FALSE(uniform.data);
  EXPECT_TRUE(uniform.guard); // a bound the model cannot know: assumed
  ctx.atoms[a].kind = AtomKind::Data;
  ++ctx.generation;
  EXPECT_TRUE(prepareConditions(ctx, nullptr).data);
  // A context built later at the same address is another context.
  Context copy = ctx;
  EXPECT_NE(copy.serial, ctx.serial);
}

// A deep condition (a branch nested in many loops) is kept across
// WarpEvals per warp and sample: the next branch of the nest looks its
// enclosing conditions up instead of evaluating them again. What it keeps
// must be what a fresh evaluation gives: the lanes for those loop
// iterations, and the flags of the guards it assumes, even when the
// WarpEval that first evaluated it had its loops evaluated already (and so
// set no flag on the way).
TEST(Eval, DeepConditionsAreKeptWithTheirFlags) {
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Uniform);
  LaneExpr deep;
  for (int k = 0; k < 12; ++k) {
    int L = ctx.addLoop({"i" + std::to_string(k), cst(0),
                         loopVar(k) + cst(1),
                         bin(Op::Lt, loopVar(k), unknown(n))});
    LaneExpr here = bin(Op::LAnd, loopActive(L),
                        bin(Op::Ne, loopVar(L), threadIdx(0)));
    deep = deep ? bin(Op::LAnd, deep, here) : here;
  }
  ASSERT_GE(deep->depth, 12u);
  PreparedConditions p = prepareConditions(ctx, deep);
  ASSERT_TRUE(p.guard);
  Env env;
  env.loopIter.assign(12, 1); // every loop at i = 1: lane 1 is left out
  const LaneMask expected = AllLanes & ~LaneMask(2);
  {
    WarpEval first(p.ctx, Block256, env, 0);
    for (int k = 0; k < 12; ++k)
      first.mask(loopActive(k));
    EXPECT_TRUE(first.assumedGuard);
    first.assumedGuard = false;
    EXPECT_EQ(first.mask(p.mask), expected);
    EXPECT_TRUE(first.assumedGuard); // the loops' guards, evaluated before
  }
  WarpEval second(p.ctx, Block256, env, 0);
  EXPECT_EQ(second.mask(p.mask), expected);
  EXPECT_TRUE(second.assumedGuard);
  // Other iterations, another warp: other lanes, not the kept ones.
  Env other = env;
  other.loopIter.assign(12, 3);
  WarpEval third(p.ctx, Block256, other, 0);
  EXPECT_EQ(third.mask(p.mask), AllLanes & ~LaneMask(8));
  WarpEval fourth(p.ctx, Block256, env, 1);
  EXPECT_EQ(fourth.mask(p.mask), AllLanes);
}

// Each branch of a nest is evaluated afresh per environment and warp: its
// own lookups all miss. The branch nested in it finds those lanes (its
// condition is built on the enclosing one), past the table's first growth,
// and they are the lanes the conditions select.
TEST(Eval, DeepConditionsAreFoundByTheBranchesNestedInThem) {
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Uniform);
  LaneExpr deep;
  for (int k = 0; k < 12; ++k) {
    int L = ctx.addLoop({"i" + std::to_string(k), cst(0), loopVar(k) + cst(1),
                         bin(Op::Lt, loopVar(k), unknown(n))});
    LaneExpr here =
        bin(Op::LAnd, loopActive(L), bin(Op::Ne, loopVar(L), threadIdx(0)));
    deep = deep ? bin(Op::LAnd, deep, here) : here;
  }
  const LaneExpr nested =
      bin(Op::LAnd, deep, bin(Op::Ne, threadIdx(0), cst(70)));
  PreparedConditions pd = prepareConditions(ctx, deep);
  PreparedConditions pn = prepareConditions(ctx, nested);
  // Every loop at iteration v leaves out the thread v; the nested branch
  // also thread 70.
  auto expected = [](int warp, int v, bool inner) {
    LaneMask m = AllLanes;
    for (int t : {v, inner ? 70 : -1})
      if (t >= 32 * warp && t < 32 * warp + 32)
        m &= ~(LaneMask(1) << (t - 32 * warp));
    return m;
  };
  constexpr int Values = 128, Warps = 8; // 1,024 keys: the table grows
  std::vector<Env> envs(Values);
  for (int v = 0; v < Values; ++v)
    envs[size_t(v)].loopIter.assign(12, v);
  const CondCacheCounts before = condCacheCounts();
  for (int v = 0; v < Values; ++v)
    for (int w = 0; w < Warps; ++w) {
      WarpEval ev(pd.ctx, Block256, envs[size_t(v)], w);
      ASSERT_EQ(ev.mask(pd.mask), expected(w, v, false)) << v << " " << w;
    }
  const CondCacheCounts between = condCacheCounts();
  // Every key is new: nothing found (the conditions within the deep one are
  // looked up too, until they are seen never to be found).
  EXPECT_EQ(between.found, before.found);
  EXPECT_GE(between.missed - before.missed, uint64_t(Values * Warps));
  for (int v = 0; v < Values; ++v)
    for (int w = 0; w < Warps; ++w) {
      WarpEval ev(pn.ctx, Block256, envs[size_t(v)], w);
      ASSERT_EQ(ev.mask(pn.mask), expected(w, v, true)) << v << " " << w;
      EXPECT_TRUE(ev.assumedGuard); // the loops' bounds, kept with the lanes
    }
  // Each nested evaluation misses its own condition and finds the deep one.
  const CondCacheCounts after = condCacheCounts();
  EXPECT_EQ(after.found - between.found, uint64_t(Values * Warps));
  EXPECT_EQ(after.missed - between.missed, uint64_t(Values * Warps));
}

TEST(Eval, LoopRecurrence) {
  // for (s = 128; s > 0; s >>= 1): iteration 3 has s = 16.
  Context ctx;
  int L = ctx.addLoop({"s", cst(128), bin(Op::Shr, loopVar(0), cst(1)),
                       bin(Op::Gt, loopVar(0), cst(0))});
  Env env;
  env.loopIter = {3};
  WarpEval ev(ctx, Block256, env, 0);
  EXPECT_EQ(ev.value(loopVar(L))[0], 16);
  EXPECT_EQ(ev.mask(loopActive(L)), AllLanes);
  env.loopIter = {8};
  WarpEval past(ctx, Block256, env, 0);
  EXPECT_EQ(past.mask(loopActive(L)), 0u);
}

// Loops of the affine form (`v = v + step` or `v - step`, the step free of
// the loop) with a monotone condition take closed forms: the value at
// iteration k is init + k * step, the lanes inside are the condition at the
// first tested iteration and at k, and trip counts are bisected. Each row is
// checked against the same loop written so that no closed form applies
// (`(v | 0) + step`, `cond || 0`), which the evaluator steps through.
TEST(Eval, AffineLoopsMatchTheirRecurrence) {
  struct Row {
    const char *name;
    LaneExpr init, step;
    bool down;
    LaneExpr cond;
    bool doWhile;
    bool monotone = true; // the closed form of the lanes inside applies
  };
  const LaneExpr v = loopVar(0), t = threadIdx(0);
  const LaneExpr n = unknown(0);
  const Row rows[] = {
      {"grid-stride", blockIdx(0) * blockDim(0) + t, blockDim(0) * gridDim(0),
       false, bin(Op::Lt, v, n), false},
      {"downward, two bounds", cst(300) - t, cst(7), true,
       bin(Op::LAnd, bin(Op::Ge, v, cst(5)), bin(Op::Gt, v, t)), false},
      {"step per lane, scaled bound", cst(0), t + cst(1), false,
       bin(Op::Lt, v * cst(3) - cst(2), cst(500)), false},
      {"do-while", t, cst(1), false, bin(Op::Lt, v, cst(40) + t), true},
      {"minimum", t, cst(2), false,
       bin(Op::Lt, bin(Op::Min, v, cst(64)), cst(64)), false},
      {"a condition free of the loop",
       cst(0), cst(3), false,
       bin(Op::LAnd, bin(Op::Ne, bin(Op::Rem, t, cst(3)), cst(0)),
           bin(Op::Lt, v, cst(100))),
       false},
      {"zero step", t, t - t, false, bin(Op::Lt, v, cst(5)), false},
      {"both directions", cst(0), t - cst(16), false,
       bin(Op::LAnd, bin(Op::Lt, v, cst(100)), bin(Op::Gt, v, cst(-100))),
       false},
      {"near overflow", cst(INT64_MAX) - t * cst(1000), cst(int64_t(1) << 60),
       false, bin(Op::Gt, v, cst(0)), false},
      {"not monotone", cst(0), cst(1), false, bin(Op::Ne, v, cst(17)), false,
       false},
  };
  for (const Row &row : rows) {
    Context fast, slow;
    fast.addAtom("n", AtomKind::Uniform);
    slow.addAtom("n", AtomKind::Uniform);
    LaneExpr next = row.down ? v - row.step : v + row.step;
    LaneExpr stepped = bin(Op::Or, v, cst(0));
    LaneExpr slowNext = row.down ? stepped - row.step : stepped + row.step;
    Loop a{"v", row.init, next, row.cond}, b{"v", row.init, slowNext,
                                              bin(Op::LOr, row.cond, cst(0))};
    a.testAfterBody = b.testAfterBody = row.doWhile;
    fast.addLoop(a);
    slow.addLoop(b);
    EXPECT_TRUE(fast.loopForm(0).step) << row.name;
    EXPECT_EQ(fast.loopForm(0).monotone, row.monotone) << row.name;
    EXPECT_FALSE(slow.loopForm(0).step) << row.name;
    Env env;
    env.unknowns = {1000};
    env.blockIdx[0] = 3;
    env.gridDim[0] = 4;
    const Shape shape{64, 1, 1}; // WarpEval keeps a reference
    for (int k = 0; k < 70; ++k) {
      env.loopIter = {k};
      WarpEval f(fast, shape, env, 1), s(slow, shape, env, 1);
      EXPECT_EQ(f.value(v), s.value(v)) << row.name << " iteration " << k;
      EXPECT_EQ(f.mask(loopActive(0)), s.mask(loopActive(0)))
          << row.name << " iteration " << k;
    }
    env.loopIter = {0};
    for (int maxIter : {1, 2, 3, 64, 4096}) {
      WarpEval f(fast, shape, env, 1), s(slow, shape, env, 1);
      EXPECT_EQ(f.loopActiveSequence(0, maxIter),
                s.loopActiveSequence(0, maxIter))
          << row.name << " up to " << maxIter;
    }
    for (LaneMask lanes : {AllLanes, LaneMask(1), LaneMask(0xf0f0u)}) {
      WarpEval f(fast, shape, env, 1), s(slow, shape, env, 1);
      int expected = 0;
      for (LaneMask m : s.loopActiveSequence(0, 4096))
        expected += (m & lanes) != 0;
      EXPECT_EQ(f.tripCount(0, 4096, lanes), expected) << row.name;
      EXPECT_EQ(s.tripCount(0, 4096, lanes), expected) << row.name;
    }
    // After the loop: each lane's value at the test it failed, the stepped
    // sequence's value at that lane's exit; a lane still inside after
    // MaxFinalSteps leaves the value undefined.
    {
      WarpEval f(fast, shape, env, 1), s(slow, shape, env, 1);
      Lanes ff = f.value(loopFinal(0)), ss = s.value(loopFinal(0));
      WarpEval steps(slow, shape, env, 1);
      std::vector<LaneMask> seq =
          steps.loopActiveSequence(0, WarpEval::MaxFinalSteps + 1);
      const bool capped = int(seq.size()) > WarpEval::MaxFinalSteps &&
                          seq.back() != 0;
      EXPECT_EQ(f.undefined, capped) << row.name;
      EXPECT_EQ(s.undefined, capped) << row.name;
      EXPECT_EQ(s.loopUnended, capped) << row.name;
      for (int x = 0; x < WarpSize && !capped; ++x) {
        int exit = 0;
        for (LaneMask m : seq)
          exit += (m >> x) & 1;
        Env at = env;
        at.loopIter = {exit};
        WarpEval e(slow, shape, at, 1);
        EXPECT_EQ(ff[x], e.value(v)[x]) << row.name << " lane " << x;
        EXPECT_EQ(ss[x], e.value(v)[x]) << row.name << " lane " << x;
      }
    }
  }
}

// An update that does not read the variable (`row = pos / w`, the second
// variable of another loop, or a value a call recomputes): every iteration
// after the first has the update's value, and the evaluator takes it without
// stepping. Checked against the same update written to read the variable
// (`(v & 0) + ...`), which is stepped.
TEST(Eval, UpdatesFreeOfTheVariableAreNotStepped) {
  const LaneExpr v = loopVar(0), t = threadIdx(0);
  const LaneExpr next = t * cst(3) + blockIdx(0) * cst(100);
  const LaneExpr cond = bin(Op::Lt, v, cst(150));
  Context fast, slow;
  fast.addLoop({"v", t, next, cond});
  slow.addLoop({"v", t, bin(Op::And, v, cst(0)) + next, cond});
  EXPECT_TRUE(fast.loopForm(0).nextFree);
  EXPECT_FALSE(slow.loopForm(0).nextFree);
  const Shape shape{64, 1, 1};
  for (int64_t block : {0, 1}) {
    for (int k = 0; k < 6; ++k) {
      Env env;
      env.blockIdx[0] = block;
      env.loopIter = {k};
      WarpEval f(fast, shape, env, 1), s(slow, shape, env, 1);
      EXPECT_EQ(f.value(v), s.value(v)) << "iteration " << k;
      EXPECT_EQ(f.mask(loopActive(0)), s.mask(loopActive(0)))
          << "block " << block << " iteration " << k;
    }
  }
}

// The same shortcut where the update reads other loops' variables: taking it
// adds those loops' states while the variable's own is being filled, which
// moves them (found by fuzz_model as a use after free under AddressSanitizer;
// test/fuzz/regressions/fuzz_model/free-update-moves-loop-states).
// A node records the loops it reads (Node::loopBits): what a loop's
// stepping may change. Under an override of a loop (its iterations stepped
// through, a bisected exit), a value that reads none of the overridden
// loops is kept across the steps; each step must still see the value a
// fresh evaluation at that iteration gives.
TEST(Eval, ValuesFreeOfTheSteppedLoopAreKeptAcrossItsSteps) {
  const LaneExpr t = threadIdx(0);
  EXPECT_EQ(t->loopBits, 0u);
  EXPECT_EQ((t + loopVar(3))->loopBits, loopBit(3));
  EXPECT_EQ(bin(Op::Lt, loopVar(1), loopVar(40))->loopBits,
            loopBit(1) | loopBit(31));
  EXPECT_EQ(loopActive(2)->loopBits, loopBit(2));
  EXPECT_EQ(loopFinal(0)->loopBits, ~uint32_t(0));
  // for (o = 0; ...; ++o) for (c = t / 3; 2 * c + 1 < 2 * min(t / 3 +
  // (o * 7) % 11 + 2, 40); ++c): the inner bound reads the outer loop, not
  // the inner one.
  Context ctx;
  int outer = ctx.addLoop(
      {"o", cst(0), loopVar(0) + cst(1), bin(Op::Lt, loopVar(0), cst(6))});
  LaneExpr start = bin(Op::Div, t, cst(3));
  LaneExpr bound =
      bin(Op::Min,
          start + bin(Op::Rem, bin(Op::Mul, loopVar(outer), cst(7)), cst(11)) +
              cst(2),
          cst(40));
  int inner =
      ctx.addLoop({"c", start, loopVar(1) + cst(1),
                   bin(Op::Lt, loopVar(1) * cst(2) + cst(1), bound * cst(2))});
  for (int o = 0; o < 6; ++o) {
    Env env;
    env.loopIter = {o, 0};
    WarpEval stepped(ctx, Block64, env, 1);
    std::vector<LaneMask> seq = stepped.loopActiveSequence(inner, 16);
    ASSERT_FALSE(seq.empty());
    for (int k = 0; k < 16; ++k) {
      // Lane x (thread 32 + x) is inside while c = t / 3 + k is below the
      // bound.
      LaneMask want = 0;
      for (int x = 0; x < WarpSize; ++x) {
        int64_t st = (32 + x) / 3;
        if (st + k < std::min<int64_t>(st + (o * 7) % 11 + 2, 40))
          want |= LaneMask(1) << x;
      }
      env.loopIter = {o, k};
      WarpEval fresh(ctx, Block64, env, 1);
      EXPECT_EQ(k < int(seq.size()) ? seq[size_t(k)] : 0u, want)
          << "outer iteration " << o << ", inner iteration " << k;
      EXPECT_EQ(fresh.mask(loopActive(inner)), want)
          << "outer iteration " << o << ", inner iteration " << k;
    }
  }
}

TEST(Eval, FreeUpdatesThatReadOtherLoops) {
  const LaneExpr t = threadIdx(0);
  Context fast, slow;
  for (Context *c : {&fast, &slow}) {
    c->addLoop({"v", t, nullptr, bin(Op::Lt, loopVar(0), cst(5000))});
    LaneExpr sum = cst(0);
    for (int i = 1; i <= 8; ++i) {
      int id = c->addLoop({"u" + std::to_string(i), t + cst(i),
                           loopVar(i) + cst(i), nullptr});
      sum = sum + loopVar(id);
    }
    c->loops[0].next =
        c == &slow ? bin(Op::And, loopVar(0), cst(0)) + sum : sum;
  }
  EXPECT_TRUE(fast.loopForm(0).nextFree);
  EXPECT_FALSE(slow.loopForm(0).nextFree);
  const Shape shape{64, 1, 1};
  for (int k = 0; k < 4; ++k) {
    Env env;
    env.loopIter.assign(9, k);
    WarpEval f(fast, shape, env, 0), s(slow, shape, env, 0);
    EXPECT_EQ(f.value(loopVar(0)), s.value(loopVar(0))) << "iteration " << k;
  }
}

// A loop whose condition does not read its variable (a bounds guard made
// Assumed, `t < 40`): lanes are inside while it held at the first test,
// taken at once; checked against the same condition written to read the
// variable (`t + (v & 0) < 40`), which is stepped, flags included.
TEST(Eval, ConditionsFreeOfTheVariableAreNotStepped) {
  const LaneExpr v = loopVar(0), t = threadIdx(0);
  for (bool after : {false, true})
    for (const LaneExpr &step :
         std::vector<LaneExpr>{cst(7), bin(Op::Div, cst(1), unknown(0))}) {
      Context fast, slow;
      for (Context *c : {&fast, &slow}) {
        c->addAtom("n", AtomKind::Parameter);
        LaneExpr lhs = c == &slow ? t + bin(Op::And, v, cst(0)) : t;
        Loop l{"v", t * cst(3), v + step, bin(Op::Lt, lhs, cst(40))};
        l.testAfterBody = after;
        c->addLoop(l);
      }
      EXPECT_TRUE(fast.loopForm(0).condFree);
      EXPECT_FALSE(slow.loopForm(0).condFree);
      for (int64_t n : {0, 2})
        for (int k = 0; k < 5; ++k) {
          Env env;
          env.unknowns.set(0, n);
          env.loopIter = {k};
          WarpEval f(fast, Block64, env, 1), s(slow, Block64, env, 1);
          EXPECT_EQ(f.mask(loopActive(0)), s.mask(loopActive(0)))
              << "iteration " << k << " n " << n << " after " << after;
          EXPECT_EQ(f.undefined, s.undefined)
              << "iteration " << k << " n " << n << " after " << after;
        }
    }
}

// A second variable of a loop's iterations that steps by an amount free of
// both loops (`pos -= blockDim.x` beside `j`) takes the closed form at the
// primary's iteration, as the stepped version does.
TEST(Eval, SecondVariablesTakeTheAffineForm) {
  const LaneExpr t = threadIdx(0);
  Context fast, slow;
  for (Context *c : {&fast, &slow}) {
    int j = c->addLoop({"j", cst(0), loopVar(0) + cst(1),
                        bin(Op::Lt, loopVar(0), cst(8))});
    LaneExpr self = c == &slow ? bin(Op::Or, loopVar(1), cst(0)) : loopVar(1);
    Loop pos{"pos", cst(1000) - t, self - blockDim(0), nullptr};
    pos.iterOf = j;
    c->addLoop(pos);
  }
  EXPECT_TRUE(fast.loopForm(1).step);
  EXPECT_FALSE(slow.loopForm(1).step);
  // A step that reads the primary's variable is no such form.
  Context other;
  other.addLoop({"j", cst(0), loopVar(0) + cst(1),
                 bin(Op::Lt, loopVar(0), cst(8))});
  Loop off{"off", cst(0), loopVar(1) + loopVar(0), nullptr};
  off.iterOf = 0;
  other.addLoop(off);
  EXPECT_FALSE(other.loopForm(1).step);
  const Shape shape{256, 1, 1};
  for (int k = 0; k < 8; ++k) {
    Env env;
    env.loopIter = {k};
    WarpEval f(fast, shape, env, 2), s(slow, shape, env, 2);
    EXPECT_EQ(f.value(loopVar(1)), s.value(loopVar(1))) << "iteration " << k;
  }
}

// A second induction variable of a loop leaves with the loop's own: the
// scan's `offset` doubles while `l` halves from blockDim.x / 2 to 0, so it
// is blockDim.x after the loop; one that steps by a constant of its own is
// its start plus that step times each lane's trip count.
TEST(Eval, LoopFinalFollowsThePrimaryVariable) {
  const Shape shape{256, 1, 1};
  const LaneExpr t = threadIdx(0);
  {
    Context ctx;
    int l = ctx.addLoop({"l", bin(Op::Shr, blockDim(0), cst(1)),
                         bin(Op::Shr, loopVar(0), cst(1)),
                         bin(Op::Gt, loopVar(0), cst(0))});
    Loop offset{"offset", cst(1), bin(Op::Shl, loopVar(1), cst(1)), nullptr};
    offset.iterOf = l;
    int o = ctx.addLoop(offset);
    WarpEval ev(ctx, shape, NoEnv, 0);
    Lanes want;
    want.fill(256);
    EXPECT_EQ(ev.value(loopFinal(o)), want);
    EXPECT_FALSE(ev.undefined);
  }
  {
    // for (i = t; i < 100; i += 7, off += 3) with off starting at 5 + t;
    // and the same `off` updated as off * 1 + 3, which is stepped.
    for (bool stepped : {false, true}) {
      Context ctx;
      int i = ctx.addLoop({"i", t, loopVar(0) + cst(7),
                           bin(Op::Lt, loopVar(0), cst(100))});
      LaneExpr self = stepped ? loopVar(1) * cst(1) : loopVar(1);
      Loop off{"off", cst(5) + t, self + cst(3), nullptr};
      off.iterOf = i;
      int o = ctx.addLoop(off);
      WarpEval ev(ctx, shape, NoEnv, 0);
      Lanes got = ev.value(loopFinal(o));
      for (int x = 0; x < WarpSize; ++x) {
        int trips = x < 100 ? (100 - x + 6) / 7 : 0;
        EXPECT_EQ(got[x], 5 + x + 3 * trips) << "lane " << x << stepped;
      }
      EXPECT_FALSE(ev.undefined);
    }
  }
  {
    // A loop that does not end within MaxFinalSteps: no value.
    Context ctx;
    int i = ctx.addLoop({"i", cst(1), bin(Op::Or, loopVar(0), cst(1)),
                         bin(Op::Gt, loopVar(0), cst(0))});
    WarpEval ev(ctx, shape, NoEnv, 0);
    ev.value(loopFinal(i));
    EXPECT_TRUE(ev.undefined);
    EXPECT_TRUE(ev.loopUnended);
  }
}

TEST(Eval, PartialLastWarp) {
  Context ctx;
  Env env;
  WarpEval ev(ctx, Block40, env, 1);
  EXPECT_EQ(ev.present(), 0xffu);
}

TEST(Eval, LaneRankCountsTheLanesBelowInTheMask) {
  Context ctx;
  Env env;
  WarpEval ev(ctx, Block256, env, 0);
  Lanes all = ev.value(laneRank(nullptr));
  for (int l = 0; l < WarpSize; ++l)
    EXPECT_EQ(all[l], l);
  LaneExpr even =
      bin(Op::Eq, bin(Op::Rem, threadIdx(0), cst(2)), cst(0));
  Lanes ranks = ev.value(laneRank(even));
  for (int l = 0; l < WarpSize; ++l)
    EXPECT_EQ(ranks[l], (l + 1) / 2) << "lane " << l;
  // A rank varies across the warp and is no data.
  Props p = props(laneRank(even), ctx);
  EXPECT_TRUE(p.laneVarying);
  EXPECT_FALSE(p.hasData);
}

// Loops whose lanes leave at one iteration (the bound moves with the lane as
// the start does) are recognised without evaluating a warp; loops whose
// lanes may leave apart are not. Each row is checked against the lanes'
// iterations as evaluated, for several values of the unknowns.
TEST(Eval, LoopsWhoseLanesLeaveTogether) {
  struct Row {
    const char *name;
    LaneExpr init, step, cond;
    bool together;
    /// Refused although its lanes may leave together (a form the check
    /// does not take): their evaluation is not asserted.
    bool refusedOnly = false;
  };
  const LaneExpr v = loopVar(0), t = threadIdx(0);
  const LaneExpr n = unknown(0), m = unknown(1);
  const LaneExpr tid = blockIdx(0) * blockDim(0) + t;
  const Row rows[] = {
      // for (i = tid + n; i < n * (m - 1) + tid; i += n)
      {"bound moves with the start", tid + n, n,
       bin(Op::Lt, v, n * (m - cst(1)) + tid), true},
      // for (i = n * (m - 2) + tid; i >= tid; i -= n)
      {"downward to the lane's first", n * (m - cst(2)) + tid, cst(0) - n,
       bin(Op::Ge, v, tid), true},
      // for (i = tid * n; i < (tid + 1) * n; i++)
      {"a product of sums", tid * n, cst(1), bin(Op::Lt, v, (tid + cst(1)) * n),
       true},
      {"the same lanes, a uniform bound", cst(0), cst(1),
       bin(Op::LAnd, bin(Op::Lt, v, m), bin(Op::Lt, v + cst(3), m + cst(3))),
       true},
      // Negatives.
      {"bound fixed, start per lane", t, cst(32), bin(Op::Lt, v, n), false},
      {"step per lane", cst(0), t + cst(1), bin(Op::Lt, v, n * (m + tid)),
       false},
      {"a lane-varying condition beside it", tid, cst(1),
       bin(Op::LAnd, bin(Op::Lt, v, tid + n), bin(Op::Lt, t, cst(20))), false},
      {"bound scaled with the lane", t, cst(1), bin(Op::Lt, v, t * cst(2) + n),
       false},
      {"not monotone", t, cst(1), bin(Op::Ne, v, t + n), false, true},
  };
  for (const Row &row : rows) {
    Context ctx;
    ctx.addAtom("n", AtomKind::Uniform);
    ctx.addAtom("m", AtomKind::Uniform);
    ctx.addLoop({"i", row.init, v + row.step, row.cond});
    EXPECT_EQ(exitsTogether(ctx, 0), row.together) << row.name;
    // What the lanes do: where recognised, no iteration runs some of the
    // warp's lanes but not all.
    bool apart = false;
    const Shape shape{64, 1, 1};
    for (int64_t nv : {3, 16, 33})
      for (int64_t mv : {5, 40}) {
        Env env;
        env.unknowns = {nv, mv};
        env.blockIdx[0] = 2;
        env.loopIter = {0};
        for (int w = 0; w < 2; ++w) {
          WarpEval e(ctx, shape, env, w);
          const LaneMask present = e.present();
          for (LaneMask in : e.loopActiveSequence(0, 200))
            apart |= in != 0 && in != present;
        }
      }
    if (row.together)
      EXPECT_FALSE(apart) << row.name;
    else if (!row.refusedOnly)
      EXPECT_TRUE(apart) << row.name;
  }
}

} // namespace
} // namespace warplint
