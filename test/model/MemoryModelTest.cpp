// Table-driven tests of the global-memory model against the sectors/request
// that Nsight Compute measured on an H200 (256 threads per block unless the
// row says otherwise). Each row builds the index the way the front end would.
#include "model/Explain.h"
#include "model/Memory.h"

#include "TestNames.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>

namespace warplint {
namespace {

LaneExpr tid(int d = 0) { return threadIdx(d); }
// g = blockIdx.x * blockDim.x + threadIdx.x
LaneExpr g() { return blockIdx(0) * blockDim(0) + tid(); }

struct Row {
  const char *name;
  LaneExpr index; // in elements
  int bytes;
  Shape shape;
  double sectors; // measured sectors per request
  double ideal;
};

class GlobalFigures : public ::testing::TestWithParam<Row> {};

TEST_P(GlobalFigures, MatchesMeasuredSectors) {
  const Row &row = GetParam();
  Context ctx;
  Access acc{row.index * cst(row.bytes), nullptr, row.bytes};
  AccessResult r = analyzeAccess(acc, ctx, {row.shape}, globalSectors);
  ASSERT_TRUE(r.evaluated) << r.unknownReason;
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.actual, row.sectors) << row.name;
  EXPECT_DOUBLE_EQ(r.ideal, row.ideal) << row.name;
}

const Shape B256{256, 1, 1}, B16x16{16, 16, 1};

INSTANTIATE_TEST_SUITE_P(
    Issue2, GlobalFigures,
    ::testing::Values(
        Row{"float g*1", g() * cst(1), 4, B256, 4, 4},
        Row{"float g*2", g() * cst(2), 4, B256, 8, 4},
        Row{"float g*3", g() * cst(3), 4, B256, 12, 4},
        Row{"float g*4", g() * cst(4), 4, B256, 16, 4},
        Row{"float g*8", g() * cst(8), 4, B256, 32, 4},
        Row{"float g*16", g() * cst(16), 4, B256, 32, 4},
        Row{"float g*32", g() * cst(32), 4, B256, 32, 4},
        Row{"float g*33", g() * cst(33), 4, B256, 32, 4},
        Row{"float g+1", g() + cst(1), 4, B256, 5, 4},
        Row{"float g+8", g() + cst(8), 4, B256, 4, 4},
        Row{"double g", g(), 8, B256, 8, 8},
        Row{"double g+1", g() + cst(1), 8, B256, 9, 8},
        Row{"double 2g", g() * cst(2), 8, B256, 16, 8},
        Row{"char g", g(), 1, B256, 1, 1},
        Row{"short g", g(), 2, B256, 2, 2},
        Row{"float4 g", g(), 16, B256, 16, 16},
        // The ideal is what the active lanes' bytes fill, capped by the
        // sectors touched (ncu: a warp-uniform load's ideal is 1 sector,
        // measured on real programs; see IdealAsNsightComputeCountsIt).
        Row{"blockIdx.x", blockIdx(0), 4, B256, 1, 1},
        Row{"tid % 4", bin(Op::Rem, tid(), cst(4)), 4, B256, 1, 1},
        Row{"tid / 2 + 8", bin(Op::Div, tid(), cst(2)) + cst(8), 4, B256, 2,
            2},
        Row{"tid / 2 + 7 (misaligned)", bin(Op::Div, tid(), cst(2)) + cst(7),
            4, B256, 3, 3},
        Row{"16x16 y*1024+x", tid(1) * cst(1024) + tid(0), 4, B16x16, 4, 4},
        Row{"16x16 x*1024+y", tid(0) * cst(1024) + tid(1), 4, B16x16, 16, 4}),
    [](const auto &info) {
      std::string s;
      for (char c : std::string(info.param.name))
        s += isalnum((unsigned char)c) ? std::string(1, c)
             : c == '*'                ? std::string("_times_")
             : c == '+'                ? std::string("_plus_")
             : c == '/'                ? std::string("_div_")
             : c == '%'                ? std::string("_mod_")
                                       : std::string("_");
      return s;
    });

TEST(GlobalModel, ArrayOfStructsMember) {
  // struct { float x, y, z; } in[g]; read .y: 12 bytes between lanes.
  Context ctx;
  Access acc{g() * cst(12) + cst(4), nullptr, 4};
  AccessResult r = analyzeAccess(acc, ctx, {B256}, globalSectors);
  EXPECT_DOUBLE_EQ(r.actual, 12);
  ASSERT_TRUE(r.laneStride);
  EXPECT_EQ(*r.laneStride, 12);
}

TEST(GlobalModel, OddLanesMasked) {
  // if (threadIdx.x % 2 == 0) v = in[g]: 16 lanes, 4 sectors, 2 ideal.
  Context ctx;
  LaneExpr mask = bin(Op::Eq, bin(Op::Rem, tid(), cst(2)), cst(0));
  Access acc{g() * cst(4), mask, 4};
  AccessResult r = analyzeAccess(acc, ctx, {B256}, globalSectors);
  EXPECT_DOUBLE_EQ(r.actual, 4);
  EXPECT_DOUBLE_EQ(r.ideal, 2);
  EXPECT_DOUBLE_EQ(r.activeLanes, 16);
}

TEST(GlobalModel, UnknownStrideIsNotExact) {
  // in[g * s] with s a kernel parameter: anything from 4 to 32 sectors.
  Context ctx;
  int s = ctx.addAtom("s", AtomKind::Parameter);
  Access acc{g() * unknown(s) * cst(4), nullptr, 4};
  AccessResult r = analyzeAccess(acc, ctx, {B256}, globalSectors);
  ASSERT_TRUE(r.evaluated);
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.minActual, 4);
  EXPECT_DOUBLE_EQ(r.maxActual, 32);
  EXPECT_EQ(r.dependsOn, std::vector<int>{s});
}

