// Branch divergence, barrier reach and warp-synchronous hazards, against the
// figures in Nsight Compute's divergent-branch counters (H200, 256 threads).
#include "model/Divergence.h"
#include "model/Explain.h"

#include <gtest/gtest.h>

namespace warplint {
namespace {

LaneExpr tid() { return threadIdx(0); }
LaneExpr eq(LaneExpr a, LaneExpr b) { return bin(Op::Eq, a, b); }
LaneExpr lt(LaneExpr a, LaneExpr b) { return bin(Op::Lt, a, b); }
const Shape B256{256, 1, 1};

struct Row {
  const char *name;
  LaneExpr cond;
  bool divergent;
};

TEST(Divergence, IfConditions) {
  Context ctx;
  int a0 = ctx.addAtom("a[0]", AtomKind::Uniform);
  int n = ctx.addAtom("n", AtomKind::Parameter);
  const Row rows[] = {
      {"tid > 2", bin(Op::Gt, tid(), cst(2)), true},
      {"tid % 2 == 1", eq(bin(Op::Rem, tid(), cst(2)), cst(1)), true},
      {"(tid & 31) < 16", lt(bin(Op::And, tid(), cst(31)), cst(16)), true},
      {"(tid / 32) % 2 == 0",
       eq(bin(Op::Rem, bin(Op::Div, tid(), cst(32)), cst(2)), cst(0)), false},
      {"tid < 64", lt(tid(), cst(64)), false},
      {"blockIdx.x % 2 == 0", eq(bin(Op::Rem, blockIdx(0), cst(2)), cst(0)),
       false},
      {"a[0] > 0.5 (one value for all lanes)", bin(Op::Gt, unknown(a0), cst(0)),
       false},
      {"g < n (bounds guard: only the tail)",
       lt(blockIdx(0) * blockDim(0) + tid(), unknown(n)), false},
  };
  for (const Row &r : rows) {
    BranchResult b = analyzeBranch(r.cond, nullptr, ctx, {B256});
    EXPECT_TRUE(b.evaluated) << r.name;
    EXPECT_EQ(b.divergent, r.divergent) << r.name;
  }
}

TEST(Divergence, SplitOfTheFirstWarp) {
  Context ctx;
  BranchResult b = analyzeBranch(bin(Op::Gt, tid(), cst(2)), nullptr, ctx, {B256});
  EXPECT_EQ(b.warp, 0);
  EXPECT_EQ(b.active, AllLanes);
  EXPECT_EQ(b.taken, 0xfffffff8u);
  EXPECT_DOUBLE_EQ(b.divergentShare, 1.0 / 8); // warp 0 of 8
}

TEST(Divergence, DataDependentIsNotEvaluated) {
  Context ctx;
  int d = ctx.addAtom("a[tid]", AtomKind::Data);
  EXPECT_FALSE(analyzeBranch(bin(Op::Gt, data(d), cst(0)), nullptr, ctx, {B256})
                   .evaluated);
}

TEST(Divergence, ParameterDependentIsOnlyMaybe) {
  Context ctx;
  int k = ctx.addAtom("k", AtomKind::Parameter);
  // tid % k == 0: splits for k = 2, not for k = 1.
  BranchResult b = analyzeBranch(eq(bin(Op::Rem, tid(), unknown(k)), cst(0)),
                                 nullptr, ctx, {B256});
  EXPECT_TRUE(b.maybe);
  EXPECT_FALSE(b.divergent);
  // The same for a loop: for (i = 0; i < tid % k; ++i) lets lanes leave one
  // by one for k = 1024 (the representative value), none enter for k = 1.
  // Once one assignment has run without a split and another has split, the
  // rest are not evaluated; the answers are those of all of them.
  Context loops;
  int kl = loops.addAtom("k", AtomKind::Parameter);
  int L = loops.addLoop({"i", cst(0), loopVar(0) + cst(1),
                         lt(loopVar(0), bin(Op::Rem, tid(), unknown(kl)))});
  BranchResult e = analyzeLoopExit(L, nullptr, loops, {B256});
  EXPECT_TRUE(e.maybe);
  EXPECT_FALSE(e.divergent);
  EXPECT_EQ(e.warp, 0);
  EXPECT_EQ(e.iteration, 0); // lane 0 never enters
}

TEST(Divergence, ReductionLoops) {
  // for (s = 1; s < blockDim.x; s *= 2) if (tid % (2 * s) == 0): Harris reduce0.
  Context ctx;
  int L = ctx.addLoop({"s", cst(1), loopVar(0) * cst(2),
                       lt(loopVar(0), blockDim(0))});
  LaneExpr reduce0 = eq(bin(Op::Rem, tid(), cst(2) * loopVar(L)), cst(0));
  EXPECT_TRUE(analyzeBranch(reduce0, loopActive(L), ctx, {B256}).divergent);
  // for (s = blockDim.x / 2; s > 0; s >>= 1) if (tid < s): divergent once s < 32.
  Context ctx2;
  int M = ctx2.addLoop({"s", bin(Op::Div, blockDim(0), cst(2)),
                        bin(Op::Shr, loopVar(0), cst(1)),
                        bin(Op::Gt, loopVar(0), cst(0))});
  BranchResult b = analyzeBranch(lt(tid(), loopVar(M)), loopActive(M), ctx2, {B256});
  EXPECT_TRUE(b.divergent);
  // Only iterations with s in 1..16 split warp 0: 5 of the 8 iterations.
  EXPECT_GT(b.divergentShare, 0);
}

TEST(Divergence, LoopTripCounts) {
  // for (i = 0; i < (tid & 31); ++i): lanes leave one by one.
  Context ctx;
  int L = ctx.addLoop({"i", cst(0), loopVar(0) + cst(1),
                       lt(loopVar(0), bin(Op::And, tid(), cst(31)))});
  BranchResult b = analyzeLoopExit(L, nullptr, ctx, {B256});
  EXPECT_TRUE(b.divergent);
  EXPECT_EQ(b.iteration, 0); // lane 0 never enters
  // A uniform trip count: for (i = 0; i < 16; ++i).
  Context ctx2;
  int U = ctx2.addLoop({"i", cst(0), loopVar(0) + cst(1), lt(loopVar(0), cst(16))});
  EXPECT_FALSE(analyzeLoopExit(U, nullptr, ctx2, {B256}).maybe);
  // A grid-stride loop's tail is a bounds guard, not divergence.
  Context ctx3;
  int n = ctx3.addAtom("n", AtomKind::Parameter);
  int G = ctx3.addLoop({"i", blockIdx(0) * blockDim(0) + tid(),
                        loopVar(0) + blockDim(0) * gridDim(0),
                        lt(loopVar(0), unknown(n))});
  EXPECT_FALSE(analyzeLoopExit(G, nullptr, ctx3, {B256}).maybe);
}

// A condition that reads threadIdx.y alone has one value across a warp
// wherever the block's rows are whole warps ((32, 4)), and splits warps
// where they are not ((16, 8): a warp holds two rows). Those shapes are not
// evaluated warp by warp; the answers are those of evaluating them.
TEST(Divergence, RowsOfWholeWarpsCannotSplit) {
  const Shape rows32{32, 4, 1}, rows16{16, 8, 1}, planes{16, 2, 4};
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Parameter);
  // if ((threadIdx.y + n) % 2 == 0), and for (i = 0; i < threadIdx.y; ++i).
  LaneExpr byRow = eq(bin(Op::Rem, threadIdx(1) + unknown(n), cst(2)), cst(0));
  int L = ctx.addLoop(
      {"i", cst(0), loopVar(0) + cst(1), lt(loopVar(0), threadIdx(1))});
  LaneVariation v = warpVaryingSources(byRow, ctx);
  EXPECT_TRUE(uniformInWarps(v, rows32));
  EXPECT_FALSE(uniformInWarps(v, rows16));
  // (16, 2, 4): a warp is two rows of one plane.
  EXPECT_FALSE(uniformInWarps(v, planes));
  EXPECT_TRUE(uniformInWarps(warpVaryingSources(threadIdx(2), ctx), planes));
  EXPECT_TRUE(uniformInWarps(warpVaryingSources(threadIdx(2), ctx), rows32));
  EXPECT_FALSE(uniformInWarps(warpVaryingSources(tid(), ctx), rows32));
  EXPECT_TRUE(
      uniformInWarps(warpVaryingSources(ctx.loops[L].cond, ctx), rows32));
  for (bool loop : {false, true}) {
    auto run = [&](std::vector<Shape> shapes) {
      return loop ? analyzeLoopExit(L, nullptr, ctx, shapes)
                  : analyzeBranch(byRow, nullptr, ctx, shapes);
    };
    BranchResult whole = run({rows32});
    EXPECT_TRUE(whole.evaluated) << loop;
    EXPECT_FALSE(whole.maybe) << loop;
    EXPECT_FALSE(whole.divergent) << loop;
    // Split in the second shape only: maybe, not divergent.
    BranchResult mixed = run({rows32, rows16});
    EXPECT_TRUE(mixed.maybe) << loop;
    EXPECT_FALSE(mixed.divergent) << loop;
    BranchResult split = run({rows16});
    EXPECT_TRUE(split.maybe) << loop;
    EXPECT_TRUE(split.divergent) << loop;
  }
}

// What only the lanes past a bound run is drawn where the index crosses
// it: the first such warp of the grid at the representative n (1024), or,
// where no warp of the grid has one, warp 0 with n set inside it.
TEST(Crossing, PastTheBound) {
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Parameter);
  LaneExpr g = blockIdx(0) * blockDim(0) + tid();
  LaneExpr past = bin(Op::Ge, g, unknown(n));
  PreparedConditions pm = prepareConditions(ctx, past);
  EXPECT_TRUE(assumesFarSide(pm.mask, pm.ctx));
  EXPECT_FALSE(
      assumesFarSide(prepareConditions(ctx, lt(g, unknown(n))).mask, ctx));
  std::optional<Crossing> c = crossingWarp(past, -1, ctx, B256);
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->moved);
  EXPECT_EQ(c->env.blockIdx[0], 4); // 4 x 256 = 1024
  EXPECT_EQ(c->warp, 0);
  EXPECT_EQ(c->values, "'n' taken as 1024");

  std::optional<Crossing> in =
      crossingWarp(bin(Op::Ge, tid(), unknown(n)), -1, ctx, B256);
  ASSERT_TRUE(in);
  EXPECT_TRUE(in->moved);
  EXPECT_EQ(in->warp, 0);
  EXPECT_EQ(in->env.unknowns[size_t(n)], 16); // lanes 16..31 past it
  EXPECT_EQ(in->values, "'n' set to 16");

  // On data, nothing is drawn as written.
  int d = ctx.addAtom("a[tid]", AtomKind::Data);
  EXPECT_FALSE(crossingWarp(bin(Op::Ge, data(d), unknown(n)), -1, ctx, B256));
}

