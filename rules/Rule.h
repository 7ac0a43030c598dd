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
#include "model/Memory.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

enum class Space { Global, Shared, Constant, Local };
const char *spaceName(Space s);

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

struct AccessFacts {
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
  /// A plain access at the address of an atomic of the same kernel (the
  /// read before a compare-and-swap loop).
  bool atAtomicAddress = false;
  /// Where a launch site's shape rests on a command-line default: "block
  /// shape 256x1x1 from the launch at main.cu:40 (with the default of
  /// option -t (main.cu:22))"; empty otherwise.
  std::string shapeFrom;
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
};

/// A barrier or warp-collective call.
struct SyncFacts {
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
  const HazardResult &result;
  std::string array;
  bool volatileAccess = false;
  unsigned storeLine = 0;
};

struct LaunchFacts {
  Shape block;
  std::string kernel;
};

struct RuleOptions {
  double threshold = 2.0;     // global: warn at sectors >= threshold x ideal
  double bankThreshold = 2.0; // shared: warn at wavefronts >= this x ideal
  double constantThreshold = 2.0; // constant: distinct addresses per request
  /// clang-tidy style: comma-separated globs, '-' to turn off ("*,-foo").
  std::string enabled = "*";
  int branchMinWeight = 4; // smaller divergent bodies are predicated: no warning
  /// idle-lanes: warps that run a body over the fewest that could
  /// (BranchResult::Fill) from which it warns.
  double issueRatioThreshold = 2.0;
  bool warnDataDependentBranches = false;
  /// Accesses under a condition on data loaded per lane (`if (a > b) swap`):
  /// the address pattern is known, which lanes take it is not. Reported as
  /// an upper bound, as a remark by default (docs/model.md).
  enum class DataMasks { Off, Remark, Warning, Narrow } dataMasks =
      DataMasks::Remark;
  /// Accesses whose address depends on data loaded per lane (`x[col[n]]`):
  /// their figure with the data drawn at random. The same three levels, and
  /// Narrow, the default: a warning for global elements of 1 or 2 bytes,
  /// for any element picked by a field of data's bits (`table[w & 0xff]`,
  /// AccessResult::dataDigest), for global atomics by key, and for a
  /// segment or a record per lane (AccessResult::dataSegment, dataRecord).
  /// A warp's 32 such elements fit one or two sectors only where the lanes'
  /// data lies within 32 or 64 bytes, which data seldom does (per-thread
  /// strings, byte tables: 115 of 118 such lines of the real-code suite
  /// measure at least 1.5x; fields of bits 34 of 35, atomics 17 of 17,
  /// segments 19 of 19, records 11 of 11). For other wider elements the
  /// estimate is right about as often as not (a mesh's connectivity is
  /// mostly local, a sparse matrix's columns are not; docs/model.md).
  DataMasks dataAddresses = DataMasks::Narrow;
};

/// For an access under a condition on data: says the figure is an upper
/// bound among the lanes that take it, and sets the severity the options
/// ask for. Returns false when such findings are turned off.
bool qualifyDataMask(Finding &f, const AccessResult &r,
                     const RuleOptions &opts);

/// For an access whose address depends on data (AccessResult::
/// dataEstimated): a finding when its figure with the data drawn at random
/// reaches `threshold` x ideal, at the severity the options ask for.
/// `unit` is "sector" or "wavefront".
std::optional<Finding> dataAddressFinding(const AccessFacts &f,
                                          const RuleOptions &opts,
                                          double threshold, const char *unit);

/// For an access whose address depends on data: whether warplint takes
/// its random-data figure (the kinds of data address whose estimate the GPU
/// bears out, or every kind under --data-addresses=warning or remark)
/// rather than its figure with neighbouring lanes agreeing on the data (a
/// mesh's connectivity, sorted or consecutive indices). The figure taken
/// is the line's figure in the report, stated as an assumption.
bool expectsRandomData(const AccessFacts &f, const RuleOptions &opts);

using AccessCheck = std::optional<Finding> (*)(const AccessFacts &,
                                               const RuleOptions &);
using BranchCheck = std::optional<Finding> (*)(const BranchFacts &,
                                               const RuleOptions &);
using SyncCheck = std::optional<Finding> (*)(const SyncFacts &,
                                             const RuleOptions &);
using HazardCheck = std::optional<Finding> (*)(const HazardFacts &,
                                               const RuleOptions &);
using LaunchCheck = std::optional<Finding> (*)(const LaunchFacts &,
                                               const RuleOptions &);

/// A rule checks one kind of site; the others are null.
struct RuleInfo {
  const char *id;
  const char *summary; // first sentence of the rule's doc page
  AccessCheck check = nullptr;
  BranchCheck branch = nullptr;
  SyncCheck sync = nullptr;
  HazardCheck hazard = nullptr;
  LaunchCheck launch = nullptr;
};

/// idle-lanes (rules/IdleLanes.cpp).
std::optional<Finding> checkIdleLanes(const BranchFacts &facts,
                                      const RuleOptions &opts);

/// Every rule warplint has (rules/Registry.cpp).
const std::vector<RuleInfo> &allRules();

/// Is `id` turned on by `enabled` ("*", "uncoalesced-*,-smem-*", ...)? The
/// last glob that matches decides.
bool ruleEnabled(const std::string &enabled, const std::string &id);

/// "4", "4.5", "4.88": figures as the messages print them.
std::string formatFigure(double v);
/// An estimate's figure (a mean of random draws), to one decimal.
std::string formatEstimate(double v);

} // namespace warplint

#endif