TEST(GlobalModel, BoundsGuardIsAssumed) {
  // if (g < n) out[g]: the guard only trims the last warp of the grid.
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Parameter);
  Access acc{g() * cst(4), bin(Op::Lt, g(), unknown(n)), 4};
  AccessResult r = analyzeAccess(acc, ctx, {B256}, globalSectors);
  EXPECT_TRUE(r.exact);
  EXPECT_TRUE(r.guardAssumed);
  EXPECT_DOUBLE_EQ(r.actual, 4);
}

TEST(GlobalModel, DataDependentAddressIsNotEvaluated) {
  Context ctx;
  int d = ctx.addAtom("idx[g]", AtomKind::Data);
  Access acc{data(d) * cst(4), nullptr, 4};
  AccessResult r = analyzeAccess(acc, ctx, {B256}, globalSectors);
  EXPECT_FALSE(r.evaluated);
  EXPECT_FALSE(r.unknownReason.empty());
}

TEST(GlobalModel, LoopOffsetAveragesOverIterations) {
  // for (int i = 0; i < n; ++i) in[i + tid]: aligned 1 iteration in 8.
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Parameter);
  int L = ctx.addLoop({"i", cst(0), loopVar(0) + cst(1),
                       bin(Op::Lt, loopVar(0), unknown(n))});
  Access acc{(loopVar(L) + tid()) * cst(4), loopActive(L), 4};
  AccessResult r = analyzeAccess(acc, ctx, {B256}, globalSectors);
  EXPECT_DOUBLE_EQ(r.actual, (4 + 7 * 5) / 8.0);
}

TEST(GlobalModel, GridStrideLoopIsCoalesced) {
  // for (i = g; i < n; i += blockDim.x * gridDim.x) out[i]
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Parameter);
  int L = ctx.addLoop({"i", g(), loopVar(0) + blockDim(0) * gridDim(0),
                       bin(Op::Lt, loopVar(0), unknown(n))});
  Access acc{loopVar(L) * cst(4), loopActive(L), 4};
  AccessResult r = analyzeAccess(acc, ctx, {B256}, globalSectors);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.actual, 4);
}

