// The warp period (Period.h): the periods of typical addresses, the values
// that leave none, and, over random expressions, that every period claimed
// holds warp by warp in the evaluator: the same active lanes and flags, every
// address moved by the shift, and no evaluation undefined where it says so.
#include "model/Period.h"

#include <gtest/gtest.h>

#include <random>

namespace warplint {
namespace {

LaneExpr globalIndex() {
  return blockIdx(0) * blockDim(0) + threadIdx(0);
}

struct Fixture {
  Context ctx;
  Env env;
  int n; // an unknown size
  Fixture(int64_t nValue) {
    n = ctx.addAtom("n", AtomKind::Parameter);
    env.unknowns.set(size_t(n), nValue);
  }
};

TEST(Period, TypicalAddresses) {
  Fixture f(1024);
  const Shape sh{256, 1, 1};
  const LaneExpr t = globalIndex();
  // in[t], 4-byte elements: every warp one row of 128 bytes further.
  auto p = warpPeriod(t * cst(4), nullptr, f.ctx, sh, f.env, 32);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->warps, 1);
  EXPECT_EQ(p->shift, 128);
  // in[(t * 3 + 5) % n] at n = 1024: 1024 threads, 32 warps, repeat exactly.
  LaneExpr mod = bin(Op::Rem, t * cst(3) + cst(5), unknown(f.n)) * cst(4);
  p = warpPeriod(mod, nullptr, f.ctx, sh, f.env, 32);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->warps, 32);
  EXPECT_EQ(p->shift, 0);
  // At n = 100: 100 threads, so 800 (25 warps).
  Fixture g(100);
  mod = bin(Op::Rem, t * cst(3) + cst(5), unknown(g.n)) * cst(4);
  p = warpPeriod(mod, nullptr, g.ctx, sh, g.env, 32);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->warps, 25);
  // tile[t % 1024] under `if (t % 64 < 32)`: the mask repeats every 64.
  LaneExpr half = bin(Op::Lt, bin(Op::Rem, t, cst(64)), cst(32));
  p = warpPeriod(bin(Op::Rem, t, cst(1024)) * cst(4), half, f.ctx, sh, f.env,
                 32);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->warps, 32);
  // out[t / 2]: two warps per row of 32 elements, 128 bytes on.
  p = warpPeriod(bin(Op::Div, t, cst(2)) * cst(4), nullptr, f.ctx, sh, f.env,
                 32);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->warps, 1);
  EXPECT_EQ(p->shift, 64);
}

TEST(Period, NoneWhereTheRulesCannotShowOne) {
  Fixture f(0);
  const Shape sh{256, 1, 1};
  const LaneExpr t = globalIndex();
  // threadIdx.x or blockIdx.x on its own, another block dimension, a block
  // that is not 1-D, a divisor of zero, a loop, a mask that moves.
  EXPECT_FALSE(warpPeriod(threadIdx(0) * cst(4), nullptr, f.ctx, sh, f.env, 32));
  EXPECT_FALSE(warpPeriod(blockIdx(0) * cst(4) + t, nullptr, f.ctx, sh, f.env, 32));
  EXPECT_FALSE(warpPeriod(blockIdx(1) * cst(4) + t, nullptr, f.ctx, sh, f.env, 32));
  EXPECT_FALSE(warpPeriod(t, nullptr, f.ctx, {16, 16, 1}, f.env, 32));
  EXPECT_FALSE(warpPeriod(bin(Op::Rem, t, unknown(f.n)), nullptr, f.ctx, sh,
                          f.env, 32));
  int loop = f.ctx.addLoop({"i", cst(0), loopVar(0) + cst(1), nullptr});
  EXPECT_FALSE(warpPeriod(t + loopVar(loop), nullptr, f.ctx, sh, f.env, 32));
  EXPECT_FALSE(warpPeriod(t, bin(Op::Lt, t, cst(1000)), f.ctx, sh, f.env, 32));
  // A remainder of a value that may be negative repeats only on one side.
  EXPECT_FALSE(warpPeriod(bin(Op::Rem, t - cst(100), cst(64)), nullptr, f.ctx,
                          sh, f.env, 32));
}

