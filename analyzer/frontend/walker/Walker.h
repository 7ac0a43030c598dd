//===- Walker.h - the kernel walker's class (private to frontend) -*- C++ -*-===//
//
// One walker runs per kernel; its members are defined by responsibility in
// WalkerValues.cpp (expressions to lane values), WalkerMemory.cpp (memory
// accesses and calls) and WalkerStatements.cpp (statements, loops, branches,
// barriers). KernelWalker.cpp is the entry point.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_WALKER_H
#define WARPLINT_FRONTEND_WALKER_H

#include "frontend/project/ForeignDefinitions.h"
#include "frontend/walker/KernelWalker.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>

namespace warplint {
namespace detail {

using namespace clang;

inline constexpr size_t MaxAccesses = 20000;

struct RecordVal;

/// A value as the walker knows it: an integer-like LaneExpr, a pointer into
/// an allocation (`base` plus a byte offset), or a struct or class object
/// held in registers (its fields, each a Val).
struct Val {
  enum Kind { Int, Ptr, Record } kind = Int;
  LaneExpr v; // Int: the value; Ptr: byte offset from base
  const ValueDecl *base = nullptr;
  Space space = Space::Global;
  std::shared_ptr<const RecordVal> rec = nullptr; // Record
  bool isPtr() const { return kind == Ptr && v; }
  bool isRecord() const { return kind == Record && rec; }
};

/// An object's fields (immutable: an assignment to a field makes a new
/// RecordVal, so branches and loops see value semantics). Fields not in
/// `fields` are unknown: uniform, or lane-varying if `varying`.
struct RecordVal {
  std::map<const FieldDecl *, Val> fields;
  bool varying = false;
};

inline Val recordVal(std::shared_ptr<const RecordVal> r) {
  Val v;
  v.kind = Val::Record;
  v.rec = std::move(r);
  return v;
}

struct Addr {
  Val ptr;
  int elementBytes = 0;
  bool structMember = false;
  int64_t elementStride = 0;
  /// Alignment nvcc can rely on for the element or the structure it is a
  /// member of (a float2's members: 8); 0 when unknown.
  int align = 0;
};

using VarEnv = std::map<const VarDecl *, Val>;

inline LaneExpr land(const LaneExpr &a, const LaneExpr &b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return bin(Op::LAnd, a, b);
}

/// Variables a statement assigns to (=, op=, ++, --), also through a field
/// (`obj.x = ...` assigns `obj`); `thisAssigned` when a field of the object
/// a method runs on is.
class AssignedVars : public RecursiveASTVisitor<AssignedVars> {
public:
  std::set<const VarDecl *> vars;
  /// Of `vars`, those assigned otherwise than `v = <literal>` (a flag or a
  /// state the statement sets to constants only is not among them).
  std::set<const VarDecl *> computed;
  bool thisAssigned = false;
  /// Of `vars`, what each is changed by where every change is an increment,
  /// a decrement or a `+=` / `-=` of an integer literal, the same step each
  /// time (`cnt++` at two places): that step; nullopt for any other.
  std::map<const VarDecl *, std::optional<int64_t>> steps;
  /// Increments and decrements not to count (steps a loop already follows).
  const std::set<const Expr *> *skip = nullptr;
  void note(const Expr *e, bool literal = false,
            std::optional<int64_t> step = std::nullopt) {
    e = e->IgnoreParenImpCasts();
    while (auto *m = dyn_cast<MemberExpr>(e)) {
      if (isa<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts()))
        thisAssigned = true;
      if (m->isArrow())
        return;
      e = m->getBase()->IgnoreParenImpCasts();
      step = std::nullopt;
    }
    if (auto *d = dyn_cast<DeclRefExpr>(e))
      if (auto *v = dyn_cast<VarDecl>(d->getDecl())) {
        vars.insert(v);
        if (!literal)
          computed.insert(v);
        if (auto [it, made] = steps.try_emplace(v, step);
            !made && it->second != step)
          it->second = std::nullopt;
      }
  }
  static std::optional<int64_t> literalValue(const Expr *e) {
    if (auto *l = dyn_cast<IntegerLiteral>(e->IgnoreParenImpCasts()))
      if (l->getValue().getActiveBits() < 32)
        return int64_t(l->getValue().getZExtValue());
    return std::nullopt;
  }
  static bool isLiteral(const Expr *e) {
    e = e->IgnoreParenImpCasts();
    if (auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Minus)
      e = u->getSubExpr()->IgnoreParenImpCasts();
    return isa<IntegerLiteral, CXXBoolLiteralExpr, CharacterLiteral>(e);
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *c) {
    if (c->isAssignmentOp() && c->getNumArgs() >= 1)
      note(c->getArg(0));
    return true;
  }
  /// An object the callee may write back: a local passed by non-const
  /// reference, or its address passed as a pointer to non-const
  /// (`next(&part)`).
  bool VisitCallExpr(CallExpr *c) {
    const FunctionDecl *f = c->getDirectCallee();
    if (!f)
      return true;
    unsigned skip = isa<CXXOperatorCallExpr>(c) && isa<CXXMethodDecl>(f);
    for (unsigned i = 0; i + skip < c->getNumArgs() && i < f->getNumParams();
         ++i) {
      QualType t = f->getParamDecl(i)->getType();
      if (!(t->isReferenceType() || t->isPointerType()) ||
          !t->getPointeeType()->isRecordType() ||
          t->getPointeeType().isConstQualified())
        continue;
      const Expr *a = c->getArg(i + skip)->IgnoreParenImpCasts();
      if (auto *u = dyn_cast<UnaryOperator>(a);
          u && u->getOpcode() == UO_AddrOf && t->isPointerType())
        note(u->getSubExpr());
      else if (t->isReferenceType())
        note(a);
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *b) {
    if (!b->isAssignmentOp())
      return true;
    std::optional<int64_t> step;
    if (b->getOpcode() == BO_AddAssign || b->getOpcode() == BO_SubAssign)
      if ((step = literalValue(b->getRHS())) && b->getOpcode() == BO_SubAssign)
        step = -*step;
    note(b->getLHS(), b->getOpcode() == BO_Assign && isLiteral(b->getRHS()),
         step);
    return true;
  }
  // An operand that is never evaluated assigns nothing (`sizeof(k++)`).
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->isIncrementDecrementOp() && !(skip && skip->count(u)))
      note(u->getSubExpr(), false, u->isIncrementOp() ? 1 : -1);
    return true;
  }
};

