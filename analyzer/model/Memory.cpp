#include "model/MemoryDetail.h"
#include "model/Period.h"
#include "model/Sampling.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <unordered_map>
#include <vector>

namespace warplint {
using namespace memory_detail;

// Why a lane-varying unknown is in `e`: the first Data atom's reason (loop
// updates included), or the depth limit.
std::string memory_detail::dataReason(const LaneExpr &e, const Context &ctx) {
  std::string why;
  visitWithLoops(e, ctx, [&](const Node &n) {
    if (!why.empty())
      return false;
    if ((n.op == Op::Data || n.op == Op::Unknown) &&
        ctx.atoms[n.value].kind == AtomKind::Data)
      why = ctx.atoms[n.value].why;
    else if (n.op == Op::TooDeep)
      why = "the address is an expression of more than " +
            std::to_string(MaxDepth) + " operations (warplint's limit)";
    return why.empty();
  });
  return why;
}

namespace memory_detail {
// One warp and environment of a class's evaluations: the lane-varying
// part's values and the mask's lanes, with the flags they set.
struct LaneRecord {
  std::vector<uint64_t> words; // the evaluation's key, checked on a hit
  Lanes lanes;
  LaneMask active = 0, present = 0;
  bool data = false, guard = false, tail = false;
  /// The evaluation set a flag: the whole address is evaluated instead.
  bool flagged = false;
};
struct LaneClass {
  std::vector<LaneExpr> hold; // the key's nodes, alive while it is
  std::unordered_map<uint64_t, LaneRecord> records;
};
} // namespace memory_detail

namespace {
// Per thread, as the nodes are. A class seen once is remembered by its
// key's hash alone (most accesses share their class with none), with the
// key's nodes held: a node freed and built again would have another
// address, and the class another key.
thread_local std::unordered_map<KeyWords, LaneClass, KeyWordsHash> LaneClasses;
thread_local std::unordered_map<uint64_t, std::vector<LaneExpr>>
    LaneClassesSeen;
thread_local size_t LaneRecords = 0;
thread_local size_t LanesShared = 0; // laneEvaluationsShared()
// About 400 bytes a record: a few MB, the evaluations of a few thousand
// warps and environments of a handful of classes (a stencil kernel's).
// The classes and classes seen once hold a few hundred bytes each.
constexpr size_t LaneRecordLimit = 1 << 14;
constexpr size_t LaneClassLimit = 1 << 12, LaneSeenLimit = 1 << 13;
} // namespace

// What one evaluation of a class reads of its warp and environment.
static void laneRecordWords(std::vector<uint64_t> &w, const LaneShare &share,
                            const Shape &sh, const Env &env, int warp) {
  w.clear();
  w.insert(w.end(),
           {uint64_t(sh.x), uint64_t(sh.y), uint64_t(sh.z), uint64_t(warp),
            uint64_t(env.blockIdx[0]), uint64_t(env.blockIdx[1]),
            uint64_t(env.blockIdx[2]), uint64_t(env.gridDim[0]),
            uint64_t(env.gridDim[1]), uint64_t(env.gridDim[2])});
  size_t iters = env.loopIter.size();
  while (iters > 0 && env.loopIter[iters - 1] == 0)
    --iters;
  w.push_back(iters);
  for (size_t i = 0; i < iters; ++i)
    w.push_back(uint64_t(int64_t(env.loopIter[i])));
  for (int u : share.unknowns)
    w.push_back(uint64_t(env.unknowns[size_t(u)]));
}

// The class's lanes for this warp and environment, found or evaluated
// (null where the evaluation set a flag: the caller evaluates the whole
// address instead, as it would without the class).
static const LaneRecord *classLanes(const LaneShare &share,
                                    const LaneExpr &mask, const Context &ctx,
                                    const Shape &sh, const Env &env, int w,
                                    LoopSequences &seq,
                                    UniformValues *uniforms) {
  thread_local std::vector<uint64_t> words;
  laneRecordWords(words, share, sh, env, w);
  const uint64_t h = wordsHash(words);
  auto &records = share.cls->records;
  if (auto it = records.find(h); it != records.end()) {
    if (it->second.words != words || it->second.flagged)
      return nullptr;
    ++LanesShared;
    return &it->second;
  }
  WarpEval ev(ctx, sh, env, w, &seq);
  ev.shareUniforms(uniforms);
  LaneRecord rec;
  rec.active = ev.mask(mask);
  rec.present = ev.present();
  if (rec.active)
    rec.lanes = ev.value(share.lanePart);
  rec.flagged = ev.undefined || ev.loopUnended || ev.stopped != EvalStop::None;
  rec.data = ev.usedDataCondition;
  rec.guard = ev.assumedGuard;
  rec.tail = ev.assumedTail;
  if (++LaneRecords > LaneRecordLimit) {
    for (auto &[key, cls] : LaneClasses)
      cls.records.clear();
    LaneRecords = 1;
  }
  rec.words = words;
  const LaneRecord &kept = records.emplace(h, std::move(rec)).first->second;
  return kept.flagged ? nullptr : &kept;
}

// The uniform part's value for this environment (kept in `uniforms` for
// its other warps), or false where evaluating it set a flag.
static bool uniformPartValue(const LaneShare &share, const Context &ctx,
                             const Shape &sh, const Env &env, int w,
                             UniformValues *uniforms, int64_t &u) {
  const LaneExpr &e = share.uniformPart;
  if (constValue(e, u))
    return true;
  if (uniforms)
    if (auto it = uniforms->values.find(e.get());
        it != uniforms->values.end()) {
      u = it->second;
      return true;
    }
  WarpEval ev(ctx, sh, env, w);
  ev.shareUniforms(uniforms);
  u = ev.value(e)[0];
  if (ev.usedDataCondition || ev.assumedGuard || ev.assumedTail ||
      ev.undefined || ev.loopUnended || ev.stopped != EvalStop::None)
    return false;
  if (uniforms)
    uniforms->values.emplace(e.get(), u);
  return true;
}

void memory_detail::warpFigures(WarpFigures &f, const Access &acc,
                                const LaneExpr &mask, const Context &ctx,
                                const Shape &sh, const Env &env,
                                const CostModel &cost, int w,
                                LoopSequences &seq, UniformValues *uniforms,
                                const LaneShare *share) {
  f.cost = Cost();
  f.nDist = 0;
  f.spacing = -1;
  f.uneven = false;
  f.alike = true;
  Lanes addr;
  const LaneRecord *rec = nullptr;
  int64_t u = 0;
  if (share && share->cls && !env.dataSeed) {
    rec = classLanes(*share, mask, ctx, sh, env, w, seq, uniforms);
    if (rec && rec->active &&
        !uniformPartValue(*share, ctx, sh, env, w, uniforms, u))
      rec = nullptr;
  }
  if (rec) {
    f.active = rec->active;
    f.present = rec->present;
    if (f.active) {
      for (int l = 0; l < WarpSize; ++l)
        addr[l] = wrapAdd(rec->lanes[l], u);
      f.cost = cost(addr, f.active, acc.elementBytes);
    }
    f.data = rec->data;
    f.guard = rec->guard;
    f.tail = rec->tail;
    f.undefined = f.unended = false;
    f.stopped = EvalStop::None;
  } else {
    WarpEval ev(ctx, sh, env, w, &seq);
    ev.shareUniforms(uniforms);
    f.active = ev.mask(mask);
    f.present = ev.present();
    if (f.active) {
      addr = ev.value(acc.offset);
      f.cost = cost(addr, f.active, acc.elementBytes);
    }
    f.data = ev.usedDataCondition;
    f.guard = ev.assumedGuard;
    f.tail = ev.assumedTail;
    f.undefined = ev.undefined;
    f.unended = ev.loopUnended;
    f.stopped = ev.stopped;
  }
  f.sparse = f.cost;
  if (f.active && f.data && __builtin_popcount(f.active) > SparseMaskLanes) {
    // Which lanes the data picks is unknown: draws of a few of them, the
    // same draws for the same warp whatever else is evaluated.
    int lanes[WarpSize], n = 0;
    for (int l = 0; l < WarpSize; ++l)
      if ((f.active >> l) & 1)
        lanes[n++] = l;
    uint64_t state = 0x9e3779b97f4a7c15ull * uint64_t(w + 1);
    Cost sum;
    for (int d = 0; d < SparseMaskDraws; ++d) {
      LaneMask pick = 0;
      for (int k = 0; k < SparseMaskLanes; ++k) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        int j = k + int(state % uint64_t(n - k));
        std::swap(lanes[k], lanes[j]);
        pick |= LaneMask(1) << lanes[k];
      }
      Cost c = cost(addr, pick, acc.elementBytes);
      sum.actual += c.actual;
      sum.ideal += c.ideal;
    }
    f.sparse = {sum.actual / SparseMaskDraws, sum.ideal / SparseMaskDraws};
  }
  f.reach = 0;
  for (int l = 0, prev = -1; l < WarpSize && f.active; ++l) {
    if (!((f.active >> l) & 1))
      continue;
    f.reach = std::max(f.reach, addr[l] > (int64_t(1) << 60)
                                    ? addr[l]
                                    : addr[l] + acc.elementBytes);
    if (prev >= 0) {
      int64_t gap = wrapSub(addr[l], addr[prev]);
      // (Neighbouring lanes, the common case, need no division.)
      f.dist[f.nDist++] = l - prev == 1 ? gap : gap / (l - prev);
      f.uneven |= l - prev != 1 && gap % (l - prev) != 0;
      f.spacing = f.spacing == -1 || f.spacing == l - prev ? l - prev : 0;
      f.alike &= f.dist[f.nDist - 1] == f.dist[0];
    }
    prev = l;
  }
}

