// The model's handling of what it cannot see and of what nvcc does:
// realistic ranges of unknowns, the phrasing of a dependence, hash-consing,
// and the merging of adjacent accesses into one vector access.
#include "model/Explain.h"
#include "model/Memory.h"
#include "model/Sampling.h"
#include "model/Vectorize.h"

#include <gtest/gtest.h>

namespace warplint {
namespace {

LaneExpr g() { return blockIdx(0) * blockDim(0) + threadIdx(0); }

// A row's name as a test name: letters and digits, the rest '_'.
const auto testName = [](const auto &info) {
  std::string s = info.param.name;
  for (char &c : s)
    if (!isalnum((unsigned char)c))
      c = '_';
  return s;
};

// --- unknowns -------------------------------------------------------------

struct UnknownRow {
  const char *name;
  // Builds the element index from the unknown's expression.
  LaneExpr (*index)(LaneExpr u);
  bool shiftOfOne; // the unknown is used as `1 << u`
  double minRealistic, maxRealistic; // ratio over the realistic range
  const char *stride;                // describeDependence().stride
};

class Unknowns : public ::testing::TestWithParam<UnknownRow> {};

TEST_P(Unknowns, RealisticRangeDecides) {
  const UnknownRow &row = GetParam();
  Context ctx;
  int a = ctx.addAtom("n", AtomKind::Parameter);
  LaneExpr idx = row.index(unknown(a));
  Access acc{idx * cst(4), nullptr, 4};
  classifyAtoms(ctx, {acc.offset});
  AccessResult r = analyzeAccess(acc, ctx, {Shape{256, 1, 1}}, globalSectors);
  ASSERT_TRUE(r.evaluated) << row.name << ": " << r.unknownReason;
  EXPECT_FALSE(r.exact) << row.name;
  EXPECT_DOUBLE_EQ(r.minRatioRealistic, row.minRealistic) << row.name;
  EXPECT_DOUBLE_EQ(r.maxRatioRealistic, row.maxRealistic) << row.name;
  EXPECT_EQ(describeDependence(r, ctx).stride, row.stride) << row.name;
}

INSTANTIATE_TEST_SUITE_P(
    Model, Unknowns,
    ::testing::Values(
        // in[g * n]: 4 sectors at n = 1, 32 from n = 8; realistic n >= 32.
        UnknownRow{"stride", [](LaneExpr u) { return g() * u; }, false, 8, 8,
                   "4*n bytes"},
        // in[g * n + 1]: the same, offset by one element.
        UnknownRow{"stride+1", [](LaneExpr u) { return g() * u + cst(1); },
                   false, 8, 8, "4*n bytes"},
        // in[g << n]: a shift amount, realistic 0..31: coalesced at n = 0.
        UnknownRow{"shift", [](LaneExpr u) { return bin(Op::Shl, g(), u); },
                   false, 1, 8, "4*2^n bytes"},
        // in[g * (1 << n)]: a size made from a shift, realistic 5..20.
        UnknownRow{"log2 size",
                   [](LaneExpr u) { return g() * bin(Op::Shl, cst(1), u); },
                   true, 8, 8, "4*2^n bytes"},
        // in[g + n]: an offset: 4 or 5 sectors, never a 2x waste.
        UnknownRow{"offset", [](LaneExpr u) { return g() + u; }, false, 1,
                   1.25, ""}),
    testName);

TEST(Unknowns, KnownValuesAreTheOnlySamples) {
  Context ctx;
  int a = ctx.addAtom("d", AtomKind::Parameter);
  ctx.atoms[a].known = {1};
  ctx.atoms[a].knownFrom = "the launch at k.cu:9";
  Access acc{g() * unknown(a) * cst(4), nullptr, 4};
  AccessResult r = analyzeAccess(acc, ctx, {Shape{256, 1, 1}}, globalSectors);
  ASSERT_TRUE(r.evaluated);
  EXPECT_TRUE(r.exact); // one value: no range
  EXPECT_DOUBLE_EQ(r.actual, 4);
  EXPECT_EQ(describeDependence(r, ctx).assumption,
            "'d' = 1 (the launch at k.cu:9)");
}

// A warp of a 1x64 block walks a column of rows gridDim.x * 1 floats wide.
// Sampled, gridDim 1 would make the rows adjacent (coalesced) and the figure
// a range; the launch's grid of 256 makes it one figure, and gridDim stops
// being an unknown.
TEST(Unknowns, LaunchGridIsAConstant) {
  Context ctx;
  LaneExpr y = blockIdx(1) * blockDim(1) + threadIdx(1);
  Access acc{(threadIdx(0) + gridDim(0) * blockDim(0) * y) * cst(4), nullptr,
             4};
  AccessResult sampled =
      analyzeAccess(acc, ctx, {Shape{1, 64, 1}}, globalSectors);
  ASSERT_TRUE(sampled.evaluated);
  EXPECT_FALSE(sampled.exact);
  EXPECT_TRUE(props(acc.offset, ctx).usesGridDim);
  ctx.grid = {256, 1, 1};
  EXPECT_FALSE(props(acc.offset, ctx).usesGridDim);
  EXPECT_FALSE(props(acc.offset, ctx).hasUnknown);
  AccessResult known = analyzeAccess(acc, ctx, {Shape{1, 64, 1}}, globalSectors);
  ASSERT_TRUE(known.evaluated);
  EXPECT_TRUE(known.exact);
  EXPECT_DOUBLE_EQ(known.actual, 32);
  EXPECT_DOUBLE_EQ(known.ideal, 4);
  EXPECT_EQ(representativeEnv(ctx).gridDim[0], 256);
}

// Finished analyses are shared between accesses that ask the same question
// (same nodes, sizes, shapes, grid, and facts about every unknown and loop
// they use): two kernels whose parameters differ in name only. A fact that
// differs (a value the launch shows) is another question.
TEST(Unknowns, SharedResultsFollowTheFactsTheyRestOn) {
  auto build = [](Context &ctx, const char *name, std::vector<int64_t> known) {
    int a = ctx.addAtom(name, AtomKind::Parameter);
    ctx.atoms[a].known = std::move(known);
    return Access{g() * unknown(a) * cst(4), nullptr, 4};
  };
  Context k1, k2, k3;
  Access a1 = build(k1, "stride", {}), a2 = build(k2, "pitch", {}),
         a3 = build(k3, "stride", {1});
  EXPECT_EQ(a1.offset, a2.offset); // one node: the same question
  const std::vector<Shape> shapes{Shape{256, 1, 1}};
  AccessResult r1 = analyzeAccess(a1, k1, shapes, globalSectors),
               r2 = analyzeAccess(a2, k2, shapes, globalSectors),
               r3 = analyzeAccess(a3, k3, shapes, globalSectors);
  EXPECT_FALSE(r1.exact);
  EXPECT_EQ(r2.exact, r1.exact);
  EXPECT_DOUBLE_EQ(r2.actual, r1.actual);
  EXPECT_EQ(r2.samples.size(), r1.samples.size());
  EXPECT_EQ(describeDependence(r2, k2).stride, "4*pitch bytes");
  EXPECT_TRUE(r3.exact); // 'stride' = 1 at the launch: coalesced
  EXPECT_DOUBLE_EQ(r3.actual, 4);
}

// A kernel no launch sizes is analyzed at 256 threads and compared at the
// other 1-D widths. Where the address and its mask see the thread only as
// the global index g = blockIdx.x * blockDim.x + threadIdx.x, every width
// gives its warps 32 consecutive values of g from a multiple of 32: the
// other widths only sample other warps, and are not run. An address that
// reads the width itself still compares them.
TEST(Unknowns, WidthsThatOnlyMoveTheGlobalIndexAreNotCompared) {
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Parameter);
  const std::vector<Shape> one{Shape{256, 1, 1}};
  const std::vector<Shape> widths{{256, 1, 1}, {128, 1, 1}, {1024, 1, 1},
                                  {64, 1, 1}, {32, 1, 1}};
  Access wrapped{bin(Op::Rem, g() * cst(3), unknown(n)) * cst(4), nullptr, 4};
  AccessResult alone = analyzeAccess(wrapped, ctx, one, globalSectors);
  AccessResult all = analyzeAccess(wrapped, ctx, widths, globalSectors);
  ASSERT_TRUE(all.evaluated);
  EXPECT_FALSE(all.exact); // it depends on n
  EXPECT_EQ(all.samples.size(), alone.samples.size());
  for (const auto &s : all.samples)
    EXPECT_EQ(s.shape, 0);
  EXPECT_DOUBLE_EQ(all.minRatio, alone.minRatio);
  EXPECT_DOUBLE_EQ(all.maxRatio, alone.maxRatio);
  // threadIdx.x * (1024 / blockDim.x): 4 elements apart at 256 threads, 32
  // at 32 threads; the widths are compared and the range says so.
  Access scaled{threadIdx(0) * bin(Op::Div, cst(1024), blockDim(0)) * cst(4),
                nullptr, 4};
  AccessResult byWidth = analyzeAccess(scaled, ctx, widths, globalSectors);
  ASSERT_TRUE(byWidth.evaluated);
  EXPECT_FALSE(byWidth.exact);
  EXPECT_DOUBLE_EQ(byWidth.actual / byWidth.ideal, 4);
  EXPECT_DOUBLE_EQ(byWidth.minRatio, 1); // 1024 threads: 1 element apart
  EXPECT_DOUBLE_EQ(byWidth.maxRatio, 8);
  EXPECT_TRUE(std::any_of(byWidth.samples.begin(), byWidth.samples.end(),
                          [](const auto &s) { return s.shape != 0; }));
}

// Data a lane loads is one value per warp when every lane of each warp
// loads it from one address under the shapes analyzed; only then.
TEST(Unknowns, WarpUniformLoadsAreOneValuePerWarp) {
  Context ctx;
  int perWarp = ctx.addAtom("tab[t / 32]", AtomKind::Data);
  ctx.atoms[perWarp].loadAddress = bin(Op::Div, threadIdx(0), cst(32)) * cst(4);
  int perRow = ctx.addAtom("buf[threadIdx.y]", AtomKind::Data);
  ctx.atoms[perRow].loadAddress = threadIdx(1) * cst(4);
  int perLane = ctx.addAtom("idx[t]", AtomKind::Data);
  ctx.atoms[perLane].loadAddress = threadIdx(0) * cst(4);
  int dim = ctx.addAtom("dim", AtomKind::Parameter);
  LaneExpr lane = bin(Op::Rem, threadIdx(0), cst(32));
  std::vector<LaneExpr> uses{(data(perWarp) + lane) * cst(4),
                             (data(perRow) * unknown(dim) + lane) * cst(4),
                             data(perLane) * cst(4)};
  DataMarks wide = markWarpUniformData(ctx, uses, {Shape{32, 8, 1}});
  EXPECT_EQ(wide.atoms, (std::vector<int>{perWarp, perRow}));
  EXPECT_EQ(ctx.atoms[perWarp].kind, AtomKind::Uniform);
  EXPECT_EQ(ctx.atoms[perWarp].role, AtomRole::Offset); // added as it is
  EXPECT_EQ(ctx.atoms[perRow].role, AtomRole::Size);    // scaled by a size
  EXPECT_EQ(ctx.atoms[perLane].kind, AtomKind::Data);
  EXPECT_FALSE(props(uses[0], ctx).hasData);
  EXPECT_TRUE(props(uses[2], ctx).hasData);
  restoreData(ctx, wide);
  EXPECT_EQ(ctx.atoms[perWarp].kind, AtomKind::Data);
  EXPECT_EQ(ctx.atoms[perWarp].role, AtomRole::Size);
  EXPECT_TRUE(props(uses[0], ctx).hasData);
  // 16x16 blocks put two rows in a warp: buf[threadIdx.y] is two values.
  DataMarks square = markWarpUniformData(ctx, uses, {Shape{16, 16, 1}});
  EXPECT_EQ(square.atoms, (std::vector<int>{perWarp}));
  restoreData(ctx, square);
  // Every shape analyzed must agree.
  DataMarks both =
      markWarpUniformData(ctx, uses, {Shape{32, 8, 1}, Shape{16, 16, 1}});
  EXPECT_EQ(both.atoms, (std::vector<int>{perWarp}));
  restoreData(ctx, both);
}

TEST(Unknowns, ShiftRolesComeFromUses) {
  Context ctx;
  int s = ctx.addAtom("s", AtomKind::Parameter);
  int l = ctx.addAtom("log2n", AtomKind::Parameter);
  int n = ctx.addAtom("n", AtomKind::Parameter);
  classifyAtoms(ctx, {bin(Op::Shr, threadIdx(0), unknown(s)),
                      bin(Op::Shl, cst(1), unknown(l)) * unknown(n)});
  EXPECT_EQ(ctx.atoms[s].role, AtomRole::Shift);
  EXPECT_EQ(ctx.atoms[l].role, AtomRole::Log2Size);
  EXPECT_EQ(ctx.atoms[n].role, AtomRole::Size);
  EXPECT_EQ(representativeValue(ctx.atoms[l]), 10);
}

TEST(Unknowns, ShiftAmountsAConstantAwayAreShiftAmounts) {
  // `1 << (log2n - 1)`, `x >> (s + 2)`, `x << (3 + t)`: the amount is the
  // unknown moved by a constant, and its samples must stay shift amounts.
  Context ctx;
  int l = ctx.addAtom("log2n", AtomKind::Parameter);
  int s = ctx.addAtom("s", AtomKind::Parameter);
  int t = ctx.addAtom("t", AtomKind::Parameter);
  int n = ctx.addAtom("n", AtomKind::Parameter);
  classifyAtoms(ctx, {bin(Op::Shl, cst(1), bin(Op::Sub, unknown(l), cst(1))),
                      bin(Op::Shr, threadIdx(0), unknown(s) + cst(2)),
                      bin(Op::Shl, threadIdx(0), cst(3) + unknown(t)),
                      bin(Op::Shl, threadIdx(0), unknown(n) * cst(2))});
  EXPECT_EQ(ctx.atoms[l].role, AtomRole::Log2Size);
  EXPECT_EQ(ctx.atoms[s].role, AtomRole::Shift);
  EXPECT_EQ(ctx.atoms[t].role, AtomRole::Shift);
  // A scaled amount is no shift amount of its own.
  EXPECT_EQ(ctx.atoms[n].role, AtomRole::Size);
}

TEST(Unknowns, OffsetsAreAddedAndNeverScaled) {
  // in[((z0 + tid) + base) * 4] with `if (tid + z0 < n)`: z0 and base are
  // offsets (a comparison and a constant element size keep them so); `n`
  // only bounds, `ld` scales a row, `h` is added but also masked elsewhere,
  // and `u` is added to an address no lane varies.
  Context ctx;
  int z0 = ctx.addAtom("z0", AtomKind::Parameter);
  int base = ctx.addAtom("base", AtomKind::Parameter);
  int n = ctx.addAtom("n", AtomKind::Parameter);
  int ld = ctx.addAtom("ld", AtomKind::Parameter);
  int h = ctx.addAtom("h", AtomKind::Parameter);
  int u = ctx.addAtom("u", AtomKind::Parameter);
  LaneExpr tid = threadIdx(0);
  LaneExpr a = ((tid + unknown(z0)) + unknown(base)) * cst(4);
  LaneExpr b = (unknown(ld) * threadIdx(1) + tid + unknown(h)) * cst(4);
  LaneExpr c = unknown(u) * cst(4);
  LaneExpr mask = bin(Op::Lt, tid + unknown(z0), unknown(n));
  LaneExpr other = bin(Op::And, unknown(h), cst(7));
  classifyAtoms(ctx, {a, b, c, mask, other}, {a, b, c});
  EXPECT_EQ(ctx.atoms[z0].role, AtomRole::Offset);
  EXPECT_EQ(ctx.atoms[base].role, AtomRole::Offset);
  EXPECT_EQ(ctx.atoms[n].role, AtomRole::Size);
  EXPECT_EQ(ctx.atoms[ld].role, AtomRole::Size);
  EXPECT_EQ(ctx.atoms[h].role, AtomRole::Size);
  EXPECT_EQ(ctx.atoms[u].role, AtomRole::Size);
  EXPECT_EQ(representativeValue(ctx.atoms[z0]), 1025);
  EXPECT_TRUE(isRealistic(ctx.atoms[z0], 0));
}

TEST(Unknowns, ACountTheLanesAreBoundedByIsASize) {
  // if (g < n) out[g] = states[n * 3 + g]: rows of n elements, structure of
  // arrays. `n` is added scaled only by a constant, as an offset would be,
  // but the thread index is compared below it: a count of elements, so a
  // size (1024, rows aligned), not an offset at an odd alignment. A value
  // compared below the thread index (`g >= start`) stays an offset.
  Context ctx;
  int n = ctx.addAtom("n", AtomKind::Parameter);
  int start = ctx.addAtom("start", AtomKind::Parameter);
  LaneExpr rows = (unknown(n) * cst(3) + g()) * cst(4);
  LaneExpr from = (unknown(start) + g()) * cst(4);
  LaneExpr below = bin(Op::Lt, g(), unknown(n));
  LaneExpr above = bin(Op::Ge, g(), unknown(start));
  classifyAtoms(ctx, {rows, from, below, above}, {rows, from});
  EXPECT_EQ(ctx.atoms[n].role, AtomRole::Size);
  EXPECT_EQ(ctx.atoms[start].role, AtomRole::Offset);
  Access acc{rows, below, 4};
  AccessResult r = analyzeAccess(acc, ctx, {Shape{256, 1, 1}}, globalSectors);
  ASSERT_TRUE(r.evaluated) << r.unknownReason;
  EXPECT_DOUBLE_EQ(r.actual, 4); // at n = 1024: aligned rows
  EXPECT_DOUBLE_EQ(r.maxActual, 5); // an n not a multiple of 8 splits them
}

TEST(Unknowns, RangesStartAtZero) {
  // in[g * (last - first + 1)]: `first` starts a range, so its
  // representative is 0 and the row keeps a size's length (1025 elements,
  // 32 sectors); `last` stays a size. Both at one value would make the row
  // one element long: the dependence on them is reported, not hidden.
  Context ctx;
  int first = ctx.addAtom("first", AtomKind::Parameter);
  int last = ctx.addAtom("last", AtomKind::Parameter);
  LaneExpr n = unknown(last) - unknown(first) + cst(1);
  Access acc{g() * n * cst(4), nullptr, 4};
  classifyAtoms(ctx, {acc.offset}, {acc.offset});
  EXPECT_TRUE(ctx.atoms[first].origin);
  EXPECT_FALSE(ctx.atoms[last].origin);
  EXPECT_EQ(representativeValue(ctx.atoms[first]), 0);
  EXPECT_EQ(representativeValue(ctx.atoms[last]), 1024);
  AccessResult r = analyzeAccess(acc, ctx, {Shape{256, 1, 1}}, globalSectors);
  ASSERT_TRUE(r.evaluated) << r.unknownReason;
  EXPECT_DOUBLE_EQ(r.actual, 32);
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.minActual, 4);
  EXPECT_EQ(r.dependsOn.size(), 2u);
}

