// Model bugs that fuzzing found (test/fuzz/FuzzModel.cpp; the inputs are in
// test/fuzz/regressions/fuzz_model/), each as the smallest case that shows it.
#include "model/Divergence.h"
#include "model/Explain.h"
#include "model/Memory.h"
#include "model/Sampling.h"
#include "model/Vectorize.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace warplint {
namespace {

// Blocks that outlive every evaluator: a WarpEval keeps a reference to its
// shape.
const Shape Block32{32, 1, 1};

// Addresses are int64 values the evaluator wraps; an element that ends past
// INT64_MAX still straddles two sectors (banks) like any other, and its last
// byte is found without overflowing.
TEST(FuzzFound, ElementAtTheTopOfTheAddressRange) {
  Lanes addr;
  addr.fill(INT64_MAX - 1); // 2 bytes before the end of a sector
  EXPECT_EQ(sectorsForRequest(addr, 1, 4), 2);
  EXPECT_EQ(sectorsForRequest(addr, 1, 2), 1);
  // Its two words are in two banks, one word each.
  EXPECT_EQ(worstBank(addr, 1, 4).degree, 1);
}

// Distinct addresses out of order, one of them the largest int64: counting
// the values of that one-address range stepped past INT64_MAX (undefined;
// in practice it wrapped and counted garbage).
TEST(FuzzFound, DistinctAddressesAtTheTopOfTheRange) {
  Lanes addr;
  for (int l = 0; l < WarpSize; ++l)
    addr[l] = l % 2 ? INT64_MAX : int64_t(l) * 1000;
  EXPECT_DOUBLE_EQ(constantAddresses(addr, AllLanes, 4).actual, 17);
  // Within 256 of each other (the bit-set count): the same.
  for (int l = 0; l < WarpSize; ++l)
    addr[l] = INT64_MAX - (l % 2 ? 0 : 8 * (31 - l));
  EXPECT_DOUBLE_EQ(constantAddresses(addr, AllLanes, 4).actual, 17);
}

// Lanes whose addresses are further apart than INT64_MAX (a wrapped index):
// their distance wraps as the GPU's does instead of overflowing.
TEST(FuzzFound, LanesFurtherApartThanTheRange) {
  Context ctx;
  // lane 0 at INT64_MIN + 64, the others at INT64_MAX - 64 + 4 * lane
  LaneExpr off = select(bin(Op::Eq, threadIdx(0), cst(0)), cst(INT64_MIN + 64),
                        cst(INT64_MAX - 64) + threadIdx(0) * cst(4));
  Access acc{off, nullptr, 4};
  AccessResult r = analyzeAccess(acc, ctx, {Shape{32, 1, 1}}, globalSectors);
  ASSERT_TRUE(r.evaluated);
  EXPECT_FALSE(r.laneStride.has_value());
}

// `&&` and `!` give 0 or 1 also when the builders fold them: `1 && t` and
// `!!t` are t != 0 as values (an index `a[!!t]`), not t.
TEST(FuzzFound, FoldedLogicalOperatorsAreZeroOrOne) {
  Context ctx;
  Env env = representativeEnv(ctx);
  LaneExpr t = threadIdx(0);
  for (LaneExpr e : {bin(Op::LAnd, cst(1), t), bin(Op::LAnd, t, cst(7)),
                     un(Op::LNot, un(Op::LNot, t))}) {
    WarpEval ev(ctx, Block32, env, 0);
    Lanes v = ev.value(e);
    for (int l = 0; l < WarpSize; ++l)
      EXPECT_EQ(v[l], l != 0 ? 1 : 0) << "lane " << l;
  }
  // Already 0 or 1: kept as they are.
  LaneExpr lt = bin(Op::Lt, t, cst(5));
  EXPECT_EQ(bin(Op::LAnd, cst(1), lt), lt);
  EXPECT_EQ(un(Op::LNot, un(Op::LNot, lt)), lt);
}

// A store and a load at the top of the address range: the overlap test
// does not overflow, and lanes one element apart do not overlap.
TEST(FuzzFound, HazardAtTheTopOfTheAddressRange) {
  Context ctx;
  LaneExpr top = cst(INT64_MAX - 3);
  LaneExpr store = bin(Op::Sub, top, threadIdx(0) * cst(4));
  HazardResult apart = analyzeHazard(store, nullptr, 4, store, nullptr, 4, ctx,
                                     {Shape{32, 1, 1}});
  EXPECT_FALSE(apart.intraWarp);
  // Every lane loads what lane 0 stored.
  HazardResult same = analyzeHazard(store, nullptr, 4, top, nullptr, 4, ctx,
                                    {Shape{32, 1, 1}});
  EXPECT_TRUE(same.intraWarp);
  EXPECT_EQ(same.writer, 0);
}

// Two accesses of one statement at opposite ends of the address range: the
// distance between them wraps instead of overflowing, and they do not merge.
// Two adjacent ones still do.
TEST(FuzzFound, MergeOfAccessesFarApart) {
  Context ctx;
  LaneExpr t8 = threadIdx(0) * cst(8);
  std::vector<MergeInput> far{{{t8 + cst(INT64_MIN), nullptr, 4}, 0, 8},
                              {{t8 + cst(INT64_MAX - 7), nullptr, 4}, 0, 8}};
  EXPECT_TRUE(mergeAdjacent(far, ctx, Shape{32, 1, 1}).empty());
  std::vector<MergeInput> near{{{t8, nullptr, 4}, 0, 8},
                               {{t8 + cst(4), nullptr, 4}, 0, 8}};
  auto merged = mergeAdjacent(near, ctx, Shape{32, 1, 1});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].bytes, 8);
}

// The stride formula of a message ("4*n bytes") from samples whose values
// are at the ends of the int64 range (a huge known value): no formula, and
// no overflow while looking for one. Ordinary samples still give one.
TEST(FuzzFound, StrideFormulaFromExtremeValues) {
  Context ctx;
  ctx.addAtom("n", AtomKind::Parameter);
  auto result = [](int64_t v1, int64_t s1, int64_t v2, int64_t s2) {
    AccessResult r;
    r.evaluated = true;
    r.exact = false;
    r.actual = 4;
    r.dependsOn = {0};
    for (auto [v, s] : {std::pair{v1, s1}, std::pair{v2, s2}}) {
      AccessResult::Sample smp;
      smp.value = v;
      smp.stride = s;
      smp.actual = double(v);
      r.samples.push_back(smp);
    }
    return r;
  };
  EXPECT_EQ(describeDependence(result(32, 128, 64, 256), ctx).stride,
            "4*n bytes");
  EXPECT_EQ(describeDependence(result(INT64_MIN, 4, 4, 8), ctx).stride, "");
  EXPECT_EQ(describeDependence(result(1, INT64_MIN, 2, INT64_MAX), ctx).stride,
            "");
}

} // namespace
} // namespace warplint