/// A variable stepped at the top level of an inner loop whose trip count
/// the loop's own bounds give (`for (kW = 0; kW < K; ++kW) { ...;
/// ++off; }` inside the loop being walked): each outer iteration steps it
/// by the trip count times the inner steps.
struct NestedSteps {
  const ForStmt *loop = nullptr;
  const Expr *from = nullptr, *bound = nullptr; // the inner counter's start and bound
  BinaryOperatorKind test = BO_LT;              // counter `test` bound
  int64_t stride = 1;                           // the counter's step
  std::vector<const Expr *> updates;            // the variable's steps, in order
};

/// The definition of `f` that the walker walks into and counts apart: the
/// program's own (here or in another file of the project), not a system
/// header's; null for an intrinsic or a library function.
const FunctionDecl *programDefinition(const FunctionDecl *f);

class Walker {
public:
  Walker(ASTContext &ac, KernelModel &m,
         const std::map<std::string, int64_t> &params,
         const ParamBindings &bindings, const ParamRelations &relations)
      : AC(ac), M(m), Params(params), Bindings(bindings),
        Relations(relations) {}

  void walkFunction(const FunctionDecl *fd) {
    Kernel = fd;
    stmt(fd->getBody());
  }

  /// A variable a loop body (the statement) changes to a lane-varying value,
  /// or under a lane-varying condition, although it held one value for the
  /// warp before the loop (`low = mid` under `if (z < a[mid])`): from the
  /// second iteration on, each lane holds its own. The walk takes it as one
  /// value for the warp until it has seen the body; the kernel is then
  /// walked again with these (walkKernel()).
  using LoopVarying = std::set<std::pair<const Stmt *, const VarDecl *>>;
  /// What an earlier walk of this kernel found (read), and what this one
  /// finds (written).
  const LoopVarying *KnownVarying = nullptr;
  LoopVarying FoundVarying;

private:
  ASTContext &AC;
  KernelModel &M;
  const std::map<std::string, int64_t> &Params;
  const ParamBindings &Bindings;
  const ParamRelations &Relations;
  VarEnv Env;
  LaneExpr OuterMask; // condition for reaching the current function
  LaneExpr Mask;      // condition within the current function
  bool Terminated = false;
  bool NoRecord = false;
  int Depth = 0;
  std::vector<const CallExpr *> Calls;
  /// The objects an implicit, non-trivial struct copy reads or writes, and
  /// the struct's line, where their accesses are reported
  /// (AccessSite::reportAt). Accesses that compute their addresses stay on
  /// their own lines.
  std::map<const Expr *, SourceLocation> CopyLines;
  /// Where nvcc's line table puts an access written over several lines:
  /// the end of `whole` when it ends on a later line than `part` begins
  /// (a dereference whose operand continues on the next line, a struct
  /// copied from memory whose source does), else an invalid location (the
  /// access's own place). Measured: paged attention's
  /// `*reinterpret_cast<const K_vec *>(\n ptr)` loads and `q_vecs[..] =\n
  /// *...` float2 store, each on the later line; a scalar store `a[i] =\n
  /// expr` and a struct a call returns (`h[i] =\n __halves2half2(...)`)
  /// stay on the first line.
  SourceLocation laterLine(const Expr *part, const Expr *whole) const;
  /// Where nvcc's line table puts an element access whose subscript spans
  /// lines: the line of the subscript's last leaf (a variable, constant,
  /// member or call) once terms that fold away are dropped (`a[i + j +\n N]`
  /// on `N`'s line; `a[ia + na * (\n ... octant + NOCTANT * (\n 0))]` on
  /// `octant`'s), when that is after the line the access begins on; else
  /// invalid. Measured: zoom's two- and three-line subscripts, minisweep's
  /// seven-line ones (loads and stores), ssm's `B_ptr[b * s\n + l]`, and
  /// thirteen shapes in nvcc 13's line table (bench-kernels/line-table).
  SourceLocation subscriptLine(const ArraySubscriptExpr *a) const;
  /// Set while a struct assignment records its store: laterLine() of it.
  SourceLocation StoreEndsAt;
  void reportCopyAt(const Expr *object, SourceLocation line) {
    if (line.isValid())
      CopyLines[object] = line;
  }
  /// A call of the program's own function past MaxInlineDepth: not walked,
  /// counted for the report.
  void tooDeep(const FunctionDecl *fn) {
    if (NoRecord)
      return;
    if (!M.callsTooDeep++)
      M.firstTooDeep = fn->getQualifiedNameAsString();
  }
  /// A call of a function the program declares but this translation unit
  /// does not define: not walked, counted for the report.
  void definedElsewhere(const FunctionDecl *fn) {
    if (NoRecord)
      return;
    if (!M.callsElsewhere++)
      M.firstElsewhere = fn->getQualifiedNameAsString();
  }
  /// The struct's line for a copy through `fn` when nvcc reports it there.
  static SourceLocation implicitCopyLine(const FunctionDecl *fn);
  std::vector<std::pair<LaneExpr, Val>> *Returns = nullptr;
  std::map<const ValueDecl *, int> ParamAtoms;
  /// Whether a pointer the kernel is passed (a parameter, or a field of a
  /// struct parameter) is not null: one uniform value per pointer, a
  /// parameter as any other (`if (bias)`, `z != nullptr`).
  std::map<const ValueDecl *, int> GivenAtoms;
  /// Scalars the block shares last set from a counter's old value (`ticket =
  /// atomicAdd(&done, 1)`: false) or from a test on one that holds once per
  /// grid (`amLast = (ticket == gridDim.x - 1)`: true): read back, the
  /// counter (Atom::counter) or a flag true in the last block to arrive
  /// (Atom::lastArrival).
  std::map<const VarDecl *, bool> SharedCounters;
  std::optional<LaneExpr> pointerGiven(const Val &p);
  /// The object a method being inlined runs on (null: none, or not known).
  std::shared_ptr<const RecordVal> This;
  /// The object a method runs on when it lives in memory (a __shared__
  /// TempStorage): what `this` points to.
  std::optional<Val> ThisPtr;
  /// The object a method runs on when it is a thread's own (a local or a
  /// temporary, held in registers): a pointer into registers, whose base is
  /// the local variable where the object is one. `this->payload[k]` of such
  /// an object is no shared or global access.
  std::optional<Val> ThisLocal;
  std::vector<const FunctionDecl *> Inlining;
  int Seq = 0, Epoch = 0;
  int StmtId = 0; // the statement being walked, for merging its accesses
  /// The region a loop statement begins after (its StmtId before the loop).
  int LoopBefore = 0;
  /// The next loop is marked `#pragma unroll 1` or `#pragma nounroll`.
  bool NoUnrollNext = false;
  /// Per loop being walked (innermost last; a switch pushes one too, since
  /// its `break` is its own): its body's mask on entry, and whether a
  /// `break` leaves it under a narrower, lane-varying mask, so that lanes
  /// can leave it at different iterations.
  std::vector<std::pair<LaneExpr, bool>> BreakScopes;
  int RestWeight = 0; // statements after the current one in its block
  int IfFrameNow = -1; // the innermost if-body being walked (IfFrame)
  /// Work sites below this index are closed: a branch body's range
  /// (BranchSite::workBegin) starts or ends there, so work() does not merge
  /// across it.
  size_t WorkFloor = 0;
  /// Closes the work recorded so far (WorkFloor) and returns where the
  /// next piece of work goes.
  size_t workMark() { return WorkFloor = M.work.size(); }
  /// Gives the branch recorded at `branch` (none while NoRecord) the work
  /// from `begin` to here as its body.
  void closeBody(std::optional<size_t> branch, size_t begin) {
    if (!branch)
      return;
    M.branches[*branch].workBegin = begin;
    M.branches[*branch].workEnd = workMark();
  }
  /// Per block being walked: the statement of it being walked, and the
  /// early exits recorded among its statements, whose bodies (the rest of
  /// the block) end with it.
  struct OpenBlock {
    const clang::Stmt *child = nullptr;
    std::vector<size_t> exits;
  };
  std::vector<OpenBlock> OpenExits;
  /// Records `weight` statements of straight-line work under the current
  /// mask (KernelModel::work).
  void work(int weight);
  /// The compare-and-swap loop nvcc makes of a shared-memory atomicAdd on
  /// float, double or a 64-bit integer, as work of its own (WorkSite).
  void casLoop(StringRef name, QualType element, const Val &p);
  /// Warp instructions `s` itself issues, roughly as nvcc compiles it: one
  /// per operator, address and memory access, more for a division (the
  /// bodies of the calls the walker inlines are walked, and counted, apart);
  /// at least 1.
  int instructions(const Stmt *s) const;
  /// Loops nvcc unrolls (constant bounds) being walked, by model loop id.
  std::set<int> UnrolledLoops;
  /// Is `e` made of constants and the variables of UnrolledLoops only?
  bool unrolledConstant(const LaneExpr &e) const;

