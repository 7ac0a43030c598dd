//===- Issue.h - warp instructions a kernel issues, estimated ----*- C++ -*-===//
//
// What a block of the kernel costs in issue slots: each piece of straight-line
// work (a weight in warp instructions, under a condition) counts once for every warp
// and loop iteration in which the warp issues it, whatever number of its
// lanes are active. A warp issues a branched body only when one of its lanes
// takes it, a predicated body whenever it reaches the branch, and a loop's
// body for the iterations of its longest lane. The same per-warp evaluation
// as the branch figures; the trip counts come from the loops' own
// recurrences, evaluated per warp.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_ISSUE_H
#define WARPLINT_MODEL_ISSUE_H

#include "model/Eval.h"

#include <utility>
#include <vector>

namespace warplint {

/// A piece of straight-line work: `weight` instructions that the lanes of
/// `lanes` run, issued by a warp whenever a lane of `issue` is active (the
/// same condition for a branched body; the branch's reach for a predicated
/// one).
struct IssueWork {
  IssueWork() = default;
  IssueWork(LaneExpr issue, LaneExpr lanes, double weight,
            LaneExpr contended = nullptr, double perRound = 0)
      : issue(std::move(issue)), lanes(std::move(lanes)), weight(weight),
        contended(std::move(contended)), perRound(perRound) {}
  LaneExpr issue, lanes;
  double weight = 0;
  /// An atomic nvcc makes a compare-and-swap loop of (a shared-memory
  /// atomicAdd on float, double or a 64-bit integer): the lanes at one
  /// address succeed one per round, so the warp runs the loop's
  /// `perRound` instructions once per lane of its most contended address
  /// (bench-kernels/atomic-costs). Null: no such loop.
  LaneExpr contended;
  double perRound = 0;
};

struct IssueEstimate {
  /// Warp instructions issued per block, summed over its warps (each counts
  /// once, however many lanes run it).
  double perBlock = 0;
  /// Mean lanes that run each issued instruction.
  double activeLanes = 0;
  /// Per piece of work (in the order given): the warp instructions it
  /// issues per block, and the lane instructions run in them (their
  /// difference over 32 is the issue slots its idle lanes waste).
  std::vector<double> issued, laneInstructions;
  /// Per piece of work: `issued` with the loops nvcc unrolls fully counted
  /// once (each iteration is an instruction of its own): how often each of
  /// its instructions runs, times its weight.
  std::vector<double> perInstruction;
  /// Uniform unknowns the figure takes at their representative value, and
  /// whether it uses gridDim (sorted atom ids).
  std::vector<int> unknowns;
  bool usesGridDim = false;
  /// Conditions on data loaded per lane, taken as true for every lane.
  bool dataConditions = false;
  /// Tests that hold once per grid (oncePerGrid()) under which work was
  /// counted in one block of the launch, not in each; and per piece of
  /// work, the index of its test there (-1: none).
  std::vector<LaneExpr> oncePerGrid;
  std::vector<int> onceOf;
  /// Loops counted at MaxTrip iterations: they ran that far without ending
  /// (a condition on data taken as true, or a count past the cap).
  std::vector<int> loopsAtCap;
};

/// Iterations a loop is followed for per warp.
constexpr int MaxTrip = 4096;

/// The work of one block of `shape`, in environment `base` (block 0's
/// values, the unknowns' representative values, and gridDim as launched
/// when the launch shows it). Blocks whose work depends on blockIdx are
/// averaged over the 32 sampled blocks.
IssueEstimate estimateIssue(const std::vector<IssueWork> &work,
                            const Context &ctx, const Shape &shape,
                            const Env &base);

} // namespace warplint

#endif