TEST(Unknowns, LastBlocksRunBoundaryConditions) {
  // if (g == 40 * 256 - 1) out[g * 8] with a grid of 40 blocks: no block
  // near the start has the lane; the access is evaluated on the last block,
  // one lane, one sector.
  Context ctx;
  ctx.grid[0] = 40;
  Access acc{g() * cst(8), bin(Op::Eq, g(), cst(40 * 256 - 1)), 8};
  AccessResult r = analyzeAccess(acc, ctx, {Shape{256, 1, 1}}, globalSectors);
  ASSERT_TRUE(r.evaluated) << r.unknownReason;
  EXPECT_DOUBLE_EQ(r.actual, 1);
  EXPECT_DOUBLE_EQ(r.activeLanes, 1);
  // A lane no block has is still reported as never running.
  Access none{g() * cst(8), bin(Op::Eq, g(), cst(40 * 256)), 8};
  EXPECT_FALSE(
      analyzeAccess(none, ctx, {Shape{256, 1, 1}}, globalSectors).evaluated);
}

// --- expressions that scale -------------------------------------------------

TEST(Scale, EqualExpressionsAreOneNode) {
  LaneExpr a = g() * cst(4) + cst(8);
  LaneExpr b = g() * cst(4) + cst(8);
  EXPECT_EQ(a.get(), b.get());
}

