// The walker: expressions to lane values (rvalues, casts, operators).
#include "frontend/walker/Walker.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace warplint {
namespace detail {

int Walker::origin(const Expr *e) {
  M.origins.push_back(rangeOf(e));
  return int(M.origins.size()) - 1;
}

SourceRange Walker::rangeOf(const Expr *e) {
  llvm::SmallVector<const Expr *, 16> chain;
  SourceLocation begin;
  for (const Expr *x = e;;) {
    if (auto it = Begins.find(x); it != Begins.end()) {
      begin = it->second;
      break;
    }
    const Expr *next = nullptr;
    if (auto *b = dyn_cast<BinaryOperator>(x))
      next = b->getLHS();
    else if (auto *c = dyn_cast<ImplicitCastExpr>(x))
      next = c->getSubExpr();
    if (!next) {
      begin = x->getBeginLoc();
      break;
    }
    chain.push_back(x);
    x = next;
  }
  for (const Expr *x : chain)
    Begins[x] = begin;
  return SourceRange(begin, e->getEndLoc());
}

std::string Walker::text(const Expr *e) {
  const SourceManager &sm = AC.getSourceManager();
  CharSourceRange r = CharSourceRange::getTokenRange(rangeOf(e));
  StringRef s = Lexer::getSourceText(r, sm, AC.getLangOpts());
  if (s.empty())
    return "value";
  // A name for messages, not the expression: each prefix of a long sum
  // (`in[t + 0] + in[t + 1] + ...`) is a value of its own, and copying its
  // whole text made memory quadratic in the statement's length.
  constexpr size_t MaxName = 96;
  if (s.size() <= MaxName)
    return s.str();
  return s.take_front(MaxName - 3).rtrim().str() + "...";
}

Val Walker::opaque(const Expr *e, bool varying) {
  int a = M.ctx.addAtom(text(e), varying ? AtomKind::Data : AtomKind::Uniform);
  // A value of a narrow integer type (a thread's own `uint8_t state[8]`)
  // takes only that type's values when drawn at random.
  QualType t = e->getType();
  // A bool no lane's index decides (a flag the block shares, `found`) is no
  // size or offset to take a representative value of: a condition on it is
  // one on data.
  if (!varying && t->isBooleanType())
    M.ctx.atoms[size_t(a)].fromData = true;
  if (varying && t->isRealFloatingType())
    M.ctx.atoms[size_t(a)].fromFloat = true;
  if (varying && t->isIntegralOrEnumerationType() && !t->isDependentType()) {
    Atom &at = M.ctx.atoms[size_t(a)];
    at.dataBits = t->isBooleanType() ? 1 : int(AC.getTypeSize(t));
    at.dataSigned = t->isSignedIntegerOrEnumerationType();
  }
  return intVal(varying ? data(a) : unknown(a));
}

Val Walker::eachArm(const ConditionalOperator *c, const LaneExpr &cnd,
                    const std::function<Val(const Expr *)> &arm) {
  LaneExpr saved = Mask;
  M.ternaryConditions.insert(cnd);
  Mask = land(saved, cnd);
  Val t = arm(c->getTrueExpr());
  Mask = land(saved, un(Op::LNot, cnd));
  Val f = arm(c->getFalseExpr());
  Mask = saved;
  return merge(cnd, t, f, c);
}

std::optional<LaneExpr> Walker::pointerGiven(const Val &p) {
  if (!p.isPtr() || p.space != Space::Global || !p.base ||
      !(isa<ParmVarDecl>(p.base) || isa<FieldDecl>(p.base)))
    return std::nullopt;
  auto it = GivenAtoms.find(p.base);
  if (it == GivenAtoms.end())
    it = GivenAtoms
             .emplace(p.base,
                      M.ctx.addAtom("'" + p.base->getName().str() +
                                        "' != nullptr",
                                    AtomKind::Parameter))
             .first;
  return unknown(it->second);
}

bool Walker::varying(const Val &v) {
  return v.v && props(v.v, M.ctx).laneVarying;
}

Val Walker::param(const ParmVarDecl *p) {
  if (p->getType()->isPointerType() || p->getType()->isArrayType()) {
    Val v{Val::Ptr, cst(0), p, Space::Global};
    return v;
  }
  if (Depth == 0 && p->getType()->isIntegralOrEnumerationType()) {
    auto given = Params.find(p->getName().str());
    if (given != Params.end())
      return intVal(cst(given->second));
    // Passed as another parameter plus a constant at every launch: that sum.
    auto *fd = dyn_cast<FunctionDecl>(p->getDeclContext());
    auto rel = Relations.find(p->getFunctionScopeIndex());
    if (fd && rel != Relations.end() &&
        rel->second.base < fd->getNumParams()) {
      const ParmVarDecl *b = fd->getParamDecl(rel->second.base);
      Val base = param(b);
      if (base.v && base.v->op == Op::Unknown) {
        Atom &a = M.ctx.atoms[size_t(base.v->value)];
        int64_t c = rel->second.offset;
        std::string text = "'" + p->getName().str() + "' = '" + a.name + "'" +
                           (c > 0   ? " + " + std::to_string(c)
                            : c < 0 ? " - " + std::to_string(-c)
                                    : "");
        if (a.related.find(text) == std::string::npos)
          a.related += (a.related.empty() ? "" : ", ") + text + " (" +
                       rel->second.where + ")";
      }
      return intVal(bin(Op::Add, base.v, cst(rel->second.offset)));
    }
  }
  auto it = ParamAtoms.find(p);
  if (it == ParamAtoms.end()) {
    int atom = M.ctx.addAtom(p->getName().str(), AtomKind::Parameter);
    auto bound = Bindings.find(p->getFunctionScopeIndex());
    if (Depth == 0 && p->getType()->isIntegralOrEnumerationType() &&
        bound != Bindings.end()) {
      // No values: the command line sets it, and the text says where.
      if (bound->second.first.empty()) {
        M.ctx.atoms[atom].related =
            "'" + p->getName().str() + "' " + bound->second.second;
      } else {
        M.ctx.atoms[atom].known = bound->second.first;
        M.ctx.atoms[atom].knownFrom = bound->second.second;
      }
    }
    it = ParamAtoms.emplace(p, atom).first;
  }
  return intVal(unknown(it->second));
}

bool readsPlainVariable(const Expr *e) {
  auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!v)
    return false;
  if (isa<ParmVarDecl>(v))
    return true;
  // (An array's const sits on its elements: arrays are left to Clang too.)
  QualType t = v->getType();
  return !v->isConstexpr() && !t->isReferenceType() && !t->isArrayType() &&
         !t.isConstQualified();
}