  /// Statements a warp runs in `s`: a rough count of the work a split warp
  /// repeats (loops count as several, calls as two).
  static int weight(const Stmt *s);
  static int weightUncached(const Stmt *s);
  /// Does evaluating `e` do anything but compute a value (a store, an
  /// increment, a call that may)? A call of a program's function whose body
  /// only computes and returns a value (`static T init() { return T(0); }`)
  /// does not: nvcc inlines it into a select. Calls of the system headers'
  /// functions may, unless declared const or pure.
  bool hasEffects(const Expr *e, int depth = 0) const;

public:
  /// Weights by statement, valid for one kernel walk (walkKernel clears it:
  /// statements of another AST may reuse the addresses).
  static std::unordered_map<const Stmt *, int> &weightMemo() {
    static thread_local std::unordered_map<const Stmt *, int> memo;
    return memo;
  }

private:
  static inline thread_local int WeightDepth = 0;

  /// Records a branch at `s` reached by the lanes of the current mask.
  BranchSite &recordBranch(BranchSite::Kind kind, const Stmt *s,
                           const Expr *condExpr, LaneExpr cond, int weight);

  static bool isBarrier(StringRef name);
  static bool isWarpCollective(StringRef name);

  // --- values -------------------------------------------------------------
  int origin(const Expr *e);
  std::string text(const Expr *e);
  /// `e`'s source range. Clang finds a binary operator's start by walking
  /// down its left operands, once per node: a sum of N terms asked for each
  /// of its prefixes costs N^2. The starts found are kept (Begins).
  SourceRange rangeOf(const Expr *e);
  llvm::DenseMap<const Expr *, SourceLocation> Begins;
  Val intVal(LaneExpr v) { return Val{Val::Int, std::move(v)}; }
  Val opaque(const Expr *e, bool varying);
  bool varying(const Val &v);
  LaneExpr fullMask() { return land(OuterMask, Mask); }
  /// fullMask(), or the constant 1 where every lane reaches the point.
  LaneExpr reachMask() {
    LaneExpr m = fullMask();
    return m ? m : cst(1);
  }