TEST(Scale, CopiesWithTheirOwnOriginsAreOneValue) {
  // m[i * n + j] written twice: each copy's nodes carry its own origins.
  Context ctx;
  LaneExpr n = unknown(ctx.addAtom("n", AtomKind::Uniform));
  auto copy = [&](int o) {
    return withOrigin(withOrigin(threadIdx(0) * n, o) + cst(3), o + 1);
  };
  LaneExpr first = copy(10), second = copy(20);
  EXPECT_NE(first, second);
  OriginFreeMemo memo;
  LaneExpr a = withoutOrigins(first, memo), b = withoutOrigins(second, memo);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a->origin, -1);
  EXPECT_EQ(a->a->origin, -1);
  EXPECT_NE(a, withoutOrigins(withOrigin(threadIdx(0) * n + cst(4), 5), memo));
  // A value with no origin anywhere is its own origin-free form, found
  // without the memo; one origin deep inside makes every node above it
  // need clearing.
  EXPECT_TRUE(a->originFree);
  EXPECT_FALSE(first->originFree);
  EXPECT_FALSE((first + cst(1))->originFree);
  OriginFreeMemo fresh;
  EXPECT_EQ(withoutOrigins(a, fresh), a);
  EXPECT_TRUE(fresh.empty());
}

TEST(Scale, AValueBuiltAndFreedAgainTakesItsOldSlot) {
  // Each access's analysis builds constants of its own and frees them: a
  // dead slot per build, all of one hash, made every later lookup of that
  // value walk them (10,000 loads took twice their time).
  (void)cst(987654321); // one slot, dead at once
  const size_t used = internedSlotsUsed();
  for (int i = 0; i < 10000; ++i) {
    LaneExpr c = cst(987654321);
    EXPECT_EQ(c->value, 987654321);
  }
  EXPECT_EQ(internedSlotsUsed(), used);
}

