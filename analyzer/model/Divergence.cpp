#include "model/Divergence.h"
#include "model/Explain.h"

#include "model/Sampling.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace warplint {

namespace {
/// Runs `f(shapeIndex, assignmentIndex, env, warp, sequences)` over every
/// shape, assignment of the unknowns, enumerated environment and warp.
/// `sequences` holds the warp's loop sequences that do not depend on the
/// environment (LoopSequences), for WarpEvals on `evalCtx`: shared by the
/// warp's environments of one assignment, so that a loop's iterations are
/// stepped once per warp, not once per environment.
template <class F>
void forEachWarp(const Context &ctx, const Context &evalCtx, const Props &p,
                 const std::vector<Shape> &shapes, F f) {
  std::vector<Env> assignments = unknownAssignments(ctx, p);
  const std::vector<char> invariant = sequenceInvariantLoops(evalCtx);
  for (size_t s = 0; s < shapes.size(); ++s)
    for (size_t a = 0; a < assignments.size(); ++a) {
      std::vector<LoopSequences> seq(size_t(shapes[s].warps()),
                                     LoopSequences(invariant));
      for (const Env &env : enumeratedEnvs(ctx, p, assignments[a]))
        for (int w = 0; w < shapes[s].warps(); ++w)
          f(s, a, env, w, &seq[size_t(w)]);
    }
}
/// Accumulates BranchResult::Fill over the warps of one environment after
/// another (forEachWarp's order: all warps of an environment, then the
/// next), with one lane count per group of instructions issued together
/// (a loop's iterations are groups of their own).
class FillCounter {
public:
  /// Warp `w` reaches the body (`reach`) and runs it with `lanes`, in group
  /// `g`; w == 0 starts a new environment.
  void add(int w, size_t g, bool reach, LaneMask lanes) {
    if (w == 0 && started)
      flush();
    started = true;
    if (reach)
      reached += 1;
    if (!lanes)
      return;
    if (perGroup.size() <= g)
      perGroup.resize(g + 1, 0);
    int n = __builtin_popcount(lanes);
    perGroup[g] += n;
    issued += 1;
    total += n;
  }
  BranchResult::Fill finish() {
    flush();
    BranchResult::Fill f;
    if (issued > 0 && packed > 0) {
      f.lanesBranched = total / issued;
      f.lanesPredicated = total / reached;
      f.spread = issued / packed;
      f.issuePredicated = reached / packed;
    }
    return f;
  }

private:
  void flush() {
    for (int n : perGroup)
      packed += (n + 31) / 32;
    perGroup.assign(perGroup.size(), 0);
  }
  bool started = false;
  std::vector<int> perGroup;
  double issued = 0, reached = 0, total = 0, packed = 0;
};

/// A split a message can show: the warp, its lanes, the iteration (loops)
/// and the block.
struct SplitExample {
  int warp = -1, iteration = -1;
  LaneMask active = 0, taken = 0;
  int64_t block[3] = {0, 0, 0};

