//===- Eval.h - evaluate lane expressions for one warp ----------*- C++ -*-===//
//
// The model's view of a kernel: the atoms (unknown values) and loops that lane
// expressions refer to, a block shape, and an environment that fixes every
// warp-uniform value. WarpEval computes an expression for the 32 lanes of one
// warp at once.
//
// Conditions are evaluated with two conservative rules (see docs/model.md):
//  - a bounds guard, a comparison between a lane-varying value and a uniform
//    value the model cannot know (`i < n`), or any lane-uniform condition on
//    unknowns, is assumed to hold for whole warps: it only trims the tail;
//  - a condition on data loaded per lane is assumed true, and flagged.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_EVAL_H
#define WARPLINT_MODEL_EVAL_H

#include "model/Expr.h"

#include <array>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace warplint {

constexpr int WarpSize = 32;
using Lanes = std::array<int64_t, WarpSize>;
using LaneMask = uint32_t;
constexpr LaneMask AllLanes = 0xffffffffu;

/// Threads per block in x, y, z.
struct Shape {
  int64_t x = 256, y = 1, z = 1;
  int64_t threads() const { return x * y * z; }
  int warps() const { return int((threads() + WarpSize - 1) / WarpSize); }
  bool operator==(const Shape &o) const {
    return x == o.x && y == o.y && z == o.z;
  }
};

enum class AtomKind { Parameter, Uniform, Data };

/// What a uniform unknown is used as, which sets the values it is sampled
/// over and its realistic range (docs/model.md, "Unknown values"):
///  - Size: sizes, strides, leading dimensions: realistic from 32 up;
///  - Shift: a shift amount `x << s`, `x >> s`: realistic 0..31;
///  - Log2Size: a shift amount that builds a size, `1 << s`: realistic 5..20
///    (sizes 32 to 2^20, the Size range expressed as a shift);
///  - Offset: a term a lane-varying address adds (`in[z0 + tid]`) that no
///    expression scales: any value is realistic, and its alignment is
///    unknown (the figures take one that is not a multiple of a sector).
enum class AtomRole { Size, Shift, Log2Size, Offset };
/// Sizes and offsets take the same sample values (offsets differ in their
/// representative and realistic range only).
inline bool sampledAsSize(AtomRole r) {
  return r == AtomRole::Size || r == AtomRole::Offset;
}

struct Atom {
  std::string name;
  AtomKind kind;
  /// For Data atoms: why the value is unknown, as a user reads it.
  std::string why = "the address depends on data loaded at run time";
  AtomRole role = AtomRole::Size;
  /// Values the project shows (every launch site passes a constant): the
  /// unknown takes only these, and `knownFrom` says where they come from.
  std::vector<int64_t> known;
  std::string knownFrom;
  /// Parameters the launches pass as this one plus a constant, as a user
  /// reads them ("'start' = 'first' + 2 (the launch at main.cu:52)").
  std::string related;
  /// Subtracted from another unknown (`last - first + 1`): the start of a
  /// range, whose representative value is 0 so that the range keeps a
  /// size's (two sizes at one value would make it empty).
  bool origin = false;
  /// A value read from memory as it changes (an atomic's old value): an
  /// address may build on it, but a condition on it is a condition on data.
  bool fromData = false;
  /// The old value of an atomic add or subtract of a nonzero constant, an
  /// increment or a decrement of one address the warp shares (a counter):
  /// each value is returned once per launch, so an equality on it holds for
  /// one caller (oncePerGrid()).
  bool counter = false;
  /// A flag the block shares set from such an equality (`amLast = (ticket ==
  /// gridDim.x - 1)`): true in one block of the grid.
  bool lastArrival = false;
  /// For a Data atom a lane loads from memory: the address each lane reads
  /// it from (bytes from its allocation). Where every lane of a warp reads
  /// one address, the warp has one value (markWarpUniformData()).
  LaneExpr loadAddress;
  /// For a Data atom: an opaque id of the allocation `loadAddress` is in
  /// (0: not known), so that two loads of one element draw one value; and
  /// the bits of its integer type (0: wider than 30 bits, or not known),
  /// which bound the values it can take (an `unsigned char` is 0..255).
  uint64_t loadBase = 0;
  int dataBits = 0;
  bool dataSigned = false;
  /// For a Data atom: computed in floating point (a coordinate truncated
  /// to an integer), not read from memory as bits.
  bool fromFloat = false;
  /// For a Data atom an expression shifts right by a constant (`(w >> 8) &
  /// 0xff`, `key >> 20`): its high bits matter, so random draws take its
  /// type's whole range rather than an index's 0..1023.
  bool wholeBits = false;
  /// For a Data atom: how many times a lane ran a loop that each lane
  /// leaves at an iteration of its own (a condition on its data), or
  /// stepped a counter on a condition of its own (stepCount). An
  /// induction variable after such a loop is its start plus its step times
  /// this count, so lanes that ran the loop equally often keep the start's
  /// pattern.
  bool tripCount = false;
  /// For such a count: how many times a lane stepped a counter of the loop
  /// on a condition of its own (`if (near) list[i * max + cnt++] = j;`),
  /// the loop running alike in every lane. Named '<var>-loop steps'.
  bool stepCount = false;
  /// A pointer read per lane, or one the model cannot follow: no value
  /// drawn for it says anything about where it points (Env::dataSeed).
  bool pointer = false;
};