  Val param(const ParmVarDecl *p);

  std::optional<int64_t> constant(const Expr *e);

  static int builtinDim(StringRef name);
  /// The index the built-in variable `var` gives per dimension (threadIdx,
  /// blockIdx, blockDim, gridDim); null for any other name.
  using IndexFn = LaneExpr (*)(int);
  static IndexFn builtinIndex(StringRef var);

  /// threadIdx.x and friends: a property access on a builtin variable.
  LaneExpr builtin(const Expr *e);

  Val rvalue(const Expr *e);

  Val cast(const CastExpr *ce);

  Val declRef(const DeclRefExpr *d);

  Val merge(const LaneExpr &c, const Val &t, const Val &f, const Expr *e);
  /// `c ? a : b`: `arm` applied to each arm under the lanes that take it
  /// (rvalue, load, recordOf), merged.
  Val eachArm(const ConditionalOperator *c, const LaneExpr &cnd,
              const std::function<Val(const Expr *)> &arm);

  static Op binaryOp(BinaryOperatorKind k);

  int64_t pointeeBytes(QualType ptrType);

  /// p + i (or i + p, p - i): the offset moves by i elements.
  Val pointerArith(const Val &p, const Val &i, QualType ptrType, bool sub);

  const VarDecl *localVar(const Expr *e);