void memory_detail::accumulate(const WarpFigures &f, Totals &t,
                               Totals *also) {
  for (Totals *to : {&t, also}) {
    if (!to)
      continue;
    to->data |= f.data;
    to->guard |= f.guard;
    to->tail |= f.tail;
    if (f.stopped != EvalStop::None) {
      // Stopped in the mask or the address: nothing of it is a figure.
      to->undefined = true;
      if (to->stopped == EvalStop::None)
        to->stopped = f.stopped;
    }
    if (!f.active)
      continue;
    to->undefined |= f.undefined;
    to->unended |= f.unended;
    to->reach = std::max(to->reach, f.reach);
    to->requests += 1;
    to->actual += f.cost.actual;
    to->ideal += f.cost.ideal;
    to->sparseActual += f.sparse.actual;
    to->sparseIdeal += f.sparse.ideal;
    to->lanes += __builtin_popcount(f.active);
    if (f.active == f.present) {
      to->fullRequests += 1;
      to->fullActual += f.cost.actual;
      to->fullIdeal += f.cost.ideal;
    }
    if (f.uneven)
      to->strideConstant = false;
    if (f.spacing != -1)
      to->spacing = to->spacing == -1 || to->spacing == f.spacing ? f.spacing : 0;
    if (f.nDist > 0) {
      if (!to->strideSeen) {
        to->stride = f.dist[0];
        to->strideSeen = true;
      }
      if (!f.alike || f.dist[0] != to->stride)
        to->strideConstant = false;
    }
    // The most common distance (the smallest of equally common ones) is
    // only reported for the first request.
    if (to->requests == 1 && f.nDist > 0) {
      // In order, the longest run of one distance; the first (smallest) of
      // equally long runs.
      int64_t sorted[WarpSize];
      std::copy(f.dist, f.dist + f.nDist, sorted);
      std::sort(sorted, sorted + f.nDist);
      int best = 0;
      for (int i = 0, j; i < f.nDist; i = j) {
        for (j = i + 1; j < f.nDist && sorted[j] == sorted[i]; ++j)
          ;
        if (j - i > best) {
          best = j - i;
          to->firstCommon = sorted[i];
        }
      }
    }
  }
}

// Does the block index only shift the whole warp's addresses by a multiple
// of 128 bytes (a whole number of sectors and of bank rows), leaving the
// active lanes alone (the caller checks that the mask does not use it)? Then every block costs what block 0 costs and the 32
// block samples collapse to one: `in[blockIdx.x * blockDim.x + t]` moves
// by 1024 bytes per block. Checked on the first warps for blocks 0, 1, 2 in
// each dimension (a shift that is not linear in the index shows there).
// `dims`: the block dimensions the value or the mask reads (the others
// change nothing). Where the period of Period.h (`period`: for blocks 0, 1,
// 2 or more) shows it, with every warp defined, no warp is evaluated.
static bool blockShiftInvariant(const Access &acc, const LaneExpr &mask,
                                const Context &ctx, const Shape &sh,
                                const Env &base,
                                const std::array<bool, 3> &dims,
                                const std::optional<WarpPeriod> &period) {
  if (const auto &p = period) {
    const int64_t blockWarps = sh.x / WarpSize;
    if (p->total && blockWarps % p->warps == 0 &&
        wrapMul(p->shift, blockWarps / p->warps) % 128 == 0)
      return true;
  }
  for (int w = 0; w < std::min(sh.warps(), 2); ++w) {
    WarpEval e0(ctx, sh, base, w);
    LaneMask m0 = e0.mask(mask);
    Lanes a0 = e0.value(acc.offset);
    if (e0.undefined)
      return false;
    for (int d = 0; d < 3; ++d) {
      if (!dims[size_t(d)])
        continue;
      int64_t step = 0;
      for (int k = 1; k <= 2; ++k) {
        Env env = base;
        env.blockIdx[d] = k;
        WarpEval ev(ctx, sh, env, w);
        if (ev.mask(mask) != m0)
          return false;
        Lanes a = ev.value(acc.offset);
        if (ev.undefined)
          return false;
        int64_t shift = wrapSub(a[0], a0[0]);
        for (int l = 1; l < WarpSize; ++l)
          if (wrapSub(a[l], a0[l]) != shift)
            return false;
        if (shift % 128 != 0 || (k == 2 && shift != wrapMul(2, step)))
          return false;
        step = shift;
      }
    }
  }
  return true;
}