/// A loop induction variable as a recurrence: `init`, then `next` applied once
/// per iteration, while `cond` holds (a null cond: unknown trip count). `next`
/// and `cond` refer to the variable itself through loopVar(id).
struct Loop {
  std::string var;
  LaneExpr init, next, cond;
  /// Another induction variable of the same loop: it takes its iteration
  /// count from loop `iterOf` (-1: its own), and has no condition of its own.
  int iterOf = -1;
  /// do { } while (cond): the body runs once before the condition is tested.
  bool testAfterBody = false;
  /// The body and update are straight-line code (no branch, loop, call or
  /// jump) and the loop is not marked `#pragma unroll 1`: once nvcc unrolls
  /// it, its iterations are one basic block, where nvcc merges the
  /// iterations' adjacent accesses.
  bool straight = false;
  /// nvcc unrolls it fully (constant bounds, not `#pragma unroll 1`): each
  /// access in it is one instruction per iteration, with figures of its
  /// own, which the profiler shows apart (AccessResult::iterations).
  bool unrolled = false;
};

/// A number no other Context of this process has had.
uint64_t newContextSerial();

class Context {
public:
  Context() = default;
  /// A copy is another context: it gets a serial of its own.
  Context(const Context &o)
      : atoms(o.atoms), loops(o.loops), grid(o.grid),
        generation(o.generation), LoopForms(o.LoopForms) {}
  Context &operator=(const Context &o) {
    atoms = o.atoms;
    loops = o.loops;
    grid = o.grid;
    generation = o.generation;
    LoopForms = o.LoopForms;
    serial = newContextSerial();
    RepValues.reset();
    DataLoads.reset();
    ByBase.reset();
    return *this;
  }
  int addAtom(std::string name, AtomKind kind, std::string why = "");
  int addLoop(Loop loop);
  std::vector<Atom> atoms;
  std::vector<Loop> loops;
  /// The grid the kernel is launched with, where the launch shows it (0:
  /// not known): gridDim then reads these values instead of samples.
  std::array<int64_t, 3> grid{0, 0, 0};
  /// Identifies this context among all (caches keyed by a context use it,
  /// not its address, which a later context may reuse), and counts the
  /// changes made to its atoms or grid after they were built: whoever
  /// changes an atom's kind or role, or the grid, bumps it.
  uint64_t serial = newContextSerial();
  uint64_t generation = 0;