TEST(Scale, AnExpressionWrittenAgainIsAnsweredOnce) {
  // tile[(t * 3) % 1024] on two lines of an unrolled body: the nodes differ
  // in their origins only, and the second is the first's question.
  Context ctx;
  auto line = [&](int o) {
    Access a;
    a.offset = withOrigin(
        bin(Op::Rem, withOrigin(threadIdx(0) * cst(3), o), cst(1024)) *
            cst(4),
        o + 1);
    a.elementBytes = 4;
    return a;
  };
  std::vector<Shape> shapes{{256, 1, 1}};
  size_t before = accessesEvaluated();
  AccessResult first = analyzeAccess(line(10), ctx, shapes, sharedWavefronts);
  EXPECT_EQ(accessesEvaluated(), before + 1);
  AccessResult second = analyzeAccess(line(20), ctx, shapes, sharedWavefronts);
  EXPECT_EQ(accessesEvaluated(), before + 1);
  EXPECT_TRUE(second.evaluated);
  EXPECT_DOUBLE_EQ(second.actual, first.actual);
  EXPECT_DOUBLE_EQ(second.ideal, first.ideal);
  // Another stride is another question.
  Access other = line(30);
  other.offset = bin(Op::Rem, threadIdx(0) * cst(5), cst(1024)) * cst(4);
  analyzeAccess(other, ctx, shapes, sharedWavefronts);
  EXPECT_EQ(accessesEvaluated(), before + 2);
}