TEST(GlobalModel, LaneVaryingLoopTripCount) {
  // for (i = tid; i < 40; i += 32) in[i]: iteration 1 has 8 lanes.
  Context ctx;
  int L = ctx.addLoop({"i", tid(), loopVar(0) + cst(32),
                       bin(Op::Lt, loopVar(0), cst(40))});
  Access acc{loopVar(L) * cst(4), loopActive(L), 4};
  AccessResult r = analyzeAccess(acc, ctx, {Shape{32, 1, 1}}, globalSectors);
  EXPECT_DOUBLE_EQ(r.activeLanes, (32 + 8) / 2.0);
  EXPECT_DOUBLE_EQ(r.actual, (4 + 1) / 2.0);
}

TEST(GlobalModel, NestedLoopsMeetEveryTupleOfIterations) {
  // for (i = 0; i < 3; ++i) for (j = 0; j < 3; ++j) in[i * 4096 + tid + j]:
  // j = 0 is aligned (4 sectors), j = 1 and 2 straddle (5): the mean over
  // the nine iterations is 14/3, not the first iteration's 4.
  Context ctx;
  int I = ctx.addLoop({"i", cst(0), loopVar(0) + cst(1),
                       bin(Op::Lt, loopVar(0), cst(3))});
  int J = ctx.addLoop({"j", cst(0), loopVar(1) + cst(1),
                       bin(Op::Lt, loopVar(1), cst(3))});
  Access acc{(loopVar(I) * cst(4096) + tid() + loopVar(J)) * cst(4),
             bin(Op::LAnd, loopActive(I), loopActive(J)), 4};
  AccessResult r = analyzeAccess(acc, ctx, {Shape{32, 1, 1}}, globalSectors);
  ASSERT_TRUE(r.evaluated);
  EXPECT_NEAR(r.actual, 14.0 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(r.worstRatio, 5.0 / 4);
}

TEST(GlobalModel, PartialWarp) {
  Context ctx;
  Access acc{tid() * cst(4), nullptr, 4};
  AccessResult r = analyzeAccess(acc, ctx, {Shape{48, 1, 1}}, globalSectors);
  EXPECT_DOUBLE_EQ(r.activeLanes, (32 + 16) / 2.0);
}

struct SectorRow {
  const char *name;
  std::vector<int64_t> addrs; // lane i reads addrs[i % size]
  LaneMask active;
  int bytes;
  int sectors;
};

// The ideal Nsight Compute reports per request, for patterns measured per
// instruction with SourceCounters on an H100 (4-byte loads, 32 lanes unless
// masked): min(sectors touched, sectors the active lanes' bytes fill).
struct IdealRow {
  const char *name;
  std::function<int64_t(int)> addr; // byte address of lane l
  LaneMask active;
  int sectors, ideal;
};

TEST(SectorCount, IdealAsNsightComputeCountsIt) {
  const IdealRow rows[] = {
      {"broadcast", [](int) { return int64_t(0); }, AllLanes, 1, 1},
      {"two far addresses, 16 lanes each",
       [](int l) { return int64_t(l >> 4) * 2048; }, AllLanes, 2, 2},
      {"16 far addresses, 2 lanes each",
       [](int l) { return int64_t(l >> 1) * 128; }, AllLanes, 16, 4},
      {"8 far addresses, 4 lanes each",
       [](int l) { return int64_t(l >> 2) * 128; }, AllLanes, 8, 4},
      {"3 far addresses", [](int l) { return int64_t(l % 3) * 2048; },
       AllLanes, 3, 3},
      {"2 lanes on 2 far sectors", [](int l) { return int64_t(l) * 2048; },
       0x3u, 2, 1},
      {"contiguous", [](int l) { return int64_t(l) * 4; }, AllLanes, 4, 4},
  };
  for (const IdealRow &row : rows) {
    Lanes a;
    for (int l = 0; l < WarpSize; ++l)
      a[l] = row.addr(l);
    Cost c = globalSectors(a, row.active, 4);
    EXPECT_EQ(c.actual, row.sectors) << row.name;
    EXPECT_EQ(c.ideal, row.ideal) << row.name;
  }
}

// Lanes that run up or down an array are counted in one ordered pass; the
// count must be the number of distinct sectors whatever the stride, element
// size, direction, offset or mask.
TEST(SectorCount, OrderedLanesMatchEveryDistinctSector) {
  const int64_t strides[] = {0, 1, 4, 8, 12, 20, 28, 32, 36, 100, 4096,
                             1 << 20};
  const int sizes[] = {1, 4, 8, 16, 24, 64};
  const LaneMask masks[] = {AllLanes, 0x55555555u, 0xF0F0000Fu, 0x1u};
  for (int64_t stride : strides)
    for (int bytes : sizes)
      for (LaneMask active : masks)
        for (int64_t sign : {1, -1})
          for (int64_t base : {int64_t(0), int64_t(13), int64_t(1) << 40}) {
            Lanes a;
            std::set<int64_t> sectors;
            for (int l = 0; l < WarpSize; ++l) {
              a[l] = base + sign * stride * l;
              if ((active >> l) & 1)
                for (int64_t b = a[l]; b < a[l] + bytes; ++b)
                  sectors.insert(b >> 5);
            }
            EXPECT_EQ(sectorsForRequest(a, active, bytes),
                      int(sectors.size()))
                << "stride " << sign * stride << ", " << bytes
                << " bytes, base " << base << ", mask " << active;
          }
}

TEST(SectorCount, Table) {
  const SectorRow rows[] = {
      {"one word broadcast", {0}, AllLanes, 4, 1},
      {"straddles a sector", {30}, AllLanes, 4, 2},
      {"two sectors", {0, 32}, AllLanes, 4, 2},
      {"inactive lanes ignored", {0, 4096}, 0x55555555u, 4, 1},
      {"no active lane", {0}, 0, 4, 0},
      // Counted through a bit set when the sectors are close together, by
      // sorting when they are not: both in any lane order.
      {"lanes in descending order", {96, 64, 32, 0}, AllLanes, 4, 4},
      {"far apart and unordered", {1 << 20, 0, 1 << 12}, AllLanes, 4, 3},
      {"straddling elements far apart", {30, 1 << 20}, AllLanes, 8, 3},
      {"further apart than the range", {INT64_MIN, INT64_MAX - 3}, AllLanes,
       4, 2},
  };
  for (const SectorRow &row : rows) {
    Lanes a;
    for (int l = 0; l < WarpSize; ++l)
      a[l] = row.addrs[l % row.addrs.size()];
    EXPECT_EQ(sectorsForRequest(a, row.active, row.bytes), row.sectors)
        << row.name;
  }
}

TEST(Explain, SpreadingTermSkipsElementScaling) {
  Context ctx;
  LaneExpr idx = withOrigin(g() * cst(32), 7);
  LaneExpr t = spreadingTerm(idx * cst(4), ctx, B256);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->origin, 7);
}