// Do the value and the mask see threadIdx.x, blockIdx.x and blockDim.x only
// as the global index `blockIdx.x * blockDim.x + threadIdx.x`? Then every
// warp of a 1-D block of any width (a multiple of 32) holds 32 consecutive
// global indices starting at a multiple of 32, whatever the width: the
// candidate widths of a kernel no launch sizes only sample other warps of
// one sequence, and comparing them says nothing the block samples do not.
static bool onlyGlobalX(const Access &acc, const LaneExpr &mask,
                        const Context &ctx) {
  bool only = true;
  auto fn = [&](const Node &n) {
    if (!only)
      return false;
    if (isGlobalIndexX(n))
      return false;
    if ((n.op == Op::ThreadIdx || n.op == Op::BlockIdx ||
         n.op == Op::BlockDim) &&
        n.value == 0)
      only = false;
    return only;
  };
  visitWithLoops(acc.offset, ctx, fn);
  if (only && mask)
    visitWithLoops(mask, ctx, fn);
  return only;
}

static bool oneDimensional(const Shape &sh) {
  return sh.y == 1 && sh.z == 1 && sh.x > 0 && sh.x % WarpSize == 0;
}

// Does which lanes are active depend on the block? A loop whose condition
// is assumed (a bounds guard) keeps every lane whatever its variable's
// start, so only conditions the model evaluates count.
static bool maskUsesBlock(const LaneExpr &mask, const Context &ctx) {
  bool uses = false;
  visitNodes(mask, [&](const Node &n) {
    if (uses)
      return false;
    if (n.op == Op::BlockIdx) {
      uses = true;
      return false;
    }
    if (n.op == Op::LoopActive) {
      const LaneExpr &c = ctx.loops[n.value].cond;
      if (c && c->op != Op::Assumed)
        uses |= props(loopActive(int(n.value)), ctx).usesBlockIdx;
      return false;
    }
    if (n.op == Op::LoopVar) {
      uses |= props(loopVar(int(n.value)), ctx).usesBlockIdx;
      return false;
    }
    if (n.op == Op::LoopFinal) {
      uses |= props(loopFinal(int(n.value)), ctx).usesBlockIdx;
      return false;
    }
    return true;
  });
  return uses;
}



namespace {
// A finished analysis, kept for the next access that asks the same question:
// the same address and mask nodes (hash-consed: pointer equality is
// structural equality), element size, cost model, block shapes and grid,
// and the same facts about every unknown and loop they use. Kernels that
// differ in names only, and template instantiations that differ in what
// their accesses do not read, share their results. The key's words name
// nodes by address; `hold` keeps those nodes alive so that no address is
// reused while the entry lives.
using AccessKey = KeyWords;
using AccessKeyHash = KeyWordsHash;
struct CachedAccess {
  std::vector<LaneExpr> hold;
  /// Shared by the entry under the access's nodes and the one under its
  /// nodes without origins.
  std::shared_ptr<const AccessResult> result;
};
// Per thread, as the nodes are (-j analyzes files in threads).
thread_local std::unordered_map<AccessKey, CachedAccess, AccessKeyHash>
    AccessCache;
// Two entries an access: the last 4,096 accesses' results, a few KiB each
// (a kernel of 20,000 distinct accesses held 16,384 entries, 15 MB, that
// none of its accesses asked for again).
constexpr size_t AccessCacheLimit = 1 << 13;
thread_local size_t Evaluated = 0;

} // namespace

uint64_t memory_detail::stringHash(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (char c : s)
    h = (h ^ uint64_t((unsigned char)c)) * 1099511628211ull;
  return h;
}

bool memory_detail::appendContextWords(
    const Context &ctx, const std::vector<LaneExpr> &roots,
    const std::function<uint64_t(const LaneExpr &)> &node,
    std::vector<uint64_t> &w, bool followData) {
  // Every atom and loop the roots read, and with `followData`, through the
  // address each datum is loaded from, every one a drawn datum reads (a
  // chain `a[b[i]]`).
  std::vector<int> atoms, loops;
  // Marks of the atoms and loops listed, kept between calls and cleared
  // entry by entry: a kernel of thousands of loads has thousands of atoms,
  // and a fresh mark per atom on each of its accesses' keys made the keys
  // quadratic in the kernel's size. (Nothing below calls back in here.)
  thread_local std::vector<char> atomSeen, loopSeen;
  if (atomSeen.size() < ctx.atoms.size())
    atomSeen.resize(ctx.atoms.size());
  if (loopSeen.size() < ctx.loops.size())
    loopSeen.resize(ctx.loops.size());
  struct Clear {
    std::vector<int> &atoms, &loops;
    ~Clear() {
      for (int a : atoms)
        atomSeen[size_t(a)] = 0;
      for (int l : loops)
        loopSeen[size_t(l)] = 0;
    }
  } clear{atoms, loops};
  auto collect = [&](const Node &n) {
    if ((n.op == Op::Unknown || n.op == Op::Data) &&
        size_t(n.value) < ctx.atoms.size() && !atomSeen[size_t(n.value)]) {
      atomSeen[size_t(n.value)] = 1;
      atoms.push_back(int(n.value));
    }
    if ((n.op == Op::LoopVar || n.op == Op::LoopActive ||
         n.op == Op::LoopFinal) &&
        size_t(n.value) < ctx.loops.size() && !loopSeen[size_t(n.value)]) {
      loopSeen[size_t(n.value)] = 1;
      loops.push_back(int(n.value));
    }
    return true;
  };
  for (const LaneExpr &r : roots)
    if (r)
      visitWithLoops(r, ctx, collect);
  // A datum loaded from an allocation is compared with the other loads of
  // that allocation (DataAddresses.cpp: a segment's start and end), so
  // those loads are facts of it too.
  for (size_t i = 0; followData && i < atoms.size(); ++i) {
    if (atoms.size() > MaxKeyAtoms)
      return false;
    const Atom &x = ctx.atoms[size_t(atoms[i])];
    if (!x.loadAddress)
      continue;
    visitWithLoops(x.loadAddress, ctx, collect);
    if (!x.loadBase)
      continue;
    const auto &byBase = ctx.atomsByLoadBase();
    // (Past MaxKeyAtoms the key is given up: an allocation thousands of
    // loads read is not listed whole for each access.)
    for (auto p = std::lower_bound(byBase.begin(), byBase.end(),
                                   std::make_pair(x.loadBase, 0));
         p != byBase.end() && p->first == x.loadBase; ++p)
      if (!atomSeen[size_t(p->second)]) {
        atomSeen[size_t(p->second)] = 1;
        atoms.push_back(p->second);
        if (atoms.size() > MaxKeyAtoms)
          return false;
      }
  }
  std::sort(atoms.begin(), atoms.end());
  std::sort(loops.begin(), loops.end());
  w.push_back(atoms.size());
  for (int a : atoms) {
    const Atom &at = ctx.atoms[a];
    w.insert(w.end(), {uint64_t(a), uint64_t(at.kind), uint64_t(at.role),
                       uint64_t(at.origin), uint64_t(at.fromData),
                       uint64_t(at.pointer), uint64_t(at.fromFloat),
                       uint64_t(at.wholeBits), uint64_t(at.dataBits),
                       uint64_t(at.dataSigned), at.loadBase,
                       node(at.loadAddress), stringHash(at.why),
                       at.known.size()});
    for (int64_t v : at.known)
      w.push_back(uint64_t(v));
  }
  w.push_back(loops.size());
  for (int l : loops) {
    const Loop &lp = ctx.loops[l];
    // The variable's name is reported (AccessResult::unrolledVar).
    w.insert(w.end(), {uint64_t(l), node(lp.init), node(lp.next), node(lp.cond),
                       uint64_t(int64_t(lp.iterOf)), uint64_t(lp.testAfterBody),
                       uint64_t(lp.straight), uint64_t(lp.unrolled),
                       stringHash(lp.var)});
  }
  return !followData || atoms.size() <= MaxKeyAtoms;
}