  SplitExample() = default;
  SplitExample(const Env &env, int warp, int iteration, LaneMask active,
               LaneMask taken)
      : warp(warp), iteration(iteration), active(active), taken(taken) {
    std::copy(std::begin(env.blockIdx), std::end(env.blockIdx), block);
  }
  void into(BranchResult &r) const {
    r.warp = warp;
    r.iteration = iteration;
    r.active = active;
    r.taken = taken;
    std::copy(std::begin(block), std::end(block), r.block);
  }
};

/// Chooses the split a message shows: from the environment (block and
/// iterations around) whose work is the median of the representative run's,
/// not merely the first. Where blocks differ in their work (a causal mask
/// that leaves block 0 almost empty), the first split is the least typical
/// one; where every block is alike, the median's first is the first.
class ExamplePicker {
public:
  /// Warp `w` of the current environment did `work` (lanes times
  /// iterations); w == 0 starts a new environment.
  void add(int w, double work) {
    if (w == 0)
      envs.push_back({});
    envs.back().work += work;
  }
  /// The environment's first split, kept if it is the first there.
  void split(const Env &env, int warp, int iteration, LaneMask active,
             LaneMask taken) {
    Example &e = envs.back();
    if (e.split.warp < 0)
      e.split = SplitExample(env, warp, iteration, active, taken);
  }
  /// Fills r's example from the environment that split whose work is
  /// nearest the median of all environments' (the earliest of equals).
  void pick(BranchResult &r) const {
    std::vector<double> works;
    for (const Example &e : envs)
      works.push_back(e.work);
    if (works.empty())
      return;
    std::nth_element(works.begin(), works.begin() + works.size() / 2,
                     works.end());
    const double median = works[works.size() / 2];
    const Example *best = nullptr;
    for (const Example &e : envs)
      if (e.split.warp >= 0 &&
          (!best || std::abs(e.work - median) < std::abs(best->work - median)))
        best = &e;
    if (best)
      best->split.into(r);
  }

private:
  struct Example {
    double work = 0;
    SplitExample split; // the environment's first
  };
  std::vector<Example> envs;
};

/// By shape: whether `cond` has one value across the lanes of each warp
/// (uniformInWarps()), so that no warp of the shape can split on it.
std::vector<char> uniformShapes(const LaneExpr &cond, const Context &ctx,
                                const std::vector<Shape> &shapes) {
  const LaneVariation src = warpVaryingSources(cond, ctx);
  std::vector<char> out;
  for (const Shape &sh : shapes)
    out.push_back(uniformInWarps(src, sh));
  return out;
}

/// Which (shape, assignment) pairs split a warp, in forEachWarp's order (a
/// pair's warps all come before the next pair's). The result asks two
/// things of them: whether every pair splits (divergent) and whether any
/// does (maybe). The representative pair (0, 0) is always run in full (its
/// figures); past it, a pair that has split needs no more warps, and once
/// one pair has run all its warps without a split and some pair has split,
/// both answers are known and no further pair can change them.
class SplitSearch {
public:
  SplitSearch(size_t shapes, size_t assignments)
      : nAssign(assignments), splits(shapes * assignments, 0) {}
  /// Whether warp evaluations of pair (s, a) can still change the answers.
  bool needed(size_t s, size_t a) {
    const size_t pair = s * nAssign + a;
    if (pair != current) {
      whole |= !splits[current];
      current = pair;
    }
    if (pair == 0)
      return true;
    return !splits[pair] && !(whole && any);
  }
  /// Pair (s, a), which cannot split a warp (its condition has one value
  /// across each warp's lanes), is known to run every warp without one.
  void cannotSplit() { whole = true; }
  /// A warp of pair (s, a) with `active` lanes before the test and `taken`
  /// after it (an if's condition; a loop's iteration `iteration`, -1 for
  /// an if): counts the representative pair's warps and splits, and keeps
  /// its example (ExamplePicker), else the first split of any pair.
  void warp(size_t s, size_t a, const Env &env, int w, int iteration,
            LaneMask active, LaneMask taken, ExamplePicker &example,
            BranchResult &r) {
    const bool split = taken != 0 && taken != active;
    const bool representative = s == 0 && a == 0;
    if (representative) {
      execs += 1;
      divergent += split;
    }
    if (!split)
      return;
    splits[s * nAssign + a] = 1;
    any = true;
    if (representative)
      example.split(env, w, iteration, active, taken);
    else if (r.warp < 0)
      SplitExample(env, w, iteration, active, taken).into(r);
  }
  /// The representative pair's share of warps (and iterations) that split.
  double share() const { return execs ? divergent / execs : 0; }
  /// Every pair run split (none settled early without one).
  bool every() const {
    return std::count(splits.begin(), splits.end(), 1) ==
           std::ptrdiff_t(splits.size());
  }
  bool anySplit() const { return any; }

private:
  size_t nAssign, current = 0;
  std::vector<char> splits;
  bool whole = false, any = false;
  double execs = 0, divergent = 0;
};
} // namespace

