//===- Divergence.h - which lanes take a branch, reach a barrier -*- C++ -*-===//
//
// The same per-warp evaluation as the memory model, asked other questions:
// does a branch condition split the active lanes of a warp; does every thread
// of a block reach a barrier, or only some; does one lane read shared memory
// that another lane of its warp wrote, with nothing in between to order them.
// An answer that depends on an unknown value is reported as such: `certain`
// is true only when every sampled value of the unknowns gives it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_DIVERGENCE_H
#define WARPLINT_MODEL_DIVERGENCE_H

#include "model/Eval.h"

#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// Statements a divergent body needs before nvcc branches around it: a
/// smaller one is predicated (every warp that reaches it issues it, and no
/// branch splits the warp), so the rules leave it alone and the work
/// estimate counts it for every warp that reaches it.
inline constexpr int MinBranchWeight = 4;

struct BranchResult {
  bool evaluated = false; // false: the condition depends on data
  bool divergent = false; // some warp splits, for every sampled unknown value
  bool maybe = false;     // some warp splits for some sampled value
  bool guardAssumed = false;
  // The split a message shows: a warp of the representative environment's
  // block whose work is the median of its blocks' (the first split where
  // blocks are alike), else the first found under another assumption.
  int warp = -1;
  int64_t block[3] = {0, 0, 0}; // its blockIdx
  int iteration = -1; // loops: the iteration at which lanes leave early
  LaneMask active = 0, taken = 0;
  // Share of warp executions of the branch that split (representative).
  double divergentShare = 0;
  /// How full the warps are that run a body (representative environment,
  /// over its blocks and iterations): `taken`, the then-branch or a loop's
  /// body; `rest`, the else-branch or what follows an early exit.
  struct Fill {
    /// Mean lanes per warp instruction of the body (Nsight Compute's
    /// predicated-on threads per instruction executed), when a warp that
    /// none of whose lanes takes the path skips it (a real branch, a loop),
    /// and when every warp that reaches the branch issues it (a body nvcc
    /// predicates); 0 when no warp runs it.
    double lanesBranched = 0, lanesPredicated = 0;
    /// Warps that run the body over the fewest its lanes would fill, packed
    /// into full warps of the same block: `spread` when warps with no lane
    /// on the path skip it (how scattered the lanes are), `issuePredicated`
    /// when every warp that reaches it issues it.
    double spread = 0, issuePredicated = 0;
  } takenFill, restFill;
};

/// An if/switch/ternary: `cond` evaluated for the lanes that reach it.
BranchResult analyzeBranch(const LaneExpr &cond, const LaneExpr &mask,
                           const Context &ctx, const std::vector<Shape> &shapes);

/// A loop's own condition: lanes leaving the loop while others stay.
BranchResult analyzeLoopExit(int loop, const LaneExpr &mask,
                             const Context &ctx,
                             const std::vector<Shape> &shapes);

/// One warp's view of a branch or loop over the iterations of the loop
/// around it (--explain): per row, the loop variable's value, the lanes
/// that reach it and those that take it (a loop's own rows: the lanes
/// still inside at each of its iterations).
struct BranchPicture {
  int warp = -1;
  int64_t block[3] = {0, 0, 0};
  std::string loopName; // empty: no loop around it
  /// Set where drawn at the warp where the index crosses a bounds guard's
  /// bound, the conditions as written (crossingWarp()): the values they
  /// were evaluated at (Crossing::values), and whether an unknown was set
  /// for it. Unset: drawn as the figures are.
  std::optional<std::string> crossing;
  bool crossingMoved = false;
  struct Row {
    int64_t value = 0;
    LaneMask active = 0, taken = 0;
  };
  std::vector<Row> rows;
};
/// A blockIdx as messages write it: `136`, `(3, 5)`, `(3, 5, 1)`.
std::string blockText(const int64_t block[3]);

/// Drawn for `warp` of block `block` (the example of BranchResult), or for
/// the first warp of block 0 that reaches it when `warp` is -1.
struct PictureAt {
  int warp = -1;
  int iteration = -1; // a loop's split: its rows end a little past it
  int64_t block[3] = {0, 0, 0};
};
BranchPicture pictureBranch(const LaneExpr &cond, const LaneExpr &mask,
                            const Context &ctx, const Shape &shape,
                            int maxRows, const PictureAt &at = {});
BranchPicture pictureLoop(int loop, const LaneExpr &mask, const Context &ctx,
                          const Shape &shape, int maxRows,
                          const PictureAt &at = {});

struct ReachResult {
  bool evaluated = false;  // false: depends on data
  bool partialWarp = false; // some warp has lanes that reach and lanes that don't
  bool partialBlock = false; // some threads of a block reach it, others don't
  int warp = -1;
  LaneMask active = 0, present = 0;
};

/// Who reaches a point guarded by `mask` (certain over sampled unknowns).
ReachResult analyzeReach(const LaneExpr &mask, const Context &ctx,
                         const std::vector<Shape> &shapes);

struct HazardResult {
  bool intraWarp = false; // a lane reads what another lane of its warp wrote
  int warp = -1, reader = -1, writer = -1;
};

/// Does the load read bytes that another lane of the same warp stored?
HazardResult analyzeHazard(const LaneExpr &storeOffset,
                           const LaneExpr &storeMask, int storeBytes,
                           const LaneExpr &loadOffset, const LaneExpr &loadMask,
                           int loadBytes, const Context &ctx,
                           const std::vector<Shape> &shapes);

} // namespace warplint

#endif
