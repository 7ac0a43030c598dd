//===- Sampling.h - the environments the model evaluates --------*- C++ -*-===//
//
// Blocks and loop iterations are averaged over, as the hardware does; uniform
// unknowns (kernel parameters, gridDim) are sampled to find out whether a
// result depends on them. Shared by the memory and branch models.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_SAMPLING_H
#define WARPLINT_MODEL_SAMPLING_H

#include "model/Eval.h"

#include <vector>

namespace warplint {

/// Block 0, first iteration, each unknown at its representative value: the
/// first value the project shows for it, else 1024 for a size, 1025 for an
/// offset (unknown alignment) and 10 for a shift amount.
Env representativeEnv(const Context &ctx);
int64_t representativeValue(const Atom &a);
/// Is `v` within the realistic range of `a` (AtomRole)?
bool isRealistic(const Atom &a, int64_t v);

/// The representative assignment, then (if `p` depends on any uniform
/// unknown or gridDim) one assignment per sample over each unknown's whole
/// range (sizes 1..1024, shifts 0..31), then one per sample of its realistic
/// range alone (sizes 32..4096, shifts 0..31, log2 sizes 5..20). Unknowns
/// with values the project shows take only those. Env::realistic marks the
/// assignments whose every value is realistic.
std::vector<Env> unknownAssignments(const Context &ctx, const Props &p);

/// Data that lanes load where, under `shapes`, every lane of each warp reads
/// one address (`buf[threadIdx.y]` in blocks 32 wide, `tab[threadIdx.x /
/// 32]`): within a warp it is one value, a uniform unknown like a parameter
/// (an offset when an address adds it unscaled, else a size). Looks at the
/// Data atoms `exprs` use that have a load address, checks the address in
/// every warp of every shape over the sampled blocks, loop iterations and
/// values of the unknowns, and turns those atoms into Uniform ones. Returns
/// what to pass to restoreData() to undo it. A bool (dataBits 1) stays
/// data: a flag is no size, and neither of its values is representative.
struct DataMarks {
  std::vector<int> atoms;
  std::vector<AtomRole> roles; // their roles before, in the same order
};
DataMarks markWarpUniformData(Context &ctx, const std::vector<LaneExpr> &exprs,
                              const std::vector<Shape> &shapes);
void restoreData(Context &ctx, const DataMarks &marks);

/// 32 environments over blockIdx and the iterations of the loops `p` uses
/// (each loop alone sees iterations 0..31), or just `base` if it uses neither.
std::vector<Env> enumeratedEnvs(const Context &ctx, const Props &p,
                                const Env &base);

/// The same enumeration applied in place to one Env (no copies of the
/// unknowns' values, which kernels with hundreds of atoms make costly).
/// apply() sets exactly the fields that differ between environments.
class EnvEnumeration {
public:
  EnvEnumeration(const Context &ctx, const Props &p);
  int size() const;
  void apply(Env &env, int e) const;
  /// The loops enumerated (primary loops, in order).
  const std::vector<int> &loops() const { return primaries; }
  /// The tuples of iterations the loops() actually run, each in the order
  /// of loops() (an inner loop's trip count may depend on the outer one's
  /// iteration: a bitonic network's `for (j = k; j > 0; j >>= 1)`): up to
  /// 32 of them are enumerated equally often; up to MaxTuples, 32 spread
  /// evenly over them. More, or none, leave the enumeration as it was.
  static constexpr size_t MaxTuples = 256;
  void useTuples(std::vector<std::vector<int>> tuples);
  /// The blocks counted from the end of the grid instead of its start
  /// (gridDim - 1, - 2, ...): a boundary condition on the last block
  /// (`if (i == N - 1)`) that no block near the start takes.
  void fromTheEnd() {
    mirrored = true;
    fitted.clear();
  }
  /// Per sample, the iteration of each of loops() (in their order) to take
  /// instead of the sample's own: for loops whose trip count depends on the
  /// block (a causal mask's `for (col = lane; col <= row; col += 32)` with
  /// `row` from blockIdx), an iteration the sample's block runs. Empty: as
  /// enumerated. Cleared by fromTheEnd() (other blocks).
  void fitIterations(std::vector<std::vector<int>> perSample) {
    if (!tupled() && int(perSample.size()) == size())
      fitted = std::move(perSample);
  }
  /// The loops run the tuples of useTuples() (which fitIterations() leaves).
  bool tupled() const { return !tuples.empty(); }

private:
  bool mirrored = false;
  std::vector<std::vector<int>> fitted;
  bool active = false;
  int64_t grid[3] = {0, 0, 0}; // Context::grid: the extents the launch gives
  std::vector<int> primaries;
  std::vector<std::vector<int>> tuples; // when useTuples applied
  int count = 0;
};

/// For an enumeration whose loops' trip counts depend on the block (a
/// causal mask), per sample an iteration of each loop that the sample's
/// block runs, for EnvEnumeration::fitIterations(); empty where no loop's
/// activity reads the block.
std::vector<std::vector<int>> fittedIterations(const Context &ctx,
                                               const Shape &shape,
                                               const Env &base,
                                               const EnvEnumeration &en);

/// Props of several expressions together.
Props unionProps(const Context &ctx, const std::vector<LaneExpr> &exprs);

} // namespace warplint

#endif