  /// What the evaluator found out about a loop's form (loopForm()), by loop
  /// id, filled on first use. Each entry keeps the update and condition it
  /// describes: a prepared copy of the context, which replaces conditions,
  /// finds them changed and looks again.
  struct LoopForm {
    LaneExpr next, cond; // the parts described (held, so never reused)
    /// The update is `v + step` (or `v - step` when `negative`) with a step
    /// that does not depend on the loop: iteration k's value is
    /// init + k * step. Null when the update is anything else.
    LaneExpr step;
    bool negative = false;
    /// The condition is a conjunction of comparisons each of which is
    /// monotone in the loop's variable (`v < n`, `v + k >= m`, ...) and of
    /// conditions that do not depend on the loop: a lane that leaves stays
    /// out, and which lanes are inside at iteration k is the condition at
    /// the first tested iteration and at k. `sides` are the comparisons'
    /// operands that use the variable, each as the operations applied to
    /// it from the variable outwards with their other operand (a constant
    /// for Mul): checked per warp for overflow, which would break the
    /// monotony.
    bool monotone = false;
    struct Step {
      Op op;
      LaneExpr other;
    };
    std::vector<std::vector<Step>> sides;
    /// The update does not read the variable, directly or through another
    /// loop (`row = pos / w` as the second variable of pos's loop): every
    /// iteration after the first has the update's value.
    bool nextFree = false;
    /// The condition does not read the variable (a bounds guard the model
    /// assumes, `y < ny` made Assumed, or a condition on other values): it
    /// has one value at every iteration.
    bool condFree = false;
    /// A LoopFinal of the loop once took a warp's evaluation past
    /// WarpEval::MaxTotalFinalSteps: later evaluations give up on it at
    /// once instead of spending the steps again (a value left by nested
    /// loops costs every warp of every sample as much).
    bool finalOverBudget = false;
  };
  const LoopForm &loopForm(int loop) const;
  /// Records LoopForm::finalOverBudget for `loop`.
  void markFinalOverBudget(int loop) const;

  /// Every atom's representative value (Sampling.h), by atom id: computed
  /// once per state of the atoms (their number and `generation`) and shared
  /// by the environments built from it.
  std::shared_ptr<const std::vector<int64_t>> representativeValues() const;

  /// Loads whose address reads a datum loaded per lane (`a[b[i]]`, each
  /// link of a chain `x = a[x + 1]; x = a[x + 2]; ...`), whether or not a
  /// block shape makes the datum one value per warp: counted once per
  /// state of the atoms (DataAddresses.cpp).
  size_t dataAddressedLoads() const;

  /// The atoms loaded from an allocation (Atom::loadBase, with a load
  /// address), as (base, atom id) sorted by base: listed once per state of
  /// the atoms (DataAddresses.cpp), not once per access that asks.
  const std::vector<std::pair<uint64_t, int>> &atomsByLoadBase() const;

private:
  mutable std::optional<std::vector<std::pair<uint64_t, int>>> ByBase;
  mutable size_t ByBaseAtoms = 0;
  mutable uint64_t ByBaseGeneration = 0;
  mutable std::optional<size_t> DataLoads;
  mutable size_t DataLoadsAtoms = 0;
  mutable uint64_t DataLoadsGeneration = 0;
  mutable std::vector<LoopForm> LoopForms;
  mutable std::shared_ptr<const std::vector<int64_t>> RepValues;
  mutable size_t RepAtoms = 0;
  mutable uint64_t RepGeneration = 0;
};

/// Gives each uniform atom its role from how `exprs` use it: the right
/// operand of a shift is a Shift (Log2Size when the left one is the
/// constant 1); a term of the sum some lane-varying address of `offsets`
/// is, never multiplied (except by a constant), divided, masked or shifted
/// anywhere, is an Offset. Call once after the kernel's expressions are
/// built.
void classifyAtoms(Context &ctx, const std::vector<LaneExpr> &exprs,
                   const std::vector<LaneExpr> &offsets = {});

/// Static facts about an expression, used to pick environments and guards.
struct Props {
  bool laneVarying = false; // may differ between lanes of one warp
  bool hasUnknown = false;  // depends on a uniform unknown or gridDim
  bool hasData = false;     // depends on data loaded per lane
  bool usesBlockIdx = false;
  bool usesGridDim = false;
  std::vector<int> unknowns; // uniform atoms, sorted
  std::vector<int> loops;    // loops whose variable it uses, sorted
};
Props props(const LaneExpr &e, const Context &ctx);

/// visitNodes() that also walks, once each, the init, update and condition
/// of every loop whose variable or activity `root` mentions (and of the loops
/// those mention): what a value depends on, however loops refer to each other.
void visitWithLoops(const LaneExpr &root, const Context &ctx,
                    const std::function<bool(const Node &)> &fn);