BranchResult analyzeBranch(const LaneExpr &cond, const LaneExpr &mask,
                           const Context &ctx,
                           const std::vector<Shape> &shapes) {
  BranchResult r;
  if (props(cond, ctx).hasData)
    return r;
  r.evaluated = true;
  PreparedConditions pm = prepareConditions(ctx, mask);
  PreparedConditions pc = prepareConditions(pm.ctx, cond);
  r.guardAssumed = pm.guard || pc.guard;
  // A condition every lane agrees on (after the guard rules) cannot split.
  if (!props(pc.mask, pc.ctx).laneVarying)
    return r;
  // Sample only the unknowns that survive the guard rules.
  Props p = unionProps(pc.ctx, {pc.mask, pm.mask});
  SplitSearch splits(shapes.size(), unknownAssignments(ctx, p).size());
  const std::vector<char> uniform = uniformShapes(pc.mask, pc.ctx, shapes);
  FillCounter takenFill, restFill;
  ExamplePicker example;
  forEachWarp(
      ctx, pc.ctx, p, shapes,
      [&](size_t s, size_t a, const Env &env, int w, LoopSequences *shared) {
        // Past the representative run, a shape and assignment only answer
        // whether the branch splits a warp at all (and give the first split
        // found, which only the representative run replaces).
        if ((s != 0 || a != 0) && uniform[s])
          return splits.cannotSplit();
        if (!splits.needed(s, a))
          return;
        WarpEval ev(pc.ctx, shapes[s], env, w, shared);
        LaneMask active = ev.mask(pm.mask);
        LaneMask taken = active ? active & ev.mask(pc.mask) : 0;
        if (s == 0 && a == 0) {
          takenFill.add(w, 0, active != 0, taken);
          restFill.add(w, 0, active != 0, active & ~taken);
          example.add(w, __builtin_popcount(active));
        }
        if (active)
          splits.warp(s, a, env, w, -1, active, taken, example, r);
      });
  example.pick(r);
  r.maybe = splits.anySplit();
  r.divergent = splits.every();
  r.divergentShare = splits.share();
  r.takenFill = takenFill.finish();
  r.restFill = restFill.finish();
  return r;
}

BranchResult analyzeLoopExit(int loop, const LaneExpr &mask, const Context &ctx,
                             const std::vector<Shape> &shapes) {
  BranchResult r;
  const Loop &l = ctx.loops[loop];
  if (!l.cond || props(l.cond, ctx).hasData)
    return r;
  r.evaluated = true;
  PreparedConditions pm = prepareConditions(ctx, mask);
  r.guardAssumed = pm.guard;
  // The loop's own condition with its guards assumed: a loop that only a
  // bounds guard ends (a grid-stride loop) never splits the warp, nor does
  // one whose condition every lane agrees on.
  const Context &pc = pm.ctx;
  if (!props(pc.loops[loop].cond, pc).laneVarying)
    return r;
  Props p = unionProps(pc, {pm.mask, pc.loops[loop].cond, l.init, l.next});
  p.loops.erase(std::remove(p.loops.begin(), p.loops.end(), loop),
                p.loops.end());
  SplitSearch splits(shapes.size(), unknownAssignments(pc, p).size());
  // Lanes that leave together never split: the other shapes and
  // assignments, which only ask whether the loop splits, need no warp.
  const bool together = exitsTogether(pc, loop);
  const std::vector<char> uniform =
      uniformShapes(pc.loops[loop].cond, pc, shapes);
  constexpr int MaxIterations = 64;
  FillCounter bodyFill;
  ExamplePicker example;
  forEachWarp(
      pc, pc, p, shapes,
      [&](size_t s, size_t a, const Env &env, int w, LoopSequences *shared) {
        // Past the representative run, a shape and assignment only answer
        // whether the loop splits a warp at all.
        if ((s != 0 || a != 0) && uniform[s])
          return splits.cannotSplit();
        if (!splits.needed(s, a) || ((s != 0 || a != 0) && together))
          return;
        WarpEval ev(pc, shapes[s], env, w, shared);
        LaneMask before = ev.mask(pm.mask);
        if (s == 0 && a == 0)
          bodyFill.add(w, 0, false, 0); // a new environment starts at warp 0
        if (!before) {
          if (s == 0 && a == 0)
            example.add(w, 0);
          return;
        }
        std::vector<LaneMask> seq = ev.loopActiveSequence(loop, MaxIterations);
        if (s == 0 && a == 0) {
          LaneMask in = before;
          double work = 0;
          // A loop is never predicated away: a warp runs the iterations of its
          // longest lane, each with the lanes still in.
          for (size_t k = 0; k < seq.size() && (in &= seq[k]); ++k) {
            bodyFill.add(1, k, true, in); // iteration k: one group
            work += __builtin_popcount(in);
          }
          example.add(w, work);
        }
        for (size_t k = 0; k < seq.size(); ++k) {
          LaneMask now = seq[k] & before;
          splits.warp(s, a, env, w, int(k), before, now, example, r);
          if (!now)
            break;
          before = now;
        }
      });
  example.pick(r);
  r.maybe = splits.anySplit();
  r.divergent = splits.every();
  r.divergentShare = splits.share();
  r.takenFill = bodyFill.finish();
  return r;
}

std::string blockText(const int64_t block[3]) {
  if (!block[1] && !block[2])
    return std::to_string(block[0]);
  std::string s = "(" + std::to_string(block[0]) + ", " +
                  std::to_string(block[1]);
  if (block[2])
    s += ", " + std::to_string(block[2]);
  return s + ")";
}