// Is `e` certainly not foldable, by its shape alone? Every value the walk
// meets is asked whether it is a constant, each operand again on the way
// down; most are built from variables, and Clang's evaluator (with its
// side-effect check, a walk of the whole subtree) need not say so at every
// level. Only shapes whose evaluation must read the variable count: an
// arithmetic or comparison operator (both operands are evaluated; `&&`,
// `||`, `,` and `?:` may skip one), a unary operator, a subscript of a
// pointer variable.
static bool surelyNotConstant(const Expr *e) {
  e = e->IgnoreParens();
  if (readsPlainVariable(e))
    return true;
  if (auto *b = dyn_cast<BinaryOperator>(e))
    return !b->isLogicalOp() && !b->isCommaOp() &&
           (readsPlainVariable(b->getLHS()) || readsPlainVariable(b->getRHS()));
  if (auto *u = dyn_cast<UnaryOperator>(e))
    return readsPlainVariable(u->getSubExpr());
  if (auto *a = dyn_cast<ArraySubscriptExpr>(e))
    return readsPlainVariable(a->getBase()) || readsPlainVariable(a->getIdx());
  return false;
}

std::optional<int64_t> Walker::constant(const Expr *e) {
  if (e->isValueDependent() || e->isTypeDependent() || e->containsErrors() ||
      e->getType().isNull() ||
      !e->getType()->isIntegralOrEnumerationType() || surelyNotConstant(e))
    return std::nullopt;
  Expr::EvalResult r;
  if (!e->EvaluateAsInt(r, AC) || e->HasSideEffects(AC))
    return std::nullopt;
  return r.Val.getInt().getExtValue();
}

int Walker::builtinDim(StringRef name) {
  return name == "x" ? 0 : name == "y" ? 1 : name == "z" ? 2 : -1;
}

Walker::IndexFn Walker::builtinIndex(StringRef var) {
  return var == "threadIdx"  ? threadIdx
         : var == "blockIdx" ? blockIdx
         : var == "blockDim" ? blockDim
         : var == "gridDim"  ? gridDim
                             : nullptr;
}