/// The values of the uniform unknowns, by atom id (missing ones read as
/// 1024): a table of every atom's value shared by all copies (the
/// representative values, Context::representativeValues()) and the few
/// values set over it. Copying one costs the values set, not the atoms: a
/// kernel of thousands of statements has thousands of atoms, and every
/// access copies its environments many times.
class UnknownValues {
public:
  UnknownValues() = default;
  UnknownValues(std::initializer_list<int64_t> all)
      : Base(std::make_shared<const std::vector<int64_t>>(all)) {}
  explicit UnknownValues(std::shared_ptr<const std::vector<int64_t>> base)
      : Base(std::move(base)) {}
  int64_t operator[](size_t atom) const {
    for (const auto &[a, v] : Set)
      if (a == atom)
        return v;
    return Base && atom < Base->size() ? (*Base)[atom] : 1024;
  }
  void set(size_t atom, int64_t v) {
    for (auto &[a, w] : Set)
      if (a == atom) {
        w = v;
        return;
      }
    Set.emplace_back(atom, v);
  }
private:
  std::shared_ptr<const std::vector<int64_t>> Base;
  std::vector<std::pair<size_t, int64_t>> Set;
};

/// The bits of an index drawn from data (Env::dataSeed): 0..1023, as many
/// values as the representative size of an unknown.
constexpr int DataIndexBits = 10;

/// Values of everything that is uniform across a block's warps.
struct Env {
  int64_t blockIdx[3] = {0, 0, 0};
  int64_t gridDim[3] = {1024, 1024, 1024};
  UnknownValues unknowns;    // by atom id
  std::vector<int> loopIter; // by loop id; missing ones read as 0
  /// Every unknown within its realistic range (Atom, AtomRole): results
  /// under this assignment decide warnings; the others only widen ranges.
  bool realistic = true;
  /// Sampled for the realistic range alone (after the whole-range samples).
  bool realisticPass = false;
  /// 0: a Data atom reads as one value for the warp, as a uniform unknown
  /// does (every lane agrees). Otherwise each lane's value is drawn at
  /// random with this seed, one value per element it loads from (lanes that
  /// load one element agree), within the range of its type
  /// (analyzeDataAddress()).
  uint64_t dataSeed = 0;
  /// With dataSeed: every lane of a warp takes the value its first lane
  /// draws (the lanes agree on the data).
  bool dataAgree = false;
};

/// Replaces each condition the model assumes (bounds guards, conditions on
/// data) by an Assumed node, in `cond` and in every loop condition of the
/// returned context, so that evaluating them per warp needs no analysis.
struct PreparedConditions {
  /// The context with its loop conditions prepared: the caller's own when
  /// none needed it (no copy), else a prepared copy shared by the calls on
  /// the same context (a copy per access made the cost quadratic in a
  /// kernel's atoms). `ctx` stays valid while the caller's context and this
  /// object live.
  std::shared_ptr<const Context> prepared;
  const Context &ctx;
  LaneExpr mask;
  bool guard = false, data = false;
  /// With drawLowBits: the mask keeps conditions on data's low bits, to be
  /// evaluated with the data drawn (Env::dataSeed), not assumed.
  bool drawn = false;
};
/// `drawLowBits`: keep the conditions that read data only through its low
/// bits (`(len & 15) == 3`) as written, for evaluations that draw the data.
PreparedConditions prepareConditions(const Context &ctx, const LaneExpr &mask,
                                     bool drawLowBits = false);
/// Does `e` read data: a value loaded per lane, or one read from memory as
/// it changes (Atom::fromData)? A condition on it is taken as true.
bool readsData(const LaneExpr &e, const Context &ctx);
/// Does the condition `c` hold for one caller of the whole launch: an
/// equality between a counter's old value (Atom::counter) and a value no
/// lane loads (the "last block" test `atomicInc(&n, gridDim.x - 1) ==
/// gridDim.x - 1`, `atomicSub(&left, 1) == 0`), its negated inequality, or a
/// flag set from one (Atom::lastArrival)? A body under it runs in one block
/// of the grid, not in each.
bool oncePerGrid(const LaneExpr &c, const Context &ctx);
/// The first conjunct of `mask` (through its conjunctions) that holds once
/// per grid (oncePerGrid()), or null.
LaneExpr oncePerGridConjunct(const LaneExpr &mask, const Context &ctx);
/// The first counter (Atom::counter) or last-arrival flag
/// (Atom::lastArrival) `e` reads, or null: what a once-per-grid test is on.
const Atom *counterRead(const LaneExpr &e, const Context &ctx);