/// The warp to draw: `at`'s in its block, else the first warp of block 0
/// (representative values) with a lane that reaches `mask`, or -1. Sets
/// env's block and the picture's.
static int warpToDraw(const Context &ctx, const Shape &shape, Env &env,
                      const LaneExpr &mask, const PictureAt &at,
                      BranchPicture &pic) {
  if (at.warp >= 0 && at.warp < shape.warps()) {
    std::copy(std::begin(at.block), std::end(at.block), env.blockIdx);
    std::copy(std::begin(at.block), std::end(at.block), pic.block);
    return at.warp;
  }
  for (int w = 0; w < shape.warps(); ++w)
    if (WarpEval(ctx, shape, env, w).mask(mask))
      return w;
  return -1;
}

/// Draws `pic` at the crossing found; the environment to draw with.
static Env drawAt(const Crossing &c, BranchPicture &pic) {
  std::copy(std::begin(c.env.blockIdx), std::end(c.env.blockIdx), pic.block);
  pic.warp = c.warp;
  pic.crossing = c.values;
  pic.crossingMoved = c.moved;
  return c.env;
}

BranchPicture pictureBranch(const LaneExpr &cond, const LaneExpr &mask,
                            const Context &ctx, const Shape &shape,
                            int maxRows, const PictureAt &at) {
  BranchPicture pic;
  PreparedConditions pm = prepareConditions(ctx, mask);
  PreparedConditions pc = prepareConditions(pm.ctx, cond);
  Props p = unionProps(pc.ctx, {pc.mask, pm.mask});
  // The loop around it whose iterations change the split: the first one
  // the condition uses, else any the mask uses.
  auto primary = [&](const std::vector<int> &loops) {
    for (int l : loops)
      if (pc.ctx.loops[l].iterOf < 0)
        return l;
    return -1;
  };
  int loop = primary(props(pc.mask, pc.ctx).loops);
  if (loop < 0)
    loop = primary(p.loops);
  Env env = representativeEnv(ctx);
  int rows = loop < 0 ? 1 : maxRows;
  // Taken, or reached, only past a bound: drawn where the index crosses it,
  // as written (as pictureLoop()).
  const Context *use = &pc.ctx;
  LaneExpr useMask = pm.mask, useCond = pc.mask;
  std::optional<Crossing> crossing;
  if (assumesFarSide(pm.mask, pc.ctx) || assumesFarSide(pc.mask, pc.ctx))
    crossing =
        crossingWarp(mask ? bin(Op::LAnd, mask, cond) : cond, -1, ctx, shape);
  if (crossing) {
    env = drawAt(*crossing, pic);
    use = &ctx;
    useMask = mask;
    useCond = cond;
  } else {
    pic.warp = warpToDraw(pc.ctx, shape, env, pm.mask, at, pic);
  }
  if (pic.warp < 0)
    return pic;
  if (loop >= 0)
    pic.loopName = ctx.loops[loop].var;
  for (int k = 0; k < rows; ++k) {
    if (loop >= 0)
      env.loopIter[loop] = k;
    WarpEval ev(*use, shape, env, pic.warp);
    LaneMask active = ev.mask(useMask);
    if (!active && k > 0)
      break;
    BranchPicture::Row r;
    r.active = active;
    r.taken = active & ev.mask(useCond);
    if (loop >= 0) {
      LaneMask in = active ? active : ev.present();
      int lane = in ? __builtin_ctz(in) : 0;
      r.value = ev.value(loopVar(loop))[lane];
    }
    pic.rows.push_back(r);
  }
  return pic;
}