namespace {
bool accessKey(const Access &acc, const Context &ctx,
               const std::vector<Shape> &shapes, const CostModel &cost,
               bool bare, AccessKey &key, std::vector<LaneExpr> &hold) {
  using CostFn = Cost (*)(const Lanes &, LaneMask, int);
  const CostFn *fn = cost.target<CostFn>();
  if (!fn || !acc.offset)
    return false;
  // With `bare`, nodes are named without their origins (which only lead the
  // front end back to the source), so that an expression written again on
  // another line asks the same question: an unrolled body's `tile[ty][tx]`.
  OriginFreeMemo memo;
  auto node = [&](const LaneExpr &e) {
    LaneExpr n = bare ? withoutOrigins(e, memo) : e;
    hold.push_back(n);
    return uint64_t(uintptr_t(n.get()));
  };
  hold.clear();
  std::vector<uint64_t> &w = key.words;
  w = {uint64_t(uintptr_t(*fn)),
       node(acc.offset),
       node(acc.mask),
       uint64_t(acc.elementBytes),
       uint64_t(acc.capacityBytes),
       uint64_t(ctx.grid[0]),
       uint64_t(ctx.grid[1]),
       uint64_t(ctx.grid[2]),
       shapes.size()};
  for (const Shape &sh : shapes)
    w.insert(w.end(), {uint64_t(sh.x), uint64_t(sh.y), uint64_t(sh.z)});
  // analyzeAccess draws no data: the loads behind a datum are not its facts.
  return appendContextWords(ctx, {acc.offset, acc.mask}, node, w,
                            /*followData=*/false);
}
} // namespace

/// The unknown sizes without values the project shows that the access's
/// condition reads (a guard `i < n / 128`): what taking larger can open.
static std::vector<int> guardSizes(const PreparedConditions &prep,
                                   const Props &all) {
  std::vector<int> out;
  if (!prep.mask)
    return out;
  Props pm = props(prep.mask, prep.ctx);
  for (int u : pm.unknowns) {
    const Atom &a = prep.ctx.atoms[size_t(u)];
    if (a.known.empty() && a.role == AtomRole::Size && !a.origin &&
        std::count(all.unknowns.begin(), all.unknowns.end(), u))
      out.push_back(u);
  }
  return out;
}

/// The representative run's figures per iteration of the unrolled loops, in
/// the order they run, each with the innermost loop's variable's value at
/// it (uniform: the loop's bounds and step are constants).
static void loopIterations(std::vector<AccessResult::Iteration> &out,
                           std::string &var, const Totals &rep,
                           const std::vector<int> &loops, const Context &ctx,
                           const Shape &shape, Env env) {
  const int inner = loops.back();
  var = ctx.loops[size_t(inner)].var;
  for (const auto &[key, it] : rep.iterations) {
    if (it.requests <= 0)
      continue;
    for (size_t i = 0; i < loops.size(); ++i)
      env.loopIter[size_t(loops[i])] = key[i];
    WarpEval ev(ctx, shape, env, 0);
    const Lanes v = ev.value(loopVar(inner));
    AccessResult::Iteration one{ev.undefined ? 0 : v[0],
                                it.actual / it.requests,
                                it.ideal / it.requests,
                                {}};
    for (size_t i = 0; i < loops.size(); ++i)
      one.at.push_back({loops[i], key[i]});
    out.push_back(std::move(one));
  }
}

static AccessResult analyzeAccessUncached(const Access &acc,
                                          const Context &ctx,
                                          const std::vector<Shape> &shapes,
                                          const CostModel &cost);

const AccessResult::Iteration *
AccessResult::worstIteration(const std::vector<Iteration> &its) {
  const Iteration *worst = nullptr;
  for (const Iteration &it : its)
    if (!worst || it.ratio() > worst->ratio())
      worst = &it;
  return worst;
}

size_t accessesEvaluated() { return Evaluated; }
size_t laneEvaluationsShared() { return LanesShared; }
void clearAccessCaches() {
  AccessCache.clear();
  LaneClasses.clear();
  LaneClassesSeen.clear();
  LaneRecords = 0;
}

AccessResult analyzeAccess(const Access &acc, const Context &ctx,
                           const std::vector<Shape> &shapes,
                           const CostModel &cost) {
  // The nodes as they are first (another kernel's copy of the same source
  // has the same origins), then without origins (the same expression on
  // another line); a result found or computed is kept under both keys.
  AccessKey key, bareKey;
  std::vector<LaneExpr> hold, bareHold;
  if (!accessKey(acc, ctx, shapes, cost, false, key, hold))
    return analyzeAccessUncached(acc, ctx, shapes, cost);
  if (auto it = AccessCache.find(key); it != AccessCache.end())
    return *it->second.result;
  accessKey(acc, ctx, shapes, cost, true, bareKey, bareHold);
  std::shared_ptr<const AccessResult> r;
  if (auto it = AccessCache.find(bareKey); it != AccessCache.end())
    r = it->second.result;
  else
    r = std::make_shared<const AccessResult>(
        analyzeAccessUncached(acc, ctx, shapes, cost));
  if (AccessCache.size() + 2 > AccessCacheLimit)
    AccessCache.clear();
  AccessCache.emplace(std::move(key), CachedAccess{std::move(hold), r});
  AccessCache.emplace(std::move(bareKey), CachedAccess{std::move(bareHold), r});
  return *r;
}

