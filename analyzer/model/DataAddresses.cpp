//===- DataAddresses.cpp - addresses read from data -----------------------===//
//
// An access whose address depends on data loaded at run time: within a
// small table (every entry's figure), a row picked by data with the lanes
// striding through it, and the random draws that estimate the rest
// (Memory.h: analyzeWithinTable, analyzeDataRows, analyzeDataAddress).
//
//===----------------------------------------------------------------------===//
#include "model/MemoryDetail.h"
#include "model/Sampling.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <unordered_set>
#include <vector>

namespace warplint {
using namespace memory_detail;

std::optional<AccessResult> analyzeWithinTable(const Access &acc,
                                               const Context &ctx,
                                               const Shape &shape, bool shared,
                                               int64_t extent) {
  const int bytes = acc.elementBytes;
  if (extent <= 0 || bytes <= 0)
    return std::nullopt;
  // Shared: at most 32 words, wherever the table starts a word boundary
  // (narrower elements may start mid-word: one word more).
  if (shared && extent + (bytes < 4 ? 3 : 0) > 4 * WarpSize)
    return std::nullopt;
  // Global: the sectors the table may span, however it is aligned.
  const int64_t span = (extent + 31) / 32 + 1;
  // Which lanes take a condition on data is not known: a global table's
  // ideal shrinks with them, but a shared table has one wavefront per
  // phase whichever lanes of it are active.
  PreparedConditions prep = prepareConditions(ctx, acc.mask);
  if (prep.data && !shared)
    return std::nullopt;
  Props pm = props(prep.mask, prep.ctx);
  if (pm.hasData)
    return std::nullopt;
  EnvEnumeration en(prep.ctx, pm);
  Env env = representativeEnv(prep.ctx);
  const int per = shared ? phaseLanes(bytes) : WarpSize;
  double requests = 0, cost = 0, lanes = 0;
  for (int w = 0; w < shape.warps(); ++w)
    for (int e = 0; e < en.size(); ++e) {
      en.apply(env, e);
      WarpEval ev(prep.ctx, shape, env, w);
      LaneMask active = ev.mask(prep.mask);
      if (ev.undefined)
        return std::nullopt;
      if (!active)
        continue;
      int n = __builtin_popcount(active);
      double c;
      if (shared) {
        // One wavefront per phase with an active lane: no bank has two words.
        c = 0;
        for (int p = 0; p < WarpSize / per; ++p)
          c += (active & phaseMask(per, p)) != 0;
      } else {
        if (span > idealSectors(n, bytes))
          return std::nullopt; // the lanes may touch more than they fill
        c = double(std::min<int64_t>(span, n * ((bytes + 31) / 32 + 1)));
      }
      requests += 1;
      cost += c;
      lanes += n;
    }
  if (requests == 0)
    return std::nullopt;
  AccessResult r;
  r.evaluated = true;
  r.actual = r.ideal = cost / requests;
  r.activeLanes = lanes / requests;
  r.minActual = r.maxActual = r.actual;
  r.minRatio = r.maxRatio = r.worstRatio = 1;
  r.minActualRealistic = r.maxActualRealistic = r.actual;
  r.minRatioRealistic = r.maxRatioRealistic = r.minVerdictRealistic = 1;
  r.tableBytes = extent;
  r.maskDataDependent = prep.data;
  return r;
}

// Does `e` hold data read from memory as bits (not a pointer, not a value
// computed in floating point)?
static bool holdsDataBits(const LaneExpr &e, const Context &ctx) {
  bool found = false;
  visitWithLoops(e, ctx, [&](const Node &n) {
    if (n.op == Op::Data && ctx.atoms[n.value].kind == AtomKind::Data &&
        !ctx.atoms[n.value].pointer && !ctx.atoms[n.value].fromFloat)
      found = true;
    return !found;
  });
  return found;
}

// Visits the nodes whose values reach `root` as values: not the conditions
// of a select, a comparison's or a logical operator's operands, nor a
// loop's condition. Data seen only there picks which of its data-free
// values a lane takes (`switch (h & 3)` choosing a neighbour's offset, a
// step taken while a test on data holds), and keeps the lanes within
// those values' spread: it is no index, digest or segment start.
static void visitValues(const LaneExpr &root, const Context &ctx,
                        const std::function<bool(const Node &)> &fn) {
  std::unordered_set<const Node *> seen;
  std::vector<char> loopSeen(ctx.loops.size());
  std::vector<const Node *> stack{root.get()};
  auto loop = [&](int64_t id) {
    if (id < 0 || size_t(id) >= loopSeen.size() || loopSeen[id])
      return;
    loopSeen[id] = 1;
    stack.push_back(ctx.loops[id].init.get());
    stack.push_back(ctx.loops[id].next.get());
  };
  while (!stack.empty()) {
    const Node *n = stack.back();
    stack.pop_back();
    if (!n || !seen.insert(n).second || !fn(*n))
      continue;
    if (isComparison(n->op) || isLogical(n->op))
      continue; // a 0 or a 1 the data picks
    switch (n->op) {
    case Op::Select:
      stack.push_back(n->b.get());
      stack.push_back(n->c.get());
      break;
    case Op::LoopActive:
    case Op::Assumed:
    case Op::LaneRank:
      break;
    case Op::LoopVar:
    case Op::LoopFinal:
      loop(n->value);
      if (size_t(n->value) < ctx.loops.size())
        loop(ctx.loops[n->value].iterOf);
      break;
    default:
      for (const LaneExpr *x : {&n->a, &n->b, &n->c})
        stack.push_back(x->get());
    }
  }
}

// Does the address take a field of data's bits: `x & 0xff` (a mask of low
// bits) or `x % 16` (a constant modulus) of such data? Bytes of a message,
// digits of a key, a hash: lanes with different data land on unrelated
// elements of the field's range, as the random draws have them.
static bool takesDataBits(const LaneExpr &offset, const Context &ctx) {
  bool found = false;
  visitValues(offset, ctx, [&](const Node &n) {
    if (found)
      return false;
    const bool mask = n.op == Op::And;
    const bool modulus = n.op == Op::Rem;
    if (!mask && !modulus)
      return true;
    for (int side = 0; side < 2 && !found; ++side) {
      const LaneExpr &c = side ? n.a : n.b, &x = side ? n.b : n.a;
      if (!c || c->op != Op::Const || c->value < 3 || (modulus && side))
        continue;
      if (mask && ((c->value & (c->value + 1)) != 0 || c->value > 0xffff))
        continue; // not a run of up to 16 low bits (a wider one unpacks)
      found = holdsDataBits(x, ctx);
    }
    return !found;
  });
  return found;
}

// Does the address scale data read from memory by a size it cannot see
// (`table[key * width + j]`, a record of `width` elements picked per lane
// by a key)? Lanes with different keys are then at least a realistic size
// apart.
static bool picksDataRecords(const LaneExpr &offset, const Context &ctx) {
  bool found = false;
  auto sized = [&](const LaneExpr &e) {
    bool size = false;
    visitWithLoops(e, ctx, [&](const Node &n) {
      if (n.op == Op::Unknown && ctx.atoms[n.value].kind != AtomKind::Data &&
          ctx.atoms[n.value].role == AtomRole::Size)
        size = true;
      return !size;
    });
    return size;
  };
  // A key as read from memory: a loaded value, nothing computed in
  // floating point on the way.
  auto key = [&](const LaneExpr &e) {
    bool loaded = false, computed = false;
    visitWithLoops(e, ctx, [&](const Node &n) {
      if (n.op == Op::Data && ctx.atoms[n.value].kind == AtomKind::Data) {
        const Atom &a = ctx.atoms[n.value];
        loaded |= a.loadAddress && !a.pointer;
        computed |= a.fromFloat || !a.loadAddress;
      }
      return !computed;
    });
    return loaded && !computed;
  };
  visitWithLoops(offset, ctx, [&](const Node &n) {
    if (found)
      return false;
    if (n.op == Op::Mul && n.a && n.b)
      found = (key(n.a) && sized(n.b)) || (key(n.b) && sized(n.a));
    return !found;
  });
  return found;
}

// Is one of `atoms` a lane's segment start: read by lane l at element l of
// an array (consecutive lanes, consecutive elements), whose next element
// the kernel reads too, at the same lane (`start[i]` and `start[i + 1]`,
// the bounds of row i of a CSR matrix or of thread i's record)? So is a
// value read from such a segment (`x[col[k]]` for k in the lane's row):
// lanes a segment apart read unrelated entries of an index array, however
// close its neighbouring entries are.
static bool startsOwnSegment(const std::vector<int> &direct,
                             const Context &ctx, const Shape &shape) {
  std::vector<int> atoms = direct;
  for (size_t i = 0; i < atoms.size() && atoms.size() < 64; ++i) {
    const LaneExpr &from = ctx.atoms[atoms[i]].loadAddress;
    if (from)
      visitWithLoops(from, ctx, [&](const Node &n) {
        if (n.op == Op::Data && ctx.atoms[n.value].kind == AtomKind::Data &&
            std::find(atoms.begin(), atoms.end(), int(n.value)) == atoms.end())
          atoms.push_back(int(n.value));
        return true;
      });
  }
  Env env = representativeEnv(ctx);
  for (int a : atoms) {
    const Atom &x = ctx.atoms[a];
    if (!x.loadAddress || !x.loadBase || x.dataBits < 8)
      continue;
    const int64_t bytes = x.dataBits / 8;
    WarpEval e(ctx, shape, env, 0);
    LaneMask on = e.present();
    const Lanes from = e.value(x.loadAddress);
    bool consecutive = !e.undefined && on;
    for (int l = 1; l < WarpSize && consecutive; ++l)
      if ((on >> l) & 1)
        consecutive = from[l] - from[l - 1] == bytes;
    if (!consecutive)
      continue;
    for (const Atom &y : ctx.atoms) {
      if (&y == &x || y.loadBase != x.loadBase || !y.loadAddress ||
          y.dataBits != x.dataBits)
        continue;
      const Lanes to = e.value(y.loadAddress);
      bool next = !e.undefined;
      for (int l = 0; l < WarpSize && next; ++l)
        if ((on >> l) & 1)
          next = to[l] - from[l] == bytes;
      if (next)
        return true;
    }
  }
  return false;
}

size_t Context::dataAddressedLoads() const {
  if (!DataLoads || DataLoadsAtoms != atoms.size() ||
      DataLoadsGeneration != generation) {
    // A load's atom keeps its address when markWarpUniformData() makes it
    // one value per warp for a block shape: the count is the kernel's,
    // whichever shape is being judged.
    size_t loads = 0;
    for (const Atom &a : atoms) {
      if (!a.loadAddress)
        continue;
      bool data = false;
      visitNodes(a.loadAddress, [&](const Node &n) {
        if (n.op == Op::Data || n.op == Op::Unknown)
          if (size_t(n.value) < atoms.size()) {
            const Atom &x = atoms[size_t(n.value)];
            data |= x.kind == AtomKind::Data || x.loadAddress;
          }
        return !data;
      });
      loads += data;
    }
    DataLoads = loads;
    DataLoadsAtoms = atoms.size();
    DataLoadsGeneration = generation;
  }
  return *DataLoads;
}

const std::vector<std::pair<uint64_t, int>> &Context::atomsByLoadBase() const {
  if (!ByBase || ByBaseAtoms != atoms.size() ||
      ByBaseGeneration != generation) {
    ByBase.emplace();
    for (size_t y = 0; y < atoms.size(); ++y)
      if (atoms[y].loadBase && atoms[y].loadAddress)
        ByBase->emplace_back(atoms[y].loadBase, int(y));
    std::sort(ByBase->begin(), ByBase->end());
    ByBaseAtoms = atoms.size();
    ByBaseGeneration = generation;
  }
  return *ByBase;
}

int dataEstimateWarps(const Context &ctx) {
  const size_t loads = ctx.dataAddressedLoads();
  if (loads <= size_t(DataPairLoads))
    return MaxDataPairs;
  return std::max<int>(MinDataPairs,
                       int(size_t(MaxDataPairs) * DataPairLoads / loads));
}

std::optional<AccessResult> analyzeDataAddress(const Access &acc,
                                               const Context &ctx,
                                               const Shape &shape,
                                               const CostModel &cost,
                                               std::string *whyNot) {
  // Draws: enough that the mean of a random gather settles within a few
  // percent (each draw covers every warp, block and iteration sampled).
  constexpr int Draws = 4;
  std::vector<int> atoms;
  bool drawable = true;
  visitWithLoops(acc.offset, ctx, [&](const Node &n) {
    if (n.op == Op::TooDeep)
      drawable = false;
    if ((n.op == Op::Data || n.op == Op::Unknown) &&
        ctx.atoms[n.value].kind == AtomKind::Data) {
      if (ctx.atoms[n.value].pointer)
        drawable = false;
      if (std::find(atoms.begin(), atoms.end(), int(n.value)) == atoms.end())
        atoms.push_back(int(n.value));
    }
    return drawable;
  });
  if (!drawable || atoms.empty())
    return std::nullopt;
  PreparedConditions prep = prepareConditions(ctx, acc.mask);
  // Conditions on data's low bits (a hash's `switch (len & 15)` tail) are
  // drawn with the data: each case takes the lanes whose bits pick it.
  LaneExpr drawnMask = prep.mask;
  bool drawnBits = false;
  if (prep.data) {
    PreparedConditions drawnPrep = prepareConditions(ctx, acc.mask, true);
    drawnMask = drawnPrep.mask;
    drawnBits = drawnPrep.drawn;
  }
  Props all = unionProps(prep.ctx, {acc.offset, drawnMask});
  EnvEnumeration enumeration(prep.ctx, all);
  // Nothing is shared between environments: drawn values differ by block
  // (so one LoopSequences with no loop shared serves every evaluation).
  const std::vector<char> none(prep.ctx.loops.size(), 0);
  LoopSequences seq(none);
  Env env = representativeEnv(prep.ctx);
  Totals agree, random;
  EvalStop stopped = EvalStop::None;
  // Draws 1..Draws with each lane's own values, then as many with the
  // lanes of each warp agreeing.
  // A warp whose value depends on itself ends the estimate: the first such
  // warp is the answer, and the warps after it would change nothing.
  //
  // Each draw evaluates at most MaxPairs of the (warp, environment) pairs,
  // one from each of MaxPairs equal runs of them (warp by warp), at a place
  // in its run that moves from draw to draw: the mean over 8 x 64 warps
  // settles as well as over every pair, and a kernel with hundreds of
  // addresses built from data (a chain of loads, a table walked per lane)
  // does not evaluate each at every sampled warp eight times. Where those
  // pairs never run the access (a guard few warps pass), every pair is.
  // A kernel with thousands of loads addressed by data takes fewer pairs
  // for each (dataEstimateWarps; its report says so).
  const int MaxPairs = dataEstimateWarps(ctx);
  const int pairs = shape.warps() * enumeration.size();
  auto draws = [&](int taken) {
    for (int d = 1; d <= 2 * Draws && stopped == EvalStop::None; ++d) {
      Totals &t = d > Draws ? agree : random;
      env.dataSeed = uint64_t(d);
      env.dataAgree = d > Draws;
      // The place within each run: the golden ratio's multiples mod 1.
      const double place = std::fmod(0.6180339887 * d, 1.0);
      for (int i = 0; i < taken && stopped == EvalStop::None; ++i) {
        const int pair = std::min(
            pairs - 1, int((i + place) * double(pairs) / double(taken)));
        const int w = pair / enumeration.size(), e = pair % enumeration.size();
        enumeration.apply(env, e);
        WarpFigures f;
        warpFigures(f, acc, drawnMask, prep.ctx, shape, env, cost, w, seq);
        if (f.stopped != EvalStop::None) {
          stopped = f.stopped;
          break;
        }
        if (!f.active || f.undefined)
          continue; // a drawn divisor of zero: no information
        t.requests += 1;
        t.actual += f.cost.actual;
        t.ideal += f.cost.ideal;
        t.lanes += __builtin_popcount(f.active);
        t.data |= f.data;
        t.guard |= f.guard;
        t.tail |= f.tail;
      }
    }
  };
  draws(std::min(pairs, MaxPairs));
  if (pairs > MaxPairs && stopped == EvalStop::None &&
      (agree.requests == 0 || random.requests == 0)) {
    agree = random = Totals();
    draws(pairs);
  }
  if (drawnBits && stopped == EvalStop::None &&
      (agree.requests == 0 || random.requests == 0)) {
    // No draw took the conditions on data's bits: taken as true instead.
    drawnMask = prep.mask;
    agree = random = Totals();
    draws(std::min(pairs, MaxPairs));
  }
  if (stopped != EvalStop::None) {
    // A value that depends on itself (a pointer chased through the data it
    // loads: each iteration after the first) is not followed, and the
    // figures of the other environments are not the access's: no estimate,
    // and the access says why.
    if (whyNot)
      *whyNot = evalStopReason(stopped);
    return std::nullopt;
  }
  if (agree.requests == 0 || random.requests == 0)
    return std::nullopt;
  AccessResult r;
  r.unknownReason = dataReason(acc.offset, ctx);
  r.dataEstimated = true;
  r.dataAtoms = std::move(atoms);
  // Does the data only move a run of lanes that is coalesced when they
  // agree on it, each unit of data less than a sector (`out[offset[b] +
  // lane]`, a partitioned scatter)? Checked on the first warp that runs
  // it: the lanes' addresses with every datum at one value, and with each
  // datum one more in turn.
  {
    Env base = representativeEnv(prep.ctx);
    for (int a : r.dataAtoms)
      base.unknowns.set(size_t(a), 1024);
    bool fine = true, varying = false;
    for (int w = 0; w < shape.warps() && fine; ++w) {
      WarpEval e0(prep.ctx, shape, base, w);
      LaneMask m0 = e0.mask(prep.mask);
      if (!m0)
        continue;
      Lanes a0 = e0.value(acc.offset);
      int first = __builtin_ctz(m0);
      for (int l = 0; l < WarpSize; ++l)
        varying |= ((m0 >> l) & 1) && a0[l] != a0[first];
      // A shift moves the address by the same amount for each step of the
      // datum: one more again moves it as far (not a hash of the datum, a
      // generator's state, that happens to move it little once).
      for (int a : r.dataAtoms) {
        Env moved = base, twice = base;
        moved.unknowns.set(size_t(a), 1025);
        twice.unknowns.set(size_t(a), 1026);
        WarpEval e1(prep.ctx, shape, moved, w), e2(prep.ctx, shape, twice, w);
        Lanes a1 = e1.value(acc.offset), a2 = e2.value(acc.offset);
        int64_t step = wrapSub(a1[first], a0[first]);
        fine &= !e0.undefined && !e1.undefined && !e2.undefined && step > -32 &&
                step < 32 && wrapSub(a2[first], a1[first]) == step;
      }
      break;
    }
    r.dataElementOffset = fine && varying;
    // A record per lane is read at one place of each record: lanes that
    // agree on the key read one address. Where the lanes also run along
    // the record (`table[label * width + x]`, a row picked per pixel by
    // its label), lanes that agree are coalesced, and neighbouring keys
    // agree as often as not.
    r.dataRecord = !varying && picksDataRecords(acc.offset, ctx);
  }
  r.dataDigest = takesDataBits(acc.offset, ctx);
  std::vector<int> valueAtoms;
  visitValues(acc.offset, ctx, [&](const Node &n) {
    if ((n.op == Op::Data || n.op == Op::Unknown) &&
        ctx.atoms[n.value].kind == AtomKind::Data &&
        std::find(valueAtoms.begin(), valueAtoms.end(), int(n.value)) ==
            valueAtoms.end())
      valueAtoms.push_back(int(n.value));
    return true;
  });
  r.dataSegment = startsOwnSegment(valueAtoms, ctx, shape);
  r.dataTrips = std::all_of(r.dataAtoms.begin(), r.dataAtoms.end(),
                            [&](int a) { return ctx.atoms[a].tripCount; });
  r.dataSteps =
      r.dataTrips && std::all_of(r.dataAtoms.begin(), r.dataAtoms.end(),
                                 [&](int a) { return ctx.atoms[a].stepCount; });
  r.dataFromFloat = std::all_of(r.dataAtoms.begin(), r.dataAtoms.end(),
                                [&](int a) { return ctx.atoms[a].fromFloat; });
  r.randomActual = random.actual / random.requests;
  r.randomIdeal = random.ideal / random.requests;
  r.agreeActual = agree.actual / agree.requests;
  r.agreeIdeal = agree.ideal / agree.requests;
  r.activeLanes = random.lanes / random.requests;
  r.maskDataDependent = random.data;
  r.maskDrawnFromBits = drawnBits && drawnMask != prep.mask;
  r.guardAssumed = random.guard;
  r.tailGuard = random.tail;
  r.dependsOn = props(acc.offset, ctx).unknowns;
  return r;
}

int64_t knownMultiple(const LaneExpr &e) {
  static constexpr int64_t Cap = int64_t(1) << 32;
  auto pow2 = [](int64_t v) -> int64_t {
    if (v == 0)
      return Cap; // zero is a multiple of anything
    uint64_t u = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    return std::min<int64_t>(Cap, int64_t(u & (~u + 1)));
  };
  if (!e)
    return 1;
  switch (e->op) {
  case Op::Const:
    return pow2(e->value);
  case Op::Add:
  case Op::Sub:
  case Op::Min:
  case Op::Max:
    return std::min(knownMultiple(e->a), knownMultiple(e->b));
  case Op::Select:
    return std::min(knownMultiple(e->b), knownMultiple(e->c));
  case Op::Neg:
    return knownMultiple(e->a);
  case Op::Mul: {
    int64_t x = knownMultiple(e->a), y = knownMultiple(e->b);
    return x >= Cap || y >= Cap ? Cap : std::min(Cap, x * y);
  }
  case Op::Shl: {
    if (e->b->op != Op::Const || e->b->value < 0 || e->b->value >= 32)
      return 1;
    int64_t x = knownMultiple(e->a);
    return x >= Cap ? Cap : std::min(Cap, x << e->b->value);
  }
  case Op::And:
    // The result keeps only bits both operands may have set.
    return std::max(knownMultiple(e->a), knownMultiple(e->b));
  default:
    return 1;
  }
}

std::optional<AccessResult> analyzeDataRows(const Access &acc,
                                            const Context &ctx,
                                            const std::vector<Shape> &shapes) {
  constexpr int64_t Row = 4 * WarpSize; // bytes of one row of the 32 banks
  if (!acc.offset)
    return std::nullopt;
  LaneExpr rest = cst(0);
  bool data = false;
  for (const auto &[t, negative] : addends(acc.offset)) {
    if (props(t, ctx).hasData) {
      if (knownMultiple(t) % Row != 0)
        return std::nullopt;
      data = true;
    } else {
      rest = negative ? rest - t : rest + t;
    }
  }
  if (!data)
    return std::nullopt;
  Access restAccess = acc;
  restAccess.offset = rest;
  // Distinct banks for the lanes of each phase: then no choice of rows can
  // put two lanes' words in one bank.
  bool apart = true;
  CostModel cost = [&apart](const Lanes &addr, LaneMask active, int bytes) {
    int per = phaseLanes(bytes);
    for (int p = 0; p < WarpSize / per && apart; ++p) {
      LaneMask a = active & phaseMask(per, p);
      uint32_t taken = 0;
      for (int l = 0; l < WarpSize && apart; ++l) {
        if (!((a >> l) & 1))
          continue;
        int64_t first = addr[l] >> 2,
                last = first + (((addr[l] & 3) + std::max(bytes, 1) - 1) >> 2);
        uint32_t mine = 0;
        for (int64_t w = first; w <= last; ++w)
          mine |= 1u << int(((w % WarpSize) + WarpSize) % WarpSize);
        apart = !(mine & taken);
        taken |= mine;
      }
    }
    return sharedWavefronts(addr, active, bytes);
  };
  AccessResult r = analyzeAccess(restAccess, ctx, shapes, cost);
  if (!r.evaluated || !apart)
    return std::nullopt;
  r.dataRowBytes = Row;
  return r;
}

} // namespace warplint
