#include "model/Issue.h"

#include "model/Sampling.h"

#include <algorithm>
#include <map>

namespace warplint {

namespace {
/// Iterations a warp runs `loop` for, in `env`: those in which one of its
/// present lanes is still inside (capped at MaxTrip).
int tripCount(const Context &ctx, const Shape &shape, const Env &env, int warp,
              int loop) {
  WarpEval ev(ctx, shape, env, warp);
  // One past the cap: a loop that ends at exactly MaxTrip iterations is
  // counted in full and not said to run past it.
  return ev.tripCount(loop, MaxTrip + 1, ev.present());
}

/// Does the block alone decide the loop's trip count (`p`: its init, update
/// and condition), with no unknown size in it? Then the sampled blocks' trip
/// counts are each block's. With an unknown (`i < n`, a grid-stride loop's
/// gridDim), block 0's is taken: the representative size keeps its guard
/// open, and the other blocks' would rest on that size being the real one.
bool blockDecided(const Props &p, int loop) {
  return p.usesBlockIdx && !p.usesGridDim && p.unknowns.empty() &&
         std::all_of(p.loops.begin(), p.loops.end(),
                     [&](int x) { return x == loop; });
}

void addUnique(std::vector<int> &v, int x) {
  if (std::find(v.begin(), v.end(), x) == v.end())
    v.push_back(x);
}
} // namespace

IssueEstimate estimateIssue(const std::vector<IssueWork> &work,
                            const Context &ctx, const Shape &shape,
                            const Env &base) {
  IssueEstimate out;
  // Trip counts by (loop, warp): a loop's own recurrence, at block 0 with
  // the loops around it at their first iteration; where its bounds use the
  // block's index, the mean over the sampled blocks; where they use the
  // variables of other loops (a triangular nest), the mean over the sampled
  // iterations of those (in block 0).
  std::map<std::pair<int, int>, double> trips;
  // A loop's trip count in the block `env` names, the loops around it at
  // their first iteration, by (loop, warp, blockIdx).
  std::map<std::tuple<int, int, int64_t, int64_t, int64_t>, int> blockTrips;
  auto blockTrip = [&](const Context &c, const Env &env, int warp, int loop) {
    auto key = std::make_tuple(loop, warp, env.blockIdx[0], env.blockIdx[1],
                               env.blockIdx[2]);
    auto it = blockTrips.find(key);
    if (it != blockTrips.end())
      return it->second;
    Env at = base;
    std::copy(std::begin(env.blockIdx), std::end(env.blockIdx), at.blockIdx);
    return blockTrips[key] = tripCount(c, shape, at, warp, loop);
  };
  auto tripOf = [&](const Context &c, int loop, int warp) {
    auto key = std::make_pair(loop, warp);
    auto it = trips.find(key);
    if (it != trips.end())
      return it->second;
    const Loop &l = c.loops[loop];
    Props lp = unionProps(c, {l.init, l.next, l.cond});
    lp.loops.erase(std::remove(lp.loops.begin(), lp.loops.end(), loop),
                   lp.loops.end());
    for (int u : lp.unknowns)
      addUnique(out.unknowns, u);
    out.usesGridDim |= lp.usesGridDim;
    double t = 0;
    bool atCap = false;
    auto capped = [&](int n) {
      atCap |= n > MaxTrip;
      return std::min(n, MaxTrip);
    };
    if (blockDecided(lp, loop)) {
      // Bounds the block decides (a causal row's keys): the mean over the
      // sampled blocks, as the memory figures take them.
      EnvEnumeration en(c, lp);
      Env env = base;
      for (int e = 0; e < en.size(); ++e) {
        en.apply(env, e);
        t += capped(blockTrip(c, env, warp, loop));
      }
      t /= en.size();
    } else if (lp.loops.empty()) {
      t = capped(tripCount(c, shape, base, warp, loop));
    } else {
      lp.usesBlockIdx = false; // block 0's loop, at other iterations
      EnvEnumeration en(c, lp);
      Env env = base;
      for (int e = 0; e < en.size(); ++e) {
        en.apply(env, e);
        env.blockIdx[0] = env.blockIdx[1] = env.blockIdx[2] = 0;
        t += capped(tripCount(c, shape, env, warp, loop));
      }
      t /= en.size();
    }
    if (atCap)
      addUnique(out.loopsAtCap, loop);
    trips[key] = t;
    return t;
  };

  // The loops whose condition reads data: their trip counts take such a
  // condition as true (the prepared context's), the others as written.
  std::vector<char> condOnData(ctx.loops.size());
  for (size_t l = 0; l < ctx.loops.size(); ++l)
    condOnData[l] = readsData(ctx.loops[l].cond, ctx);
  // Work under a test that holds once per grid (the last block to arrive
  // at a counter) runs in one block of the launch: a block's share of it is
  // one over the blocks.
  const bool counters =
      std::any_of(ctx.atoms.begin(), ctx.atoms.end(),
                  [](const Atom &a) { return a.counter || a.lastArrival; });
  // (A grid extent still at Env's default is one the launch does not show:
  // x is taken at it, as the estimate's other figures do, y and z at 1.)
  const Env unset;
  double blocks = double(std::max<int64_t>(1, base.gridDim[0]));
  for (int d = 1; d < 3; ++d)
    if (base.gridDim[d] != unset.gridDim[d])
      blocks *= double(std::max<int64_t>(1, base.gridDim[d]));
  double issued = 0, lanes = 0;
  out.issued.assign(work.size(), 0);
  out.laneInstructions.assign(work.size(), 0);
  out.perInstruction.assign(work.size(), 0);
  out.onceOf.assign(work.size(), -1);
  for (size_t i = 0; i < work.size(); ++i) {
    const IssueWork &w = work[i];
    if (!w.issue || (w.weight <= 0 && !w.contended))
      continue;
    double share = 1;
    if (counters)
      if (LaneExpr once = oncePerGridConjunct(w.issue, ctx)) {
        share = 1 / blocks;
        auto at =
            std::find(out.oncePerGrid.begin(), out.oncePerGrid.end(), once);
        out.onceOf[i] = int(at - out.oncePerGrid.begin());
        if (at == out.oncePerGrid.end())
          out.oncePerGrid.push_back(once);
      }
    PreparedConditions pi = prepareConditions(ctx, w.issue);
    PreparedConditions pl = prepareConditions(ctx, w.lanes ? w.lanes
                                                           : w.issue);
    out.dataConditions |= pi.data || pl.data;
    const Context &c = pi.ctx;
    // (An address that reads data is not followed: the draws of the
    // estimate's environment would put every lane at one address.)
    const LaneExpr contended =
        w.contended && !readsData(w.contended, ctx) ? w.contended : nullptr;
    Props p = contended ? unionProps(c, {pi.mask, pl.mask, contended})
                        : unionProps(c, {pi.mask, pl.mask});
    for (int u : p.unknowns)
      addUnique(out.unknowns, u);
    out.usesGridDim |= p.usesGridDim;
    // The loops it is inside (one per loop nest level: the primary of each
    // group of induction variables).
    std::vector<int> loops;
    for (int l : p.loops)
      addUnique(loops, c.loops[l].iterOf < 0 ? l : c.loops[l].iterOf);
    LaneExpr inside;
    for (int l : loops)
      inside = inside ? bin(Op::LAnd, inside, loopActive(l)) : loopActive(l);
    EnvEnumeration en(c, p);
    en.fitIterations(fittedIterations(c, shape, base, en));
    // The loops whose trip count the block alone decides: each sample
    // counts as many times as its block runs them (a causal row loop's
    // short rows are short; their partial last iteration is not one
    // sample in every few).
    std::vector<std::pair<int, const Context *>> byBlock;
    for (int l : loops) {
      const Context &tc =
          ctx.loops[l].cond && !condOnData[size_t(l)] ? ctx : c;
      const Loop &lp = tc.loops[l];
      if (blockDecided(unionProps(tc, {lp.init, lp.next, lp.cond}), l))
        byBlock.push_back({l, &tc});
    }
    std::vector<char> invariant = sequenceInvariantLoops(c);
    for (int warp = 0; warp < shape.warps(); ++warp) {
      // Over the sampled blocks and iterations: the share of the loops'
      // iterations in which the warp issues the work, times the iterations
      // it runs.
      LoopSequences seq(invariant);
      double reached = 0, inLoops = 0, laneSum = 0;
      // A compare-and-swap loop's rounds (the most lanes at one address)
      // and lane-rounds (a group of g lanes runs 1 + 2 + ... + g).
      double rounds = 0, laneRounds = 0;
      Env env = base;
      for (int e = 0; e < en.size(); ++e) {
        en.apply(env, e);
        WarpEval ev(c, shape, env, warp, &seq);
        LaneMask present = ev.present();
        if (inside && !(ev.mask(inside) & present))
          continue;
        double weight = 1;
        for (auto [l, tc] : byBlock)
          weight *= std::min(blockTrip(*tc, env, warp, l), MaxTrip);
        inLoops += weight;
        LaneMask issue = ev.mask(pi.mask) & present;
        if (!issue)
          continue;
        reached += weight;
        const LaneMask run = ev.mask(pl.mask) & issue;
        laneSum += weight * __builtin_popcount(run);
        if (contended && run) {
          const Lanes addr = ev.value(contended);
          std::vector<int64_t> at;
          for (int l = 0; l < WarpSize; ++l)
            if (run >> l & 1)
              at.push_back(addr[size_t(l)]);
          std::sort(at.begin(), at.end());
          size_t most = 0;
          for (size_t b = 0, e2; b < at.size(); b = e2) {
            for (e2 = b; e2 < at.size() && at[e2] == at[b]; ++e2) {
            }
            const double g = double(e2 - b);
            laneRounds += weight * g * (g + 1) / 2;
            most = std::max(most, e2 - b);
          }
          rounds += weight * double(most);
        }
      }
      if (!inLoops || !reached)
        continue;
      double iterations = 1, unrolled = 1;
      // Trip counts from the loops' conditions as written: a bounds guard
      // that ends a loop (a grid-stride loop) is what counts its
      // iterations; one on data is taken as true, to the cap.
      for (int l : loops) {
        const double trip = tripOf(
            ctx.loops[l].cond && !condOnData[size_t(l)] ? ctx : c, l, warp);
        iterations *= trip;
        if (ctx.loops[l].unrolled)
          unrolled *= std::max(1.0, trip);
      }
      const double warpIssued = (w.weight * reached + w.perRound * rounds) /
                                inLoops * iterations * share,
                   warpLanes = (w.weight * laneSum + w.perRound * laneRounds) /
                               inLoops * iterations * share;
      issued += warpIssued;
      lanes += warpLanes;
      out.issued[i] += warpIssued;
      out.laneInstructions[i] += warpLanes;
      out.perInstruction[i] += warpIssued / unrolled;
    }
  }
  std::sort(out.unknowns.begin(), out.unknowns.end());
  std::sort(out.loopsAtCap.begin(), out.loopsAtCap.end());
  out.perBlock = issued;
  out.activeLanes = issued > 0 ? lanes / issued : 0;
  return out;
}

} // namespace warplint
