#include "Memory.h"
#include "Sampling.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace warplint {

int sectorsForRequest(const Lanes &addr, LaneMask active, int bytes) {
  int64_t sectors[2 * WarpSize];
  int n = 0;
  for (int l = 0; l < WarpSize; ++l) {
    if (!((active >> l) & 1))
      continue;
    int64_t first = addr[l] >> 5, last = (addr[l] + bytes - 1) >> 5;
    for (int64_t s = first; s <= last && n < 2 * WarpSize; ++s)
      sectors[n++] = s;
  }
  std::sort(sectors, sectors + n);
  return int(std::unique(sectors, sectors + n) - sectors);
}

int idealSectors(int activeLanes, int bytes) {
  return (activeLanes * bytes + 31) / 32;
}

Cost globalSectors(const Lanes &addr, LaneMask active, int bytes) {
  return {double(sectorsForRequest(addr, active, bytes)),
          double(idealSectors(__builtin_popcount(active), bytes))};
}

static int phaseLanes(int bytes) {
  return bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8;
}

BankConflict worstBank(const Lanes &addr, LaneMask active, int bytes) {
  // (bank, word) pairs of every active lane, then the bank with most words.
  std::pair<int, int64_t> hits[WarpSize * 4];
  LaneMask lanesIn[WarpSize] = {};
  int n = 0;
  for (int l = 0; l < WarpSize; ++l) {
    if (!((active >> l) & 1))
      continue;
    int64_t first = addr[l] >> 2, last = (addr[l] + std::max(bytes, 1) - 1) >> 2;
    for (int64_t w = first; w <= last && n < WarpSize * 4; ++w) {
      int b = int(((w % WarpSize) + WarpSize) % WarpSize);
      lanesIn[b] |= 1u << l;
      hits[n++] = {b, w};
    }
  }
  std::sort(hits, hits + n);
  n = int(std::unique(hits, hits + n) - hits);
  BankConflict out;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && hits[j].first == hits[i].first)
      ++j;
    if (j - i > out.degree) {
      out.degree = j - i;
      out.bank = hits[i].first;
      out.lanes = lanesIn[out.bank];
    }
    i = j;
  }
  return out;
}

Cost sharedWavefronts(const Lanes &addr, LaneMask active, int bytes) {
  Cost c;
  int per = phaseLanes(bytes);
  for (int p = 0; p < WarpSize / per; ++p) {
    LaneMask phase = (per == 32 ? AllLanes : ((1u << per) - 1) << (p * per));
    LaneMask a = active & phase;
    if (!a)
      continue;
    c.actual += std::max(1, worstBank(addr, a, bytes).degree);
    c.ideal += 1;
  }
  return c;
}

Cost constantAddresses(const Lanes &addr, LaneMask active, int bytes) {
  int64_t seen[WarpSize];
  int n = 0;
  for (int l = 0; l < WarpSize; ++l)
    if ((active >> l) & 1)
      seen[n++] = addr[l];
  std::sort(seen, seen + n);
  n = int(std::unique(seen, seen + n) - seen);
  return {double(n), n ? 1.0 : 0.0};
}

// Why a lane-varying unknown is in `e`: the first Data atom's reason.
static std::string dataReason(const LaneExpr &e, const Context &ctx) {
  if (!e)
    return "";
  if (e->op == Op::Data ||
      (e->op == Op::Unknown && ctx.atoms[e->value].kind == AtomKind::Data))
    return ctx.atoms[e->value].why;
  if (e->op == Op::LoopVar) {
    const Loop &l = ctx.loops[e->value];
    for (const LaneExpr &x : {l.init, l.next})
      if (x && x.get() != e.get()) {
        std::string w = x->op == Op::LoopVar && x->value == e->value
                            ? ""
                            : dataReason(x, ctx);
        if (!w.empty())
          return w;
      }
    return "";
  }
  for (const LaneExpr &x : {e->a, e->b, e->c}) {
    std::string w = dataReason(x, ctx);
    if (!w.empty())
      return w;
  }
  return "";
}

namespace {
struct Totals {
  double requests = 0, actual = 0, ideal = 0, lanes = 0;
  int64_t firstCommon = 0;
  bool strideSeen = false, strideConstant = true;
  int64_t stride = 0;
  bool data = false, guard = false, undefined = false;
};
} // namespace