bool Walker::hasEffects(const Expr *e, int depth) const {
  if (!e || !e->HasSideEffects(AC, /*IncludePossibleEffects=*/true))
    return false;
  // Definite effects (assignments, increments, volatile reads) stay effects;
  // what is left are calls, each judged by what its body does.
  if (e->HasSideEffects(AC, /*IncludePossibleEffects=*/false))
    return true;
  if (auto *c = dyn_cast<CallExpr>(e)) {
    const FunctionDecl *def = definitionOf(c->getDirectCallee());
    const auto *body = def ? dyn_cast_or_null<CompoundStmt>(def->getBody())
                           : nullptr;
    // A member function is looked into as a free one is: a write through
    // `this` is an assignment its body shows (`return data[i];` only
    // reads). A virtual one may be overridden by a body not seen here.
    const auto *method = dyn_cast_or_null<CXXMethodDecl>(def);
    if (!body || depth >= 3 || (method && method->isVirtual()) ||
        AC.getSourceManager().isInSystemHeader(def->getLocation()))
      return !c->getCalleeDecl() ||
             !(c->getCalleeDecl()->hasAttr<ConstAttr>() ||
               c->getCalleeDecl()->hasAttr<PureAttr>());
    for (const Stmt *s : body->body()) {
      if (auto *r = dyn_cast<ReturnStmt>(s)) {
        if (hasEffects(r->getRetValue(), depth + 1))
          return true;
      } else if (auto *ds = dyn_cast<DeclStmt>(s)) {
        for (const Decl *d : ds->decls()) {
          auto *v = dyn_cast<VarDecl>(d);
          if (!v || v->isStaticLocal() || hasEffects(v->getInit(), depth + 1))
            return true;
        }
      } else if (!isa<NullStmt>(s)) {
        return true;
      }
    }
  }
  for (const Stmt *child : e->children())
    if (auto *x = dyn_cast_or_null<Expr>(child); x && hasEffects(x, depth))
      return true;
  return false;
}

LaneExpr Walker::builtin(const Expr *e) {
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
  IndexFn of = builtinIndex(dre->getDecl()->getName());
  return of ? of(d) : nullptr;
}

