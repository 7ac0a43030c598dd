#include "KernelWalker.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace warplint {
namespace {

constexpr int MaxInlineDepth = 8;
constexpr size_t MaxAccesses = 4000;

/// A value as the walker knows it: an integer-like LaneExpr, or a pointer
/// into an allocation (`base` plus a byte offset).
struct Val {
  enum Kind { Int, Ptr } kind = Int;
  LaneExpr v; // Int: the value; Ptr: byte offset from base
  const ValueDecl *base = nullptr;
  Space space = Space::Global;
  bool isPtr() const { return kind == Ptr && v; }
};

struct Addr {
  Val ptr;
  int elementBytes = 0;
  bool structMember = false;
  int64_t elementStride = 0;
};

using VarEnv = std::map<const VarDecl *, Val>;

LaneExpr land(const LaneExpr &a, const LaneExpr &b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return bin(Op::LAnd, a, b);
}

/// Variables a statement assigns to (=, op=, ++, --).
class AssignedVars : public RecursiveASTVisitor<AssignedVars> {
public:
  std::set<const VarDecl *> vars;
  void note(const Expr *e) {
    if (auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (auto *v = dyn_cast<VarDecl>(d->getDecl()))
        vars.insert(v);
  }
  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->isAssignmentOp())
      note(b->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *u) {
    if (u->isIncrementDecrementOp())
      note(u->getSubExpr());
    return true;
  }
};

class Walker {
public:
  Walker(ASTContext &ac, KernelModel &m,
         const std::map<std::string, int64_t> &params)
      : AC(ac), M(m), Params(params) {}

  void walkFunction(const FunctionDecl *fd) { stmt(fd->getBody()); }

private:
  ASTContext &AC;
  KernelModel &M;
  const std::map<std::string, int64_t> &Params;
  VarEnv Env;
  LaneExpr OuterMask; // condition for reaching the current function
  LaneExpr Mask;      // condition within the current function
  bool Terminated = false;
  bool NoRecord = false;
  int Depth = 0;
  std::vector<const CallExpr *> Calls;
  std::vector<std::pair<LaneExpr, Val>> *Returns = nullptr;
  std::map<const ValueDecl *, int> ParamAtoms;
  std::vector<const FunctionDecl *> Inlining;
  int Seq = 0, Epoch = 0;
  int RestWeight = 0; // statements after the current one in its block