/// Why an evaluation stopped without a value (WarpEval::stopped): the value
/// depends on itself, through data it loads (`x = a[x]` walked by a loop:
/// the address a lane loads from is built from the value it loads) or
/// through a loop's parts, or it takes more than WarpEval::MaxEvalDepth
/// nested steps. Such a value is never followed: it is unknown, and the
/// access says why (evalStopReason()).
enum class EvalStop : uint8_t { None, DataCycle, LoopCycle, Depth };
/// The reason as the remark of an access states it, after "not evaluated: ".
std::string evalStopReason(EvalStop why);

/// Values of loop variables by iteration for one warp, shared by the
/// environments that differ only in blockIdx and iteration: a loop whose
/// init and update use neither (nor another loop) takes the same values in
/// all of them. Valid for one context, shape, warp and assignment of the
/// unknowns.
struct LoopSequences {
  explicit LoopSequences(const std::vector<char> &invariantLoops)
      : invariant(invariantLoops), values(invariantLoops.size()),
        active(invariantLoops.size()) {}
  const std::vector<char> &invariant;     // by loop id
  std::vector<std::vector<Lanes>> values; // by loop id, by iteration
  std::vector<std::vector<LaneMask>> active; // lanes still in, by iteration
  /// A shared value's evaluation stopped (EvalStop): the values above are
  /// not values, and every evaluation that reads them stops too.
  EvalStop stopped = EvalStop::None;
};
/// Loops whose values LoopSequences may share (computed once per context):
/// 1 the values, 2 the values and the lanes still inside (condition too).
std::vector<char> sequenceInvariantLoops(const Context &ctx);
/// Every lane that enters loop `loop` leaves it at the same iteration,
/// whatever the unknowns: its variable steps by one value for every lane
/// and its condition compares the variable with a bound that moves with it
/// lane by lane (`for (i = tid + n; i < n * (m - 1) + tid; i += n)`: the
/// lanes' distances to the bound are equal), with no other condition that
/// varies by lane. False where that is not shown.
bool exitsTogether(const Context &ctx, int loop);

/// What can tell the lanes of a warp apart in a value (with the loops it
/// reads, as visitWithLoops() walks them): which thread indices it reads,
/// and whether it reads anything else per lane (a lane rank, data loaded
/// per lane, a value too deep to follow).
struct LaneVariation {
  bool thread[3] = {false, false, false};
  bool other = false;
};
LaneVariation warpVaryingSources(const LaneExpr &e, const Context &ctx);
/// Every warp of a block of `shape` has one value of it: what it reads per
/// lane is threadIdx.y or .z alone, and the block's rows (planes) fill
/// whole warps (`blockDim = (32, 4)`: a warp is one value of threadIdx.y).
bool uniformInWarps(const LaneVariation &src, const Shape &shape);

/// Lookups of deep conditions (WarpEval::cond) this thread made that found
/// the lanes kept from an earlier evaluation, and those that did not (for
/// tests and benchmarks: the lanes are the same either way).
struct CondCacheCounts {
  uint64_t found = 0, missed = 0;
};
CondCacheCounts condCacheCounts();

/// Values of warp-uniform expressions (Node::uniform) shared by the
/// evaluations of every warp of one environment and shape: such a value
/// reads neither the warp nor its lanes nor a loop. Only values whose
/// evaluation set no flag are kept (one that divides by zero is evaluated
/// each time), so a value read from here is what a fresh evaluation gives.
struct UniformValues {
  std::unordered_map<const Node *, int64_t> values;
};

class WarpEval {
public:
  WarpEval(const Context &ctx, const Shape &shape, const Env &env, int warp,
           LoopSequences *sequences = nullptr);
  /// The evaluator keeps references to its shape and environment: a
  /// temporary would be gone before the first value.
  WarpEval(const Context &, Shape &&, const Env &, int,
           LoopSequences * = nullptr) = delete;
  WarpEval(const Context &, const Shape &, Env &&, int,
           LoopSequences * = nullptr) = delete;
  WarpEval(const Context &, Shape &&, Env &&, int,
           LoopSequences * = nullptr) = delete;