// A stencil's neighbours over a pitch the host sets: `in[o + (x + dx) +
// ni * (y + dy)]` for several (dx, dy), and arrays indexed alike. Their
// addresses are one lane-varying part moved by a uniform amount, whose
// evaluations the accesses after the first two take from the class; each
// access's figures are the ones it gets analyzed alone. A uniform part
// that divides by a sampled unknown (zero among its samples) and a
// lane-varying part that is not a sum of terms (a remainder) are evaluated
// as written; a remainder's lanes, and a mask's, depend on the block, so
// each block is its own evaluation.
TEST(Scale, NeighboursAUniformAmountApartShareTheirLanes) {
  Context ctx;
  LaneExpr ni = unknown(ctx.addAtom("ni", AtomKind::Parameter));
  LaneExpr o = unknown(ctx.addAtom("o", AtomKind::Parameter));
  LaneExpr m = unknown(ctx.addAtom("m", AtomKind::Parameter));
  LaneExpr x = blockIdx(0) * blockDim(0) + threadIdx(0);
  LaneExpr y = blockIdx(1) * blockDim(1) + threadIdx(1);
  std::vector<Access> accs;
  for (auto [dx, dy] : {std::pair(0, 0), std::pair(-1, 0), std::pair(1, 0),
                        std::pair(0, -1), std::pair(0, 1), std::pair(2, 1)})
    accs.push_back(
        {(o + (x + cst(dx)) + ni * (y + cst(dy))) * cst(4), nullptr, 4});
  // A row of 8-byte elements: another class.
  accs.push_back({(o + x + ni * y) * cst(8), nullptr, 8});
  // o / m: a division, by zero in some samples.
  accs.push_back({(bin(Op::Div, o, m) + x + ni * y) * cst(4), nullptr, 4});
  // (x + 1) % ni three times, rows apart: lanes that depend on the block.
  for (int dy : {0, 1, 2})
    accs.push_back(
        {(bin(Op::Rem, x + cst(1), ni) + ni * (y + cst(dy)) + cst(3)) * cst(4),
         nullptr, 4});
  // Under a mask that reads the block: every third column.
  LaneExpr third = bin(Op::Ne, bin(Op::Rem, x, cst(3)), cst(0));
  for (int dx : {0, 1, 2})
    accs.push_back({(o + x + cst(dx) + ni * y) * cst(4), third, 4});
  std::vector<LaneExpr> offsets;
  for (const Access &a : accs)
    offsets.push_back(a.offset);
  classifyAtoms(ctx, offsets);
  const std::vector<Shape> shapes{Shape{16, 8, 1}, Shape{32, 4, 1}};
  std::vector<AccessResult> alone;
  for (const Access &a : accs) {
    clearAccessCaches();
    alone.push_back(analyzeAccess(a, ctx, shapes, globalSectors));
  }
  clearAccessCaches();
  const size_t shared = laneEvaluationsShared();
  for (size_t i = 0; i < accs.size(); ++i) {
    AccessResult r = analyzeAccess(accs[i], ctx, shapes, globalSectors);
    const AccessResult &a = alone[i];
    ASSERT_EQ(r.evaluated, a.evaluated) << i;
    EXPECT_EQ(r.exact, a.exact) << i;
    EXPECT_DOUBLE_EQ(r.actual, a.actual) << i;
    EXPECT_DOUBLE_EQ(r.ideal, a.ideal) << i;
    EXPECT_DOUBLE_EQ(r.activeLanes, a.activeLanes) << i;
    EXPECT_DOUBLE_EQ(r.minRatio, a.minRatio) << i;
    EXPECT_DOUBLE_EQ(r.maxRatio, a.maxRatio) << i;
    EXPECT_DOUBLE_EQ(r.minRatioRealistic, a.minRatioRealistic) << i;
    EXPECT_DOUBLE_EQ(r.maxRatioRealistic, a.maxRatioRealistic) << i;
    EXPECT_DOUBLE_EQ(r.minVerdictRealistic, a.minVerdictRealistic) << i;
    ASSERT_EQ(r.samples.size(), a.samples.size()) << i;
    for (size_t k = 0; k < r.samples.size(); ++k) {
      EXPECT_DOUBLE_EQ(r.samples[k].actual, a.samples[k].actual) << i;
      EXPECT_DOUBLE_EQ(r.samples[k].ratio, a.samples[k].ratio) << i;
    }
    if (i == 1) { // the class's second access fills it
      EXPECT_EQ(laneEvaluationsShared(), shared) << i;
    }
  }
  // The neighbours from the third on, the division's access where its
  // uniform part is defined, and the third remainder found their lanes.
  EXPECT_GT(laneEvaluationsShared(), shared + 5 * 64);
  // The neighbours differ: the figures are not one access's.
  EXPECT_NE(alone[0].samples.size(), 0u);
  bool differ = false;
  for (size_t i = 1; i < 6; ++i)
    for (size_t k = 0; k < alone[i].samples.size(); ++k)
      differ |= alone[i].samples[k].actual != alone[0].samples[k].actual;
  EXPECT_TRUE(differ);
}