  /// Statements a warp runs in `s`: a rough count of the work a split warp
  /// repeats (loops count as several, calls as two).
  static int weight(const Stmt *s) {
    if (!s)
      return 0;
    if (auto *cs = dyn_cast<CompoundStmt>(s)) {
      int w = 0;
      for (const Stmt *c : cs->body())
        w += weight(c);
      return w;
    }
    if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s)) {
      int w = 0;
      for (const Stmt *c : s->children())
        w += weight(c);
      return 8 + 4 * w;
    }
    if (auto *is = dyn_cast<IfStmt>(s))
      return 1 + weight(is->getThen()) + weight(is->getElse());
    if (isa<NullStmt>(s))
      return 0;
    int calls = 0;
    std::function<void(const Stmt *)> count = [&](const Stmt *x) {
      if (!x)
        return;
      if (isa<PseudoObjectExpr>(x))
        return; // threadIdx.x and friends: a register read
      if (auto *c = dyn_cast<CallExpr>(x)) {
        calls += 2;
        // A call costs what the function it calls does (a few levels deep);
        // an intrinsic from a system header costs its two.
        const FunctionDecl *def = nullptr;
        auto *fd = c->getDirectCallee();
        if (fd && fd->hasBody(def) && def && WeightDepth < 3 &&
            !def->getASTContext().getSourceManager().isInSystemHeader(
                def->getLocation())) {
          ++WeightDepth;
          calls += weight(def->getBody());
          --WeightDepth;
        }
      }
      for (const Stmt *c : x->children())
        count(c);
    };
    count(s);
    return 1 + calls;
  }
  static inline thread_local int WeightDepth = 0;

  /// Records a branch at `s` reached by the lanes of the current mask.
  BranchSite &recordBranch(BranchSite::Kind kind, const Stmt *s,
                           const Expr *condExpr, LaneExpr cond, int weight) {
    BranchSite b;
    b.kind = kind;
    b.stmt = s;
    b.condExpr = condExpr;
    b.cond = std::move(cond);
    b.mask = fullMask();
    b.weight = weight;
    b.calls = Calls;
    M.branches.push_back(std::move(b));
    return M.branches.back();
  }

  static bool isBarrier(StringRef name) {
    return name == "__syncthreads" || name == "__syncthreads_count" ||
           name == "__syncthreads_and" || name == "__syncthreads_or" ||
           name == "__syncwarp" || name == "__barrier_sync";
  }
  static bool isWarpCollective(StringRef name) {
    return name.ends_with("_sync") || name == "__syncwarp" ||
           name == "__shfl" || name == "__shfl_up" || name == "__shfl_down" ||
           name == "__shfl_xor" || name == "__any" || name == "__all" ||
           name == "__ballot" || name == "__activemask";
  }

  // --- values -------------------------------------------------------------
  int origin(const Expr *e) {
    M.origins.push_back(e->getSourceRange());
    return int(M.origins.size()) - 1;
  }
  std::string text(const Expr *e) {
    const SourceManager &sm = AC.getSourceManager();
    CharSourceRange r = CharSourceRange::getTokenRange(e->getSourceRange());
    std::string s =
        Lexer::getSourceText(r, sm, AC.getLangOpts()).str();
    return s.empty() ? "value" : s;
  }
  Val intVal(LaneExpr v) { return Val{Val::Int, std::move(v)}; }
  Val opaque(const Expr *e, bool varying) {
    int a = M.ctx.addAtom(text(e), varying ? AtomKind::Data : AtomKind::Uniform);
    return intVal(varying ? data(a) : unknown(a));
  }
  bool varying(const Val &v) {
    return v.v && props(v.v, M.ctx).laneVarying;
  }
  LaneExpr fullMask() { return land(OuterMask, Mask); }

  Val param(const ParmVarDecl *p) {
    if (p->getType()->isPointerType() || p->getType()->isArrayType()) {
      Val v{Val::Ptr, cst(0), p, Space::Global};
      return v;
    }
    if (Depth == 0 && p->getType()->isIntegralOrEnumerationType()) {
      auto given = Params.find(p->getName().str());
      if (given != Params.end())
        return intVal(cst(given->second));
    }
    auto it = ParamAtoms.find(p);
    if (it == ParamAtoms.end())
      it = ParamAtoms
               .emplace(p, M.ctx.addAtom(p->getName().str(),
                                         AtomKind::Parameter))
               .first;
    return intVal(unknown(it->second));
  }

  std::optional<int64_t> constant(const Expr *e) {
    if (e->isValueDependent() || e->isTypeDependent() ||
        !e->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    Expr::EvalResult r;
    if (e->HasSideEffects(AC) || !e->EvaluateAsInt(r, AC))
      return std::nullopt;
    return r.Val.getInt().getExtValue();
  }

  static int builtinDim(StringRef name) {
    return name == "x" ? 0 : name == "y" ? 1 : name == "z" ? 2 : -1;
  }

  /// threadIdx.x and friends: a property access on a builtin variable.
  LaneExpr builtin(const Expr *e) {
    const Expr *base = nullptr;
    StringRef member;
    if (auto *po = dyn_cast<PseudoObjectExpr>(e)) {
      if (auto *pr = dyn_cast<MSPropertyRefExpr>(
              po->getSyntacticForm()->IgnoreParens())) {
        base = pr->getBaseExpr();
        member = pr->getPropertyDecl()->getName();
      }
    } else if (auto *me = dyn_cast<MemberExpr>(e)) {
      base = me->getBase();
      member = me->getMemberDecl()->getName();
    }
    if (!base)
      return nullptr;
    base = base->IgnoreParenImpCasts();
    if (auto *ov = dyn_cast<OpaqueValueExpr>(base))
      base = ov->getSourceExpr() ? ov->getSourceExpr()->IgnoreParenImpCasts()
                                 : base;
    auto *dre = dyn_cast<DeclRefExpr>(base);
    int d = builtinDim(member);
    if (!dre || d < 0)
      return nullptr;
    StringRef var = dre->getDecl()->getName();
    if (var == "threadIdx") return threadIdx(d);
    if (var == "blockIdx") return blockIdx(d);
    if (var == "blockDim") return blockDim(d);
    if (var == "gridDim") return gridDim(d);
    return nullptr;
  }

  Val rvalue(const Expr *e) {
    e = e->IgnoreParens();
    if (auto c = constant(e))
      return intVal(cst(*c));
    if (LaneExpr b = builtin(e))
      return intVal(withOrigin(b, origin(e)));
    if (auto *ce = dyn_cast<CastExpr>(e))
      return cast(ce);
    if (auto *d = dyn_cast<DeclRefExpr>(e))
      return declRef(d);
    if (auto *b = dyn_cast<BinaryOperator>(e))
      return binary(b);
    if (auto *u = dyn_cast<UnaryOperator>(e))
      return unary(u);
    if (auto *c = dyn_cast<ConditionalOperator>(e)) {
      LaneExpr cnd = condition(c->getCond());
      if (!NoRecord && (c->getTrueExpr()->HasSideEffects(AC) ||
                        c->getFalseExpr()->HasSideEffects(AC)))
        recordBranch(BranchSite::Ternary, c, c->getCond(), cnd,
                     weight(c->getTrueExpr()) + weight(c->getFalseExpr()));
      LaneExpr saved = Mask;
      Mask = land(saved, cnd);
      Val t = rvalue(c->getTrueExpr());
      Mask = land(saved, un(Op::LNot, cnd));
      Val f = rvalue(c->getFalseExpr());
      Mask = saved;
      return merge(cnd, t, f, e);
    }
    if (auto *cc = dyn_cast<CXXConstructExpr>(e)) {
      // Copying a struct or vector (float4 v = p[i]) loads all of it.
      if (cc->getNumArgs() == 1 && cc->getConstructor() &&
          cc->getConstructor()->isCopyOrMoveConstructor() &&
          cc->getArg(0)->isGLValue())
        return load(cc->getArg(0), e);
    }
    if (auto *oc = dyn_cast<CXXOperatorCallExpr>(e)) {
      // Struct assignment (p[i] = v) is a call to operator=.
      if (oc->getOperator() == OO_Equal && oc->getNumArgs() == 2) {
        const Expr *src = oc->getArg(1);
        if (src->isGLValue())
          load(src, e);
        else
          rvalue(src);
        if (auto a = lvalue(oc->getArg(0)))
          record(oc->getArg(0), *a, true);
        return opaque(e, true);
      }
    }
    if (auto *c = dyn_cast<CallExpr>(e))
      return call(c);
    if (auto *w = dyn_cast<FullExpr>(e))
      return rvalue(w->getSubExpr());
    if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
      return rvalue(m->getSubExpr());
    if (auto *s = dyn_cast<SubstNonTypeTemplateParmExpr>(e))
      return rvalue(s->getReplacement());
    if (auto *b = dyn_cast<CXXBindTemporaryExpr>(e))
      return rvalue(b->getSubExpr());
    if (auto *po = dyn_cast<PseudoObjectExpr>(e))
      if (po->getResultExpr())
        return rvalue(po->getResultExpr());
    // Anything else: walk it for the accesses it makes, value unknown.
    bool anyVarying = false;
    for (const Stmt *child : e->children())
      if (auto *ce = dyn_cast_or_null<Expr>(child))
        anyVarying |= varying(rvalue(ce));
    return opaque(e, anyVarying);
  }

  Val cast(const CastExpr *ce) {
    const Expr *sub = ce->getSubExpr();
    switch (ce->getCastKind()) {
    case CK_LValueToRValue:
      return load(sub, ce);
    case CK_ArrayToPointerDecay: {
      if (auto a = lvalue(sub))
        return a->ptr;
      return opaque(ce, false);
    }
    case CK_IntegralToBoolean: {
      Val v = rvalue(sub);
      return intVal(bin(Op::Ne, v.v, cst(0)));
    }
    case CK_FunctionToPointerDecay:
    case CK_NullToPointer:
      return opaque(ce, false);
    default:
      return rvalue(sub);
    }
  }

  Val declRef(const DeclRefExpr *d) {
    const ValueDecl *decl = d->getDecl();
    if (decl->getName() == "warpSize")
      return intVal(cst(WarpSize));
    if (auto *v = dyn_cast<VarDecl>(decl)) {
      auto it = Env.find(v);
      if (it != Env.end())
        return it->second;
      if (auto *p = dyn_cast<ParmVarDecl>(v))
        return Env[v] = param(p);
      if (v->getType()->isArrayType())
        if (auto a = lvalue(d))
          return a->ptr;
    }
    return opaque(d, false);
  }

  Val merge(const LaneExpr &c, const Val &t, const Val &f, const Expr *e) {
    if (t.kind == Val::Int && f.kind == Val::Int)
      return intVal(select(c, t.v, f.v));
    if (t.isPtr() && f.isPtr() && t.base == f.base)
      return Val{Val::Ptr, select(c, t.v, f.v), t.base, t.space};
    return opaque(e, true);
  }

  static Op binaryOp(BinaryOperatorKind k) {
    switch (k) {
    case BO_Add: case BO_AddAssign: return Op::Add;
    case BO_Sub: case BO_SubAssign: return Op::Sub;
    case BO_Mul: case BO_MulAssign: return Op::Mul;
    case BO_Div: case BO_DivAssign: return Op::Div;
    case BO_Rem: case BO_RemAssign: return Op::Rem;
    case BO_Shl: case BO_ShlAssign: return Op::Shl;
    case BO_Shr: case BO_ShrAssign: return Op::Shr;
    case BO_And: case BO_AndAssign: return Op::And;
    case BO_Or: case BO_OrAssign: return Op::Or;
    case BO_Xor: case BO_XorAssign: return Op::Xor;
    case BO_LT: return Op::Lt;
    case BO_LE: return Op::Le;
    case BO_GT: return Op::Gt;
    case BO_GE: return Op::Ge;
    case BO_EQ: return Op::Eq;
    case BO_NE: return Op::Ne;
    case BO_LAnd: return Op::LAnd;
    case BO_LOr: return Op::LOr;
    default: return Op::Const;
    }
  }

  int64_t pointeeBytes(QualType ptrType) {
    QualType pt = ptrType->getPointeeType();
    if (pt.isNull() || pt->isIncompleteType() || pt->isVoidType())
      return 1;
    return AC.getTypeSizeInChars(pt).getQuantity();
  }

  /// p + i (or i + p, p - i): the offset moves by i elements.
  Val pointerArith(const Val &p, const Val &i, QualType ptrType, bool sub,
                   const Expr *e) {
    LaneExpr step = bin(Op::Mul, i.v, cst(pointeeBytes(ptrType)));
    Val r = p;
    r.v = withOrigin(bin(sub ? Op::Sub : Op::Add, p.v, step), origin(e));
    return r;
  }

  const VarDecl *localVar(const Expr *e) {
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    if (!d)
      return nullptr;
    auto *v = dyn_cast<VarDecl>(d->getDecl());
    if (!v || v->hasAttr<CUDASharedAttr>() || v->hasAttr<CUDAConstantAttr>() ||
        v->hasGlobalStorage() || v->getType()->isArrayType())
      return nullptr;
    if (v->getType()->isReferenceType())
      return nullptr; // a reference writes through to memory
    return v;
  }

  Val binary(const BinaryOperator *b) {
    BinaryOperatorKind k = b->getOpcode();
    if (k == BO_Comma) {
      rvalue(b->getLHS());
      return rvalue(b->getRHS());
    }
    if (b->isAssignmentOp()) {
      const Expr *lhs = b->getLHS();
      if (const VarDecl *v = localVar(lhs)) {
        Val rhs = rvalue(b->getRHS());
        if (k != BO_Assign) {
          Val old = rvalue(lhs);
          if (old.isPtr() && rhs.kind == Val::Int)
            rhs = pointerArith(old, rhs, lhs->getType(), k == BO_SubAssign, b);
          else if (old.kind == Val::Int && rhs.kind == Val::Int)
            rhs = intVal(withOrigin(bin(binaryOp(k), old.v, rhs.v), origin(b)));
          else
            rhs = opaque(b, true);
        }
        return Env[v] = rhs;
      }
      Val rhs = rvalue(b->getRHS());
      if (auto a = lvalue(lhs)) {
        if (k != BO_Assign)
          record(lhs, *a, false);
        record(lhs, *a, true);
      }
      return rhs;
    }
    if (k == BO_LAnd || k == BO_LOr) {
      LaneExpr l = condition(b->getLHS());
      LaneExpr saved = Mask;
      Mask = land(saved, k == BO_LAnd ? l : un(Op::LNot, l));
      LaneExpr r = condition(b->getRHS());
      Mask = saved;
      return intVal(withOrigin(bin(binaryOp(k), l, r), origin(b)));
    }
    Val l = rvalue(b->getLHS()), r = rvalue(b->getRHS());
    if ((k == BO_Add || k == BO_Sub) && l.isPtr() && r.kind == Val::Int)
      return pointerArith(l, r, b->getLHS()->getType(), k == BO_Sub, b);
    if (k == BO_Add && r.isPtr() && l.kind == Val::Int)
      return pointerArith(r, l, b->getRHS()->getType(), false, b);
    if (k == BO_Sub && l.isPtr() && r.isPtr() && l.base == r.base)
      return intVal(bin(Op::Div, bin(Op::Sub, l.v, r.v),
                        cst(pointeeBytes(b->getLHS()->getType()))));
    Op op = binaryOp(k);
    if (op == Op::Const || l.kind != Val::Int || r.kind != Val::Int)
      return opaque(b, varying(l) || varying(r));
    if (!b->getType()->isIntegralOrEnumerationType() &&
        !b->getType()->isBooleanType()) {
      // Floating-point arithmetic never forms an index the model can use.
      return opaque(b, varying(l) || varying(r));
    }
    return intVal(withOrigin(bin(op, l.v, r.v), origin(b)));
  }

  Val unary(const UnaryOperator *u) {
    const Expr *sub = u->getSubExpr();
    switch (u->getOpcode()) {
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: {
      bool inc = u->isIncrementOp();
      if (const VarDecl *v = localVar(sub)) {
        Val old = rvalue(sub), now;
        if (old.isPtr())
          now = pointerArith(old, intVal(cst(1)), sub->getType(), !inc, u);
        else
          now = intVal(bin(inc ? Op::Add : Op::Sub, old.v, cst(1)));
        Env[v] = now;
        return u->isPrefix() ? now : old;
      }
      if (auto a = lvalue(sub)) {
        record(sub, *a, false);
        record(sub, *a, true);
      }
      return opaque(u, true);
    }
    case UO_AddrOf:
      if (auto a = lvalue(sub))
        return a->ptr;
      return opaque(u, false);
    case UO_Plus:
      return rvalue(sub);
    case UO_Minus:
    case UO_Not:
    case UO_LNot: {
      Val v = rvalue(sub);
      if (v.kind != Val::Int)
        return opaque(u, varying(v));
      Op op = u->getOpcode() == UO_Minus ? Op::Neg
              : u->getOpcode() == UO_Not ? Op::Not
                                         : Op::LNot;
      return intVal(withOrigin(un(op, v.v), origin(u)));
    }
    default:
      return opaque(u, varying(rvalue(sub)));
    }
  }

  LaneExpr condition(const Expr *e) {
    Val v = rvalue(e);
    if (v.kind == Val::Int)
      return v.v;
    return opaque(e, varying(v)).v;
  }

  // --- memory ---------------------------------------------------------------
  static Space spaceOf(const VarDecl *v) {
    if (v->hasAttr<CUDASharedAttr>())
      return Space::Shared;
    if (v->hasAttr<CUDAConstantAttr>())
      return Space::Constant;
    if (v->hasGlobalStorage())
      return Space::Global;
    return Space::Local;
  }

  int64_t bytesOf(QualType t) {
    if (t.isNull() || t->isIncompleteType() || t->isDependentType())
      return 0;
    return AC.getTypeSizeInChars(t).getQuantity();
  }

  /// The memory an lvalue designates, if it is in global, shared or constant
  /// memory; nothing for locals (registers or the thread's local memory).
  std::optional<Addr> lvalue(const Expr *e) {
    e = e->IgnoreParens();
    if (auto *ce = dyn_cast<ImplicitCastExpr>(e))
      if (ce->getCastKind() == CK_NoOp || ce->getCastKind() == CK_UncheckedDerivedToBase)
        return lvalue(ce->getSubExpr());
    Addr a;
    a.elementBytes = int(bytesOf(e->getType()));
    if (auto *d = dyn_cast<DeclRefExpr>(e)) {
      auto *v = dyn_cast<VarDecl>(d->getDecl());
      if (!v)
        return std::nullopt;
      if (v->getType()->isReferenceType()) {
        auto it = Env.find(v);
        if (it == Env.end() || !it->second.isPtr())
          return std::nullopt;
        a.ptr = it->second;
        return a;
      }
      Space s = spaceOf(v);
      if (s == Space::Local)
        return std::nullopt;
      a.ptr = Val{Val::Ptr, cst(0), v, s};
      return a;
    }
    if (auto *s = dyn_cast<ArraySubscriptExpr>(e)) {
      Val base = rvalue(s->getBase());
      if (!base.isPtr()) {
        rvalue(s->getIdx());
        return std::nullopt;
      }
      Val idx = rvalue(s->getIdx());
      if (idx.kind != Val::Int)
        return std::nullopt;
      a.ptr = base;
      a.ptr.v = bin(Op::Add, base.v,
                    bin(Op::Mul, idx.v, cst(a.elementBytes)));
      a.elementStride = a.elementBytes;
      return a;
    }
    if (auto *u = dyn_cast<UnaryOperator>(e)) {
      if (u->getOpcode() != UO_Deref)
        return std::nullopt;
      Val p = rvalue(u->getSubExpr());
      if (!p.isPtr())
        return std::nullopt;
      a.ptr = p;
      a.elementStride = a.elementBytes;
      return a;
    }
    if (auto *m = dyn_cast<MemberExpr>(e)) {
      auto *field = dyn_cast<FieldDecl>(m->getMemberDecl());
      if (!field || field->isBitField())
        return std::nullopt;
      std::optional<Addr> outer;
      if (m->isArrow()) {
        Val p = rvalue(m->getBase());
        if (!p.isPtr())
          return std::nullopt;
        Addr o;
        o.ptr = p;
        o.elementStride = bytesOf(m->getBase()->getType()->getPointeeType());
        outer = o;
      } else {
        outer = lvalue(m->getBase());
        if (outer)
          outer->elementStride = bytesOf(m->getBase()->getType());
      }
      if (!outer)
        return std::nullopt;
      int64_t off = AC.getFieldOffset(field) / AC.getCharWidth();
      a.ptr = outer->ptr;
      a.ptr.v = bin(Op::Add, outer->ptr.v, cst(off));
      a.elementStride = outer->elementStride;
      a.structMember = a.elementStride > a.elementBytes;
      return a;
    }
    return std::nullopt;
  }

  void record(const Expr *e, const Addr &a, bool store) {
    if (NoRecord || a.ptr.space == Space::Local || a.elementBytes <= 0)
      return;
    if (M.accesses.size() >= MaxAccesses) {
      M.truncated = true;
      return;
    }
    AccessSite s;
    s.access = Access{a.ptr.v, fullMask(), a.elementBytes};
    s.base = a.ptr.base;
    if (a.ptr.space != Space::Global)
      s.array = arrayAccess(e);
    s.space = a.ptr.space;
    s.store = store;
    s.expr = e;
    s.structMember = a.structMember;
    s.elementStride = a.elementStride;
    s.calls = Calls;
    s.seq = Seq++;
    s.epoch = Epoch;
    s.isVolatile = e->getType().isVolatileQualified();
    M.accesses.push_back(std::move(s));
  }

  /// `tile[i][j]` on a variable of constant array type: the subscripts per
  /// dimension (evaluated again without recording the loads inside them).
  std::optional<ArrayAccess> arrayAccess(const Expr *e) {
    std::vector<const Expr *> idx;
    const Expr *cur = e->IgnoreParenImpCasts();
    while (auto *as = dyn_cast<ArraySubscriptExpr>(cur)) {
      idx.insert(idx.begin(), as->getIdx());
      cur = as->getBase()->IgnoreParenImpCasts();
    }
    auto *d = dyn_cast<DeclRefExpr>(cur);
    auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!v || idx.empty())
      return std::nullopt;
    for (const Expr *i : idx) {
      AssignedVars av;
      av.TraverseStmt(const_cast<Expr *>(i));
      if (!av.vars.empty())
        return std::nullopt; // evaluating it again would change the locals
    }
    ArrayAccess out;
    out.var = v;
    QualType t = v->getType();
    while (const auto *at = AC.getAsConstantArrayType(t)) {
      out.dims.push_back(int64_t(at->getSize().getZExtValue()));
      t = at->getElementType();
    }
    if (out.dims.size() != idx.size())
      return std::nullopt;
    bool saved = NoRecord;
    NoRecord = true;
    for (const Expr *i : idx) {
      Val x = rvalue(i);
      if (x.kind != Val::Int) {
        NoRecord = saved;
        return std::nullopt;
      }
      out.subscripts.push_back(x.v);
      out.subscriptExprs.push_back(i);
    }
    NoRecord = saved;
    return out;
  }

  Val load(const Expr *lv, const Expr *whole) {
    if (const VarDecl *v = localVar(lv)) {
      (void)v;
      return rvalue(lv);
    }
    if (auto a = lvalue(lv)) {
      record(lv, *a, false);
      // Every lane loading from one address gets one value.
      return opaque(whole, varying(a->ptr));
    }
    auto *d = dyn_cast<DeclRefExpr>(lv->IgnoreParens());
    if (d)
      return declRef(d);
    if (LaneExpr b = builtin(lv->IgnoreParens()))
      return intVal(withOrigin(b, origin(lv)));
    return opaque(whole, true);
  }

  // --- calls ----------------------------------------------------------------
  Val call(const CallExpr *c) {
    const FunctionDecl *fd = c->getDirectCallee();
    StringRef name = fd && fd->getIdentifier() ? fd->getName() : "";
    // Cooperative groups: block.sync(), cg::sync(block), tile.sync().
    // (CUDA 13 declares thread_block::sync() static, so look at the class
    // that declares the method, not at the call's form.)
    // The free function cg::sync(group) is the same barrier.
    bool cgSync = false;
    if (auto *md = dyn_cast_or_null<CXXMethodDecl>(fd)) {
      if (name == "sync")
        cgSync = md->getParent()->getName().contains("thread_block") ||
                 md->getParent()->getName().contains("grid_group");
    } else if (fd && name == "sync") {
      cgSync = fd->getQualifiedNameAsString().find("cooperative_groups") !=
               std::string::npos;
    }
    if (isBarrier(name) || isWarpCollective(name) || cgSync) {
      if (!NoRecord) {
        SyncSite ss;
        ss.call = c;
        ss.callee = !cgSync ? name.str()
                    : isa<CXXMethodDecl>(fd) ? "thread_block::sync"
                                             : "cooperative_groups::sync";
        ss.mask = fullMask();
        ss.calls = Calls;
        if ((name.ends_with("_sync") || name == "__syncwarp") &&
            c->getNumArgs() >= 1) {
          bool saved = NoRecord;
          NoRecord = true;
          Val m = rvalue(c->getArg(0));
          NoRecord = saved;
          if (m.kind == Val::Int)
            ss.maskArg = m.v;
        }
        M.syncs.push_back(ss);
      }
      if (isBarrier(name) || cgSync)
        ++Epoch;
    }
    if (name == "__activemask" && c->getNumArgs() == 0)
      return intVal(unknown(M.ctx.addAtom("__activemask()", AtomKind::Uniform)));
    if ((name == "min" || name == "max" || name == "umin" || name == "umax" ||
         name == "llmin" || name == "llmax") &&
        c->getNumArgs() == 2) {
      Val a = rvalue(c->getArg(0)), b = rvalue(c->getArg(1));
      if (a.kind == Val::Int && b.kind == Val::Int &&
          c->getType()->isIntegralOrEnumerationType())
        return intVal(withOrigin(
            bin(name.ends_with("min") ? Op::Min : Op::Max, a.v, b.v),
            origin(c)));
      return opaque(c, varying(a) || varying(b));
    }
    if ((name == "__mul24" || name == "__umul24") && c->getNumArgs() == 2) {
      Val a = rvalue(c->getArg(0)), b = rvalue(c->getArg(1));
      return intVal(withOrigin(bin(Op::Mul, a.v, b.v), origin(c)));
    }
    if (name.starts_with("__ld") && c->getNumArgs() == 1) {
      // __ldg(p) and the cache-hinted loads read *p.
      Val p = rvalue(c->getArg(0));
      if (p.isPtr()) {
        Addr a{p, int(pointeeBytes(c->getArg(0)->getType()))};
        a.elementStride = a.elementBytes;
        record(c, a, false);
      }
      return opaque(c, varying(p));
    }
    if (name.starts_with("__st") && c->getNumArgs() == 2) {
      Val p = rvalue(c->getArg(0));
      rvalue(c->getArg(1));
      if (p.isPtr()) {
        Addr a{p, int(pointeeBytes(c->getArg(0)->getType()))};
        a.elementStride = a.elementBytes;
        record(c, a, true);
      }
      return opaque(c, true);
    }
    const FunctionDecl *def = nullptr;
    if (fd && fd->hasBody(def) && def &&
        !AC.getSourceManager().isInSystemHeader(def->getLocation()) &&
        Depth < MaxInlineDepth &&
        std::find(Inlining.begin(), Inlining.end(), def) == Inlining.end())
      return inlineCall(c, def);
    bool anyVarying = false;
    for (const Expr *arg : c->arguments())
      anyVarying |= varying(rvalue(arg));
    return opaque(c, anyVarying || c->getType()->isVoidType() ? true : anyVarying);
  }

  /// Runs a device function's body in the caller's context: parameters bound
  /// to the argument values, accesses masked by the caller's condition.
  Val inlineCall(const CallExpr *c, const FunctionDecl *def) {
    VarEnv callee;
    // A member call's object (`this`) is not modelled; an operator call on an
    // object passes it as the first argument.
    unsigned skip = isa<CXXOperatorCallExpr>(c) && isa<CXXMethodDecl>(def) ? 1 : 0;
    if (auto *mc = dyn_cast<CXXMemberCallExpr>(c))
      rvalue(mc->getImplicitObjectArgument());
    unsigned n = std::min<unsigned>(c->getNumArgs() - skip, def->getNumParams());
    for (unsigned i = 0; i < n; ++i) {
      const ParmVarDecl *p = def->getParamDecl(i);
      const Expr *arg = c->getArg(i + skip);
      if (p->getType()->isReferenceType()) {
        if (auto a = lvalue(arg))
          callee[p] = a->ptr;
        else if (const VarDecl *v = localVar(arg))
          callee[p] = rvalue(arg), (void)v;
        continue;
      }
      callee[p] = rvalue(arg);
    }
    VarEnv savedEnv = std::move(Env);
    LaneExpr savedOuter = OuterMask, savedMask = Mask;
    bool savedTerm = Terminated;
    auto *savedReturns = Returns;
    std::vector<std::pair<LaneExpr, Val>> returns;
    Env = std::move(callee);
    OuterMask = fullMask();
    Mask = nullptr;
    Terminated = false;
    Returns = &returns;
    ++Depth;
    Calls.push_back(c);
    Inlining.push_back(def);
    stmt(def->getBody());
    Inlining.pop_back();
    Calls.pop_back();
    --Depth;
    Env = std::move(savedEnv);
    OuterMask = savedOuter;
    Mask = savedMask;
    Terminated = savedTerm;
    Returns = savedReturns;
    if (returns.empty())
      return opaque(c, true);
    // The last return is the fallback; earlier ones win where they were taken.
    Val result = returns.back().second;
    for (size_t i = returns.size() - 1; i-- > 0;)
      result = merge(returns[i].first ? returns[i].first : cst(1),
                     returns[i].second, result, c);
    return result;
  }

  // --- statements -------------------------------------------------------------
  void declare(const VarDecl *v) {
    if (spaceOf(v) != Space::Local)
      return;
    const Expr *init = v->getInit();
    if (!init) {
      Env.erase(v);
      return;
    }
    if (v->getType()->isReferenceType()) {
      if (auto a = lvalue(init))
        Env[v] = a->ptr;
      else
        Env[v] = rvalue(init);
      return;
    }
    if (v->getType()->isArrayType() || v->getType()->isRecordType()) {
      rvalue(init);
      return;
    }
    Env[v] = rvalue(init);
  }

  VarEnv mergeEnvs(const LaneExpr &c, const VarEnv &t, const VarEnv &f) {
    VarEnv out;
    for (const auto &[v, tv] : t) {
      auto it = f.find(v);
      if (it == f.end())
        continue; // declared inside a branch
      const Val &fv = it->second;
      if (tv.v == fv.v && tv.base == fv.base)
        out[v] = tv;
      else if (tv.kind == fv.kind && tv.base == fv.base)
        out[v] = Val{tv.kind, select(c, tv.v, fv.v), tv.base, tv.space};
      else
        out[v] = Val{Val::Int, data(M.ctx.addAtom(v->getName().str(),
                                                  AtomKind::Data))};
    }
    return out;
  }

  void ifStmt(const IfStmt *s) {
    if (s->getInit())
      stmt(s->getInit());
    if (s->getConditionVariable())
      declare(s->getConditionVariable());
    if (s->isConstexpr() || s->isConsteval()) {
      // Only the instantiated branch matters; the other may not even type-check.
      if (auto c = constant(s->getCond()))
        stmt(*c ? s->getThen() : s->getElse());
      return;
    }
    LaneExpr c = condition(s->getCond());
    if (!NoRecord) {
      // An early exit (`if (c) return;`) makes the other lanes run the rest.
      const Stmt *then = s->getThen();
      if (auto *cs = dyn_cast<CompoundStmt>(then); cs && cs->size() == 1)
        then = cs->body_back();
      bool exits = isa<ReturnStmt>(then) || isa<ContinueStmt>(then) ||
                   isa<BreakStmt>(then);
      if (exits && !s->getElse())
        recordBranch(BranchSite::Exit, s, s->getCond(), c, RestWeight);
      else
        recordBranch(BranchSite::If, s, s->getCond(), c,
                     weight(s->getThen()) + weight(s->getElse()));
    }
    LaneExpr m0 = Mask;
    VarEnv before = Env;
    Mask = land(m0, c);
    stmt(s->getThen());
    VarEnv thenEnv = std::move(Env);
    bool thenTerm = Terminated;
    Env = std::move(before);
    Terminated = false;
    Mask = land(m0, un(Op::LNot, c));
    stmt(s->getElse());
    bool elseTerm = Terminated;
    Terminated = false;
    if (thenTerm && elseTerm) {
      Terminated = true;
      Mask = m0;
    } else if (thenTerm) {
      Mask = land(m0, un(Op::LNot, c)); // Env is the else branch's
    } else if (elseTerm) {
      Mask = land(m0, c);
      Env = std::move(thenEnv);
    } else {
      Mask = m0;
      Env = mergeEnvs(c, thenEnv, Env);
    }
  }

  /// Forget what a loop body changes: each assigned local becomes unknown,
  /// lane-varying if its value so far is.
  void forgetAssigned(const Stmt *body, const std::set<const VarDecl *> &keep) {
    AssignedVars av;
    av.TraverseStmt(const_cast<Stmt *>(body));
    for (const VarDecl *v : av.vars) {
      if (keep.count(v))
        continue;
      auto it = Env.find(v);
      bool vary = it == Env.end() || varying(it->second);
      std::string name = v->getName().str();
      Env[v] = Val{Val::Int,
                   vary ? data(M.ctx.addAtom(
                              name, AtomKind::Data,
                              "the address depends on '" + name +
                                  "', which a loop changes in a way warplint "
                                  "does not model"))
                        : unknown(M.ctx.addAtom(name, AtomKind::Uniform))};
    }
  }

  /// Variables a loop body updates exactly once per iteration, at its top
  /// level (`i += stride;`, `++i;`), and nowhere else in the body.
  std::map<const VarDecl *, const Expr *> bodyInductions(const Stmt *body) {
    std::map<const VarDecl *, const Expr *> out;
    auto *cs = dyn_cast_or_null<CompoundStmt>(body);
    if (!cs)
      return out;
    std::map<const VarDecl *, int> count;
    std::set<const Stmt *> updateStmts;
    for (const Stmt *st : cs->body()) {
      auto *e = dyn_cast<Expr>(st);
      if (!e)
        continue;
      const Expr *x = e->IgnoreParenImpCasts(), *target = nullptr;
      if (auto *b = dyn_cast<BinaryOperator>(x); b && b->isAssignmentOp())
        target = b->getLHS();
      else if (auto *u = dyn_cast<UnaryOperator>(x);
               u && u->isIncrementDecrementOp())
        target = u->getSubExpr();
      if (const VarDecl *v = target ? localVar(target) : nullptr) {
        count[v]++;
        out[v] = x;
        updateStmts.insert(st);
      }
    }
    AssignedVars elsewhere;
    for (const Stmt *st : cs->body())
      if (!updateStmts.count(st))
        elsewhere.TraverseStmt(const_cast<Stmt *>(st));
    for (auto it = out.begin(); it != out.end();) {
      if (count[it->first] != 1 || elsewhere.vars.count(it->first) ||
          !Env.count(it->first))
        it = out.erase(it);
      else
        ++it;
    }
    return out;
  }

  /// A loop as recurrences: each induction variable (from the increment of a
  /// for, or updated once at the top level of the body) is init, then its
  /// update once per iteration, while the condition holds. The body is walked
  /// once with those variables bound, masked by the lanes still in the loop.
  void loop(const Expr *cond, const Expr *inc, const Stmt *body,
            bool testAfterBody = false) {
    AssignedVars incVars;
    if (inc)
      incVars.TraverseStmt(const_cast<Expr *>(inc));
    std::vector<const VarDecl *> ivs;
    std::map<const VarDecl *, const Expr *> updates;
    for (const VarDecl *v : incVars.vars)
      if (Env.count(v) && Env[v].v) {
        ivs.push_back(v);
        updates[v] = inc;
      }
    for (auto &[v, e] : bodyInductions(body))
      if (!updates.count(v) && Env[v].v) {
        ivs.push_back(v);
        updates[v] = e;
      }
    LaneExpr savedMask = Mask;
    std::set<const VarDecl *> keep(ivs.begin(), ivs.end());
    std::map<const VarDecl *, Val> vars;
    int primary = -1;
    for (const VarDecl *v : ivs) {
      Val init = Env[v];
      int L = M.ctx.addLoop({v->getName().str(), init.v, nullptr, nullptr});
      if (primary < 0)
        primary = L;
      else
        M.ctx.loops[L].iterOf = primary;
      Val var = init;
      var.v = loopVar(L);
      vars[v] = var;
    }
    forgetAssigned(body, keep);
    if (inc)
      forgetAssigned(inc, keep);
    for (auto &[v, var] : vars)
      Env[v] = var;
    bool savedNo = NoRecord;
    NoRecord = true;
    for (auto &[v, var] : vars) {
      rvalue(updates[v]);
      M.ctx.loops[var.v->value].next = Env[v].v;
      for (auto &[w, wv] : vars)
        Env[w] = wv;
    }
    LaneExpr c = cond ? condition(cond) : nullptr;
    NoRecord = savedNo;
    if (primary >= 0 && c && !NoRecord)
      recordBranch(BranchSite::Loop, body, cond, nullptr, weight(body)).loop =
          primary;
    if (primary >= 0) {
      M.ctx.loops[primary].cond = c;
      M.ctx.loops[primary].testAfterBody = testAfterBody;
      Mask = land(Mask, loopActive(primary));
    }
    stmt(body);
    if (inc)
      rvalue(inc); // accesses in the increment, once per iteration
    Terminated = false;
    Mask = savedMask;
    // After the loop the variables hold whatever the last iteration left.
    std::set<const VarDecl *> none;
    forgetAssigned(body, none);
    if (inc)
      forgetAssigned(inc, none);
  }

  void forStmt(const ForStmt *s) {
    if (s->getInit())
      stmt(s->getInit());
    loop(s->getCond(), s->getInc(), s->getBody());
  }

  void stmt(const Stmt *s) {
    if (!s || Terminated)
      return;
    if (auto *cs = dyn_cast<CompoundStmt>(s)) {
      int saved = RestWeight;
      std::vector<const Stmt *> body(cs->body_begin(), cs->body_end());
      for (size_t i = 0; i < body.size(); ++i) {
        if (Terminated)
          break;
        int rest = 0;
        for (size_t j = i + 1; j < body.size(); ++j)
          rest += weight(body[j]);
        RestWeight = rest;
        stmt(body[i]);
      }
      RestWeight = saved;
      return;
    }
    if (auto *ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : ds->decls())
        if (auto *v = dyn_cast<VarDecl>(d))
          declare(v);
      return;
    }
    if (auto *is = dyn_cast<IfStmt>(s))
      return ifStmt(is);
    if (auto *fs = dyn_cast<ForStmt>(s))
      return forStmt(fs);
    if (auto *ws = dyn_cast<WhileStmt>(s))
      return loop(ws->getCond(), nullptr, ws->getBody());
    if (auto *ds = dyn_cast<DoStmt>(s))
      return loop(ds->getCond(), nullptr, ds->getBody(), true);
    if (auto *rf = dyn_cast<CXXForRangeStmt>(s))
      return loop(nullptr, nullptr, rf->getBody());
    if (auto *rs = dyn_cast<ReturnStmt>(s)) {
      Val v;
      if (rs->getRetValue())
        v = rvalue(rs->getRetValue());
      if (Returns && rs->getRetValue())
        Returns->push_back({Mask, v});
      Terminated = true;
      return;
    }
    if (isa<BreakStmt>(s) || isa<ContinueStmt>(s)) {
      Terminated = true;
      return;
    }
    if (auto *sw = dyn_cast<SwitchStmt>(s)) {
      if (sw->getInit())
        stmt(sw->getInit());
      LaneExpr value = condition(sw->getCond());
      if (!NoRecord) {
        BranchSite &b = recordBranch(BranchSite::Switch, sw, sw->getCond(),
                                     value, weight(sw->getBody()));
        for (const SwitchCase *sc = sw->getSwitchCaseList(); sc;
             sc = sc->getNextSwitchCase())
          if (auto *cs = dyn_cast<CaseStmt>(sc))
            if (auto v = constant(cs->getLHS()))
              b.caseValues.push_back(*v);
      }
      // Cases are walked in order under the switch's own condition.
      if (auto *body = dyn_cast_or_null<CompoundStmt>(sw->getBody())) {
        for (const Stmt *c : body->body()) {
          stmt(c);
          Terminated = false;
        }
      } else {
        stmt(sw->getBody());
        Terminated = false;
      }
      return;
    }
    if (auto *cs = dyn_cast<SwitchCase>(s))
      return stmt(cs->getSubStmt());
    if (auto *ls = dyn_cast<LabelStmt>(s))
      return stmt(ls->getSubStmt());
    if (auto *as = dyn_cast<AttributedStmt>(s))
      return stmt(as->getSubStmt());
    if (auto *e = dyn_cast<Expr>(s)) {
      rvalue(e);
      return;
    }
    for (const Stmt *c : s->children())
      stmt(c);
  }
};

} // namespace

KernelModel walkKernel(ASTContext &ac, const FunctionDecl *kernel,
                       const std::map<std::string, int64_t> &params) {
  KernelModel m;
  Walker w(ac, m, params);
  w.walkFunction(kernel);
  return m;
}

} // namespace warplint