TEST(Explain, StructStrideIsTheScaling) {
  Context ctx;
  LaneExpr scaled = withOrigin(withOrigin(g(), 3) * cst(12), -1);
  LaneExpr t = spreadingTerm(scaled + cst(4), ctx, B256);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->op, Op::Mul);
  EXPECT_EQ(t->origin, -1);
}

// An address built from data: estimated with each lane's data drawn at
// random (one value per element loaded, within its type's range) and with
// the lanes of a warp agreeing on it.
struct DataRow {
  const char *name;
  std::function<Access(Context &)> build;
  CostModel cost;
  double minRandom, maxRandom; // the random draws' mean, within
  double agree, agreeIdeal; // agree: within one sector more
  bool elementOffset;
};

class DataAddresses : public ::testing::TestWithParam<DataRow> {};

// A datum each lane loads from `addr` (bytes), of `bits` bits.
LaneExpr loaded(Context &ctx, const char *name, LaneExpr addr, int bits = 32,
                uint64_t base = 1) {
  int a = ctx.addAtom(name, AtomKind::Data);
  ctx.atoms[a].loadAddress = addr;
  ctx.atoms[a].loadBase = base;
  ctx.atoms[a].dataBits = bits;
  return data(a);
}

TEST_P(DataAddresses, Estimates) {
  const DataRow &row = GetParam();
  Context ctx;
  Access acc = row.build(ctx);
  auto r = analyzeDataAddress(acc, ctx, B256, row.cost);
  ASSERT_TRUE(r) << row.name;
  EXPECT_FALSE(r->evaluated);
  EXPECT_TRUE(r->dataEstimated);
  EXPECT_GE(r->randomActual, row.minRandom) << row.name;
  EXPECT_LE(r->randomActual, row.maxRandom) << row.name;
  // (An offset drawn at random is rarely a multiple of a sector: a run
  // of lanes then touches one sector more.)
  EXPECT_GE(r->agreeActual, row.agree) << row.name;
  EXPECT_LE(r->agreeActual, row.agree + 1) << row.name;
  EXPECT_DOUBLE_EQ(r->agreeIdeal, row.agreeIdeal) << row.name;
  EXPECT_EQ(r->dataElementOffset, row.elementOffset) << row.name;
}

