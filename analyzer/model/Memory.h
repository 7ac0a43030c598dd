//===- Memory.h - per-warp memory cost of one access ------------*- C++ -*-===//
//
// An Access is one load or store instruction as the model sees it: the byte
// offset each lane touches (relative to an allocation base assumed 256-byte
// aligned, as cudaMalloc returns), the condition under which a lane executes
// it, and the bytes each lane moves. analyzeAccess() evaluates it for every
// warp of a block over sampled environments and averages the way Nsight
// Compute does: total cost / total requests (a warp with no active lane issues
// no request).
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_MEMORY_H
#define WARPLINT_MODEL_MEMORY_H

#include "model/Eval.h"

#include <functional>
#include <optional>
#include <utility>

namespace warplint {

struct Access {
  LaneExpr offset;     // bytes from the allocation base
  LaneExpr mask;       // null: every lane of the block executes it
  int elementBytes = 4;
  /// The most bytes the space holds for one block (shared memory: the
  /// GPU's limit), 0 for none: a sample of unknown sizes under which the
  /// access reaches past it is a size the kernel cannot run with, outside
  /// the realistic range warnings rest on.
  int64_t capacityBytes = 0;
};
/// Shared memory one block may use on sm_90 (H100, H200): 227 KB.
constexpr int64_t SharedCapacityBytes = 227 * 1024;

/// Distinct 32-byte sectors the active lanes touch (an element that straddles
/// a sector boundary touches both).
int sectorsForRequest(const Lanes &addr, LaneMask active, int bytes);
/// ceil(active lanes * bytes / 32).
int idealSectors(int activeLanes, int bytes);

/// Cost of one request: what the hardware spends and the least it could.
struct Cost {
  double actual = 0, ideal = 0;
};
/// Lanes of a warp a condition on data is taken by in the sparse figure
/// (AccessResult::minSparseVerdict), and how many such draws per warp.
constexpr int SparseMaskLanes = 4, SparseMaskDraws = 8;
using CostModel =
    std::function<Cost(const Lanes &addr, LaneMask active, int bytes)>;
Cost globalSectors(const Lanes &addr, LaneMask active, int bytes);

/// Shared memory, sm_70 and newer: 32 banks of 4 bytes, bank = (addr/4) % 32.
/// Lanes reading one 4-byte word are served together (broadcast); distinct
/// words in one bank serialize. 8-byte accesses go in 2 phases of 16 lanes and
/// 16-byte accesses in 4 phases of 8 lanes, conflicts counted per phase.
/// Wavefronts = sum over phases with an active lane of the most distinct words
/// in any one bank; ideal = the number of such phases.
///   float  buf[t * s]: gcd(s, 32) wavefronts (s = 2 -> 2, 32 -> 32, 33 -> 1)
///   double buf[t]: 2 (ideal 2); double buf[2 t]: 4
Cost sharedWavefronts(const Lanes &addr, LaneMask active, int bytes);

/// The most distinct words in one bank, for one phase of lanes.
struct BankConflict {
  int degree = 0;     // distinct words in the worst bank
  int bank = -1;      // the worst bank (lowest numbered among equals)
  LaneMask lanes = 0; // the active lanes that touch it
};
BankConflict worstBank(const Lanes &addr, LaneMask active, int bytes);

/// The most active lanes on one address (atomics serialize on it).
int sameAddressLanes(const Lanes &addr, LaneMask active);

/// Constant memory: the constant cache serves one address per pass, so a
/// request costs as many passes as distinct addresses among its active lanes.
/// Ideal: 1.
Cost constantAddresses(const Lanes &addr, LaneMask active, int bytes);

struct AccessResult {
  bool evaluated = false;
  std::string unknownReason; // why not evaluated