  Val binary(const BinaryOperator *b);

  Val unary(const UnaryOperator *u);

  LaneExpr condition(const Expr *e);

  // --- objects (WalkerRecords.cpp) --------------------------------------------
  /// The value of a struct- or class-typed expression: a local object, a
  /// by-value kernel parameter, a constructor run, an aggregate, a call.
  Val recordOf(const Expr *e);
  /// A kernel parameter of struct type: its pointer fields are allocations
  /// of their own, its integer fields uniform unknowns.
  Val paramRecord(const ParmVarDecl *p);
  /// The object `base` designates when it is one the walker holds (a local,
  /// `this`, a by-value parameter, a field of one of these).
  std::optional<Val> objectOf(const Expr *base, bool arrow);
  /// A pointer variable that holds the address of a local object (a callee's
  /// `P *p` bound to the caller's `&obj`): the variable, whose value is the
  /// object itself. Null for any other pointer.
  const VarDecl *heldPointer(const Expr *e);
  /// `&obj` of a local object the walker holds, or a pointer heldPointer()
  /// knows: the variable holding the object.
  const VarDecl *addressedObject(const Expr *arg);
  /// `obj.field` read from an object the walker holds.
  std::optional<Val> fieldRead(const Expr *e);
  /// `obj.field = value` on an object the walker holds: true if handled.
  bool fieldWrite(const Expr *lhs, const Val &value);
  Val fieldOf(const Val &obj, const FieldDecl *f, const Expr *e);
  Val opaqueRecord(bool varying);
  /// The value of a call to a built-in index's conversion to dim3 or uint3
  /// or to a thread block's or the grid's member (cooperative groups), which
  /// the walker knows without its body; none for any other call.
  std::optional<Val> indexCall(const CallExpr *c);
  /// A dim3 or uint3 (`t`) whose x, y and z are of(0), of(1) and of(2).
  Val indexVector(QualType t, const std::function<LaneExpr(int)> &of,
                  const Expr *at);
  /// Does any field of `r` (or of an object in it) differ between lanes?
  bool recordVaries(const RecordVal &r);
  Val construct(const CXXConstructExpr *c);
  Val closure(const clang::LambdaExpr *le);
  /// In the call operator of a lambda just entered: the captured variables
  /// the body reads, from the closure object or (by reference) the caller.
  void lambdaCaptures(const clang::CXXMethodDecl *op,
                      const std::shared_ptr<const RecordVal> &object,
                      const VarEnv &caller);

