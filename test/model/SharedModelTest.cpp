// Table-driven tests of the shared-memory and constant-memory models against
// the wavefronts/request Nsight Compute measured on an H200.
#include "model/Memory.h"

#include "TestNames.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace warplint {
namespace {

LaneExpr tid(int d = 0) { return threadIdx(d); }

struct Row {
  const char *name;
  LaneExpr index; // in elements
  int bytes;
  Shape shape;
  double wavefronts, ideal;
};

class SharedFigures : public ::testing::TestWithParam<Row> {};

TEST_P(SharedFigures, MatchesMeasuredWavefronts) {
  const Row &row = GetParam();
  Context ctx;
  Access acc{row.index * cst(row.bytes), nullptr, row.bytes};
  AccessResult r = analyzeAccess(acc, ctx, {row.shape}, sharedWavefronts);
  ASSERT_TRUE(r.evaluated);
  EXPECT_DOUBLE_EQ(r.actual, row.wavefronts) << row.name;
  EXPECT_DOUBLE_EQ(r.ideal, row.ideal) << row.name;
}

const Shape B256{256, 1, 1}, B32x32{32, 32, 1}, B16x16{16, 16, 1};
LaneExpr mul(LaneExpr a, int64_t k) { return a * cst(k); }
LaneExpr x() { return tid(0); }
LaneExpr y() { return tid(1); }

INSTANTIATE_TEST_SUITE_P(
    Issue3, SharedFigures,
    ::testing::Values(
        Row{"s1", mul(tid(), 1), 4, B256, 1, 1},
        Row{"s2", mul(tid(), 2), 4, B256, 2, 1},
        Row{"s3", mul(tid(), 3), 4, B256, 1, 1},
        Row{"s4", mul(tid(), 4), 4, B256, 4, 1},
        Row{"s8", mul(tid(), 8), 4, B256, 8, 1},
        Row{"s16", mul(tid(), 16), 4, B256, 16, 1},
        Row{"s32", mul(tid(), 32), 4, B256, 32, 1},
        Row{"s33", mul(tid(), 33), 4, B256, 1, 1},
        Row{"broadcast", cst(0), 4, B256, 1, 1},
        Row{"t/2", bin(Op::Div, tid(), cst(2)), 4, B256, 1, 1},
        Row{"t%8", bin(Op::Rem, tid(), cst(8)), 4, B256, 1, 1},
        Row{"double t", tid(), 8, B256, 2, 2},
        Row{"double 2t", mul(tid(), 2), 8, B256, 4, 2},
        Row{"char t", tid(), 1, B256, 1, 1},
        Row{"float4 t", tid(), 16, B256, 4, 4},
        // tile[threadIdx.x][threadIdx.y] on float tile[32][32] / [32][33]
        Row{"32x32 column", x() * cst(32) + y(), 4, B32x32, 32, 1},
        Row{"32x33 column", x() * cst(33) + y(), 4, B32x32, 1, 1},
        Row{"32x32 row", y() * cst(32) + x(), 4, B32x32, 1, 1},
        // XOR swizzle: tile[y][x ^ y] read as a column tile[x][x ^ y]... the
        // classic conflict-free swizzled column read:
        Row{"swizzled column", x() * cst(32) + bin(Op::Xor, y(), x()), 4, B32x32,
            1, 1},
        // 16x16 blocks on a 16-wide tile read by column: words 16 apart
        // alternate between banks 0 and 16 (then 1 and 17): 8-way.
        Row{"16x16 column", x() * cst(16) + y(), 4, B16x16, 8, 1}),
    rowName);

// 8- and 16-byte accesses with partial, split and broadcast lane patterns,
// against what Nsight Compute measured for each on an H200
// (bench-kernels/smem-bank-conflict/wide_cases.cu, recorded in
// results/h200/smem-bank-conflict.wide_cases.json): wavefronts and ideal
// wavefronts per request. The mask is the lanes that run the load.
struct WideRow {
  const char *name;
  int bytes;
  std::function<LaneExpr()> index; // in elements, of the lane
  std::function<LaneExpr()> mask;  // null: every lane
  double wavefronts, ideal;
  Shape shape = B256;
};

class WideAccesses : public ::testing::TestWithParam<WideRow> {};

LaneExpr lane() { return bin(Op::And, tid(), cst(31)); }

TEST_P(WideAccesses, MatchMeasuredWavefrontsAndIdeal) {
  const WideRow &row = GetParam();
  Context ctx;
  Access acc{row.index() * cst(row.bytes), row.mask ? row.mask() : nullptr,
             row.bytes};
  AccessResult r = analyzeAccess(acc, ctx, {row.shape}, sharedWavefronts);
  ASSERT_TRUE(r.evaluated) << row.name;
  EXPECT_DOUBLE_EQ(r.actual, row.wavefronts) << row.name;
  EXPECT_DOUBLE_EQ(r.ideal, row.ideal) << row.name;
}

INSTANTIATE_TEST_SUITE_P(
    H200, WideAccesses,
    ::testing::Values(
        WideRow{"d64 lanes 0..15", 8, lane,
                [] { return bin(Op::Lt, lane(), cst(16)); }, 1, 1},
        WideRow{"d64 lanes 0..7", 8, lane,
                [] { return bin(Op::Lt, lane(), cst(8)); }, 1, 1},
        WideRow{"d64 broadcast", 8, [] { return cst(0); }, nullptr, 1, 1},
        WideRow{"d64 half 0 broadcast", 8, [] { return cst(0); },
                [] { return bin(Op::Lt, lane(), cst(16)); }, 1, 1},
        WideRow{"d64 one per half", 8,
                [] { return bin(Op::Div, lane(), cst(16)); }, nullptr, 1, 1},
        WideRow{"d64 pairs", 8, [] { return bin(Op::Div, lane(), cst(2)); },
                nullptr, 1, 1},
        WideRow{"d64 full", 8, lane, nullptr, 2, 2},
        WideRow{"d64 16 distinct", 8,
                [] { return bin(Op::Rem, lane(), cst(16)); }, nullptr, 2, 2},
        WideRow{"d64 8 and 8", 8,
                [] {
                  return bin(Op::And, lane(), cst(7)) +
                         bin(Op::Shr, lane(), cst(4)) * cst(8);
                },
                [] { return bin(Op::Lt, bin(Op::And, lane(), cst(15)), cst(8)); },
                2, 1},
        WideRow{"d64 quarter", 8,
                [] {
                  return bin(Op::And, lane(), cst(15)) +
                         bin(Op::Shr, lane(), cst(4)) * cst(4);
                },
                [] { return bin(Op::Lt, bin(Op::And, lane(), cst(15)), cst(4)); },
                2, 1},
        // (Measured ideal 2: the one of the 19 the model puts at 1.)
        WideRow{"d64 column of 8", 8,
                [] { return bin(Op::And, lane(), cst(7)) * cst(8); }, nullptr,
                8, 1},
        // adv's tile store: 16x16 block, s[ty][tx] on double s[8][8] where
        // tx < 8 && ty < 8 (measured over the warps with active lanes).
        WideRow{"d64 8x8 tile in a 16x16 block", 8,
                [] { return tid(1) * cst(8) + tid(0); },
                [] {
                  return bin(Op::LAnd, bin(Op::Lt, tid(0), cst(8)),
                             bin(Op::Lt, tid(1), cst(8)));
                },
                2, 1, Shape{16, 16, 1}},
        WideRow{"f4 broadcast", 16, [] { return cst(0); }, nullptr, 2, 2},
        WideRow{"f4 lanes 0..7", 16, lane,
                [] { return bin(Op::Lt, lane(), cst(8)); }, 1, 1},
        WideRow{"f4 one lane per quarter", 16,
                [] { return bin(Op::Div, lane(), cst(8)); },
                [] { return bin(Op::Eq, bin(Op::Rem, lane(), cst(8)), cst(0)); },
                2, 1},
        WideRow{"f4 full", 16, lane, nullptr, 4, 4},
        WideRow{"f4 one per half", 16,
                [] { return bin(Op::Div, lane(), cst(16)); }, nullptr, 2, 2},
        WideRow{"f4 one per quarter", 16,
                [] { return bin(Op::Div, lane(), cst(8)); }, nullptr, 2, 2},
        WideRow{"f4 8 distinct", 16,
                [] { return bin(Op::Rem, lane(), cst(8)); }, nullptr, 4, 4}),
    rowName);

TEST(SharedModel, WorstBankNamesTheLanes) {
  Lanes a;
  for (int l = 0; l < WarpSize; ++l)
    a[l] = l * 128; // 32 words apart: all in bank 0
  BankConflict c = worstBank(a, AllLanes, 4);
  EXPECT_EQ(c.degree, 32);
  EXPECT_EQ(c.bank, 0);
  EXPECT_EQ(c.lanes, AllLanes);
}

// The worst bank by definition: for each bank, the distinct 4-byte words
// the active lanes' elements touch in it; the first bank with most words.
BankConflict worstBankByDefinition(const Lanes &a, LaneMask active,
                                   int bytes) {
  BankConflict out;
  for (int b = 0; b < WarpSize; ++b) {
    std::vector<int64_t> words;
    LaneMask lanes = 0;
    for (int l = 0; l < WarpSize; ++l) {
      if (!((active >> l) & 1))
        continue;
      for (int64_t w = a[l] >> 2; w <= (a[l] + bytes - 1) >> 2; ++w)
        if (((w % WarpSize) + WarpSize) % WarpSize == b) {
          lanes |= 1u << l;
          if (std::find(words.begin(), words.end(), w) == words.end())
            words.push_back(w);
        }
    }
    if (int(words.size()) > out.degree) {
      out.degree = int(words.size());
      out.bank = b;
      out.lanes = lanes;
    }
  }
  return out;
}

TEST(SharedModel, WorstBankMatchesItsDefinition) {
  // Lane patterns of every kind (strided, broadcast, scattered, negative,
  // unaligned) at each element width up to 32 bytes (wider than 16, a lane
  // touches one bank twice).
  uint64_t seed = 12345;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return int64_t(seed >> 33);
  };
  for (int bytes : {1, 2, 4, 8, 12, 16, 32})
    for (int trial = 0; trial < 400; ++trial) {
      Lanes a;
      int64_t stride = next() % 300 - 150, spread = 1 + next() % 4096;
      for (int l = 0; l < WarpSize; ++l)
        a[l] = trial % 3 == 0 ? l * stride
               : trial % 3 == 1 ? next() % spread - spread / 2
                                : (next() % 8) * 128 + (l % 4) * bytes;
      LaneMask active = trial % 5 == 0 ? AllLanes : LaneMask(next());
      BankConflict got = worstBank(a, active, bytes),
                   want = worstBankByDefinition(a, active, bytes);
      ASSERT_EQ(got.degree, want.degree) << bytes << " bytes, trial " << trial;
      ASSERT_EQ(got.bank, want.bank) << bytes << " bytes, trial " << trial;
      ASSERT_EQ(got.lanes, want.lanes) << bytes << " bytes, trial " << trial;
    }
}