INSTANTIATE_TEST_SUITE_P(
    Table, DataAddresses,
    ::testing::Values(
        // x[col[g]]: 32 values among 1024 floats (128 sectors): about 28
        // distinct sectors; one element when the lanes agree.
        DataRow{"gather",
                [](Context &c) {
                  return Access{loaded(c, "col[g]", g() * cst(4)) * cst(4),
                                nullptr, 4};
                },
                globalSectors, 25, 31, 1, 1, false},
        // ls[idx * 1024 + g]: a row per value; coalesced when they agree.
        DataRow{"row by data",
                [](Context &c) {
                  return Access{(loaded(c, "idx[g]", g() * cst(4)) * cst(1024) +
                                 g()) * cst(4),
                                nullptr, 4};
                },
                globalSectors, 30, 32, 4, 4, false},
        // out[off[r] + t], r = key & 15: data shifts runs of lanes by
        // element offsets (a partitioned scatter).
        DataRow{"partitioned scatter",
                [](Context &c) {
                  LaneExpr r = bin(Op::And, loaded(c, "key[g]", g() * cst(4)),
                                   cst(15));
                  return Access{(loaded(c, "off[r]", r * cst(4), 32, 2) +
                                 tid()) * cst(4),
                                nullptr, 4};
                },
                globalSectors, 10, 32, 4, 4, true},
        // out[(d * d & 255) + t]: a hash of the datum that moves the
        // address by one element for one step of it (1024 -> 1025) and by
        // three for the next: not a shift by the datum.
        DataRow{"hashed datum",
                [](Context &c) {
                  LaneExpr d = loaded(c, "d[g]", g() * cst(4));
                  return Access{(bin(Op::And, d * d, cst(255)) + tid()) *
                                    cst(4),
                                nullptr, 4};
                },
                globalSectors, 15, 33, 4, 4, false},
        // Lanes that load one element share its value: 4 groups of 8 lanes.
        DataRow{"shared values",
                [](Context &c) {
                  LaneExpr d = loaded(
                      c, "idx[t/8]", bin(Op::Div, tid(), cst(8)) * cst(4));
                  return Access{d * cst(4), nullptr, 4};
                },
                globalSectors, 1, 4, 1, 1, false},
        // A histogram's bins[v], v an unsigned char: 32 random words of
        // 256 spread over the banks, about 3.5-way at the worst bank.
        DataRow{"byte histogram",
                [](Context &c) {
                  return Access{loaded(c, "v[g]", g(), 8) * cst(4), nullptr, 4};
                },
                sharedWavefronts, 2.5, 4.5, 1, 1, false}),
    rowName);

TEST(DataAddresses, PointersLoadedPerLaneAreNotDrawn) {
  Context ctx;
  int p = ctx.addAtom("ptrs[g]", AtomKind::Data);
  ctx.atoms[p].pointer = true;
  Access acc{data(p) + g() * cst(4), nullptr, 4};
  EXPECT_FALSE(analyzeDataAddress(acc, ctx, B256, globalSectors));
  Access none{g() * cst(4), nullptr, 4};
  EXPECT_FALSE(analyzeDataAddress(none, ctx, B256, globalSectors));
}

} // namespace
} // namespace warplint