  // --- memory ---------------------------------------------------------------
  static Space spaceOf(const VarDecl *v);
  bool pointsIntoSharedArrays(const VarDecl *v);
  std::map<const VarDecl *, bool> SharedPointerVars;
  /// A variable its function assigns literals only (`found = 1`): a flag
  /// or a state, no size (memoized).
  bool setOnlyToLiterals(const VarDecl *v);
  std::map<const VarDecl *, bool> LiteralOnlyVars;
  /// A thread's own array initialized from a list and only ever read by
  /// subscript (`int64_t offsets[] = {i, i, 0};`): its elements' values.
  std::map<const VarDecl *, std::vector<Val>> ReadOnlyArrays;
  /// The kernel being walked.
  const FunctionDecl *Kernel = nullptr;
  /// An integer at a constant byte offset inside a by-value struct parameter
  /// of the kernel (`acc.strides_[1]`, `p.dims[0]`, also read through a
  /// method of the object): one value for the whole grid, a parameter of its
  /// own, named by its path. Nothing where the offset holds no integer
  /// element, or the kernel writes into the parameter.
  std::optional<Val> parameterElement(const VarDecl *v, int64_t at, QualType t);
  /// Is `v` the kernel's own by-value record parameter, never written (its
  /// elements are the launch's values, the same for every thread)?
  bool kernelParamCopy(const VarDecl *v) const;
  std::map<std::pair<const VarDecl *, int64_t>, int> ParamElementAtoms;
  std::set<const VarDecl *> ParamsWritten;
  /// The value each load of a known allocation read, by allocation,
  /// address (without source origins) and type, until anything may write
  /// memory (a store, an atomic, a call warplint does not walk) or a loop
  /// begins or ends: a second load of one element reads the same value, as
  /// the one load nvcc keeps for both does (`e[p[i]] - e[p[i + 1]]` and
  /// `e[p[i]] + e[p[i + 1]]` on the next line).
  std::map<std::tuple<uint64_t, const Node *, const void *>, Val> LoadedValues;
  OriginFreeMemo LoadedMemo;
  /// The addresses LoadedMemo was asked about, held: its keys are the
  /// nodes' addresses, which a freed node would hand to another.
  std::vector<LaneExpr> LoadedAddresses;
  /// Forgets the loads' values (anything may have written memory), and with
  /// them the addresses named for them: a kernel of 40,000 statements, each
  /// a store, held an origin-free copy of every address it loaded from.
  void forgetLoads() {
    LoadedValues.clear();
    LoadedMemo.clear();
    LoadedAddresses.clear();
  }
  /// Read once per array and kernel (a function inlined at every call
  /// declares its arrays again).
  bool onlyReadBySubscript(const VarDecl *v);
  std::map<const VarDecl *, bool> ReadOnlyChecked;
  Val dataPointer(const std::string &name, const std::string &why);

  int64_t bytesOf(QualType t);

  /// The memory an lvalue designates, if it is in global, shared or constant
  /// memory; nothing for locals (registers or the thread's local memory).
  std::optional<Addr> lvalue(const Expr *e);
  /// The address of a thread's own object, or of a member or element of
  /// one (`&r`, `pl.v`, `p.h` of a local union): a pointer into registers
  /// or local memory, whose accesses are no shared or global ones.
  std::optional<Val> localAddress(const Expr *e);

  void record(const Expr *e, const Addr &a, bool store, bool atomic = false);

  /// `tile[i][j]` on a variable of constant array type: the subscripts per
  /// dimension (evaluated again without recording the loads inside them).
  std::optional<ArrayAccess> arrayAccess(const Expr *e);

  Val load(const Expr *lv, const Expr *whole);
  /// The value of a pointer read from memory at `at` (see WalkerMemory.cpp).
  Val loadedPointer(const Expr *lv, const Val &at);
  VarEnv armOf(const VarEnv &env, const LaneExpr &c, bool taken);
  /// An access through a pointer the walker does not follow (what a library
  /// call returns, an integer cast to a pointer): recorded, not evaluated,
  /// with the reason, instead of dropped.
  std::optional<Addr> unknownPointer(const Expr *ptr, const Expr *e);