TEST(SharedModel, PartialBroadcastCostsNoLessThanItsIdeal) {
  // Found by fuzz_model: 20 lanes reading one 16-byte element take 2
  // wavefronts (one per pair of quarter-warps), and the partial request's
  // ideal from the lanes' bytes (320, 3 wavefronts) was more than that.
  Lanes a;
  a.fill(64);
  Cost c = sharedWavefronts(a, 0xfffffu, 16);
  EXPECT_DOUBLE_EQ(c.actual, 2);
  EXPECT_DOUBLE_EQ(c.ideal, 2);
  // Distinct elements keep the lanes' bytes as the ideal: 20 float4s, 3.
  for (int l = 0; l < WarpSize; ++l)
    a[l] = 16 * l;
  c = sharedWavefronts(a, 0xfffffu, 16);
  EXPECT_DOUBLE_EQ(c.ideal, 3);
  EXPECT_GE(c.actual, c.ideal);
}

TEST(SharedModel, InactiveLanesDoNotConflict) {
  Lanes a;
  for (int l = 0; l < WarpSize; ++l)
    a[l] = l * 128;
  EXPECT_DOUBLE_EQ(sharedWavefronts(a, 0x1u, 4).actual, 1);
  EXPECT_DOUBLE_EQ(sharedWavefronts(a, 0x3u, 4).actual, 2);
}