  // Per-request averages for the first shape with unknowns at their
  // representative value (1024).
  double actual = 0, ideal = 0, activeLanes = 0;
  /// The shape (an index into the candidates) the figures are for: the
  /// first, or, where no lane runs the access under it, the first candidate
  /// under which one does.
  size_t shape = 0;
  /// Where no lane runs the access at the unknowns' representative values
  /// (an offset that puts every lane past a bound): the values of dependsOn
  /// the figures are for instead, the first sample under which a lane does.
  std::vector<int64_t> figureValues;
  /// Where the representative values left lanes idle under a guard on
  /// unknown sizes (`i < n / 128` at n = 1024): the sizes the figures are
  /// for instead, the least that keep the guard's lanes active (atom,
  /// value).
  std::vector<std::pair<int, int64_t>> openGuardValues;
  /// Every unknown the access depends on takes only values the project
  /// shows (its launch sites, a host loop over sizes): each is a
  /// configuration of its own, like a template argument, and
  /// worstKnownVerdict, the worst of their verdicts, is what a warning
  /// rests on (the samples say which values reach it).
  bool valuesKnown = false;
  double worstKnownVerdict = 0;
  /// The atom whose value each Sample records: the first `dependsOn` one,
  /// else the one unknown of the mask when the address has none (a
  /// bitonic step's `if (ixj > i)` idles lanes by `j`); -1: none.
  int sampleAtom = -1;
  // Extremes of actual and actual/ideal over every sampled unknown value and
  // every candidate shape. exact: they agree with the representative value.
  double minActual = 0, maxActual = 0, minRatio = 0, maxRatio = 0;
  /// The worst actual/ideal of one block and loop iteration (representative
  /// values): an unrolled loop's worst iteration, next to the mean above.
  double worstRatio = 0;
  /// An access in loops nvcc unrolls fully (Loop::unrolled) is one
  /// instruction per iteration, each with figures of its own, which the
  /// profiler shows apart: per iteration of those loops, in the order they
  /// run, the innermost loop's variable's value and the per-request
  /// figures over the sampled blocks (representative values). Empty for an
  /// access in no such loop.
  struct Iteration {
    int64_t value = 0;
    double actual = 0, ideal = 0;
    /// Where it is: each loop kept apart (loop id) and its iteration there,
    /// for drawing that iteration (firstRequest).
    std::vector<std::pair<int, int>> at;
    double ratio() const { return ideal > 0 ? actual / ideal : 1; }
  };
  /// The first of `its` with the highest ratio(); null where empty.
  static const Iteration *worstIteration(const std::vector<Iteration> &its);
  std::vector<Iteration> iterations;
  /// The variable of the innermost unrolled loop (its source name).
  std::string unrolledVar;
  /// The same for an access in loops nvcc does not unroll (their trip
  /// counts depend on values the kernel is passed): per iteration of those
  /// loops in the representative run. The GPU shows one instruction, the
  /// mean over them; iterations that reach a threshold under every value
  /// are a finding of their own (a butterfly's last, small strides). Empty
  /// where `iterations` is not, or the access is in no loop.
  std::vector<Iteration> loopIterations;
  std::string loopVar;
  /// The worst iteration's actual/ideal, the least of it over the samples
  /// of the unknowns within their realistic range: what a warning about an
  /// unrolled access's worst iteration rests on, or a looped one's
  /// (loopIterations; 0: in no loop).
  double minWorstIterationRealistic = 0;
  /// The same over the assignments whose unknowns are all within their
  /// realistic range (Env::realistic), the range warnings rest on.
  double minActualRealistic = 0, maxActualRealistic = 0,
         minRatioRealistic = 0, maxRatioRealistic = 0;
  /// What warnings are decided on: minRatioRealistic, but each sample's
  /// ratio taken over its whole-warp requests where those are at least half
  /// of them and their ratio is higher (a few boundary warps with idle
  /// lanes do not hide the conflict every whole warp has).
  double minVerdictRealistic = 0;
  /// For an access under a condition on data (maskDataDependent): its
  /// actual/ideal when only SparseMaskLanes of each warp's lanes, drawn at
  /// random, take it, the least of it over the representative run and the
  /// realistic samples. A figure that stays over the threshold then holds
  /// whichever lanes the data picks (each lane its own sector); one that
  /// falls under it rests on most lanes taking the branch. `sparseActual`
  /// and `sparseIdeal`: the representative run's per-request figures.
  double minSparseVerdict = 0, sparseActual = 0, sparseIdeal = 0;
  bool exact = true;
  /// One entry per sampled assignment of the unknowns (when not exact): the
  /// value of `sampleAtom`, the figures, and the lane stride
  /// when constant. Rules phrase "for cols >= 8" and "4*cols bytes" from
  /// these, for a figure that depends on one unknown. (No vector per
  /// sample: a result is copied out of analyzeAccess's table for every
  /// access that asks its question again.)
  struct Sample {
    int64_t value = 0;
    double actual = 0, ratio = 0;
    double verdict = 0; // see minVerdictRealistic
    double worstIteration = 0; // see minWorstIterationRealistic
    double sparse = 0;         // see minSparseVerdict
    double lanes = 0;          // active lanes per request
    bool realistic = true;
    std::optional<int64_t> stride;
    int shape = 0; // index into the shapes analyzed
  };
  std::vector<Sample> samples;
  // Bytes between adjacent active lanes, when that is one constant everywhere.
  // (Per lane index: with every other lane active, the active lanes are
  // twice that apart.)
  std::optional<int64_t> laneStride;
  /// The lane-index gap between consecutive active lanes where every request
  /// of the representative run has the same one (1: contiguous; 2: every
  /// other lane, as `if (i & 1)` leaves), else 0.
  int activeSpacing = 0;
  // The most common distance between adjacent active lanes of the first warp
  // that issues a request (representative environment).
  int64_t commonStride = 0;
  bool maskDataDependent = false;
  /// A data estimate whose active lanes were drawn with the data: the
  /// conditions on data read only its low bits (`(len & 15) == 3`), each
  /// value of them taken as equally likely (prepareConditions()).
  bool maskDrawnFromBits = false;
  bool guardAssumed = false;
  /// Its lanes are those past a bounds guard's bound (`if (i >= n)`, the
  /// else of `if (i < n)`): the model assumed whole warps, but only the
  /// warps where the index crosses the bound run it, with their lanes past
  /// it. The figure is an upper bound.
  bool tailGuard = false;
  std::vector<int> dependsOn; // uniform unknown atoms it depends on
  /// Set by analyzeWithinTable: the address depends on data, but stays in
  /// an object of this many bytes, small enough that the figure is known
  /// whatever the data (`actual` is then an upper bound on the sectors,
  /// and the ideal is as many).
  int64_t tableBytes = 0;
  /// Set by analyzeDataRows: the address depends on data only through
  /// terms that are whole multiples of this many bytes (a bank row), so
  /// every lane keeps the bank the rest of the address gives it.
  int64_t dataRowBytes = 0;
  /// Set by analyzeDataAddress, for an address that depends on data (not
  /// evaluated): per-request averages with each lane's data drawn at random
  /// (`random*`: distinct elements hold unrelated values, as keys, labels
  /// and column indices do) and with the lanes of a warp agreeing on it
  /// (`agree*`), and the data the address depends on.
  bool dataEstimated = false;
  double randomActual = 0, randomIdeal = 0, agreeActual = 0, agreeIdeal = 0;
  std::vector<int> dataAtoms;
  /// With dataEstimated: the lanes' addresses vary when they agree on the
  /// data, and each unit of each datum moves them by less than a sector
  /// (`out[offset[bucket] + lane]`): data that shifts runs of lanes, as a
  /// partitioned scatter does, where lanes of one run usually share it.
  bool dataElementOffset = false;
  /// With dataEstimated: the address takes a bit field of data read from
  /// memory (`table[word & 0xff]`, `bins[(key >> 8) % 16]`): a digest of
  /// the data's bits, which lanes holding different data spread over the
  /// field's range as random values do.
  bool dataDigest = false;
  /// With dataEstimated: every datum the address depends on was computed
  /// in floating point (`field[(int)(x / dx)]`, a particle's cell), which
  /// neighbouring lanes share more often than not.
  bool dataFromFloat = false;
  /// With dataEstimated: the address starts from a per-lane offset that
  /// lane i reads at element i of an array whose element i + 1 the kernel
  /// also reads (`p + start[i]` with `start[i + 1]` its end, a CSR row or
  /// a record per thread): each lane walks a segment of its own.
  bool dataSegment = false;
  /// With dataEstimated: data read from memory scaled by a size the model
  /// cannot see (`table[key * width + j]`), and lanes that agree on it read
  /// one address: a record picked per lane.
  bool dataRecord = false;
  /// With dataEstimated: the only data is how many times each lane ran a
  /// loop it leaves at an iteration of its own (Atom::tripCount): where the
  /// lanes ran it equally often, the address keeps its lanes' pattern, so
  /// the figure with the lanes agreeing is the one to take, and a figure
  /// bad both ways is bad whatever the counts.
  bool dataTrips = false;
  /// Of those, every count is of a counter's steps (Atom::stepCount).
  bool dataSteps = false;
};

/// An access whose address depends on data, into an object of `extent`
/// bytes (a fixed-size table, `__shared__ float bins[16]`): whatever lanes
/// pick, a shared table of at most 32 banks' words has no bank holding two
/// of them (no conflict), and a global table spanning no more sectors than
/// the active lanes' bytes fill is read at its ideal. The figure then holds
/// for any data; nullopt when it does not (a larger table, lanes that
/// depend on data, an atomic's serialization, which is not modelled here).
std::optional<AccessResult> analyzeWithinTable(const Access &access,
                                               const Context &ctx,
                                               const Shape &shape, bool shared,
                                               int64_t extent);

/// A shared access whose address is `rest + data terms`, each data term a
/// known multiple of 128 bytes (`deq[(w >> 6) & 63][lane]` over 32-word
/// rows): the data moves a lane by whole bank rows, so the bank each lane
/// touches is the one `rest` gives it. When `rest` puts the active lanes of
/// every phase in distinct banks, no data can make two of them conflict and
/// the figure (one wavefront per phase) is exact; nullopt otherwise (a data
/// term of unknown alignment, or lanes that could meet in a bank).
std::optional<AccessResult> analyzeDataRows(const Access &access,
                                            const Context &ctx,
                                            const std::vector<Shape> &shapes);

/// Warps (of every warp and environment) each of analyzeDataAddress()'s
/// draws evaluates in `ctx`'s kernel: 64, fewer in a kernel with more than
/// DataPairLoads loads addressed by data (generated chains of thousands of
/// them), so that its estimates together cost what DataPairLoads loads'
/// would; at least MinDataPairs.
int dataEstimateWarps(const Context &ctx);
constexpr int MaxDataPairs = 64, MinDataPairs = 8, DataPairLoads = 64;

/// An address that depends on data loaded per lane (`x[col[n]]`,
/// `hist[key & 255]`, a binary search's probe): its figure depends on
/// values the model cannot know. Estimates it twice on shapes[0], with
/// the unknowns at their representative values: with each lane's data
/// drawn at random within its type's range (an element loaded by several
/// lanes gives them one value), averaged over a few draws, and with every
/// lane of a warp agreeing on it. nullopt when some data cannot be drawn
/// (a pointer loaded per lane, an expression past the depth limit) or no
/// lane runs the access.
/// `whyNot`, where given, gets the reason when no figure comes out because
/// the address depends on itself (EvalStop: a pointer chased through the
/// data it loads) or is too deep to evaluate.
std::optional<AccessResult> analyzeDataAddress(const Access &access,
                                               const Context &ctx,
                                               const Shape &shape,
                                               const CostModel &cost,
                                               std::string *whyNot = nullptr);

/// Largest power of two every value of `e` is known to be a multiple of
/// (capped at 2^32; 1 when nothing is known).
int64_t knownMultiple(const LaneExpr &e);

/// shapes[0] is the block shape in use; the others are alternatives that the
/// result must hold for too (an assumed block shape).
AccessResult analyzeAccess(const Access &access, const Context &ctx,
                           const std::vector<Shape> &shapes,
                           const CostModel &cost);

/// Accesses this thread has evaluated (not answered from the table of
/// finished results that analyzeAccess keeps): for tests.
size_t accessesEvaluated();
/// Warp evaluations this thread has answered from another access of the
/// same class (an address a uniform amount away, the same mask): for tests.
size_t laneEvaluationsShared();
/// Forgets this thread's finished results and shared evaluations, as a new
/// thread starts: for tests that compare an access analyzed alone with the
/// same access analyzed after others.
void clearAccessCaches();

} // namespace warplint

#endif
