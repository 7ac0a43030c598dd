//===- Rule.h - what a rule sees and says -----------------------*- C++ -*-===//
//
// A rule is a pure function from the model's view of one access to at most
// one finding. Rules hold no state and include no Clang header; the front end
// turns a finding's origins into source locations.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_RULES_RULE_H
#define WARPLINT_RULES_RULE_H

#include "model/Divergence.h"
#include "model/Site.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// One access of an array in a kernel, indexed per dimension.
struct ArrayUse {
  std::vector<LaneExpr> subscripts;
  LaneExpr mask;
  int bytes = 0;
};

/// A shared or constant array indexed per dimension (`tile[ty][tx]`).
struct ArrayInfo {
  std::string name;
  std::string elementType; // as spelled in the declaration
  int elementBytes = 0;
  std::vector<int64_t> dims;        // outermost first
  std::vector<LaneExpr> subscripts; // one per dimension, in elements
  std::vector<std::string> subscriptText;
  /// Every access of this array in the kernel, this one included: a layout
  /// change must not make any of them worse. Shared by the accesses of one
  /// array (built once per kernel, not once per access).
  std::shared_ptr<const std::vector<ArrayUse>> uses;
};

/// One access site as the rules see it. The model's inputs and result are
/// given at construction; the rest is set by name.
struct AccessFacts {
  AccessFacts(const Access &a, const AccessResult &r, const Context &c)
      : access(a), result(r), ctx(c) {}
  const Access &access;
  const AccessResult &result;
  const Context &ctx;
  Shape shape;
  bool shapeAssumed = false;
  Space space = Space::Global;
  bool store = false;
  bool structMember = false; // reads one field of a larger element
  int64_t elementStride = 0; // bytes of the indexed element (struct size)
  const ArrayInfo *array = nullptr;
  /// A piece of an element nvcc moves in several instructions: the whole
  /// element's bytes (a double4's 32); 0 otherwise.
  int splitOf = 0;
  /// The intrinsic that makes the access ("ldmatrix.x4"), named before the
  /// message's "shared load"; empty for an lvalue.
  std::string intrinsic;
  /// Other layouts the source could choose for this access (a wmma leading
  /// dimension with skew): the offset it would then have, and the change in
  /// words. A rule offers the first that it verifies.
  const std::vector<std::pair<LaneExpr, std::string>> *alternatives = nullptr;
  bool atomic = false; // an atomic read-modify-write
  /// The bytes of the vector access nvcc would make of this access and its
  /// neighbours of the statement, were the allocation 16-byte aligned
  /// (AccessSite::vectorIfAligned); 0 where none.
  int vectorIfAligned = 0;
  /// A plain access at the address of an atomic of the same kernel (the
  /// read before a compare-and-swap loop).
  bool atAtomicAddress = false;
  /// Where a launch site's shape rests on a command-line default: "block
  /// shape 256x1x1 from the launch at main.cu:40 (with the default of
  /// option -t (main.cu:22))"; empty otherwise.
  std::string shapeFrom;
};

/// What an access weighs in its kernel, from the work estimate: its extra
/// sectors (wavefronts) per block as a share of the kernel's estimated
/// sectors (wavefronts) of that space, and how often it runs against the
/// kernel's busiest access of that space (1: as often). Known only once
/// every access of the kernel is judged: a rule's finding is weighed after
/// its check (RuleSet::weigh), so that no access's figures wait for the
/// others'.
struct AccessWeight {
  double share = 0, runs = 0;
  /// What the estimate rests on, as its kernel record says ("'n' = 1024
  /// (not known)"); empty where nothing.
  std::string assumes;
};

/// The text of AccessFacts::shapeFrom.
inline std::string shapeFromText(const Shape &s, const std::string &launch) {
  return "block shape " + std::to_string(s.x) + "x" + std::to_string(s.y) +
         "x" + std::to_string(s.z) + " from " + launch;
}

/// "block shape 256x1x1 assumed (...)": the shape a finding's figures are
/// for when no launch shows one, and how the other candidates relate.
inline std::string assumedShapeText(const AccessFacts &f) {
  return "block shape " + std::to_string(f.shape.x) + "x" +
         std::to_string(f.shape.y) + "x" + std::to_string(f.shape.z) +
         (f.result.shape > 0
              ? " assumed (no lane runs the access in the shapes tried "
                "before it; the result holds for the others where one does)"
              : " assumed (the result holds for the other shapes tried)");
}

/// "load", "store" or "atomic": what the message calls the access.
inline const char *accessOp(const AccessFacts &f) {
  return f.atomic ? "atomic" : f.store ? "store" : "load";
}

/// "shared load", or "ldmatrix.x4 shared load" for an intrinsic's access.
inline std::string accessKind(const AccessFacts &f, const char *space,
                              const char *op) {
  return (f.intrinsic.empty() ? "" : f.intrinsic + " ") + space + " " + op;
}