// The tuples of iterations nested loops run in the representative block's
// first warp, outer loop first (loops are numbered as the walk meets them),
// each inner loop's trip count taken at its outer loops' iteration (a
// triangular nest: `for (j = k; j > 0; j >>= 1)` inside a loop over k).
// Listed with loops[0] changing fastest; empty when the nest runs more
// than MaxTuples or a loop more than 32 iterations, or evaluating it fails.
static std::vector<std::vector<int>>
iterationTuples(const Context &ctx, const Shape &shape, Env env,
                const std::vector<int> &loops) {
  std::vector<size_t> order(loops.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return loops[a] < loops[b]; });
  std::vector<std::vector<int>> out;
  std::vector<int> tuple(loops.size(), 0);
  bool ok = true;
  std::function<void(size_t)> walk = [&](size_t depth) {
    if (!ok)
      return;
    if (depth == order.size()) {
      out.push_back(tuple);
      ok = out.size() <= EnvEnumeration::MaxTuples;
      return;
    }
    const int l = loops[order[depth]];
    int n = 0;
    {
      WarpEval ev(ctx, shape, env, 0);
      for (LaneMask m : ev.loopActiveSequence(l, 33))
        n += m != 0;
      ok = !ev.undefined && n <= 32;
    }
    for (int i = 0; i < n && ok; ++i) {
      env.loopIter[size_t(l)] = i;
      tuple[order[depth]] = i;
      walk(depth + 1);
    }
    env.loopIter[size_t(l)] = 0;
  };
  walk(0);
  if (!ok)
    return {};
  std::sort(out.begin(), out.end(),
            [](const std::vector<int> &a, const std::vector<int> &b) {
              return std::lexicographical_compare(a.rbegin(), a.rend(),
                                                  b.rbegin(), b.rend());
            });
  return out;
}

// The terms of `e` times `coef` (and the uniform `factor`, where given):
// sums, differences, negations, shifts by a constant and products by a
// constant or a uniform value are distributed, exactly in the integers
// modulo 2^64 the evaluator computes in; any other node is a term whole.
// False past `budget` nodes.
struct LinearTerm {
  LaneExpr node; // null: the constant 1
  int64_t coef;
};
static bool linearTerms(const LaneExpr &e, int64_t coef, const LaneExpr &factor,
                        std::vector<LinearTerm> &out, int &budget) {
  if (--budget < 0)
    return false;
  int64_t c = 0;
  if (!e->uniform)
    switch (e->op) {
    case Op::Add:
      return linearTerms(e->a, coef, factor, out, budget) &&
             linearTerms(e->b, coef, factor, out, budget);
    case Op::Sub:
      return linearTerms(e->a, coef, factor, out, budget) &&
             linearTerms(e->b, wrapNeg(coef), factor, out, budget);
    case Op::Neg:
      return linearTerms(e->a, wrapNeg(coef), factor, out, budget);
    case Op::Mul:
      if (constValue(e->b, c))
        return linearTerms(e->a, wrapMul(coef, c), factor, out, budget);
      if (constValue(e->a, c))
        return linearTerms(e->b, wrapMul(coef, c), factor, out, budget);
      for (const auto &[x, y] : {std::pair(e->a, e->b), std::pair(e->b, e->a)})
        if (y->uniform)
          return linearTerms(x, coef, factor ? bin(Op::Mul, factor, y) : y, out,
                             budget);
      break;
    case Op::Shl:
      if (constValue(e->b, c) && c >= 0 && c <= 62)
        return linearTerms(e->a, wrapMul(coef, int64_t(1) << c), factor, out,
                           budget);
      break;
    default:
      break;
    }
  if (constValue(e, c))
    out.push_back({factor, wrapMul(coef, c)});
  else
    out.push_back({factor ? bin(Op::Mul, e, factor) : e, coef});
  return true;
}

// `offset` as a lane-varying part plus a uniform one (both without
// origins, so that the same part written on two lines is one node); false
// where it has no uniform part, or is too large to be worth splitting.
static bool splitUniformPart(const LaneExpr &offset, LaneExpr &lanePart,
                             LaneExpr &uniformPart) {
  constexpr int MaxSplitNodes = 256;
  if (!offset || offset->uniform || offset->depth > 64)
    return false;
  std::vector<LinearTerm> terms;
  int budget = MaxSplitNodes;
  if (!linearTerms(offset, 1, nullptr, terms, budget))
    return false;
  OriginFreeMemo memo;
  int64_t constant = 0;
  std::vector<std::pair<const Node *, LinearTerm>> lane, uni;
  for (LinearTerm &t : terms) {
    if (!t.node) {
      constant = wrapAdd(constant, t.coef);
      continue;
    }
    t.node = withoutOrigins(t.node, memo);
    auto &to = t.node->uniform ? uni : lane;
    auto it = std::find_if(to.begin(), to.end(), [&](const auto &x) {
      return x.first == t.node.get();
    });
    if (it != to.end())
      it->second.coef = wrapAdd(it->second.coef, t.coef);
    else
      to.push_back({t.node.get(), t});
  }
  if (uni.empty() && constant == 0)
    return false;
  auto sum = [](std::vector<std::pair<const Node *, LinearTerm>> &ts,
                int64_t start) {
    std::sort(ts.begin(), ts.end(),
              [](const auto &x, const auto &y) { return x.first < y.first; });
    LaneExpr r = start != 0 ? cst(start) : nullptr;
    for (const auto &[key, t] : ts)
      if (t.coef != 0) {
        LaneExpr term =
            t.coef == 1 ? t.node : bin(Op::Mul, t.node, cst(t.coef));
        r = r ? bin(Op::Add, r, term) : term;
      }
    return r ? r : cst(0);
  };
  lanePart = sum(lane, 0);
  uniformPart = sum(uni, constant);
  return true;
}