  // --- calls ----------------------------------------------------------------
  /// The object a cuda::atomic_ref (or std::atomic_ref) refers to: the
  /// argument of the constructor that built it, through locals and copies.
  const Expr *atomicRefTarget(const Expr *obj);
  Val call(const CallExpr *c);

  /// Runs a device function's body in the caller's context: parameters bound
  /// to the argument values, accesses masked by the caller's condition.
  Val inlineCall(const CallExpr *c, const FunctionDecl *def);

  // --- intrinsics (WalkerIntrinsics.cpp) ----------------------------------
  /// The accesses of a toolkit intrinsic the hardware makes per lane
  /// (cp.async wrappers, wmma fragments, cooperative-groups copies): true if
  /// `c` is one (its value in `out`).
  bool intrinsicCall(const CallExpr *c, StringRef name, Val &out);
  /// Inline PTX: the accesses of the memory instructions it holds (ld/st,
  /// ldmatrix, stmatrix, cp.async), and what it writes to its outputs.
  void asmStmt(const GCCAsmStmt *a);
  /// Records an access an intrinsic makes: `bytes` at `ptr` by the lanes
  /// of the current mask for which `lanes` holds (null: all), reported at
  /// `at` as `intrinsic`.
  /// cub's block collectives (cub::BlockReduce, BlockScan, ...): library
  /// code whose shared traffic nvcc reports on the program's call.
  bool cubCollective(const CallExpr *c, StringRef name, Val &out);
  /// cub::BlockLoad::Load and cub::BlockStore::Store on a pointer: the
  /// global accesses of their algorithm, and the exchange through the
  /// shared TempStorage where it has one; cub::BlockExchange's arrangement
  /// changes (`StripedToBlocked`...): that exchange alone (`args`: the
  /// call's arguments, walked). False where not modelled (a vectorized
  /// algorithm, an iterator): the caller reports it so.
  bool cubBlockIO(const CallExpr *c,
                  const ClassTemplateSpecializationDecl *spec, StringRef cname,
                  StringRef name, const std::optional<Addr> &storage,
                  const std::vector<Val> &args, const std::string &what);
  /// Double-precision sin or cos of the math library: the loads of its
  /// coefficient table.
  bool mathTable(const CallExpr *c, StringRef name, Val &out);
  /// cooperative_groups::memcpy_async(group, dst, src, bytes).
  void groupCopy(const CallExpr *c, const std::string &what);
  /// One lane's asynchronous copy: its global read and its shared write
  /// (`bypass`: cp.async.cg, which the wrappers use for 16 bytes).
  void recordCopy(const Expr *srcAt, const Expr *dstAt, const Val &src,
                  const Val &dst, int bytes, bool bypass, LaneExpr lanes,
                  const std::string &intrinsic);
  void recordIntrinsic(const Expr *at, const Val &ptr, int bytes, bool store,
                       LaneExpr lanes, const std::string &intrinsic);
  /// Records an access warplint does not model, so that it is reported as
  /// "unknown: <intrinsic>: <why>" instead of left out.
  void recordUnknown(const Expr *at, Space space, bool store,
                     const std::string &intrinsic, const std::string &why);
  /// A new access of an intrinsic with what every such access shares (its
  /// place, order and calls); null past the per-kernel limit (counted).
  AccessSite *intrinsicSite(const Expr *at, Space space, bool store,
                            const std::string &intrinsic);
  /// The lane index within its warp (linear thread index % 32).
  LaneExpr laneIndex();
  /// threadIdx linearized over the block (x fastest).
  LaneExpr linearThreadIndex();
  /// A PTX special register an asm statement reads (`laneid`, `tid` with
  /// `dim` "x", the `lanemask_*` masks...); null for one the model does not
  /// know (`%warpid` is a hardware slot, not the warp's index).
  LaneExpr specialRegister(StringRef name, StringRef dim);
  /// Alternatives (AccessSite::alternatives) for the next recordIntrinsic.
  std::vector<std::pair<LaneExpr, std::string>> NextAlternatives;
  /// While inline PTX is walked: the end of its statement, where nvcc's
  /// line table puts the instructions it holds.
  SourceLocation AsmAt;