TEST(Merges, ReplacingALoopVariableKeepsWhatDoesNotUseIt) {
  // buff[t * 4 + i] at iteration i = 2k + 1 (the second of a merged pair).
  Context ctx;
  int L = ctx.addLoop({"i", cst(0), nullptr, nullptr});
  LaneExpr offset = (threadIdx(0) * cst(4) + loopVar(L)) * cst(4);
  LaneExpr mask = loopActive(L);
  LaneExpr with = cst(2) * loopVar(L) + cst(1);
  OriginFreeMemo memo;
  LaneExpr r = replaceLoopVar(offset, L, with, memo);
  EXPECT_NE(r, offset);
  EXPECT_EQ(r, (threadIdx(0) * cst(4) + with) * cst(4));
  // The loop's activity is not its variable; other loops are untouched.
  EXPECT_EQ(replaceLoopVar(mask, L, with, memo), mask);
  int M = ctx.addLoop({"j", cst(0), nullptr, nullptr});
  OriginFreeMemo other;
  EXPECT_EQ(replaceLoopVar(loopVar(M) + cst(1), L, with, other),
            loopVar(M) + cst(1));
}

TEST(Substitution, SwapThreadXYExchangesIndicesAndExtents) {
  // out[(by * 16 + tx) * n + bx * 16 + ty], with its bound on blockDim.x.
  LaneExpr row = blockIdx(1) * cst(16) + threadIdx(0);
  LaneExpr col = blockIdx(0) * cst(16) + threadIdx(1);
  LaneExpr offset = (row * cst(1024) + col) * cst(4);
  LaneExpr mask = bin(Op::Lt, threadIdx(0), blockDim(0));
  OriginFreeMemo memo;
  LaneExpr row2 = blockIdx(1) * cst(16) + threadIdx(1);
  LaneExpr col2 = blockIdx(0) * cst(16) + threadIdx(0);
  EXPECT_EQ(swapThreadXY(offset, memo), (row2 * cst(1024) + col2) * cst(4));
  EXPECT_EQ(swapThreadXY(mask, memo), bin(Op::Lt, threadIdx(1), blockDim(1)));
  // threadIdx.z and block indices are not exchanged; twice is the identity.
  LaneExpr z = threadIdx(2) + blockIdx(0);
  EXPECT_EQ(swapThreadXY(z, memo), z);
  OriginFreeMemo again;
  EXPECT_EQ(swapThreadXY(swapThreadXY(offset, memo), again), offset);
}