TEST(SharedModel, WarningsAreDecidedOnWholeWarpsWhenMostAreWhole) {
  Context ctx;
  // s[2*tid] (4 bytes): 2-way in a whole warp. Under tid >= 16 warp 0 keeps
  // lanes 16..31 (1 wavefront): the mean of 8 warps is 15/8, the verdict
  // (7 whole warps of 8) 2.
  Access most{tid() * cst(8), bin(Op::Ge, tid(), cst(16)), 4};
  AccessResult r = analyzeAccess(most, ctx, {B256}, sharedWavefronts);
  ASSERT_TRUE(r.evaluated);
  EXPECT_DOUBLE_EQ(r.minRatioRealistic, 15.0 / 8);
  EXPECT_DOUBLE_EQ(r.minVerdictRealistic, 2);
  // Under tid < 32 || tid % 32 < 16 only warp 0 is whole: 7 of 8 requests
  // are half warps with no conflict, and the verdict is the mean.
  Access few{tid() * cst(8),
             bin(Op::LOr, bin(Op::Lt, tid(), cst(32)),
                 bin(Op::Lt, bin(Op::Rem, tid(), cst(32)), cst(16))),
             4};
  AccessResult q = analyzeAccess(few, ctx, {B256}, sharedWavefronts);
  ASSERT_TRUE(q.evaluated);
  EXPECT_DOUBLE_EQ(q.minVerdictRealistic, q.minRatioRealistic);
  EXPECT_DOUBLE_EQ(q.minRatioRealistic, 9.0 / 8);
}