BranchPicture pictureLoop(int loop, const LaneExpr &mask, const Context &ctx,
                          const Shape &shape, int maxRows,
                          const PictureAt &at) {
  BranchPicture pic;
  PreparedConditions pm = prepareConditions(ctx, mask);
  Env env = representativeEnv(ctx);
  // Lanes past a bound (a tail's loop, or one that runs while its lanes are
  // past one): assumed, every lane of the warp would run it, a loop for
  // ever. Drawn instead where the index crosses the bound, as written.
  const Context *use = &pm.ctx;
  LaneExpr useMask = pm.mask;
  std::optional<Crossing> crossing;
  if (assumesFarSide(pm.mask, pm.ctx) ||
      assumesFarSide(pm.ctx.loops[size_t(loop)].cond, pm.ctx))
    crossing = crossingWarp(mask, loop, ctx, shape);
  if (crossing) {
    env = drawAt(*crossing, pic);
    use = &ctx;
    useMask = mask;
  } else {
    pic.warp = warpToDraw(pm.ctx, shape, env, pm.mask, at, pic);
  }
  if (pic.warp < 0)
    return pic;
  pic.loopName = ctx.loops[loop].var;
  WarpEval ev(*use, shape, env, pic.warp);
  LaneMask before = ev.mask(useMask);
  // A split past the rows drawn from iteration 0: the rows end two past it.
  const int start = !crossing && at.warp >= 0 && at.iteration >= 0
                        ? std::max(0, at.iteration + 3 - maxRows)
                        : 0;
  std::vector<LaneMask> seq = ev.loopActiveSequence(loop, start + maxRows);
  LaneMask in = before;
  for (size_t k = 0; k < seq.size() && (in &= seq[k]); ++k) {
    if (int(k) < start)
      continue;
    BranchPicture::Row r;
    r.value = int64_t(k); // the iteration: each lane's variable differs
    r.active = before;
    r.taken = in;
    pic.rows.push_back(r);
  }
  return pic;
}

ReachResult analyzeReach(const LaneExpr &mask, const Context &ctx,
                         const std::vector<Shape> &shapes) {
  ReachResult r;
  if (mask && props(mask, ctx).hasData)
    return r;
  r.evaluated = true;
  PreparedConditions pm = prepareConditions(ctx, mask);
  Props p = unionProps(pm.ctx, {pm.mask});
  // Every thread agrees on a condition that does not vary by lane; a block
  // is all in or all out.
  if (!p.laneVarying)
    return r;
  std::vector<Env> assignments = unknownAssignments(ctx, p);
  bool allWarp = true, allBlock = true;
  for (size_t s = 0; s < shapes.size(); ++s)
    for (size_t a = 0; a < assignments.size(); ++a) {
      bool anyWarp = false, anyBlock = false;
      for (const Env &env : enumeratedEnvs(ctx, p, assignments[a])) {
        bool someIn = false, someOut = false;
        for (int w = 0; w < shapes[s].warps(); ++w) {
          WarpEval ev(pm.ctx, shapes[s], env, w);
          LaneMask present = ev.present(), in = ev.mask(pm.mask) & present;
          someIn |= in != 0;
          someOut |= in != present;
          if (in != 0 && in != present) {
            anyWarp = true;
            if (r.warp < 0) {
              r.warp = w;
              r.active = in;
              r.present = present;
            }
          }
        }
        anyBlock |= someIn && someOut;
      }
      allWarp &= anyWarp;
      allBlock &= anyBlock;
    }
  r.partialWarp = allWarp;
  r.partialBlock = allBlock;
  return r;
}

HazardResult analyzeHazard(const LaneExpr &storeOffset,
                           const LaneExpr &storeMask, int storeBytes,
                           const LaneExpr &loadOffset, const LaneExpr &loadMask,
                           int loadBytes, const Context &ctx,
                           const std::vector<Shape> &shapes) {
  HazardResult r;
  Props p = unionProps(ctx, {storeOffset, storeMask, loadOffset, loadMask});
  if (p.hasData)
    return r;
  PreparedConditions ps = prepareConditions(ctx, storeMask);
  PreparedConditions pl = prepareConditions(ps.ctx, loadMask);
  // The representative assignment only: a hazard claim must not rest on a
  // sampled value of an unknown.
  Env env0 = representativeEnv(ctx);
  for (const Env &env : enumeratedEnvs(ctx, p, env0)) {
    for (int w = 0; w < shapes[0].warps(); ++w) {
      WarpEval ev(pl.ctx, shapes[0], env, w);
      LaneMask sm = ev.mask(ps.mask), lm = ev.mask(pl.mask);
      if (!sm || !lm)
        continue;
      Lanes sa = ev.value(storeOffset), la = ev.value(loadOffset);
      for (int a = 0; a < WarpSize; ++a) {
        if (!((lm >> a) & 1))
          continue;
        for (int b = 0; b < WarpSize; ++b) {
          if (b == a || !((sm >> b) & 1))
            continue;
          // The load's first byte within (-loadBytes, storeBytes) of the
          // store's, on addresses that wrap as the evaluator's do.
          int64_t d = wrapSub(la[a], sa[b]);
          if (d < storeBytes && d > -int64_t(loadBytes)) {
            r.intraWarp = true;
            r.warp = w;
            r.reader = a;
            r.writer = b;
            return r;
          }
        }
      }
    }
  }
  return r;
}

} // namespace warplint