  Lanes value(const LaneExpr &e);
  /// Reads and keeps the uniform values of this evaluation's whole
  /// sub-expressions in `shared`, which must be for this environment and
  /// shape (any warp).
  void shareUniforms(UniformValues *shared) { SharedUniforms = shared; }
  /// Lanes for which `cond` holds. Assumed nodes hold for every lane; other
  /// conditions are evaluated as written (see prepareConditions).
  LaneMask mask(const LaneExpr &cond);
  /// Lanes still inside `loop` at iterations 0, 1, ..., stopping after
  /// `maxIter` or when none is left: one pass, not one per iteration.
  std::vector<LaneMask> loopActiveSequence(int loop, int maxIter);
  /// Lanes that exist in this warp (the last warp of a block may be partial).
  LaneMask present() const { return Present; }
  /// Iterations of `loop` (at most `maxIter`) in which one of `lanes` is
  /// still inside: the length of loopActiveSequence() counted over `lanes`,
  /// found by bisection when the loop's form allows (Context::LoopForm).
  int tripCount(int loop, int maxIter, LaneMask lanes);
  /// Op::LoopFinal: each lane's value of the loop's variable at the test it
  /// fails; `undefined` where a lane is still inside after MaxFinalSteps
  /// (MaxAffineSteps for an affine loop).
  Lanes loopFinal(int loop);
  static constexpr int MaxFinalSteps = 1024;
  /// The stepped iterations of every LoopFinal one warp evaluation follows,
  /// a loop inside another's steps included: a value left by nested loops
  /// (a combination's rank found by loops over binomials, each a loop of
  /// its own) would otherwise cost MaxFinalSteps to the power of the depth.
  static constexpr int MaxTotalFinalSteps = 4096;
  /// The same for an affine loop, whose exits are bisected, not stepped.
  static constexpr int MaxAffineSteps = 1 << 24;

  bool usedDataCondition = false;
  bool assumedGuard = false;
  /// A bounds guard was assumed on its side past the bound (`if (i >= n)`,
  /// the else of `if (i < n)`): only the lanes past it run what it guards,
  /// in the warps where the index crosses it, not whole warps.
  bool assumedTail = false;
  bool undefined = false; // division by zero or an oversized shift
  /// Set with `undefined` where a LoopFinal's loop had not ended after
  /// MaxFinalSteps iterations (MaxAffineSteps for an affine loop), or the
  /// evaluation's LoopFinals had taken MaxTotalFinalSteps steps in all.
  bool loopUnended = false;
  /// Set with `undefined` where the value depends on itself or the depth
  /// limit was reached (EvalStop): the evaluation returns at once from then
  /// on, and its values are not values.
  EvalStop stopped = EvalStop::None;
  /// Nested evaluation steps (an operation, a loop's part, a datum's
  /// address) one value may take: a value built through chains of loops and
  /// loads is bounded, so that no input exhausts the stack (a step costs
  /// about 1 to 2 KiB of it in a release build; the analysis runs on
  /// threads of 64 MiB, and 8 MiB holds the limit too).
  static constexpr int MaxEvalDepth = 2000;
  /// Loads whose addresses are followed inside one another (`a[b[c[i]]]`)
  /// before a datum is drawn per lane without its address.
  static constexpr int MaxDataNesting = 4;

private:
  int Depth = 0; // nested value() calls now
  // Evaluating one deep condition for the cross-evaluation cache (cond()).
  bool InSubEval = false;
  int Draws = 0; // drawData() calls in progress
  std::vector<int> Drawing; // the atoms they draw
  void stop(EvalStop why);
  /// Marks `loop`'s value, activity or final value (`what`: 0, 1, 2) in
  /// progress; false, with the evaluation stopped, where it already was
  /// (the value depends on itself).
  bool enter(int loop, int what);
  void leave(int loop, int what);
  Lanes memoValue(const LaneExpr &e);
  Lanes loopValueOf(int loop);
  LaneMask loopActiveOf(int loop);
  Lanes loopFinalOf(int loop);
  Lanes drawDataOf(int atom);
  int FinalSteps = 0; // stepped LoopFinal iterations so far
  bool FinalBudgetSpent = false; // FinalSteps went past MaxTotalFinalSteps
  Lanes compute(const LaneExpr &e);
  /// compute() of a Node::uniform value, once for the warp: the same value
  /// and the same flags as every lane's.
  int64_t uniformValue(const LaneExpr &e);
  int64_t uniformValueOf(const LaneExpr &e);
  /// Shared uniform nodes' values: they read no loop, so they hold for the
  /// whole evaluation, and a graph of shared sub-expressions (`a = a * 3 +
  /// (a >> 1)` written 60 times) costs one evaluation per node, not one
  /// per path.
  std::unordered_map<const Node *, int64_t> UniformMemo;
  UniformValues *SharedUniforms = nullptr;
  /// uniformValue() through SharedUniforms.
  int64_t sharedUniformValue(const LaneExpr &e);
  LaneMask cond(const LaneExpr &e, bool positive);
  // The memo's generation: 0 with no loop override in force, a fresh one
  // for each override set, and the previous one again when it is cleared
  // (the values computed before it hold again).
  uint64_t Gen = 0, LastGen = 0;
  /// Evaluates `loop`'s variable as `v` until clearOverride(loop, saved)
  /// with the generation this returns; nested overrides are cleared first.
  uint64_t setOverride(int loop, const Lanes &v);
  void clearOverride(int loop, uint64_t saved);
  // Shared nodes' values, per generation: searched in order while there are
  // few (most addresses share a handful of nodes, and a hash node per entry
  // cost more than the search), through an index past that.
  struct MemoEntry {
    const Node *node;
    uint64_t gen;
    Lanes value;
  };
  // The first entries in place (a WarpEval is built per warp and sample:
  // an allocation each cost more than the search), the rest in Memo; the
  // index numbers them in that order.
  /// The generation of a memo entry that holds for every loop override.
  static constexpr uint64_t AnyLoop = ~uint64_t(0);
  static constexpr size_t InlineMemo = 16;
  MemoEntry SmallMemo[InlineMemo];
  size_t SmallCount = 0;
  std::vector<MemoEntry> Memo;
  std::unordered_map<const Node *, size_t> MemoIndex;
  MemoEntry *memoFind(const Node *n);
  const Lanes &loopValue(int loop);
  LaneMask loopActive(int loop);

