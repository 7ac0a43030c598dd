// The work estimate (model/Issue.h): warp instructions a block issues, by
// who issues each piece of work, over loops with their own trip counts.
// Expected figures are counted by hand for a block of 256 threads (8 warps).
#include "model/Issue.h"

#include "model/Sampling.h"

#include <gtest/gtest.h>

namespace warplint {
namespace {

LaneExpr tid() { return threadIdx(0); }
LaneExpr lt(LaneExpr a, LaneExpr b) { return bin(Op::Lt, a, b); }
LaneExpr land(LaneExpr a, LaneExpr b) { return bin(Op::LAnd, a, b); }
const Shape B256{256, 1, 1};

IssueEstimate estimate(const Context &ctx, std::vector<IssueWork> work) {
  return estimateIssue(work, ctx, B256, representativeEnv(ctx));
}

struct Row {
  const char *name;
  LaneExpr issue, lanes;
  double weight, perBlock, lanesPerInstruction;
};

TEST(Issue, WhoIssuesABody) {
  Context ctx;
  LaneExpr all = cst(1);
  LaneExpr even = bin(Op::Eq, bin(Op::Rem, tid(), cst(2)), cst(0));
  const Row rows[] = {
      // Straight-line code: every warp, every lane.
      {"all threads", all, all, 5, 8 * 5, 32},
      // A branched body: warps 0 and 1 only.
      {"if (tid < 64)", lt(tid(), cst(64)), lt(tid(), cst(64)), 10, 2 * 10,
       32},
      // Every warp has even lanes: all 8 issue it, at 16 lanes.
      {"if (tid % 2 == 0)", even, even, 10, 8 * 10, 16},
      // Predicated: every warp that reaches the if issues it; 16 lanes of
      // warp 0 run it (16 * 2 lane-instructions over 8 * 2 issued).
      {"predicated if (tid < 16)", all, lt(tid(), cst(16)), 2, 8 * 2, 2},
  };
  for (const Row &r : rows) {
    IssueEstimate e = estimate(ctx, {{r.issue, r.lanes, r.weight}});
    EXPECT_DOUBLE_EQ(e.perBlock, r.perBlock) << r.name;
    EXPECT_DOUBLE_EQ(e.activeLanes, r.lanesPerInstruction) << r.name;
    EXPECT_TRUE(e.unknowns.empty() && e.loopsAtCap.empty()) << r.name;
  }
}

TEST(Issue, WorkOnlyTheLastBlockToArriveRuns) {
  // A counter each block bumps once (atomic old values, Atom::counter) and
  // a flag the block shares set from a test on one (Atom::lastArrival).
  // Work under an equality between the counter and a value no lane loads
  // runs in one block of the grid: a block's share is one over the blocks
  // (4096 here, as the launch gives them). 12 instructions by lane 0.
  Context ctx;
  const int count = ctx.addAtom("atomicInc(&arrived, last)", AtomKind::Data);
  ctx.atoms[size_t(count)].counter = true;
  const int flag = ctx.addAtom("amLast", AtomKind::Uniform);
  ctx.atoms[size_t(flag)].fromData = ctx.atoms[size_t(flag)].lastArrival = true;
  const int key = ctx.addAtom("key[i]", AtomKind::Data);
  const int plain = ctx.addAtom("atomicCAS(&lock, 0, 1)", AtomKind::Data);
  const LaneExpr counter = data(count), last = gridDim(0) - cst(1);
  const LaneExpr lane0 = bin(Op::Eq, tid(), cst(0));
  struct OnceRow {
    const char *name;
    LaneExpr test;
    bool once;
  };
  const OnceRow rows[] = {
      {"counter == gridDim.x - 1", bin(Op::Eq, counter, last), true},
      {"gridDim.x - 1 == counter", bin(Op::Eq, last, counter), true},
      {"counter - 1 == 0 (atomicSub)", bin(Op::Eq, counter - cst(1), cst(0)),
       true},
      {"!(counter != gridDim.x - 1): the rest after an early exit",
       un(Op::LNot, bin(Op::Ne, counter, last)), true},
      {"the flag", unknown(flag), true},
      {"flag != 0", bin(Op::Ne, unknown(flag), cst(0)), true},
      // Refused: the other blocks, a bound, a value a lane loads, an
      // atomic that is no counter.
      {"counter != gridDim.x - 1", bin(Op::Ne, counter, last), false},
      {"!(counter == gridDim.x - 1)", un(Op::LNot, bin(Op::Eq, counter, last)),
       false},
      {"counter < cap", lt(counter, cst(100)), false},
      {"counter == key[i]", bin(Op::Eq, counter, data(key)), false},
      {"atomicCAS(...) == 0", bin(Op::Eq, data(plain), cst(0)), false},
  };
  Env env = representativeEnv(ctx);
  env.gridDim[0] = 4096;
  const IssueEstimate every =
      estimateIssue({{lane0, lane0, 12}}, ctx, B256, env);
  EXPECT_DOUBLE_EQ(every.perBlock, 12);
  for (const OnceRow &r : rows) {
    EXPECT_EQ(oncePerGrid(r.test, ctx), r.once) << r.name;
    const LaneExpr body = land(lane0, r.test);
    const IssueEstimate e = estimateIssue({{body, body, 12}}, ctx, B256, env);
    EXPECT_DOUBLE_EQ(e.perBlock, r.once ? 12.0 / 4096 : 12) << r.name;
    EXPECT_EQ(e.oncePerGrid.size(), r.once ? 1u : 0u) << r.name;
    EXPECT_EQ(e.onceOf[0], r.once ? 0 : -1) << r.name;
  }
}

TEST(Issue, EachPieceOfWorkItsOwnShare) {
  // Straight-line work for every lane, then a lane-0 body (branched):
  // per piece, the warp instructions issued and the lane instructions run,
  // which sum to the block's figures; the body's idle lanes waste 31/32 of
  // its issue slots.
  Context ctx;
  LaneExpr all = cst(1), lane0 = bin(Op::Eq, tid(), cst(0));
  IssueEstimate e = estimate(ctx, {{all, all, 5}, {lane0, lane0, 12}});
  ASSERT_EQ(e.issued.size(), 2u);
  ASSERT_EQ(e.laneInstructions.size(), 2u);
  EXPECT_DOUBLE_EQ(e.issued[0], 8 * 5);
  EXPECT_DOUBLE_EQ(e.laneInstructions[0], 8 * 5 * 32);
  EXPECT_DOUBLE_EQ(e.issued[1], 12);
  EXPECT_DOUBLE_EQ(e.laneInstructions[1], 12);
  EXPECT_DOUBLE_EQ(e.issued[0] + e.issued[1], e.perBlock);
  EXPECT_DOUBLE_EQ(e.issued[1] - e.laneInstructions[1] / 32, 12 * 31.0 / 32);
}

TEST(Issue, CompareAndSwapRoundsPerContendedAddress) {
  // A shared atomicAdd nvcc makes a compare-and-swap loop of, 7
  // instructions a round: the lanes at one address succeed one per round,
  // so a warp runs as many rounds as its most contended address has lanes.
  Context ctx;
  LaneExpr all = cst(1);
  struct Case {
    const char *name;
    LaneExpr address;
    double perBlock, laneInstructions;
  } cases[] = {
      // One address for the block: 32 rounds a warp; lanes run 1..32.
      {"one address", cst(0), 8 * 32 * 7, 8 * (32 * 33 / 2) * 7},
      // Each lane its own: one round.
      {"tid * 8", tid() * cst(8), 8 * 7, 8 * 32 * 7},
      // Four lanes an address: 4 rounds; each group runs 1 + 2 + 3 + 4.
      {"tid / 4", bin(Op::Div, tid(), cst(4)) * cst(8), 8 * 4 * 7,
       8 * 8 * 10 * 7},
  };
  for (const Case &c : cases) {
    IssueWork w{all, all, 0, c.address, 7};
    IssueEstimate e = estimate(ctx, {w});
    EXPECT_DOUBLE_EQ(e.perBlock, c.perBlock) << c.name;
    EXPECT_DOUBLE_EQ(e.laneInstructions[0], c.laneInstructions) << c.name;
  }
  // Under a lane-0 branch only lane 0 contends: one round.
  LaneExpr lane0 = bin(Op::Eq, tid(), cst(0));
  IssueWork one{lane0, lane0, 0, cst(0), 7};
  EXPECT_DOUBLE_EQ(estimate(ctx, {one}).perBlock, 7);
  // An address read from data is not followed (no rounds counted).
  int d = ctx.addAtom("bin", AtomKind::Data);
  IssueWork gather{all, all, 0, data(d) * cst(8), 7};
  EXPECT_DOUBLE_EQ(estimate(ctx, {gather}).perBlock, 0);
}

TEST(Issue, LoopsRunTheirTripCount) {
  // for (s = 1; s < blockDim.x; s *= 2): 8 iterations for every warp.
  Context ctx;
  int L = ctx.addLoop({"s", cst(1), loopVar(0) * cst(2),
                       lt(loopVar(0), blockDim(0))});
  IssueEstimate e = estimate(ctx, {{loopActive(L), loopActive(L), 3}});
  EXPECT_DOUBLE_EQ(e.perBlock, 8 * 8 * 3);

  // for (s = 128; s > 0; s >>= 1) if (tid < s) (branched): warps issue the
  // body 4 + 2 + 1 + 1 + 1 + 1 + 1 + 1 times.
  Context ctx2;
  int M = ctx2.addLoop({"s", cst(128), bin(Op::Shr, loopVar(0), cst(1)),
                        bin(Op::Gt, loopVar(0), cst(0))});
  LaneExpr body = land(loopActive(M), lt(tid(), loopVar(M)));
  e = estimate(ctx2, {{body, body, 1}});
  EXPECT_DOUBLE_EQ(e.perBlock, 12);
}

TEST(Issue, LaneDependentTripCount) {
  // for (k = 0; k < (tid & 31); ++k): each warp runs its longest lane's 31
  // iterations, at (31 + 30 + ... + 1) / 31 = 16 lanes on average.
  Context ctx;
  int L = ctx.addLoop({"k", cst(0), loopVar(0) + cst(1),
                       lt(loopVar(0), bin(Op::And, tid(), cst(31)))});
  IssueEstimate e = estimate(ctx, {{loopActive(L), loopActive(L), 1}});
  EXPECT_DOUBLE_EQ(e.perBlock, 8 * 31);
  EXPECT_DOUBLE_EQ(e.activeLanes, 16);
}

TEST(Issue, GridStrideLoopCountsTheGuard) {
  // for (i = bid * 256 + tid; i < n; i += 256 * gridDim.x), n = 2^20 from a
  // launch, 1024 blocks: 4 iterations each. The bounds guard, which the
  // memory model assumes true, is what ends the loop here.
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Parameter);
  ctx.atoms[n].known = {1 << 20};
  ctx.atoms[n].knownFrom = "the launch at main.cu:9";
  int L = ctx.addLoop({"i", blockIdx(0) * cst(256) + tid(),
                       loopVar(0) + cst(256) * gridDim(0),
                       lt(loopVar(0), unknown(n))});
  Env env = representativeEnv(ctx);
  env.gridDim[0] = 1024;
  IssueEstimate e =
      estimateIssue({{loopActive(L), loopActive(L), 1}}, ctx, B256, env);
  EXPECT_DOUBLE_EQ(e.perBlock, 8 * 4);
  EXPECT_EQ(e.unknowns, std::vector<int>{n});
  EXPECT_TRUE(e.usesGridDim);
  EXPECT_TRUE(e.loopsAtCap.empty());
}

TEST(Issue, LoopOnDataStopsAtTheCapAndSaysSo) {
  // while (a[i] > 0): the condition on data is taken as true.
  Context ctx;
  int d = ctx.addAtom("a[i]", AtomKind::Data);
  int L = ctx.addLoop({"i", tid(), loopVar(0) + cst(1),
                       bin(Op::Gt, data(d), cst(0))});
  IssueEstimate e = estimate(ctx, {{loopActive(L), loopActive(L), 1}});
  EXPECT_DOUBLE_EQ(e.perBlock, 8.0 * MaxTrip);
  EXPECT_EQ(e.loopsAtCap, std::vector<int>{L});
  EXPECT_TRUE(e.dataConditions);
}

TEST(Issue, ALoopEndingAtTheCapIsNotPastIt) {
  // for (i = 0; i < 4096; ++i): counted in full, and not said to have run
  // past the cap; one more iteration is.
  for (int n : {MaxTrip, MaxTrip + 1}) {
    Context ctx;
    int L = ctx.addLoop({"i", cst(0), loopVar(0) + cst(1),
                         bin(Op::Lt, loopVar(0), cst(n))});
    IssueEstimate e = estimate(ctx, {{loopActive(L), loopActive(L), 1}});
    EXPECT_DOUBLE_EQ(e.perBlock, 8.0 * MaxTrip) << n;
    EXPECT_EQ(e.loopsAtCap.empty(), n == MaxTrip) << n;
  }
}

TEST(Issue, BlocksAreAveraged) {
  // if (blockIdx.x == 0): one block in 32 sampled.
  Context ctx;
  LaneExpr first = bin(Op::Eq, blockIdx(0), cst(0));
  IssueEstimate e = estimate(ctx, {{first, first, 32}});
  EXPECT_DOUBLE_EQ(e.perBlock, 8 * 32 / 32.0);
}

} // namespace
} // namespace warplint