TEST(Scale, ConditionalChainIsLinear) {
  // x = t; 40 times: if (t & bit) x = x + k. A tree would have 2^40 paths;
  // shared nodes make it 40 selects, evaluated once each per warp.
  LaneExpr x = threadIdx(0);
  for (int i = 0; i < 40; ++i)
    x = select(bin(Op::And, threadIdx(0), cst(1 << (i % 5))), x + cst(i + 1), x);
  Context ctx;
  Access acc{x * cst(4), nullptr, 4};
  AccessResult r = analyzeAccess(acc, ctx, {Shape{32, 1, 1}}, globalSectors);
  EXPECT_TRUE(r.evaluated);
}

// A walk calls its function once per distinct node, however many paths
// reach it, past the few its inline array holds as well: 150 selects that
// each use the previous value twice are 150 * 4 + 2 nodes (each select, its
// mask, its sum and the sum's constant; threadIdx.x and the mask's constant),
// not 2^150 paths. Returning false skips a node's operands.
TEST(Scale, WalksVisitEachSharedNodeOnce) {
  LaneExpr x = threadIdx(0);
  for (int i = 0; i < 150; ++i)
    x = select(bin(Op::And, x, cst(1)), x + cst(i + 2), x);
  ASSERT_LT(x->depth, MaxDepth);
  std::unordered_map<const Node *, int> seen;
  visitNodes(x, [&](const Node &n) {
    ++seen[&n];
    return true;
  });
  EXPECT_EQ(seen.size(), 150u * 4 + 2);
  for (const auto &[n, times] : seen)
    EXPECT_EQ(times, 1);
  size_t shallow = 0;
  visitNodes(x, [&](const Node &n) {
    ++shallow;
    return n.op != Op::Select;
  });
  EXPECT_EQ(shallow, 1u);
}

TEST(Scale, DepthIsBoundedAndReported) {
  LaneExpr x = threadIdx(0);
  for (uint32_t i = 0; i < MaxDepth + 10; ++i)
    x = x * cst(3) + threadIdx(0);
  EXPECT_LE(x->depth, MaxDepth);
  Context ctx;
  AccessResult r =
      analyzeAccess({x * cst(4), nullptr, 4}, ctx, {Shape{}}, globalSectors);
  EXPECT_FALSE(r.evaluated);
  EXPECT_NE(r.unknownReason.find("more than 400 operations"), std::string::npos)
      << r.unknownReason;
}

// --- what nvcc merges ---------------------------------------------------------

struct MergeRow {
  const char *name;
  std::vector<std::pair<LaneExpr, int>> offsets; // (byte offset, group)
  int elementBytes, baseAlign;
  std::vector<int> mergedWidths; // one per merged access, in order
};

class Merges : public ::testing::TestWithParam<MergeRow> {};

TEST_P(Merges, AsNvccDoes) {
  const MergeRow &row = GetParam();
  Context ctx;
  int loop = ctx.addLoop(Loop{"s", cst(1), bin(Op::Mul, loopVar(0), cst(2)),
                              bin(Op::Lt, loopVar(0), cst(64))});
  (void)loop;
  std::vector<MergeInput> in;
  for (const auto &[off, group] : row.offsets)
    in.push_back({Access{off, nullptr, row.elementBytes}, group, row.baseAlign});
  std::vector<int> widths;
  for (const MergedAccess &m : mergeAdjacent(in, ctx, Shape{}))
    widths.push_back(m.bytes);
  EXPECT_EQ(widths, row.mergedWidths) << row.name;
}

LaneExpr lane() { return threadIdx(0); }

INSTANTIATE_TEST_SUITE_P(
    Model, Merges,
    ::testing::Values(
        // float2 d[i]: .x and .y -> one 8-byte access.
        MergeRow{"float2 members", {{g() * cst(8), 0}, {g() * cst(8) + cst(4), 0}}, 4, 8, {8}},
        // float4 q[i]: four members -> one 16-byte access.
        MergeRow{"float4 members",
                 {{g() * cst(16), 0}, {g() * cst(16) + cst(4), 0},
                  {g() * cst(16) + cst(8), 0}, {g() * cst(16) + cst(12), 0}},
                 4, 16, {16}},
        // Different statements (groups) never merge.
        MergeRow{"two groups", {{g() * cst(8), 0}, {g() * cst(8) + cst(4), 1}}, 4, 8, {}},
        // A float pointer: 8-byte alignment unknown to nvcc.
        MergeRow{"float pointer", {{g() * cst(8), 0}, {g() * cst(8) + cst(4), 0}}, 4, 4, {}},
        // s[2t], s[2t+1] in shared memory (nvcc places the array: 16).
        MergeRow{"shared pair", {{lane() * cst(8), 0}, {lane() * cst(8) + cst(4), 0}}, 4, 16, {8}},
        // s[2t+1], s[2t+2]: adjacent but not 8-byte aligned.
        MergeRow{"misaligned pair",
                 {{lane() * cst(8) + cst(4), 0}, {lane() * cst(8) + cst(8), 0}}, 4, 16, {}},
        // s[t] and s[t + s] with s a loop variable: adjacent only at s = 1.
        MergeRow{"reduction step",
                 {{lane() * cst(4), 0}, {(lane() + loopVar(0)) * cst(4), 0}}, 4, 16, {}},
        // A scan's step: s[2t-k] + s[2t], then s[2t+1-k] + s[2t+1]. While
        // k = 1, s[2t+1-k] is s[2t]; elsewhere it is not. The pair
        // s[2t], s[2t+1] is one LDS.64 on the GPU (scan2: 1.0x next to the
        // 2-way s[2t-k]) whatever sorts between them.
        MergeRow{"scan step",
                 {{(lane() * cst(2) - loopVar(0)) * cst(4), 0},
                  {lane() * cst(8), 0},
                  {(lane() * cst(2) + cst(1) - loopVar(0)) * cst(4), 0},
                  {lane() * cst(8) + cst(4), 0}},
                 4, 16, {8}}),
    testName);