struct RuleNote {
  int origin = -1; // a model origin; -1: at the access itself
  std::string message;
};

/// A source change whose effect the model has checked (a verified fix),
/// said without Clang: the front end finds the text it rewrites.
struct FixEdit {
  enum class Kind {
    /// The accessed array's innermost extent becomes `value` elements.
    InnerExtent,
  };
  Kind kind = Kind::InnerExtent;
  int64_t value = 0;
  std::string description;
};

struct Finding {
  std::string message; // without the [rule-id] suffix
  std::vector<RuleNote> notes;
  /// Verified fixes the front end can apply to the source (fix-its in the
  /// text output, `fixes` in JSON and SARIF, code actions in editors).
  std::vector<FixEdit> fixes;
  /// Emitted as a remark, not a warning (an upper bound under a condition
  /// on data, --data-masks=remark): shown, never counted as a finding.
  bool remark = false;
};


/// A branch as the model sees it.
struct BranchFacts {
  BranchFacts(const BranchResult &r, const Context &c) : result(r), ctx(c) {}
  const BranchResult &result;
  const Context &ctx;
  Shape shape;
  bool shapeAssumed = false;
  std::string kind;  // "if", "loop", "ternary", "switch"
  int weight = 0;    // statements a split warp runs on both paths (estimate)
  LaneExpr cond;     // null for loops and switches
  int condOrigin = -1;
  std::vector<std::string> laneSources; // what varies across the lanes
  bool reductionModulo = false; // `tid % (2 * s) == 0` with s a loop counter
  bool laneModulo = false;      // `threadIdx.x % k` / `& k` with k < 32
  bool condUsesLoop = false;    // the condition changes from one iteration to the next
  bool bodyAccessesMemory = false; // the then-branch or loop body loads or stores
  bool unrolled = false; // a loop nvcc unrolls fully (a constant bound)
  /// A small if-body nvcc predicates: every warp that reaches it issues it.
  bool predicated = false;
  /// The share of the kernel's estimated warp instructions that the body's
  /// idle lanes waste (for an if both arms, after an exit the rest of its
  /// block); none where not estimated.
  std::optional<double> wasteShare;
  /// The line of a loop the estimate counts once (no induction variable it
  /// follows: a climbing `do { ... } while (change < 0)`) outside which the
  /// body lies: the share is then an upper bound; 0 where none.
  unsigned countedOnceLine = 0;
  /// The share were such loops to run RepeatedTrips times: a share still
  /// over the bar there is a warning.
  std::optional<double> wasteShareRepeated;
  /// The counter or flag of a test in the body that holds in one block of
  /// the grid (the last to arrive at a counter): the work under it is
  /// counted once per launch. Empty where none.
  std::string oncePerGrid;
};
/// The runs of a loop the estimate counts once at which a body's share is
/// judged again (BranchFacts::wasteShareRepeated): a search that halves a
/// range of the model's representative size, 1024, runs 10 times.
constexpr int RepeatedTrips = 10;

/// A barrier or warp-collective call.
struct SyncFacts {
  SyncFacts(std::string c, const ReachResult &r)
      : callee(std::move(c)), reach(r) {}
  std::string callee;
  const ReachResult &reach;
  bool fullMask = false;         // a *_sync mask of 0xffffffff, or __syncwarp()
  bool maskFromActivemask = false;
  bool laneVaryingPath = false;  // reached under a lane-dependent condition
  std::vector<std::string> argText;
  /// A collective of a thread_block_tile<tileSize> (0: none), and the lanes
  /// of one of its tiles that reach it while others of that tile do not
  /// (in warp reach.warp; 0 when every tile arrives whole).
  int tileSize = 0;
  LaneMask partialTile = 0;
};

/// A shared load after a shared store of the same array with no barrier.
struct HazardFacts {
  explicit HazardFacts(const HazardResult &r) : result(r) {}
  const HazardResult &result;
  std::string array;
  bool volatileAccess = false;
  unsigned storeLine = 0;
};

/// A launch with a constant block shape (`k<<<g, b>>>`).
struct LaunchFacts {
  Shape block;
  std::string kernel;
};

/// A kernel as declared, judged once per kernel.
struct KernelFacts {
  std::string name;
  /// `__launch_bounds__(N, ...)`: at most N threads per block (none: no
  /// bound declared, or one that is not a constant).
  std::optional<int64_t> maxThreadsPerBlock;
};

/// "4", "4.5", "4.88": figures as the messages print them.
std::string formatFigure(double v);
/// "4 to 8", or one figure where the ends are within 1% ("16 to 16.01"
/// prints "16").
std::string formatRange(double lo, double hi);
/// An estimate's figure (a mean of random draws), to one decimal.
std::string formatEstimate(double v);

} // namespace warplint

#endif