TEST(SharedModel, PrefetchDistance) {
  // v[index + PDIST * threadIdx.x]: PDIST = 4 conflicts 4-way, 5 = 2^2+1 not.
  Context ctx;
  for (auto [pdist, wf] : {std::pair<int, double>{4, 4}, {5, 1}, {8, 8}, {9, 1}}) {
    Access acc{(cst(3) + tid() * cst(pdist)) * cst(4), nullptr, 4};
    AccessResult r = analyzeAccess(acc, ctx, {B256}, sharedWavefronts);
    EXPECT_DOUBLE_EQ(r.actual, wf) << "PDIST " << pdist;
  }
}

TEST(ConstantModel, DistinctAddresses) {
  Context ctx;
  Access lane{tid() * cst(4), nullptr, 4};
  EXPECT_DOUBLE_EQ(
      analyzeAccess(lane, ctx, {B256}, constantAddresses).actual, 32);
  Access uniform{(blockIdx(0) + cst(5)) * cst(4), nullptr, 4};
  EXPECT_DOUBLE_EQ(
      analyzeAccess(uniform, ctx, {B256}, constantAddresses).actual, 1);
  Access quarter{bin(Op::Div, tid(), cst(8)) * cst(4), nullptr, 4};
  EXPECT_DOUBLE_EQ(
      analyzeAccess(quarter, ctx, {B256}, constantAddresses).actual, 4);
}

TEST(DataRows, KnownMultiples) {
  Context ctx;
  LaneExpr d = data(ctx.addAtom("w", AtomKind::Data));
  EXPECT_EQ(knownMultiple(cst(96)), 32);
  EXPECT_EQ(knownMultiple(d), 1);
  EXPECT_EQ(knownMultiple(d * cst(128)), 128);
  EXPECT_EQ(knownMultiple(bin(Op::Shl, d, cst(7))), 128);
  EXPECT_EQ(knownMultiple(bin(Op::And, d, cst(0x3c0))), 64);
  EXPECT_EQ(knownMultiple(d * cst(64) + cst(32)), 32);
  EXPECT_EQ(knownMultiple(bin(Op::Shr, d * cst(256), cst(1))), 1);
  // Saturates instead of overflowing.
  EXPECT_EQ(knownMultiple(cst(0) * d), int64_t(1) << 32);
  EXPECT_EQ(knownMultiple(bin(Op::Shl, cst(int64_t(1) << 31), cst(31))),
            int64_t(1) << 32);
}

TEST(DataRows, RowsPickedByDataKeepEachLanesBank) {
  Context ctx;
  LaneExpr d = data(ctx.addAtom("w", AtomKind::Data));
  LaneExpr lane = bin(Op::Rem, tid(), cst(32));
  // deq[d & 63][lane] over float deq[64][32]: exact, one wavefront.
  Access rows{bin(Op::And, d, cst(63)) * cst(128) + lane * cst(4), nullptr, 4};
  EXPECT_FALSE(analyzeAccess(rows, ctx, {B256}, sharedWavefronts).evaluated);
  auto r = analyzeDataRows(rows, ctx, {B256});
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->actual, 1);
  EXPECT_DOUBLE_EQ(r->ideal, 1);
  EXPECT_EQ(r->dataRowBytes, 128);
  // Rows of 31 words, two lanes per column, a row that adds a lane offset
  // of its own: the data could put lanes in one bank.
  Access narrow{d * cst(124) + lane * cst(4), nullptr, 4};
  Access pairs{d * cst(128) + bin(Op::Div, lane, cst(2)) * cst(4), nullptr, 4};
  Access skew{(d + lane) * cst(128), nullptr, 4};
  EXPECT_FALSE(analyzeDataRows(narrow, ctx, {B256}));
  EXPECT_FALSE(analyzeDataRows(pairs, ctx, {B256}));
  EXPECT_FALSE(analyzeDataRows(skew, ctx, {B256}));
  // No data: nothing for this analysis to add.
  Access plain{lane * cst(4), nullptr, 4};
  EXPECT_FALSE(analyzeDataRows(plain, ctx, {B256}));
}

} // namespace
} // namespace warplint