Val Walker::rvalue(const Expr *e) {
  e = e->IgnoreParens();
  // What Sema rejected (the file's errors are reported, its results
  // partial): an unknown value, never a walk into missing parts.
  if (e->containsErrors() || e->getType().isNull())
    return opaque(e, false);
  // (threadIdx.x and its kind are never constants: asked first.)
  if (LaneExpr b = builtin(e))
    return intVal(withOrigin(b, origin(e)));
  if (auto c = constant(e))
    return intVal(cst(*c));
  if (auto *ce = dyn_cast<CastExpr>(e))
    return cast(ce);
  if (auto *d = dyn_cast<DeclRefExpr>(e))
    return declRef(d);
  if (isa<CXXThisExpr>(e))
    return ThisPtr ? *ThisPtr : opaque(e, false);
  if (auto *b = dyn_cast<BinaryOperator>(e))
    return binary(b);
  if (auto *u = dyn_cast<UnaryOperator>(e))
    return unary(u);
  if (auto *c = dyn_cast<ConditionalOperator>(e)) {
    LaneExpr cnd = condition(c->getCond());
    if (!NoRecord &&
        (hasEffects(c->getTrueExpr()) || hasEffects(c->getFalseExpr())))
      recordBranch(BranchSite::Ternary, c, c->getCond(), cnd,
                   weight(c->getTrueExpr()) + weight(c->getFalseExpr()));
    // A pointer or null (`steps ? out + bid * steps : nullptr`): whatever
    // lane dereferences it holds the other arm.
    if (c->getType()->isPointerType()) {
      auto isNull = [&](const Expr *x) {
        return x->isNullPointerConstant(AC, Expr::NPC_ValueDependentIsNotNull) !=
               Expr::NPCK_NotNull;
      };
      bool tNull = isNull(c->getTrueExpr()), fNull = isNull(c->getFalseExpr());
      if (tNull != fNull) {
        LaneExpr saved = Mask;
        Mask = land(saved, tNull ? un(Op::LNot, cnd) : cnd);
        Val v = rvalue(tNull ? c->getFalseExpr() : c->getTrueExpr());
        Mask = saved;
        return v;
      }
    }
    return eachArm(c, cnd, [&](const Expr *x) { return rvalue(x); });
  }
  if (auto *cc = dyn_cast<CXXConstructExpr>(e)) {
    // Copying a struct or vector (float4 v = p[i]) loads all of it.
    if (cc->getNumArgs() == 1 && cc->getConstructor() &&
        cc->getConstructor()->isCopyOrMoveConstructor() &&
        cc->getArg(0)->isGLValue()) {
      reportCopyAt(cc->getArg(0), implicitCopyLine(cc->getConstructor()));
      return load(cc->getArg(0), e);
    }
  }
  if (auto *oc = dyn_cast<CXXOperatorCallExpr>(e)) {
    // Struct assignment (p[i] = v) is a call to operator=.
    if (oc->getOperator() == OO_Equal && oc->getNumArgs() == 2) {
      const Expr *src = oc->getArg(1);
      const Expr *dst = oc->getArg(0)->IgnoreParenImpCasts();
      if (const VarDecl *v = localVar(dst); v && v->getType()->isRecordType()) {
        // Into a local, the copy still runs the struct's implicit operator=:
        // nvcc reports its loads on the struct's line.
        reportCopyAt(src, implicitCopyLine(oc->getDirectCallee()));
        Val r = recordOf(src);
        Env[v] = r;
        return r;
      }
      if (fieldRead(dst) && dst->getType()->isRecordType()) {
        Val r = recordOf(src);
        if (fieldWrite(dst, r))
          return r;
      }
      SourceLocation line = implicitCopyLine(oc->getDirectCallee());
      reportCopyAt(src, line);
      reportCopyAt(oc->getArg(0), line);
      if (src->isGLValue())
        load(src, e);
      else
        rvalue(src);
      if (auto a = lvalue(oc->getArg(0))) {
        // A copy from memory (`q[i] =\n *p`): nvcc puts the store where
        // the source's expression ends. A struct computed by a call stays
        // on the assignment's first line.
        const Expr *from = src->IgnoreParenImpCasts();
        if (from->isGLValue() && !isa<MaterializeTemporaryExpr>(from))
          StoreEndsAt = laterLine(oc->getArg(0), oc);
        record(oc->getArg(0), *a, true);
        StoreEndsAt = {};
      }
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
  // A GNU statement expression (`({ T _x = (x); ...; _x < _y ? _x : _y;
  // })`, min and max macros of generated code): its statements run, and
  // its value is its last expression's.
  if (auto *se = dyn_cast<StmtExpr>(e)) {
    const CompoundStmt *cs = se->getSubStmt();
    if (cs && !cs->body_empty()) {
      for (const Stmt *x : cs->body())
        if (x != cs->body_back())
          stmt(x);
      if (auto *last = dyn_cast<Expr>(cs->body_back()))
        return rvalue(last);
      stmt(cs->body_back());
    }
    return opaque(e, true);
  }
  // Anything else: walk it for the accesses it makes, value unknown (and
  // lane-varying if anything in it may be, a statement included).
  bool anyVarying = false;
  for (const Stmt *child : e->children()) {
    if (auto *ce = dyn_cast_or_null<Expr>(child))
      anyVarying |= varying(rvalue(ce));
    else if (child)
      anyVarying = true;
  }
  return opaque(e, anyVarying);
}

Val Walker::cast(const CastExpr *ce) {
  const Expr *sub = ce->getSubExpr();
  switch (ce->getCastKind()) {
  case CK_LValueToRValue:
    return load(sub, ce);
  case CK_ArrayToPointerDecay: {
    if (auto a = lvalue(sub))
      return a->ptr;
    // A thread's own array (registers or local memory): a pointer into it
    // is followed so that its accesses are known to be no shared or global
    // ones.
    // (Also a member array of a thread's own object: `p.h[k]` of a local
    // union filled by one 128-bit load reads registers.)
    if (auto local = localAddress(sub))
      return *local;
    return opaque(ce, false);
  }
  case CK_IntegralToBoolean: {
    Val v = rvalue(sub);
    return intVal(bin(Op::Ne, v.v, cst(0)));
  }
  case CK_PointerToBoolean: {
    Val v = rvalue(sub);
    if (auto given = pointerGiven(v))
      return intVal(withOrigin(bin(Op::Ne, *given, cst(0)), origin(ce)));
    return v;
  }
  case CK_FunctionToPointerDecay:
  case CK_NullToPointer:
    return opaque(ce, false);
  default:
    return rvalue(sub);
  }
}

Val Walker::declRef(const DeclRefExpr *d) {
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

Val Walker::merge(const LaneExpr &c, const Val &t, const Val &f, const Expr *e) {
  // A condition the compiler decides (a template argument's `GLOBAL ? in :
  // tile`): the arm it takes, whatever the other holds.
  if (int64_t k = 0; c && constValue(c, k))
    return k ? t : f;
  if (t.kind == Val::Int && f.kind == Val::Int)
    return intVal(select(c, t.v, f.v));
  if (t.isPtr() && f.isPtr() && t.base == f.base)
    return Val{Val::Ptr, select(c, t.v, f.v), t.base, t.space};
  // One of two allocations (`s = dir ? d : dn`): both bases are aligned
  // alike, so the offset still decides sectors and banks.
  if (t.isPtr() && f.isPtr() && t.space == f.space)
    return Val{Val::Ptr, select(c, t.v, f.v), nullptr, t.space};
  if (t.isRecord() && f.isRecord()) {
    if (t.rec == f.rec)
      return t;
    auto r = std::make_shared<RecordVal>();
    r->varying = t.rec->varying || f.rec->varying;
    for (const auto &[field, tv] : t.rec->fields) {
      auto it = f.rec->fields.find(field);
      if (it != f.rec->fields.end())
        r->fields[field] = merge(c, tv, it->second, e);
    }
    return recordVal(r);
  }
  if (t.isRecord() || f.isRecord())
    return opaqueRecord(true);
  if (!e)
    return intVal(data(M.ctx.addAtom("a value set on one path only",
                                     AtomKind::Data)));
  return opaque(e, true);
}

Op Walker::binaryOp(BinaryOperatorKind k) {
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

int64_t Walker::pointeeBytes(QualType ptrType) {
  QualType pt = ptrType->getPointeeType();
  if (pt.isNull() || pt->isIncompleteType() || pt->isVoidType())
    return 1;
  return AC.getTypeSizeInChars(pt).getQuantity();
}

Val Walker::pointerArith(const Val &p, const Val &i, QualType ptrType,
                         bool sub) {
  // The result is a byte offset: it carries no source origin, because notes
  // quote an origin's lane distance in elements. The index keeps its own.
  LaneExpr step = bin(Op::Mul, i.v, cst(pointeeBytes(ptrType)));
  Val r = p;
  r.v = bin(sub ? Op::Sub : Op::Add, p.v, step);
  return r;
}

const VarDecl *Walker::localVar(const Expr *e) {
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

Val Walker::binary(const BinaryOperator *b) {
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
          rhs = pointerArith(old, rhs, lhs->getType(), k == BO_SubAssign);
        else if (old.kind == Val::Int && rhs.kind == Val::Int)
          rhs = intVal(withOrigin(bin(binaryOp(k), old.v, rhs.v), origin(b)));
        else
          rhs = opaque(b, true);
      }
      return Env[v] = rhs;
    }
    if (auto old = fieldRead(lhs)) {
      // A field of an object held in registers.
      Val rhs = lhs->getType()->isRecordType() ? recordOf(b->getRHS())
                                               : rvalue(b->getRHS());
      if (k != BO_Assign) {
        if (old->isPtr() && rhs.kind == Val::Int)
          rhs = pointerArith(*old, rhs, lhs->getType(), k == BO_SubAssign);
        else if (old->kind == Val::Int && rhs.kind == Val::Int && old->v &&
                 rhs.v)
          rhs = intVal(withOrigin(bin(binaryOp(k), old->v, rhs.v), origin(b)));
        else
          rhs = opaque(b, true);
      }
      if (fieldWrite(lhs, rhs))
        return rhs;
    }
    Val rhs = rvalue(b->getRHS());
    if (auto a = lvalue(lhs)) {
      if (k != BO_Assign)
        record(lhs, *a, false);
      record(lhs, *a, true);
    }
    if (auto *d = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts()))
      if (auto *v = dyn_cast<VarDecl>(d->getDecl());
          v && v->hasAttr<CUDASharedAttr>() && !v->getType()->isArrayType()) {
        SharedCounters.erase(v);
        if (k == BO_Assign && rhs.kind == Val::Int && rhs.v) {
          if (oncePerGrid(rhs.v, M.ctx))
            SharedCounters[v] = true;
          else if (const Atom *c = counterRead(rhs.v, M.ctx);
                   c && c->counter && !isComparison(rhs.v->op))
            SharedCounters[v] = false;
        }
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
    return pointerArith(l, r, b->getLHS()->getType(), k == BO_Sub);
  if (k == BO_Add && r.isPtr() && l.kind == Val::Int)
    return pointerArith(r, l, b->getRHS()->getType(), false);
  if (k == BO_Sub && l.isPtr() && r.isPtr() && l.base == r.base)
    return intVal(bin(Op::Div, bin(Op::Sub, l.v, r.v),
                      cst(pointeeBytes(b->getLHS()->getType()))));
  Op op = binaryOp(k);
  // `bias != nullptr`, `z == NULL`: whether the kernel was given the pointer.
  if ((op == Op::Eq || op == Op::Ne) && (l.isPtr() != r.isPtr())) {
    const Expr *other = l.isPtr() ? b->getRHS() : b->getLHS();
    if (other->isNullPointerConstant(AC, Expr::NPC_ValueDependentIsNotNull) !=
        Expr::NPCK_NotNull)
      if (auto given = pointerGiven(l.isPtr() ? l : r))
        return intVal(withOrigin(bin(op, *given, cst(0)), origin(b)));
  }
  // An element's address as an integer, tested for alignment
  // (`reinterpret_cast<uintptr_t>(p) % 16 == 0`, `(size_t)p & 15`, a
  // vectorized path's guard): the model's allocations start 256-byte
  // aligned and a shared array at a bank row (the figures rest on that
  // already), so below 128 bytes the remainder is the offset's.
  if ((op == Op::Rem || op == Op::And) && l.isPtr() && r.kind == Val::Int &&
      b->getLHS()->getType()->isIntegerType()) {
    int64_t m = 0;
    if (r.v && constValue(r.v, m)) {
      int64_t mod = op == Op::Rem ? m : m + 1;
      if (mod > 0 && mod <= 128 && (mod & (mod - 1)) == 0)
        return intVal(withOrigin(bin(op, l.v, r.v), origin(b)));
    }
  }
  if (op == Op::Const || l.kind != Val::Int || r.kind != Val::Int)
    return opaque(b, varying(l) || varying(r));
  if (!b->getType()->isIntegralOrEnumerationType() &&
      !b->getType()->isBooleanType()) {
    // Floating-point arithmetic never forms an index the model can use.
    return opaque(b, varying(l) || varying(r));
  }
  // An unsigned difference against a bound (`n - index < VEC` on size_t, a
  // vectorized copy's tail): for a lane past `n` the difference wraps to a
  // huge value and the test fails, where the model's signed arithmetic reads
  // it negative and passes (every lane past the end taking the tail). The
  // comparison is made unsigned: offset by 2^63 at 64 bits, masked below.
  // (Only where an operand is itself a difference: a loop's `i < n` keeps
  // the form its trip count is read from.)
  const QualType common = b->getLHS()->getType();
  auto difference = [](const LaneExpr &x) {
    return x && (x->op == Op::Sub || x->op == Op::Neg);
  };
  if ((op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge) &&
      common->isUnsignedIntegerType() && (difference(l.v) || difference(r.v))) {
    const uint64_t bits = AC.getTypeSize(common);
    auto asUnsigned = [&](const LaneExpr &x) {
      return bits >= 64 ? bin(Op::Xor, x, cst(INT64_MIN))
                        : bin(Op::And, x, cst((int64_t(1) << bits) - 1));
    };
    return intVal(withOrigin(bin(op, asUnsigned(l.v), asUnsigned(r.v)),
                             origin(b)));
  }
  return intVal(withOrigin(bin(op, l.v, r.v), origin(b)));
}

Val Walker::unary(const UnaryOperator *u) {
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
        now = pointerArith(old, intVal(cst(1)), sub->getType(), !inc);
      else
        now = intVal(bin(inc ? Op::Add : Op::Sub, old.v, cst(1)));
      Env[v] = now;
      return u->isPrefix() ? now : old;
    }
    if (auto old = fieldRead(sub); old && (old->isPtr() || old->kind == Val::Int) && old->v) {
      Val now = old->isPtr()
                    ? pointerArith(*old, intVal(cst(1)), sub->getType(), !inc)
                    : intVal(bin(inc ? Op::Add : Op::Sub, old->v, cst(1)));
      if (fieldWrite(sub, now))
        return u->isPrefix() ? now : *old;
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
    if (auto local = localAddress(sub))
      return *local;
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

LaneExpr Walker::condition(const Expr *e) {
  Val v = rvalue(e);
  if (v.kind == Val::Int)
    return v.v;
  return opaque(e, varying(v)).v;
}

} // namespace detail
} // namespace warplint