static void accumulate(const Access &acc, const LaneExpr &mask,
                       const Context &ctx, const Shape &sh, const Env &env,
                       const CostModel &cost, Totals &t) {
  for (int w = 0; w < sh.warps(); ++w) {
    WarpEval ev(ctx, sh, env, w);
    LaneMask active = ev.mask(mask);
    t.data |= ev.usedDataCondition;
    t.guard |= ev.assumedGuard;
    if (!active)
      continue;
    Lanes addr = ev.value(acc.offset);
    t.undefined |= ev.undefined;
    Cost c = cost(addr, active, acc.elementBytes);
    t.requests += 1;
    t.actual += c.actual;
    t.ideal += c.ideal;
    t.lanes += __builtin_popcount(active);
    int prev = -1;
    std::map<int64_t, int> diffs;
    for (int l = 0; l < WarpSize; ++l) {
      if (!((active >> l) & 1))
        continue;
      if (prev >= 0) {
        int64_t d = (addr[l] - addr[prev]) / (l - prev);
        diffs[d]++;
        if ((addr[l] - addr[prev]) % (l - prev) != 0)
          t.strideConstant = false;
        if (!t.strideSeen) {
          t.stride = d;
          t.strideSeen = true;
        } else if (d != t.stride) {
          t.strideConstant = false;
        }
      }
      prev = l;
    }
    if (t.requests == 1 && !diffs.empty())
      t.firstCommon = std::max_element(diffs.begin(), diffs.end(),
                                       [](const auto &x, const auto &y) {
                                         return x.second < y.second;
                                       })
                          ->first;
  }
}

AccessResult analyzeAccess(const Access &acc, const Context &ctx,
                           const std::vector<Shape> &shapes,
                           const CostModel &cost) {
  AccessResult r;
  Props pa = props(acc.offset, ctx);
  Props pm = acc.mask ? props(acc.mask, ctx) : Props();
  if (pa.hasData) {
    r.unknownReason = dataReason(acc.offset, ctx);
    return r;
  }
  Props all = unionProps(ctx, {acc.offset, acc.mask});
  r.dependsOn = pa.unknowns;

  std::vector<Env> assignments = unknownAssignments(ctx, all);

  // Guards and data-dependent conditions are classified once, not per warp.
  PreparedConditions prep = prepareConditions(ctx, acc.mask);
  bool first = true;
  Totals strideTotals;
  for (size_t s = 0; s < shapes.size(); ++s) {
    for (size_t a = 0; a < assignments.size(); ++a) {
      Totals t;
      std::vector<Env> envs = enumeratedEnvs(ctx, all, assignments[a]);
      for (const Env &env : envs)
        accumulate(acc, prep.mask, prep.ctx, shapes[s], env, cost, t);
      if (t.undefined)
        continue; // a sampled unknown made a divisor zero: no information
      r.maskDataDependent |= t.data;
      r.guardAssumed |= t.guard;
      if (t.requests == 0)
        continue;
      double actual = t.actual / t.requests, ideal = t.ideal / t.requests;
      double ratio = ideal > 0 ? actual / ideal : 1;
      if (first) {
        r.evaluated = true;
        r.actual = actual;
        r.ideal = ideal;
        r.activeLanes = t.lanes / t.requests;
        r.minActual = r.maxActual = actual;
        r.minRatio = r.maxRatio = ratio;
        r.commonStride = t.firstCommon;
        r.requestsPerBlock = t.requests / double(envs.size());
        strideTotals = t;
        first = false;
      } else {
        r.minActual = std::min(r.minActual, actual);
        r.maxActual = std::max(r.maxActual, actual);
        r.minRatio = std::min(r.minRatio, ratio);
        r.maxRatio = std::max(r.maxRatio, ratio);
        if (t.strideSeen && (!strideTotals.strideSeen ||
                             t.stride != strideTotals.stride))
          strideTotals.strideConstant = false;
        strideTotals.strideConstant &= t.strideConstant;
      }
    }
  }
  if (!r.evaluated) {
    r.unknownReason = "no lane of any warp executes it under the model's "
                      "assumptions";
    return r;
  }
  r.exact = r.maxActual - r.minActual < 1e-9 && r.maxRatio - r.minRatio < 1e-9;
  if (strideTotals.strideSeen && strideTotals.strideConstant)
    r.laneStride = strideTotals.stride;
  return r;
}

} // namespace warplint