static AccessResult analyzeAccessUncached(const Access &acc,
                                          const Context &ctx,
                                          const std::vector<Shape> &shapes,
                                          const CostModel &cost) {
  ++Evaluated;
  AccessResult r;
  Props pa = props(acc.offset, ctx);
  if (pa.hasData) {
    r.unknownReason = dataReason(acc.offset, ctx);
    return r;
  }
  // Guards and data conditions are classified once, not per warp; only the
  // unknowns that survive that (not a bound `i < n`) need sampling.
  PreparedConditions prep = prepareConditions(ctx, acc.mask);
  Props all = unionProps(prep.ctx, {acc.offset, prep.mask});
  r.dependsOn = pa.unknowns;
  if (!r.dependsOn.empty())
    r.sampleAtom = r.dependsOn[0];
  else if (all.unknowns.size() == 1)
    r.sampleAtom = all.unknowns[0];

  std::vector<Env> assignments = unknownAssignments(ctx, all);
  // Only when which lanes are active does not depend on the block: a mask
  // like `j > 0` with j = idx / n is empty in the first blocks and full later.
  const bool blocksMayCollapse = all.usesBlockIdx && !all.hasData &&
                                 !maskUsesBlock(prep.mask, prep.ctx);
  // The block dimensions the collapse test has to try.
  std::array<bool, 3> blockDims{false, false, false};
  auto noteBlockDims = [&](const Node &n) {
    if (n.op == Op::BlockIdx && n.value >= 0 && n.value < 3)
      blockDims[size_t(n.value)] = true;
    return true;
  };
  if (blocksMayCollapse) {
    visitWithLoops(acc.offset, prep.ctx, noteBlockDims);
    if (prep.mask)
      visitWithLoops(prep.mask, prep.ctx, noteBlockDims);
  }
  // Period.h's rules show no period where a loop or data is read.
  const bool rulesApply = all.loops.empty() && !all.hasData;
  if (blocksMayCollapse &&
      std::all_of(shapes.begin(), shapes.end(), [&](const Shape &sh) {
        return blockShiftInvariant(
            acc, prep.mask, prep.ctx, sh, assignments[0], blockDims,
            rulesApply ? warpPeriod(acc.offset, prep.mask, prep.ctx, sh,
                                    assignments[0], 3)
                       : std::nullopt);
      }))
    all.usesBlockIdx = false;

  // The representative environment is evaluated in full: it gives the
  // reported figures. The samples of unknowns and the alternative shapes only
  // answer "does the result change?"; when there are many, they are run on a
  // subsample (every 4th block/iteration, about 8 warps) and compared with the
  // representative run on the same subsample.
  EnvEnumeration enumeration(ctx, all);
  if (enumeration.loops().size() >= 2)
    enumeration.useTuples(iterationTuples(prep.ctx, shapes[0], assignments[0],
                                          enumeration.loops()));
  enumeration.fitIterations(
      fittedIterations(prep.ctx, shapes[0], assignments[0], enumeration));
  const std::vector<char> invariantLoops = sequenceInvariantLoops(prep.ctx);
  size_t work = 0;
  for (const Shape &sh : shapes)
    work += size_t(sh.warps()) * size_t(enumeration.size()) *
            assignments.size();
  const bool subsample = work > 4096 && (assignments.size() > 1 || shapes.size() > 1);
  // Accesses whose addresses differ by a uniform amount (a stencil's
  // neighbours, the arrays indexed alike) share their lanes' evaluations:
  // from the second access of a class on.
  LaneShare share;
  if (work >= 64 &&
      splitUniformPart(acc.offset, share.lanePart, share.uniformPart)) {
    AccessKey classKey;
    std::vector<LaneExpr> hold;
    Access part = acc;
    part.offset = share.lanePart;
    if (accessKey(part, ctx, shapes, cost, true, classKey, hold)) {
      if (LaneClasses.size() >= LaneClassLimit ||
          LaneClassesSeen.size() >= LaneSeenLimit) {
        LaneClasses.clear();
        LaneClassesSeen.clear();
        LaneRecords = 0;
      }
      auto it = LaneClasses.find(classKey);
      if (it == LaneClasses.end() &&
          !LaneClassesSeen.emplace(wordsHash(classKey.words), hold).second)
        it = LaneClasses
                 .emplace(std::move(classKey), LaneClass{std::move(hold), {}})
                 .first;
      if (it != LaneClasses.end()) {
        share.cls = &it->second;
        share.unknowns =
            unionProps(prep.ctx, {share.lanePart, prep.mask}).unknowns;
      }
    }
  }
  // Per environment (block and loop iteration) of the representative run:
  // an unrolled loop is one instruction per iteration, so the worst one is
  // reported next to the mean.
  std::vector<std::pair<double, double>> perEnv;
  size_t repShape = 0; // the shape the figures are for
  bool mirrored = false; // blocks counted from the grid's end
  // A comparison value under which every block costs what the first does,
  // as the representative values may not (`(t * 3 + s) % n`: at n = 64 a
  // block's shift of 768 elements is a whole number of n), runs the first
  // block alone: the same figures as each sampled block would give. Where
  // the blocks are the only thing enumerated.
  const bool collapseSamples =
      blocksMayCollapse && all.usesBlockIdx && enumeration.loops().empty();
  // The loops nvcc unrolls fully among those enumerated: each iteration is
  // an instruction of its own, so every run takes each iteration (no
  // subsample of them) and keeps its figures apart.
  // (Where nvcc unrolls a loop of at most 32 iterations: a longer one it
  // unrolls in part, if at all, and the enumeration covers 32.)
  std::vector<int> unrolledLoops;
  for (int l : enumeration.loops())
    if (prep.ctx.loops[size_t(l)].unrolled) {
      WarpEval ev(prep.ctx, shapes[0], assignments[0], 0);
      if (ev.tripCount(l, 33, ev.present()) <= 32 && !ev.undefined)
        unrolledLoops.push_back(l);
    }
  // The loops whose iterations are kept apart: the unrolled ones, or else
  // every loop enumerated (a loop over strides whose trip count depends on
  // a size: its small strides may conflict under every size).
  std::vector<int> trackedLoops = unrolledLoops;
  if (trackedLoops.empty())
    trackedLoops = enumeration.loops();
  auto collapses = [&](size_t s, size_t a,
                       const std::optional<WarpPeriod> &period) {
    return collapseSamples && !mirrored &&
           blockShiftInvariant(acc, prep.mask, prep.ctx, shapes[s],
                               assignments[a], blockDims, period);
  };
  // A full run of the representative assignment also gathers, in `sub`,
  // what the subsampled run of it would (the same warps and environments
  // in the same order), which the comparisons then use.
  auto run = [&](size_t s, size_t a, bool full, Totals &t,
                 Totals *sub = nullptr) {
    Env env = assignments[a];
    const bool rep = s == repShape && a == 0 && full;
    // Where the warps of a 1-D launch repeat (Period.h), over the blocks
    // the enumeration takes.
    std::optional<WarpPeriod> period;
    if (rulesApply) {
      Env probe = env;
      int64_t blocks = 0;
      for (int e = 0; e < enumeration.size(); ++e) {
        enumeration.apply(probe, e);
        blocks = std::max(blocks, probe.blockIdx[0] + 1);
        if (probe.blockIdx[0] < 0)
          blocks = -1, e = enumeration.size();
      }
      period = warpPeriod(acc.offset, prep.mask, prep.ctx, shapes[s], env,
                          blocks);
    }
    const int nEnvs =
        !rep && collapses(s, a, period) ? 1 : enumeration.size();
    const int subWarps = std::max(1, shapes[s].warps() / 8);
    int warpStep = full ? 1 : subWarps;
    // A subsample takes every 4th environment, but not of an access in a
    // loop: an environment is a block and a loop iteration together, and a
    // loop of a few iterations (a radix-4 butterfly's strides) would be
    // sampled at its first alone. Its warps are subsampled all the same.
    const int subEnvStep = enumeration.loops().empty() ? 4 : 1;
    const int envStep = full ? 1 : subEnvStep;
    bool track = rep;
    if (track)
      perEnv.assign(size_t(nEnvs), {0, 0});
    // Where they repeat by whole 128-byte rows, which no cost model tells
    // apart, each warp of the first period is evaluated once and stands for
    // the warps whole periods further on.
    if (period && (period->shift % 128 != 0 || period->warps > 4096))
      period.reset();
    std::vector<WarpFigures> seen(period ? size_t(period->warps) : 0);
    std::vector<char> have(seen.size(), 0);
    WarpFigures own;
    const int64_t blockWarps = shapes[s].x / WarpSize;
    // Each environment's uniform values, for all of its warps.
    std::vector<UniformValues> uniforms(static_cast<size_t>(nEnvs));
    // Warp by warp, so that each warp's loop sequences serve every
    // environment of this assignment.
    for (int w = 0; w < shapes[s].warps() && !t.unended; w += warpStep) {
      LoopSequences seq(invariantLoops);
      for (int e = 0; e < nEnvs && !t.unended; e += envStep) {
        double a0 = t.actual, i0 = t.ideal, q0 = t.requests;
        enumeration.apply(env, e);
        const WarpFigures *f = &own;
        if (period) {
          const size_t at = size_t((env.blockIdx[0] * blockWarps + w) %
                                   period->warps);
          if (!have[at])
            warpFigures(seen[at], acc, prep.mask, prep.ctx, shapes[s], env,
                        cost, w, seq, &uniforms[size_t(e)], &share);
          have[at] = 1;
          f = &seen[at];
        } else {
          warpFigures(own, acc, prep.mask, prep.ctx, shapes[s], env, cost, w,
                      seq, &uniforms[size_t(e)], &share);
        }
        Totals *also =
            sub && w % subWarps == 0 && e % subEnvStep == 0 ? sub : nullptr;
        accumulate(*f, t, also);
        if (track) {
          perEnv[e].first += t.actual - a0;
          perEnv[e].second += t.ideal - i0;
        }
        // This warp's request, if it made one, under its iteration of the
        // tracked loops; the subsample's too, as a comparison run may stand
        // on it. (One warp adds one request at most: its figures are f's.)
        if (!trackedLoops.empty() && t.requests > q0) {
          std::vector<int> key;
          key.reserve(trackedLoops.size());
          for (int l : trackedLoops)
            key.push_back(env.loopIter[size_t(l)]);
          for (Totals *to : {&t, also})
            if (to) {
              Totals::Iteration &it = to->iterations[key];
              it.requests += 1;
              it.actual += f->cost.actual;
              it.ideal += f->cost.ideal;
            }
        }
      }
    }
    // (A loop the model stopped following leaves the run undefined, and
    // an undefined run is not used: the rest of it would say nothing.)
  };
  Totals rep, repSub;
  auto runRep = [&](size_t s) {
    rep = repSub = Totals();
    run(s, 0, true, rep, subsample ? &repSub : nullptr);
  };
  runRep(0);
  if (rep.requests == 0 && !rep.undefined && all.usesBlockIdx) {
    // No lane of the first blocks runs it: a boundary condition, perhaps,
    // that only the last blocks of the grid take.
    enumeration.fromTheEnd();
    enumeration.fitIterations(
        fittedIterations(prep.ctx, shapes[0], assignments[0], enumeration));
    mirrored = true;
    runRep(0);
  }
  // Still none, with an assumed shape and alternatives: the first
  // alternative under which a lane runs it (a kernel whose first 256
  // threads only fill a buffer and return).
  for (size_t s = 1; s < shapes.size() && rep.requests == 0 && !rep.undefined;
       ++s) {
    repShape = s;
    runRep(s);
  }
  if (rep.requests == 0)
    repShape = 0;
  // Still none: the unknowns at their representative values may leave every
  // lane out (an offset at 1025 moves a 1024-wide map's tiles past its
  // end): the figures are the first sample's under which a lane runs it.
  const Totals none = rep;
  for (size_t a = 1;
       a < assignments.size() && rep.requests == 0 && !rep.undefined; ++a) {
    std::swap(assignments[0], assignments[a]);
    runRep(0);
    if (rep.requests > 0 && !rep.undefined) {
      for (int u : r.dependsOn)
        r.figureValues.push_back(assignments[0].unknowns[size_t(u)]);
      break;
    }
    std::swap(assignments[0], assignments[a]);
    rep = none; // a sample no lane runs it under says nothing of its own
  }
  // The unknowns' representative values may be too small for the launch: a
  // guard on them (`i < n / 128`) leaves lanes idle that every realistic
  // run keeps active, and the figures would be a few lanes'. The sizes are
  // taken larger until the guard's lanes are active, the least value that
  // does it (never one that idles lanes the code does not idle).
  if (rep.requests > 0 && !rep.undefined &&
      rep.lanes < (WarpSize - 0.5) * rep.requests && r.figureValues.empty())
    if (std::vector<int> sizes = guardSizes(prep, all); !sizes.empty()) {
      const Totals before = rep, beforeSub = repSub;
      const std::vector<std::pair<double, double>> beforeEnvs = perEnv;
      const Env base = assignments[0];
      double lanes = rep.lanes / rep.requests;
      std::optional<Env> open;
      for (int64_t scale = 4; scale <= 1024 && lanes < WarpSize - 0.5;
           scale *= 4) {
        for (int u : sizes)
          assignments[0].unknowns.set(size_t(u),
                                      base.unknowns[size_t(u)] * scale);
        runRep(repShape);
        if (rep.requests > 0 && !rep.undefined &&
            rep.lanes / rep.requests > lanes + 0.5) {
          lanes = rep.lanes / rep.requests;
          open = assignments[0];
        }
      }
      assignments[0] = open ? *open : base;
      if (open) {
        runRep(repShape);
        for (int u : sizes)
          r.openGuardValues.push_back({u, open->unknowns[size_t(u)]});
      } else {
        rep = before;
        repSub = beforeSub;
        perEnv = beforeEnvs;
      }
    }
  r.shape = repShape;
  for (const auto &[actual, ideal] : perEnv)
    if (ideal > 0 && actual / ideal > r.worstRatio)
      r.worstRatio = actual / ideal;
  r.maskDataDependent = rep.data;
  r.guardAssumed = rep.guard;
  r.tailGuard = rep.tail;
  if (rep.requests == 0 || rep.undefined) {
    r.unknownReason =
        rep.stopped != EvalStop::None
            ? evalStopReason(rep.stopped)
        : rep.unended
            ? "a loop before it does not end within the iterations the model "
              "follows (2^" +
                  std::to_string(__builtin_ctz(WarpEval::MaxAffineSteps)) +
                  " of a loop that steps by a constant amount, " +
                  std::to_string(WarpEval::MaxFinalSteps) + " of any other, " +
                  std::to_string(WarpEval::MaxTotalFinalSteps) +
                  " in all for the loops one value needs)"
        : rep.undefined ? "a divisor or shift is out of range for the values "
                          "the model uses"
                        : "no lane of any warp executes it under the model's "
                          "assumptions";
    return r;
  }
  r.evaluated = true;
  r.actual = rep.actual / rep.requests;
  r.ideal = rep.ideal / rep.requests;
  r.activeLanes = rep.lanes / rep.requests;
  r.commonStride = rep.firstCommon;
  double repRatio = r.ideal > 0 ? r.actual / r.ideal : 1;
  r.minActual = r.maxActual = r.actual;
  r.minRatio = r.maxRatio = repRatio;
  bool strideConstant = rep.strideSeen && rep.strideConstant;
  // Comparison values: the same subsample for every run.
  auto sampleOf = [&](const Env &env, const Totals &t, int shape) {
    AccessResult::Sample smp;
    smp.shape = shape;
    if (r.sampleAtom >= 0)
      smp.value = env.unknowns[size_t(r.sampleAtom)];
    smp.actual = t.actual / t.requests;
    double ideal = t.ideal / t.requests;
    smp.ratio = ideal > 0 ? smp.actual / ideal : 1;
    smp.verdict = verdictRatio(t);
    smp.worstIteration = worstIteration(t);
    smp.sparse = t.sparseIdeal > 0 ? t.sparseActual / t.sparseIdeal : 1;
    smp.lanes = t.lanes / t.requests;
    smp.realistic = env.realistic &&
                    (acc.capacityBytes <= 0 || t.reach <= acc.capacityBytes);
    if (t.strideSeen && t.strideConstant)
      smp.stride = t.stride;
    return smp;
  };
  std::vector<AccessResult::Sample> compared;
  // The first shape is sampled over the unknowns' whole range (the range
  // reported) and, if the result varies, their realistic range (the
  // verdict). An alternative block shape only has to agree with the
  // verdict: its representative values, and its realistic range if the
  // result varies at all.
  auto varies = [&]() {
    for (const auto &c : compared)
      if (std::abs(c.actual - r.actual) > 1e-9 ||
          std::abs(c.ratio - repRatio) > 1e-9)
        return true;
    return false;
  };
  const bool widthsAlike =
      shapes.size() > 1 && oneDimensional(shapes[repShape]) &&
      onlyGlobalX(acc, prep.mask, prep.ctx);
  // Runs already made, by shape and the values of what the access reads:
  // most of the realistic samples of a size (32, 64, ..., 1024) are also
  // among its whole range's, and a run depends on nothing else that
  // differs between assignments. The grid's extent counts only where the
  // access or its loops read it, or the blocks are counted from its end.
  const bool gridMatters = all.usesGridDim || mirrored;
  std::map<std::pair<size_t, std::vector<int64_t>>, Totals> made;
  auto madeKey = [&](size_t sh, const Env &env) {
    std::vector<int64_t> k;
    k.reserve(all.unknowns.size() + 3);
    for (int u : all.unknowns)
      k.push_back(env.unknowns[size_t(u)]);
    if (gridMatters)
      for (int d = 0; d < 3; ++d)
        k.push_back(env.gridDim[d]);
    return std::make_pair(sh, std::move(k));
  };
  made.emplace(madeKey(repShape, assignments[0]), subsample ? repSub : rep);
  for (size_t sh = 0; sh < shapes.size(); ++sh) {
    if (sh != repShape && widthsAlike && oneDimensional(shapes[sh]))
      continue;
    for (size_t a = 0; a < assignments.size(); ++a) {
      if (sh == repShape && a == 0 && !subsample)
        continue; // the full representative run stands for itself
      if (sh != repShape && a > 0 && !assignments[a].realisticPass)
        continue;
      if (assignments[a].realisticPass && !varies())
        break;
      Totals t;
      auto key = madeKey(sh, assignments[a]);
      if (auto it = made.find(key); it != made.end()) {
        t = it->second;
      } else {
        run(sh, a, !subsample, t);
        made.emplace(std::move(key), t);
      }
      if (t.undefined)
        continue; // a sampled unknown made a divisor zero: no information
      r.maskDataDependent |= t.data;
      r.guardAssumed |= t.guard;
      r.tailGuard |= t.tail;
      if (t.requests == 0)
        continue;
      compared.push_back(sampleOf(assignments[a], t, int(sh)));
      if (t.strideSeen && (!rep.strideSeen || t.stride != rep.stride))
        strideConstant = false;
      strideConstant &= !t.strideSeen || t.strideConstant;
    }
  }
  if (!subsample)
    compared.push_back(sampleOf(assignments[0], rep, int(repShape)));
  bool same = true;
  for (const auto &c : compared)
    same &= std::abs(c.actual - compared.front().actual) < 1e-9 &&
            std::abs(c.ratio - compared.front().ratio) < 1e-9;
  r.minActualRealistic = r.maxActualRealistic = r.actual;
  r.minRatioRealistic = r.maxRatioRealistic = repRatio;
  r.minVerdictRealistic = verdictRatio(rep);
  r.minWorstIterationRealistic = worstIteration(rep);
  r.sparseActual = rep.sparseActual / rep.requests;
  r.sparseIdeal = rep.sparseIdeal / rep.requests;
  r.minSparseVerdict = rep.sparseIdeal > 0 ? rep.sparseActual / rep.sparseIdeal : 1;
  // Every unknown takes only values the project shows (its launches, a
  // host loop over sizes): each is a configuration of its own, as a
  // template argument is, and the worst of them is what a warning is about.
  bool allKnown = !all.usesGridDim || std::all_of(prep.ctx.grid.begin(),
                                                  prep.ctx.grid.end(),
                                                  [](int64_t g) { return g > 0; });
  for (int u : all.unknowns)
    allKnown &= !prep.ctx.atoms[size_t(u)].known.empty();
  r.valuesKnown = allKnown && !all.unknowns.empty();
  if (r.valuesKnown)
    r.worstKnownVerdict = r.minVerdictRealistic;
  // A sample of unknown values under which the access's warps run fewer
  // lanes than at the representative values is a size too small to fill
  // the launch (`N = 8` for a guard `i + 3 * stride < N`): not in the range
  // that warnings, and the realistic figures, speak for.
  // (Sizes only: an offset that moves some lanes past an edge is as
  // likely as one that does not.)
  bool sizesOnly = !all.unknowns.empty() && !r.valuesKnown;
  for (int u : all.unknowns) {
    const Atom &a = prep.ctx.atoms[size_t(u)];
    sizesOnly &= a.known.empty() && a.role == AtomRole::Size && !a.origin;
  }
  const double repLanes = rep.lanes / rep.requests;
  for (auto &c : compared)
    if (sizesOnly && c.shape == int(repShape) && c.lanes < repLanes - 0.5)
      c.realistic = false;
  if (!same) {
    for (const auto &c : compared) {
      r.minActual = std::min(r.minActual, c.actual);
      r.maxActual = std::max(r.maxActual, c.actual);
      r.minRatio = std::min(r.minRatio, c.ratio);
      r.maxRatio = std::max(r.maxRatio, c.ratio);
      if (!c.realistic)
        continue;
      r.minActualRealistic = std::min(r.minActualRealistic, c.actual);
      r.maxActualRealistic = std::max(r.maxActualRealistic, c.actual);
      r.minRatioRealistic = std::min(r.minRatioRealistic, c.ratio);
      r.minVerdictRealistic = std::min(r.minVerdictRealistic, c.verdict);
      r.minWorstIterationRealistic =
          std::min(r.minWorstIterationRealistic, c.worstIteration);
      r.minSparseVerdict = std::min(r.minSparseVerdict, c.sparse);
      if (r.valuesKnown)
        r.worstKnownVerdict = std::max(r.worstKnownVerdict, c.verdict);
      r.maxRatioRealistic = std::max(r.maxRatioRealistic, c.ratio);
    }
    r.samples = std::move(compared);
  }
  r.exact = same;
  if (strideConstant)
    r.laneStride = rep.stride;
  r.activeSpacing = std::max(rep.spacing, 0);
  if (!unrolledLoops.empty())
    loopIterations(r.iterations, r.unrolledVar, rep, unrolledLoops, prep.ctx,
                   shapes[repShape], assignments[0]);
  else if (!trackedLoops.empty() && !r.exact)
    loopIterations(r.loopIterations, r.loopVar, rep, trackedLoops, prep.ctx,
                   shapes[repShape], assignments[0]);
  return r;
}

} // namespace warplint