  const Context &Ctx;
  const Shape &Sh;
  const Env &En;
  int Warp = 0;
  LaneMask Present = 0;
  /// A Data atom's values under Env::dataSeed.
  Lanes drawData(int atom);
  Lanes Tid[3];
  // Per loop in use: the variable's value this iteration, an override while
  // its update or condition is being evaluated, and the lanes still inside.
  // Allocated on first use: a kernel may have hundreds of loops after
  // inlining, and a WarpEval is built for every warp of every environment.
  struct LoopState {
    Lanes cache, override;
    LaneMask active = 0;
    bool hasCache = false, hasOverride = false, hasActive = false;
    /// While the value, activity or final value is being computed (without
    /// an override): the data draws in progress when it began (-1: not in
    /// progress), which tells a cycle through data from one through loops.
    int from[3] = {-1, -1, -1};
    int overrides = 0; // overrides set and not cleared
  };
  std::vector<Lanes> Shadowed; // overrides an inner one hides, innermost last
  /// The loops with an override in force, as Node::loopBits, with how many
  /// of them share each bit.
  uint32_t OverBits = 0;
  int OverCount[32] = {};
  LoopSequences *Seq = nullptr;
  // Loop ids in use, parallel to States: an expression uses few loops, and
  // a dense table sized by every loop of an inlined kernel cost more to
  // build per warp than the evaluation itself.
  std::vector<int> SlotLoops;
  std::vector<LoopState> States;
  // Past MaxSearchedSlots loops in use: each used loop's slot by loop id
  // (-1: none yet), filled from then on instead of searching SlotLoops.
  static constexpr size_t MaxSearchedSlots = 8;
  std::vector<int> SlotOf;
  size_t LastSlot = 0; // the slot state() found last: most calls repeat it
  LoopState &state(int loop);
  /// The shared sequence's value at iteration `i`, computing it if needed.
  Lanes sharedValue(int loop, size_t i);
  /// For a loop of affine form with a monotone condition: its first value
  /// and signed step per lane, or false when a lane's values from the first
  /// tested iteration to `kmax` (or the condition's operands over them)
  /// would come near overflow, where the monotony ends.
  bool affineStart(int loop, int kmax, Lanes &v0, Lanes &step);
  /// For such a loop (false otherwise): each lane's first iteration from
  /// the first tested one on at which it is out, `maxIter` for a lane still
  /// inside at maxIter - 1, bisected for all lanes at once.
  bool affineExits(int loop, int maxIter, Lanes &exit);
  /// The loop's condition with its variable at `v`.
  LaneMask condAt(int loop, const Lanes &v);
  /// The loop's update with its variable at `v`: the next iteration's value.
  Lanes nextAt(int loop, const Lanes &v);
};

} // namespace warplint

#endif