TEST(Reach, Barriers) {
  Context ctx;
  // if (tid < 128) __syncthreads(): whole warps, but not the whole block.
  ReachResult half = analyzeReach(lt(tid(), cst(128)), ctx, {B256});
  EXPECT_TRUE(half.partialBlock);
  EXPECT_FALSE(half.partialWarp);
  ReachResult odd =
      analyzeReach(eq(bin(Op::Rem, tid(), cst(2)), cst(1)), ctx, {B256});
  EXPECT_TRUE(odd.partialWarp);
  EXPECT_TRUE(analyzeReach(nullptr, ctx, {B256}).evaluated);
  EXPECT_FALSE(analyzeReach(nullptr, ctx, {B256}).partialBlock);
  EXPECT_FALSE(
      analyzeReach(eq(bin(Op::Rem, blockIdx(0), cst(2)), cst(0)), ctx, {B256})
          .partialBlock);
}

TEST(Hazard, LastWarpReduction) {
  // if (tid < 32) { sdata[tid] += sdata[tid + 16]; ... }: lane 0 reads what
  // lane 16 wrote in the previous step.
  Context ctx;
  LaneExpr m = lt(tid(), cst(32));
  HazardResult h = analyzeHazard(tid() * cst(4), m, 4,
                                 (tid() + cst(16)) * cst(4), m, 4, ctx, {B256});
  EXPECT_TRUE(h.intraWarp);
  EXPECT_EQ(h.reader, 0);
  EXPECT_EQ(h.writer, 16);
  // Each lane reading back its own element is no hazard.
  EXPECT_FALSE(analyzeHazard(tid() * cst(4), m, 4, tid() * cst(4), m, 4, ctx,
                             {B256})
                   .intraWarp);
}

} // namespace
} // namespace warplint