  // --- statements -------------------------------------------------------------
  void declare(const VarDecl *v);

  VarEnv mergeEnvs(const LaneExpr &c, const VarEnv &t, const VarEnv &f);

  void ifStmt(const IfStmt *s);
  /// Walks a switch's body case by case, each under the lanes whose value
  /// picks its label or falls through to it; false (nothing walked) where a
  /// label is not at the body's top level or a case value is no constant.
  bool switchCases(const SwitchStmt *sw, const LaneExpr &value);

  /// Forget what a loop body changes: each assigned local becomes unknown,
  /// lane-varying if its value so far is or if `varies` (lanes leave the
  /// loop at different iterations). A pointer stays a pointer into the same
  /// memory, at an unknown offset.
  /// The variables named in `vary` become lane-varying whatever their
  /// value so far: one the statement only steps by a constant (`cnt++`,
  /// `cnt += 2`), from the value mapped to it (its value before the loop),
  /// is that value plus the step times a count each lane has of its own
  /// (Atom::stepCount). The function returns the variables it made one
  /// unknown value for the warp.
  std::set<const VarDecl *>
  forgetAssigned(const Stmt *body, const std::set<const VarDecl *> &keep,
                 bool varies = false,
                 const std::map<const VarDecl *, LaneExpr> &vary = {});

  /// Variables a loop body puts back, as its last assignment to them, to
  /// the value they held when the loop began (`k = restart;` with
  /// `restart` = k before the loop and unchanged by the body): they hold
  /// that value at the top of every iteration, and after the loop unless a
  /// `break` can leave before the reset (loop() checks that). `inBody` and
  /// `inInc`: what the body and the increment assign.
  std::set<const VarDecl *>
  restoredVars(const Stmt *body, const std::set<const VarDecl *> &inBody,
               const std::set<const VarDecl *> &inInc);

  /// The step of a tiled loop that the body clamps on the last tile (`for
  /// (j = 0; j < n; j += len) { if (j + len > n) len = n - j; ... }`): the
  /// clamp fires only on the iteration after which `j + len` = n ends the
  /// loop, so every iteration that runs starts with `len` at its value
  /// before the loop. After the loop it may hold the clamped value.
  std::set<const VarDecl *>
  clampedSteps(const Expr *cond, const Expr *inc, const Stmt *body,
               const std::set<const VarDecl *> &inBody);

  /// Variables a loop body updates at its top level and nowhere else, with
  /// their updates in order: one update of any form (`i = 2 * i + 1;`), or
  /// several that each add or subtract a value the body does not change
  /// (`i += width;` after each part of an unrolled body).
  std::map<const VarDecl *, std::vector<const Expr *>>
  bodyInductions(const Stmt *body,
                 std::map<const VarDecl *, const Expr *> &guards,
                 std::map<const VarDecl *, struct NestedSteps> *nested = nullptr);

  /// A loop as recurrences: each induction variable (from the increment of a
  /// for, or updated once at the top level of the body) is init, then its
  /// update once per iteration, while the condition holds. The body is walked
  /// once with those variables bound, masked by the lanes still in the loop.
  void loop(const Expr *cond, const Expr *inc, const Stmt *body,
            bool testAfterBody = false);

  void forStmt(const ForStmt *s);

  void stmt(const Stmt *s);
};

/// Is `e` a read of a variable no constant expression can read: a parameter,
/// or a variable neither constexpr nor const (a reference or an array is left
/// to Clang)?
/// Then neither it nor arithmetic on it is a constant, and Clang's evaluator
/// need not be asked.
bool readsPlainVariable(const Expr *e);

/// Is `s` straight-line code, one basic block once nvcc inlines its calls
/// (no branch but an `if` on a constant, no loop, jump, barrier, atomic or
/// memory `asm`)? `depth`: how many calls deep `s` is (0: the kernel's own
/// code, whose `return` is a jump; an inlined callee's is not).
bool straightLine(const Stmt *s, const ASTContext &ac, int depth = 0);

} // namespace detail
} // namespace warplint

#endif
