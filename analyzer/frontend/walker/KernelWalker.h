//===- KernelWalker.h - a kernel body as the model sees it ------*- C++ -*-===//
//
// Walks one kernel's body in program order, the way one thread would run it,
// but with every value a LaneExpr: locals are bound as they are assigned,
// branches merge into selects, for-loop induction variables become loop
// recurrences, device functions are inlined with their arguments bound, and
// every load and store through global, shared or constant memory becomes an
// AccessSite with the condition under which a lane reaches it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_KERNELWALKER_H
#define WARPLINT_FRONTEND_KERNELWALKER_H

#include "frontend/launches/LaunchShapes.h"
#include "model/Memory.h"
#include "rules/Rule.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

namespace warplint {

/// How many calls deep the walker follows the program's own functions.
inline constexpr int MaxInlineDepth = 8;
/// Walks of one kernel, at most, for loop variables its loops' bodies set
/// per lane: each walk after the first applies what the one before found
/// (at least one more variable: a chain of loop variables each set from the
/// one before needs a walk per link).
inline constexpr int MaxVaryingWalks = 9;

/// A __shared__ (or __constant__) array indexed with one subscript per
/// dimension: what the rules need to try another layout.
struct ArrayAccess {
  const clang::VarDecl *var = nullptr;
  std::vector<int64_t> dims;        // declared extents, outermost first
  std::vector<LaneExpr> subscripts; // one per dimension, in elements
  std::vector<const clang::Expr *> subscriptExprs;
};

struct AccessSite {
  Access access;
  const clang::ValueDecl *base = nullptr; // the allocation
  std::optional<ArrayAccess> array;
  Space space = Space::Global;
  bool store = false;
  /// atomicAdd and friends (and cuda::atomic_ref operations): a
  /// read-modify-write the memory system performs (RED/ATOM, ATOMS).
  bool atomic = false;
  const clang::Expr *expr = nullptr; // the lvalue accessed
  /// Where the GPU's line table puts it when that is not `expr`: a struct
  /// copied by an implicit constructor or assignment that calls non-trivial
  /// member ones is moved on the struct's own line (nvcc inlines that
  /// implicit function, which is defined there).
  clang::SourceLocation reportAt;
  bool structMember = false;
  int64_t elementStride = 0;
  /// Calls through which the kernel reached this access, outermost first.
  std::vector<const clang::CallExpr *> calls;
  /// Program order, and the number of barriers (__syncthreads, __syncwarp)
  /// walked before it: two accesses with the same epoch are not ordered.
  int seq = 0, epoch = 0;
  bool isVolatile = false;
  /// The statement it belongs to, and the alignment of what it accesses
  /// (see Addr::align): nvcc merges adjacent accesses of one statement.
  int stmt = 0;
  int align = 0;
  /// Set on an access nvcc merges into another (Vectorize.h): the index of
  /// the access that carries the merged width. Merged-away accesses are not
  /// analyzed or reported.
  int mergedInto = -1;
  /// The bytes of the vector access nvcc would make of this one and its
  /// neighbours of the statement were the allocation 16-byte aligned (it
  /// knows only the element's alignment); 0 where none.
  int vectorIfAligned = 0;
  /// A piece of an element nvcc moves in several instructions (Walker::
  /// record): the whole element's bytes; 0 otherwise.
  int splitOf = 0;
  /// An access an intrinsic makes ("ldmatrix.x4", "cp.async",
  /// "wmma::load_matrix_sync"): one instruction of its own, never merged
  /// with or dropped for another.
  std::string intrinsic;
  /// Offsets the access would have under another layout the source can
  /// choose (AccessFacts::alternatives).
  std::vector<std::pair<LaneExpr, std::string>> alternatives;
  /// The global side of a 16-byte asynchronous copy that bypasses L1
  /// (LDGSTS.BYPASS.128): the index of its shared side. When that side has
  /// a bank conflict, the GPU issues the global read one sector request per
  /// lane (measured: bench-kernels/tensor-core).
  int splitByPeer = -1;
  /// Set when warplint does not model the intrinsic's lane-to-address map:
  /// why, as "unknown: <intrinsic>: <reason>" (the access is reported as not
  /// evaluated with it).
  std::string unknown;
};

/// A point where control flow may split a warp. Exit: `if (c) return;`
/// (or continue/break), whose taken lanes leave the rest to the others.
struct BranchSite {
  enum Kind { If, Exit, Loop, Ternary, Switch } kind = If;
  const clang::Stmt *stmt = nullptr;     // for the location
  const clang::Expr *condExpr = nullptr; // as written
  LaneExpr cond;                         // If/Ternary; a Switch's value
  std::vector<int64_t> caseValues;       // Switch: the case labels
  int loop = -1;                         // Loop: the model's loop id
  LaneExpr mask;                         // lanes that reach it
  int weight = 0; // statements a split warp runs twice (estimate)
  std::vector<const clang::CallExpr *> calls;
  /// The body's work (KernelModel::work[workBegin, workEnd)): an if's two
  /// arms (a split warp runs both), a loop's or a switch's body with the
  /// loop's test, the rest of the block after an early exit; empty where
  /// none is recorded (a ternary).
  size_t workBegin = 0, workEnd = 0;
};

/// A barrier or warp-collective call.
struct SyncSite {
  const clang::CallExpr *call = nullptr;
  std::string callee;
  LaneExpr mask;    // lanes that reach it
  LaneExpr maskArg; // the *_sync mask argument, if any
  /// A collective of a cooperative-groups thread_block_tile<N> (N <= 32):
  /// N, whose every thread must arrive (0: not a tile's).
  int tileSize = 0;
  std::vector<const clang::CallExpr *> calls;
};

/// Straight-line work as the walker meets it: `weight` warp instructions
/// (Walker::instructions) that the lanes of `mask` run, inside the
/// if-bodies from `frame` outward (KernelModel::ifFrames; -1: none), which
/// nvcc may predicate. Consecutive work under one mask is one site.
struct WorkSite {
  LaneExpr mask;
  int weight = 0;
  int frame = -1;
  /// A compare-and-swap loop nvcc makes of an atomic (IssueWork::contended):
  /// the atomic's address and the loop's instructions per round.
  LaneExpr contended;
  int perRound = 0;
};
/// An if-statement whose body is walked: the lanes that reach it, the
/// weight of its bodies (what decides predication) and the if around it.
struct IfFrame {
  LaneExpr reach;
  int weight = 0;
  int parent = -1;
};

/// A loop's merge regions (AccessSite::stmt): the straight-line region
/// just before it, and the first and last of its body's.
struct LoopRegions {
  int before = 0, first = 0, last = 0;
};

struct KernelModel {
  Context ctx;
  std::vector<AccessSite> accesses;
  /// The conditions of `?:` operators: their two arms are expressions
  /// evaluated at the branch, whose common load nvcc hoists before it.
  std::set<LaneExpr> ternaryConditions;
  std::vector<LoopRegions> loopRegions;
  std::vector<BranchSite> branches;
  std::vector<SyncSite> syncs;
  std::vector<WorkSite> work;
  std::vector<IfFrame> ifFrames;
  /// Loops with no induction variable the model follows: their bodies count
  /// once in the work estimate.
  int loopsNotFollowed = 0;
  /// Those loops' work (work[workBegin, workEnd)) and statements: a body
  /// outside them has an upper bound for its share of the kernel.
  struct CountedOnce {
    const clang::Stmt *stmt = nullptr;
    size_t workBegin = 0, workEnd = 0;
  };
  std::vector<CountedOnce> countedOnce;
  std::vector<clang::SourceRange> origins; // by LaneExpr origin id
  /// Accesses past the per-kernel limit (MaxAccesses): counted, reported,
  /// not modelled.
  size_t accessesLeftOut = 0;
  /// Calls into the program's own functions deeper than MaxInlineDepth: not
  /// walked (what they touch is missing), counted and reported. The first
  /// one's callee names them.
  int callsTooDeep = 0;
  std::string firstTooDeep;
  /// Calls of the program's own functions whose definition is not in this
  /// translation unit (a -rdc project's `merge()` defined in another .cu):
  /// not walked, counted and reported, with where the first is declared.
  int callsElsewhere = 0;
  std::string firstElsewhere;
  /// Loop variables that the kernel's last walk found each lane sets on its
  /// own (Walker::FoundVarying), past MaxVaryingWalks: taken as one value
  /// for the warp, and reported.
  std::vector<std::string> varyingNotApplied;
};

/// Values the launch sites pass for integer parameters, by parameter index:
/// the constants, and where they come from ("the launch at main.cu:52");
/// or no constants, where the command line sets the value, and where.
using ParamBindings =
    std::map<unsigned, std::pair<std::vector<int64_t>, std::string>>;

/// Parameters the launch sites pass as another parameter plus a constant,
/// by parameter index (launchRelations()).
using ParamRelations = std::map<unsigned, ParamRelation>;

/// `params`: integer kernel parameters whose value the user gave (--param);
/// `bindings`: those the launch sites fix (a --param wins); `relations`:
/// those that stand for another parameter plus a constant.
KernelModel walkKernel(clang::ASTContext &ac, const clang::FunctionDecl *kernel,
                       const std::map<std::string, int64_t> &params = {},
                       const ParamBindings &bindings = {},
                       const ParamRelations &relations = {});

} // namespace warplint

#endif