// Loads whose indices differ only in which loop variable they use are two
// elements: nested loops' variables are equal in some iterations, not all.
TEST(Merges, DistinctLoopVariablesAreDistinctElements) {
  Context ctx;
  for (const char *v : {"i", "k"})
    ctx.addLoop(Loop{v, cst(0), bin(Op::Add, loopVar(int(ctx.loops.size())), cst(1)),
                     bin(Op::Lt, loopVar(int(ctx.loops.size())), cst(8))});
  LaneExpr ik = lane() * cst(256) + loopVar(0) * cst(32) + loopVar(1) * cst(4);
  LaneExpr ki = lane() * cst(256) + loopVar(1) * cst(32) + loopVar(0) * cst(4);
  std::vector<MergeInput> in{{Access{ik, nullptr, 4}, 0, 16},
                             {Access{ki, nullptr, 4}, 0, 16}};
  EXPECT_TRUE(mergeAdjacent(in, ctx, Shape{}).empty());
}

// nvcc merges only what the kernel proves aligned: a buffer at `smem + n * k`
// floats holds `buf[2t]`, `buf[2t+1]` at 4-byte alignment whatever the
// launches pass, even where every launch's values make the product even.
TEST(Merges, AlignmentTheLaunchesGiveIsNotTheCompilers) {
  auto pairAt = [](bool known, int64_t scale) {
    Context ctx;
    int n = ctx.addAtom("n", AtomKind::Parameter);
    int k = ctx.addAtom("k", AtomKind::Parameter);
    if (known) {
      ctx.atoms[size_t(n)].known = {2};
      ctx.atoms[size_t(k)].known = {4};
    }
    LaneExpr base = unknown(n) * unknown(k) * cst(scale);
    std::vector<MergeInput> in{{Access{base + lane() * cst(8), nullptr, 4}, 0, 16},
                               {Access{base + lane() * cst(8) + cst(4), nullptr, 4}, 0, 16}};
    return mergeAdjacent(in, ctx, Shape{}).size();
  };
  EXPECT_EQ(pairAt(true, 4), 0u);   // n * k floats: two scalar loads
  EXPECT_EQ(pairAt(false, 4), 0u);
  EXPECT_EQ(pairAt(true, 64), 1u);  // 16 floats a step: one 64-bit load
  EXPECT_EQ(pairAt(false, 64), 1u);
}

// A store cannot write a load's bytes when both are one constant apart and
// do not overlap: `p[i].x` and `p[i].y` (4 bytes each, 4 apart).
TEST(Merges, DisjointMembersAtAConstantDistance) {
  Context ctx;
  ctx.addLoop(Loop{"k", cst(0), bin(Op::Add, loopVar(0), cst(1)),
                   bin(Op::Lt, loopVar(0), cst(8))});
  LaneExpr x = g() * cst(8);
  EXPECT_TRUE(disjointAtConstantDistance({x, nullptr, 4},
                                         {x + cst(4), nullptr, 4}, ctx, Shape{}));
  EXPECT_TRUE(disjointAtConstantDistance({x + cst(4), nullptr, 4},
                                         {x, nullptr, 4}, ctx, Shape{}));
  // Overlapping bytes: an 8-byte store over a 4-byte load 4 bytes in.
  EXPECT_FALSE(disjointAtConstantDistance({x, nullptr, 8},
                                          {x + cst(4), nullptr, 4}, ctx, Shape{}));
  // Not a constant distance: the loop moves one and not the other.
  EXPECT_FALSE(disjointAtConstantDistance(
      {x, nullptr, 4}, {x + loopVar(0) * cst(64) + cst(4), nullptr, 4}, ctx,
      Shape{}));
}

} // namespace
} // namespace warplint

namespace warplint {
namespace {

// An unrolled loop is one instruction per iteration: the mean over
// iterations is what a line's counters sum to, the worst iteration is what a
// user fixes first. s[t * k] for k = 1, 2, 4, ... 32: 1, 2, 4, ..., 32-way.
TEST(Loops, WorstIterationNextToTheMean) {
  Context ctx;
  int l = ctx.addLoop(Loop{"k", cst(1), bin(Op::Mul, loopVar(0), cst(2)),
                           bin(Op::Le, loopVar(0), cst(32))});
  Access acc{threadIdx(0) * loopVar(l) * cst(4), loopActive(l), 4};
  AccessResult r =
      analyzeAccess(acc, ctx, {Shape{32, 1, 1}}, sharedWavefronts);
  ASSERT_TRUE(r.evaluated) << r.unknownReason;
  EXPECT_DOUBLE_EQ(r.actual, (1 + 2 + 4 + 8 + 16 + 32) / 6.0);
  EXPECT_DOUBLE_EQ(r.worstRatio, 32);
}

} // namespace
} // namespace warplint