// Random expressions of the global index, constants and an unknown.
struct Generator {
  std::mt19937_64 rng;
  int atom;
  explicit Generator(uint64_t seed, int atom) : rng(seed), atom(atom) {}
  int pick(int n) { return int(rng() % uint64_t(n)); }
  LaneExpr leaf() {
    static const int64_t consts[] = {0, 1, 2, 3, 4, 5, 7, 8, 31, 32, 33,
                                     64, 100, 127, 1024, -1, -3, -64};
    switch (pick(5)) {
    case 0:
    case 1: return globalIndex();
    case 2: return unknown(atom);
    case 3: return blockDim(pick(2) ? 0 : 1);
    default: return cst(consts[pick(sizeof consts / sizeof *consts)]);
    }
  }
  int64_t divisor() {
    static const int64_t divisors[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 48,
                                       64, 96, 100, 250, 1000};
    return divisors[pick(sizeof divisors / sizeof *divisors)];
  }
  // An address as code writes them: the global index scaled, offset,
  // wrapped, divided, masked and shifted, in any order.
  LaneExpr shaped() {
    LaneExpr x = globalIndex();
    for (int steps = 1 + pick(4); steps > 0; --steps) {
      LaneExpr m = pick(3) ? cst(divisor()) : unknown(atom);
      switch (pick(8)) {
      case 0: x = x * cst(pick(9) - 2); break;
      case 1: x = x + (pick(2) ? cst(pick(200) - 50) : unknown(atom)); break;
      case 2: x = bin(Op::Rem, x, m); break;
      case 3: x = bin(Op::Div, x, m); break;
      case 4: x = bin(Op::And, x, cst((int64_t(1) << pick(12)) - 1)); break;
      case 5: x = bin(pick(2) ? Op::Shr : Op::Shl, x, cst(pick(6))); break;
      case 6: x = un(Op::Neg, x); break;
      default:
        x = select(bin(Op::Lt, bin(Op::Rem, x, m), cst(pick(64))), x,
                   x + cst(7));
      }
    }
    return x * cst(int64_t(1) << pick(4));
  }
  LaneExpr expr(int depth) {
    if (depth == 0 || pick(4) == 0)
      return leaf();
    static const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Rem,
                             Op::Shl, Op::Shr, Op::And, Op::Or,  Op::Xor,
                             Op::Min, Op::Max, Op::Lt,  Op::Eq,  Op::LAnd};
    switch (pick(8)) {
    case 0: return un(pick(2) ? Op::Neg : Op::Not, expr(depth - 1));
    case 1:
      return select(expr(depth - 1), expr(depth - 1), expr(depth - 1));
    default: {
      Op op = ops[pick(sizeof ops / sizeof *ops)];
      LaneExpr a = expr(depth - 1), b = expr(depth - 1);
      // Shifts and divisors mostly by small constants, as code has them.
      if ((op == Op::Shl || op == Op::Shr || op == Op::Div ||
           op == Op::Rem || op == Op::And) && pick(3))
        b = pick(2) ? cst(divisor()) : unknown(atom);
      return bin(op, a, b);
    }
    }
  }
};

TEST(Period, EveryClaimHoldsInTheEvaluator) {
  static const int64_t values[] = {0, 1, 3, 5, 7, 31, 32, 33, 100, 1024, 4096,
                                   -7};
  static const Shape shapes[] = {{32, 1, 1}, {64, 1, 1}, {96, 1, 1},
                                 {256, 1, 1}};
  int claims = 0, periodic = 0, moving = 0;
  for (uint64_t seed = 1; seed <= 20000; ++seed) {
    Fixture f(values[seed % (sizeof values / sizeof *values)]);
    Generator gen(seed, f.n);
    const LaneExpr offset = seed % 2 ? gen.shaped() : gen.expr(4);
    const LaneExpr mask = gen.pick(3) ? nullptr
                                      : bin(Op::Lt, gen.expr(2), gen.expr(2));
    const Shape &sh = shapes[seed % 4];
    const int64_t blocks = 1 + int64_t(seed * 7 % 32);
    auto p = warpPeriod(offset, mask, f.ctx, sh, f.env, blocks);
    if (!p)
      continue;
    ++claims;
    const int64_t blockWarps = sh.x / WarpSize, warps = blocks * blockWarps;
    // Periods of more than one warp, shorter than the warps evaluated.
    periodic += p->warps > 1 && p->warps < warps;
    moving += p->shift != 0;
    for (int64_t g = 0; g + p->warps < warps; ++g) {
      auto eval = [&](int64_t warp) {
        Env env = f.env;
        env.blockIdx[0] = warp / blockWarps;
        WarpEval ev(f.ctx, sh, env, int(warp % blockWarps));
        LaneMask m = ev.mask(mask);
        Lanes v = ev.value(offset);
        return std::make_tuple(m, v, ev.undefined, ev.assumedGuard,
                               ev.usedDataCondition);
      };
      auto [m0, v0, u0, a0, d0] = eval(g);
      auto [m1, v1, u1, a1, d1] = eval(g + p->warps);
      ASSERT_EQ(m0, m1) << "seed " << seed << " warp " << g;
      ASSERT_EQ(u0, u1) << "seed " << seed << " warp " << g;
      ASSERT_TRUE(!p->total || !u0) << "seed " << seed << " warp " << g;
      ASSERT_EQ(a0, a1);
      ASSERT_EQ(d0, d1);
      for (int l = 0; l < WarpSize; ++l)
        ASSERT_EQ(v1[l], wrapAdd(v0[l], p->shift))
            << "seed " << seed << " warp " << g << " lane " << l;
    }
  }
  // The generator must exercise the rules, not only their refusals.
  // (20,000 seeds gave 7,759 claims, 1,670 of them periodic and 3,162 with
  // a shift.)
  EXPECT_GT(claims, 6000);
  EXPECT_GT(periodic, 1200);
  EXPECT_GT(moving, 2500);
}

} // namespace
} // namespace warplint
