#include "LaunchShapes.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdlib>

using namespace clang;

namespace warplint {
namespace {

template <class T> void addUnique(std::vector<T> &to, const T &v) {
  if (std::find(to.begin(), to.end(), v) == to.end())
    to.push_back(v);
}

/// `v.x = E`, `v.y = E`, `v.z = E` in the function that declares `v`, by
/// member (0, 1, 2), the last in source order before `use` (a launch's
/// `threadsPerBlock`, whose members the function sets again for a later
/// launch: ddbp's `.x = 256` before its first launch, `.x = 8; .y = 4; .z =
/// 8` before another), or the last of all without one.
std::map<int, const Expr *> memberAssignments(const VarDecl *v,
                                              const Expr *use = nullptr) {
  std::map<int, const Expr *> out;
  auto *fd = dyn_cast_or_null<FunctionDecl>(v->getParentFunctionOrMethod());
  if (!fd || !fd->getBody())
    return out;
  const SourceManager &sm = fd->getASTContext().getSourceManager();
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    std::map<int, const Expr *> &Out;
    const SourceManager &SM;
    const Expr *Use;
    Finder(const VarDecl *v, std::map<int, const Expr *> &o,
           const SourceManager &sm, const Expr *use)
        : V(v), Out(o), SM(sm), Use(use) {}
    bool VisitBinaryOperator(BinaryOperator *b) {
      if (b->getOpcode() != BO_Assign)
        return true;
      if (Use && Use->getBeginLoc().isValid() && b->getBeginLoc().isValid() &&
          !SM.isBeforeInTranslationUnit(b->getBeginLoc(), Use->getBeginLoc()))
        return true;
      auto *m = dyn_cast<MemberExpr>(b->getLHS()->IgnoreParenImpCasts());
      if (!m)
        return true;
      auto *d = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
      if (!d || d->getDecl() != V)
        return true;
      const IdentifierInfo *id = m->getMemberDecl()->getIdentifier();
      if (!id)
        return true;
      StringRef n = id->getName();
      int dim = n == "x" ? 0 : n == "y" ? 1 : n == "z" ? 2 : -1;
      if (dim >= 0)
        Out[dim] = b->getRHS();
      return true;
    }
  } f(v, out, sm, use);
  f.TraverseStmt(fd->getBody());
  return out;
}

/// How `root` (by default the function that declares `v`) changes `v` after
/// its initialisation: the right-hand sides of its plain assignments `v = E`, and whether it is
/// also changed another way (op=, ++, --, an element written, its address
/// taken).
struct Changes {
  std::vector<const Expr *> plain;
  /// By plain assignment: the `case` label of a switch it falls under
  /// (getopt's `case 'i': n = atoi(optarg); break;`), or null.
  std::vector<const CaseStmt *> cases;
  bool other = false;
  bool any() const { return other || !plain.empty(); }
};

/// A RecursiveASTVisitor that knows, in the body of a switch, under which
/// `case` label the statement it walks falls (`currentCase`; null outside a
/// switch and after `default:`).
template <class Derived> struct CaseTracking : RecursiveASTVisitor<Derived> {
  const CaseStmt *currentCase = nullptr;
  bool TraverseSwitchStmt(SwitchStmt *s) {
    const CaseStmt *saved = currentCase;
    currentCase = nullptr;
    for (Stmt *c : s->children())
      if (c && c != s->getBody() && !this->TraverseStmt(c))
        return false;
    // A label starts the statements that follow it in the body, up to the
    // next label.
    auto walk = [&](Stmt *c) {
      if (auto *cs = dyn_cast_or_null<CaseStmt>(c))
        currentCase = cs;
      else if (isa_and_nonnull<DefaultStmt>(c))
        currentCase = nullptr;
      return this->TraverseStmt(c);
    };
    bool ok = true;
    if (auto *body = dyn_cast_or_null<CompoundStmt>(s->getBody())) {
      for (Stmt *c : body->body())
        if (!(ok = walk(c)))
          break;
    } else {
      ok = walk(s->getBody());
    }
    currentCase = saved;
    return ok;
  }
};

/// The plain assignments and other changes `root` makes to what `is`
/// names (a variable, a field of the object a constructor builds).
Changes assignmentsIn(const Stmt *root,
                      llvm::function_ref<bool(const Expr *)> is) {
  Changes out;
  if (!root)
    return out;
  struct Finder : CaseTracking<Finder> {
    llvm::function_ref<bool(const Expr *)> Is;
    Changes &Out;
    Finder(llvm::function_ref<bool(const Expr *)> is, Changes &o)
        : Is(is), Out(o) {}
    bool VisitBinaryOperator(BinaryOperator *b) {
      if (!b->isAssignmentOp())
        return true;
      const Expr *lhs = b->getLHS()->IgnoreParenImpCasts();
      if (auto *s = dyn_cast<ArraySubscriptExpr>(lhs)) {
        Out.other |= Is(s->getBase()); // an element written
        return true;
      }
      if (!Is(lhs))
        return true;
      if (b->getOpcode() == BO_Assign) {
        Out.plain.push_back(b->getRHS());
        Out.cases.push_back(currentCase);
      } else {
        Out.other = true;
      }
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *u) {
      if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) &&
          Is(u->getSubExpr()))
        Out.other = true;
      return true;
    }
  } f(is, out);
  f.TraverseStmt(const_cast<Stmt *>(root));
  return out;
}

Changes changesIn(const VarDecl *v, const Stmt *root) {
  return assignmentsIn(root, [v](const Expr *e) {
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d && d->getDecl() == v;
  });
}

Changes changesOf(const VarDecl *v) {
  auto *fd = dyn_cast_or_null<FunctionDecl>(v->getParentFunctionOrMethod());
  return changesIn(v, fd ? fd->getBody() : nullptr);
}

/// A variable changed after its initialisation: its initialiser is not its
/// value at a launch.
bool reassigned(const VarDecl *v) { return changesOf(v).any(); }

/// A local object nothing changes after its construction: no field of it is
/// assigned, incremented or has its address taken, no non-const method runs
/// on it, and it is passed on only by value or by reference to const.
bool objectUnchanged(const VarDecl *obj) {
  auto *fd = dyn_cast_or_null<FunctionDecl>(obj->getParentFunctionOrMethod());
  if (!fd || !fd->getBody() || reassigned(obj))
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    bool changed = false;
    bool isV(const Expr *e) {
      e = e->IgnoreParenImpCasts();
      while (auto *m = dyn_cast<MemberExpr>(e)) {
        if (m->isArrow())
          return false;
        e = m->getBase()->IgnoreParenImpCasts();
      }
      auto *d = dyn_cast<DeclRefExpr>(e);
      return d && d->getDecl() == V;
    }
    bool VisitBinaryOperator(BinaryOperator *b) {
      changed |= b->isAssignmentOp() && isV(b->getLHS());
      return !changed;
    }
    bool VisitUnaryOperator(UnaryOperator *u) {
      changed |= (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) &&
                 isV(u->getSubExpr());
      return !changed;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *c) {
      const CXXMethodDecl *m = c->getMethodDecl();
      changed |= c->getImplicitObjectArgument() &&
                 isV(c->getImplicitObjectArgument()) && (!m || !m->isConst());
      return !changed;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *c) {
      changed |= c->getNumArgs() >= 1 && isV(c->getArg(0)) &&
                 (c->isAssignmentOp() || c->getOperator() == OO_PlusPlus ||
                  c->getOperator() == OO_MinusMinus);
      return !changed;
    }
    bool VisitCallExpr(CallExpr *c) {
      const FunctionDecl *f = c->getDirectCallee();
      for (unsigned i = 0; i < c->getNumArgs() && !changed; ++i) {
        if (!isV(c->getArg(i)))
          continue;
        const ParmVarDecl *p =
            f && i < f->getNumParams() ? f->getParamDecl(i) : nullptr;
        QualType t = p ? p->getType() : QualType();
        changed |= !p || (t->isReferenceType() &&
                          !t->getPointeeType().isConstQualified());
      }
      return !changed;
    }
  } f;
  f.V = obj;
  f.TraverseStmt(fd->getBody());
  return !f.changed;
}

/// The value a field of a local object has wherever it is read, when a
/// constructor sets it in its member initializers and nothing changes the
/// object after its construction (`Range<16> I(a, b);` with
/// `Range(int s, int e) : start(s), tpb(N) {}`): the argument passed for the
/// constructor parameter the initializer names (`argument`), or the
/// initializer itself; none otherwise.
struct FieldValue {
  const Expr *value = nullptr;
  bool argument = false;
};
/// For `obj.field` where `obj` is a local object a constructor builds and
/// nothing changes after (objectUnchanged()): the construction, and the
/// field; null otherwise.
const CXXConstructExpr *localConstruction(const MemberExpr *m,
                                          const FieldDecl *&field) {
  field = dyn_cast<FieldDecl>(m->getMemberDecl());
  auto *d = dyn_cast<DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
  auto *obj = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  const CXXConstructExpr *ce =
      obj && obj->getInit()
          ? dyn_cast<CXXConstructExpr>(obj->getInit()->IgnoreImplicit())
          : nullptr;
  if (!field || m->isArrow() || !obj || !obj->isLocalVarDecl() || !ce ||
      !ce->getConstructor() || !objectUnchanged(obj))
    return nullptr;
  return ce;
}

FieldValue fieldValue(const MemberExpr *m) {
  const FieldDecl *field = nullptr;
  const CXXConstructExpr *ce = localConstruction(m, field);
  if (!ce)
    return {};
  for (const CXXCtorInitializer *init : ce->getConstructor()->inits()) {
    if (init->getMember() != field || !init->getInit())
      continue;
    const Expr *value = init->getInit()->IgnoreParenImpCasts();
    if (auto *pr = dyn_cast<DeclRefExpr>(value))
      if (auto *p = dyn_cast<ParmVarDecl>(pr->getDecl())) {
        unsigned index = p->getFunctionScopeIndex();
        return index < ce->getNumArgs() ? FieldValue{ce->getArg(index), true}
                                        : FieldValue{};
      }
    return {value, false};
  }
  return {};
}

/// "main.cu:52": where an expression is.
std::string whereIs(ASTContext &ac, const Expr *e) {
  const SourceManager &sm = ac.getSourceManager();
  PresumedLoc pl = sm.getPresumedLoc(sm.getExpansionLoc(e->getBeginLoc()));
  return pl.isValid() ? llvm::sys::path::filename(pl.getFilename()).str() +
                            ":" + std::to_string(pl.getLine())
                      : "a launch";
}

/// A value read from the command line: it reads getopt's `optarg` or a
/// `char **` parameter (`atoi(optarg)`, `atoi(argv[2])`).
bool fromCommandLine(const Expr *e) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool found = false;
    bool VisitDeclRefExpr(DeclRefExpr *d) {
      auto *v = dyn_cast<VarDecl>(d->getDecl());
      if (!v)
        return true;
      QualType t = v->getType();
      found |= (v->getIdentifier() && v->getName() == "optarg" &&
                v->hasGlobalStorage()) ||
               (isa<ParmVarDecl>(v) && t->isPointerType() &&
                t->getPointeeType()->isPointerType() &&
                t->getPointeeType()->getPointeeType()->isCharType());
      return !found;
    }
  } f;
  f.TraverseStmt(const_cast<Expr *>(e));
  return f.found;
}

/// "option -i" for an assignment under `case 'i':` (getopt's loop), else
/// "".
std::string optionOf(ASTContext &ac, const CaseStmt *cs) {
  Expr::EvalResult r;
  if (cs && cs->getLHS() && !cs->getLHS()->isValueDependent() &&
      cs->getLHS()->EvaluateAsInt(r, ac)) {
    int64_t c = r.Val.getInt().getExtValue();
    if (c > ' ' && c < 127)
      return std::string("option -") + char(c);
  }
  return "";
}

/// The plain assignments a constructor's body makes to `field` of the
/// object it builds (`n_gpu_threads = 256;`, and `n_gpu_threads =
/// atoi(optarg)` in its getopt loop), in source order; none where it
/// changes the field another way.
std::optional<Changes>
constructorAssignments(const CXXConstructorDecl *ctor, const FieldDecl *field) {
  if (!ctor || !ctor->hasBody())
    return std::nullopt;
  Changes c = assignmentsIn(ctor->getBody(), [field](const Expr *e) {
    auto *m = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts());
    return m && m->getMemberDecl() == field &&
           isa<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts());
  });
  if (c.other)
    return std::nullopt;
  return c;
}

/// `e` as a linear form of host variables (HostLinear), or none. A local
/// initialised once and never changed stands for its initialiser, a field of
/// a local object for the constructor argument its member initializer takes
/// (`Range<16> I(first + 2, last)` with `Range(int s, int e) : start(s)`), so
/// that two arguments of one launch compare through what they were built from.
/// Coefficients and constants of a linear form stay within 2^40, so that
/// sums and products by a constant of at most 2^20 cannot overflow.
bool withinLimit(int64_t v) {
  constexpr int64_t Limit = int64_t(1) << 40;
  return v >= -Limit && v <= Limit;
}

std::optional<HostLinear> linearOf(ASTContext &ac, const Expr *e, int depth) {
  if (!e || depth > 8 || e->isValueDependent() || e->containsErrors() ||
      e->getType().isNull() || !e->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult r;
  if (!e->HasSideEffects(ac) && e->EvaluateAsInt(r, ac) &&
      r.Val.getInt().getSignificantBits() <= 64) {
    int64_t v = r.Val.getInt().getExtValue();
    return withinLimit(v) ? std::optional(HostLinear{{}, v, true})
                          : std::nullopt;
  }
  const Expr *s = e->IgnoreParenImpCasts();
  if (auto *c = dyn_cast<ExplicitCastExpr>(s))
    return c->getCastKind() == CK_IntegralCast || c->getCastKind() == CK_NoOp
               ? linearOf(ac, c->getSubExpr(), depth + 1)
               : std::nullopt;
  auto bounded = [&](std::optional<HostLinear> f) -> std::optional<HostLinear> {
    if (!f || !withinLimit(f->constant))
      return std::nullopt;
    for (auto it = f->terms.begin(); it != f->terms.end();) {
      if (!withinLimit(it->second))
        return std::nullopt;
      it = it->second ? std::next(it) : f->terms.erase(it);
    }
    return f;
  };
  if (auto *d = dyn_cast<DeclRefExpr>(s)) {
    auto *v = dyn_cast<VarDecl>(d->getDecl());
    if (!v)
      return std::nullopt;
    bool changed = reassigned(v);
    if (v->isLocalVarDecl() && !changed && v->getInit())
      if (auto f = linearOf(ac, v->getInit(), depth + 1); f && f->stable)
        return f;
    // A variable is a term as it is: both arguments read it at the launch.
    bool stable = !changed && (isa<ParmVarDecl>(v) || v->isLocalVarDecl() ||
                               v->getType().isConstQualified());
    return HostLinear{{{v, 1}}, 0, stable};
  }
  if (auto *m = dyn_cast<MemberExpr>(s)) {
    FieldValue v = fieldValue(m);
    if (v.argument) {
      auto f = linearOf(ac, v.value, depth + 1);
      return f && f->stable ? f : std::nullopt;
    }
    Expr::EvalResult c;
    if (v.value && !v.value->isValueDependent() &&
        v.value->EvaluateAsInt(c, ac) &&
        c.Val.getInt().getSignificantBits() <= 64 &&
        withinLimit(c.Val.getInt().getExtValue()))
      return HostLinear{{}, c.Val.getInt().getExtValue(), true};
    return std::nullopt;
  }
  if (auto *u = dyn_cast<UnaryOperator>(s)) {
    if (u->getOpcode() == UO_Plus)
      return linearOf(ac, u->getSubExpr(), depth + 1);
    if (u->getOpcode() != UO_Minus)
      return std::nullopt;
    auto f = linearOf(ac, u->getSubExpr(), depth + 1);
    if (!f)
      return std::nullopt;
    f->constant = -f->constant;
    for (auto &[v, k] : f->terms)
      k = -k;
    return f;
  }
  auto *b = dyn_cast<BinaryOperator>(s);
  if (!b || (b->getOpcode() != BO_Add && b->getOpcode() != BO_Sub &&
             b->getOpcode() != BO_Mul))
    return std::nullopt;
  auto l = linearOf(ac, b->getLHS(), depth + 1);
  auto r2 = l ? linearOf(ac, b->getRHS(), depth + 1) : std::nullopt;
  if (!l || !r2)
    return std::nullopt;
  HostLinear out;
  out.stable = l->stable && r2->stable;
  if (b->getOpcode() == BO_Mul) {
    // One side a constant: it scales the other.
    if (!l->terms.empty() && !r2->terms.empty())
      return std::nullopt;
    const HostLinear &k = l->terms.empty() ? *l : *r2;
    const HostLinear &f = l->terms.empty() ? *r2 : *l;
    if (k.constant > (int64_t(1) << 20) || k.constant < -(int64_t(1) << 20))
      return std::nullopt;
    out.constant = f.constant * k.constant;
    for (const auto &[v, c] : f.terms)
      out.terms[v] = c * k.constant;
    return bounded(out);
  }
  int64_t sign = b->getOpcode() == BO_Add ? 1 : -1;
  out.constant = l->constant + sign * r2->constant;
  out.terms = l->terms;
  for (const auto &[v, c] : r2->terms)
    out.terms[v] += sign * c;
  return bounded(out);
}

/// `const T *`: what it points to is only read through it.
bool pointsToConst(QualType t) {
  return t->isPointerType() && t->getPointeeType().isConstQualified();
}

/// A local array nothing changes after its initialiser: no element is
/// assigned, incremented or has its address taken, and the array is passed
/// on only as a pointer to const (`int dims[2] = {256, 256};
/// launch(dims);` with `void launch(const int *dims)`).
bool arrayUnchanged(const VarDecl *arr) {
  auto *fd = dyn_cast_or_null<FunctionDecl>(arr->getParentFunctionOrMethod());
  if (!fd || !fd->getBody() || reassigned(arr))
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    bool Escapes = false;
    explicit Finder(const VarDecl *v) : V(v) {}
    bool names(const Expr *e) {
      auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      return d && d->getDecl() == V;
    }
    bool element(const Expr *e) {
      auto *s = dyn_cast<ArraySubscriptExpr>(e->IgnoreParenImpCasts());
      return s && names(s->getBase());
    }
    bool VisitUnaryOperator(UnaryOperator *u) {
      if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) &&
          element(u->getSubExpr()))
        Escapes = true;
      return true;
    }
    bool VisitCallExpr(CallExpr *c) {
      const FunctionDecl *f = c->getDirectCallee();
      // A member operator's object is its first argument.
      unsigned shift =
          isa<CXXOperatorCallExpr>(c) && isa_and_nonnull<CXXMethodDecl>(f);
      for (unsigned i = 0; i < c->getNumArgs(); ++i) {
        const Expr *arg = c->getArg(i);
        const ParmVarDecl *param =
            f && i >= shift && i - shift < f->getNumParams()
                ? f->getParamDecl(i - shift)
                : nullptr;
        if (names(arg) && (!param || !pointsToConst(param->getType())))
          Escapes = true;
        // An element passed by reference (`std::cin >> dims[0]`) may be
        // written; by value or as a const reference it is only read.
        auto *ic = dyn_cast<ImplicitCastExpr>(arg->IgnoreParens());
        bool byValue = ic && ic->getCastKind() == CK_LValueToRValue;
        if (element(arg) && !byValue &&
            !(param && param->getType()->isReferenceType() &&
              param->getType().getNonReferenceType().isConstQualified()))
          Escapes = true;
      }
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *b) {
      // `int *p; p = dims;`: written through `p` later, perhaps.
      if (b->isAssignmentOp() && names(b->getRHS()) &&
          !pointsToConst(b->getLHS()->getType()))
        Escapes = true;
      return true;
    }
    bool VisitVarDecl(VarDecl *d) {
      if (d != V && d->getInit() && names(d->getInit()) &&
          !pointsToConst(d->getType()))
        Escapes = true;
      return true;
    }
  } f(arr);
  f.TraverseStmt(fd->getBody());
  return !f.Escapes;
}

/// What the launch visitor saw in the translation unit: calls of each host
/// function (by canonical decl), and the range of each range-for loop
/// variable.
struct HostFacts {
  std::map<const FunctionDecl *, std::vector<const CallExpr *>> calls;
  std::map<const VarDecl *, const Expr *> ranges;
  /// The counted loop each loop variable is declared by
  /// (`for (int x = 1; x <= 8; x *= 2)`).
  std::map<const VarDecl *, const ForStmt *> loops;
  /// Calls made in other files of this file's functions.
  const CallsByFunction *incoming = nullptr;
};
const HostFacts NoFacts;

/// Values of host expressions at launches: constants, locals initialised
/// with them (and not changed after), simple arithmetic, and a parameter of
/// the launching function when every call of that function in the
/// translation unit passes constants (a launcher wrapper called with fixed
/// sizes). Several values are kept (at most MaxInts), one per call; at
/// most MaxValues block shapes or calls of a launcher.
struct HostEval {
  static constexpr size_t MaxValues = 8;
  /// A host loop over a table of sizes (`for (i = 0; i < 11; i++)
  /// launch(w[i], h[i])`): each is a launch, the first the one a profiler
  /// shows first.
  static constexpr size_t MaxInts = 16;
  ASTContext &ac;
  const HostFacts &facts;
  /// One call of the launching function whose arguments its parameters
  /// take (so that `launch(32, 4); launch(16, 8);` are two shapes, not four).
  const FunctionDecl *boundFn = nullptr;
  const CallExpr *bound = nullptr;
  /// Or the argument values of a call made in another file.
  const CallValues *boundForeign = nullptr;
  /// What the values rest on, shared with the evaluations this one starts:
  /// "the default of option -i (main.cu:63)" where a variable the command
  /// line may set is taken at the value the program gives it otherwise.
  std::shared_ptr<std::vector<std::string>> defaults =
      std::make_shared<std::vector<std::string>>();

  /// An evaluation with nothing bound, whose assumptions are this one's.
  HostEval unbound() const {
    HostEval h{ac, facts};
    h.defaults = defaults;
    return h;
  }

  /// The argument `p` takes from the bound call, if its function is bound.
  const Expr *boundArgument(const ParmVarDecl *p) const {
    auto *fd = dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
    if (!bound || !fd || fd->getCanonicalDecl() != boundFn)
      return nullptr;
    unsigned index = p->getFunctionScopeIndex();
    return index < bound->getNumArgs() ? bound->getArg(index) : nullptr;
  }

  std::optional<std::vector<int64_t>> ints(const Expr *e, int depth) const {
    if (!e || depth > 8 || e->isValueDependent())
      return std::nullopt;
    Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ac))
      return std::vector<int64_t>{r.Val.getInt().getExtValue()};
    const Expr *s = e->IgnoreParenImpCasts();
    if (auto *d = dyn_cast<DeclRefExpr>(s)) {
      auto *v = dyn_cast<VarDecl>(d->getDecl());
      if (!v)
        return std::nullopt;
      if (auto loop = facts.loops.find(v); loop != facts.loops.end())
        return loopValues(v, loop->second, depth);
      if (reassigned(v))
        return assignedValues(v, depth);
      if (auto *p = dyn_cast<ParmVarDecl>(v))
        return parameter(p, depth);
      if (const Expr *range = rangeOf(v))
        return elements(range, depth);
      if (v->getInit() && v->isLocalVarDecl())
        return ints(v->getInit(), depth + 1);
      return std::nullopt;
    }
    if (auto *c = dyn_cast<ExplicitCastExpr>(s);
        c && c->getType()->isIntegralOrEnumerationType() &&
        c->getSubExpr()->getType()->isIntegralOrEnumerationType()) {
      // `(unsigned)w`: each value, converted as C converts it.
      auto vs = ints(c->getSubExpr(), depth + 1);
      if (!vs)
        return std::nullopt;
      QualType t = c->getType();
      unsigned bits = unsigned(ac.getIntWidth(t));
      for (int64_t &v : *vs)
        if (t->isBooleanType()) {
          v = v != 0;
        } else if (bits < 64) {
          uint64_t low = uint64_t(v) & ((uint64_t(1) << bits) - 1);
          bool negative = t->isSignedIntegerOrEnumerationType() &&
                          ((low >> (bits - 1)) & 1);
          v = negative ? int64_t(low | ~((uint64_t(1) << bits) - 1))
                       : int64_t(low);
        }
      return vs;
    }
    if (auto *m = dyn_cast<MemberExpr>(s)) {
      // `range.tpb` of a local object built by a constructor (fieldValue()).
      FieldValue v = fieldValue(m);
      if (v.value)
        return ints(v.value, depth + 1);
      return bodyFieldValues(m, depth);
    }
    if (auto *a = dyn_cast<ArraySubscriptExpr>(s)) {
      // `dims[0]`: an element of a constant local array, or of one a
      // pointer parameter is bound to; with an index of several values
      // (`experts[e]` in a host loop over the array), each element it
      // selects.
      auto indices = ints(a->getIdx(), depth + 1);
      auto vs = indices ? arrayValues(a->getBase(), depth + 1) : std::nullopt;
      if (!vs)
        return std::nullopt;
      std::vector<int64_t> out;
      for (int64_t index : *indices)
        for (const std::vector<int64_t> &elems : *vs)
          if (index < 0 || size_t(index) >= elems.size() ||
              !add(out, elems[index]))
            return std::nullopt;
      return out;
    }
    if (auto *call = dyn_cast<CallExpr>(s)) {
      // `std::max(n, 32)`, `std::min(n, 1024)`: each pair of values.
      auto *fn = call->getDirectCallee();
      if (!fn || call->getNumArgs() != 2 || !fn->isInStdNamespace() ||
          !fn->getIdentifier() ||
          (fn->getName() != "max" && fn->getName() != "min"))
        return std::nullopt;
      bool isMax = fn->getName() == "max";
      return pairwise(call->getArg(0), call->getArg(1), depth,
                      [&](int64_t x, int64_t y) -> std::optional<int64_t> {
                        return isMax ? std::max(x, y) : std::min(x, y);
                      });
    }
    if (auto *c = dyn_cast<ConditionalOperator>(s)) {
      // `n < 1024 ? 128 : 256`: either.
      std::vector<int64_t> out;
      if (!unite(out, c->getTrueExpr(), depth) ||
          !unite(out, c->getFalseExpr(), depth))
        return std::nullopt;
      return out;
    }
    if (auto *b = dyn_cast<BinaryOperator>(s)) {
      BinaryOperatorKind op = b->getOpcode();
      return pairwise(b->getLHS(), b->getRHS(), depth,
                      [&](int64_t x, int64_t y) -> std::optional<int64_t> {
                        switch (op) {
                        case BO_Add: return x + y;
                        case BO_Sub: return x - y;
                        case BO_Mul: return x * y;
                        case BO_Div:
                          if (!y)
                            return std::nullopt;
                          return x / y;
                        default:
                          return std::nullopt;
                        }
                      });
    }
    return std::nullopt;
  }

  /// `f` over each pair of values of `a` and `b` (an operator, `std::max`):
  /// none where either has none, `f` gives none, or there are too many.
  template <class F>
  std::optional<std::vector<int64_t>> pairwise(const Expr *a, const Expr *b,
                                               int depth, F f) const {
    auto l = ints(a, depth + 1);
    auto r = l ? ints(b, depth + 1) : std::nullopt;
    if (!l || !r)
      return std::nullopt;
    std::vector<int64_t> out;
    for (int64_t x : *l)
      for (int64_t y : *r) {
        std::optional<int64_t> v = f(x, y);
        if (!v || !add(out, *v))
          return std::nullopt;
      }
    return out;
  }

  /// A local set by plain assignments to constants only (`int threads =
  /// 256; if (n < 4096) threads = 64;`, or a switch on a size): each value it
  /// may hold, its initialiser's included. Anything else changing it: none.
  std::optional<std::vector<int64_t>> assignedValues(const VarDecl *v,
                                                     int depth) const {
    if (!v->isLocalVarDecl() || isa<ParmVarDecl>(v))
      return std::nullopt;
    Changes c = changesOf(v);
    if (c.other || c.plain.empty())
      return std::nullopt;
    if (v->getInit()) {
      c.plain.insert(c.plain.begin(), v->getInit());
      c.cases.insert(c.cases.begin(), nullptr);
    }
    return withDefaults(c, depth);
  }

  /// The values of `values` (a variable's initialiser and assignments),
  /// leaving out those read from the command line (`bs = atoi(optarg)`)
  /// when the others give it a default: the value is then taken at its
  /// default, and `defaults` says so.
  std::optional<std::vector<int64_t>> withDefaults(const Changes &values,
                                                   int depth) const {
    std::vector<int64_t> out;
    std::vector<std::string> options;
    const Expr *firstDefault = nullptr;
    for (size_t i = 0; i < values.plain.size(); ++i) {
      const Expr *e = values.plain[i];
      if (fromCommandLine(e)) {
        addUnique(options, optionOf(ac, values.cases[i]));
        continue;
      }
      if (!unite(out, e, depth))
        return std::nullopt;
      if (!firstDefault)
        firstDefault = e;
    }
    if (out.empty())
      return std::nullopt;
    for (const std::string &o : options)
      addUnique(*defaults, (o.empty() ? std::string("the default when the "
                                                    "command line gives none")
                                      : "the default of " + o) +
                               " (" + whereIs(ac, firstDefault) + ")");
    return out;
  }

  /// A field of a local object nothing changes after its construction, set
  /// by plain assignments in the constructor's body (`Params(int argc, char
  /// **argv) { n_gpu_threads = 256; ...getopt... }`): each value it may
  /// hold, command-line values left out where it has a default.
  std::optional<std::vector<int64_t>> bodyFieldValues(const MemberExpr *m,
                                                      int depth) const {
    const FieldDecl *field = nullptr;
    const CXXConstructExpr *ce = localConstruction(m, field);
    if (!ce)
      return std::nullopt;
    const CXXConstructorDecl *ctor = ce->getConstructor();
    const FunctionDecl *def = nullptr;
    if (!ctor->hasBody(def))
      return std::nullopt;
    auto assigned =
        constructorAssignments(dyn_cast<CXXConstructorDecl>(def), field);
    if (!assigned || assigned->plain.empty())
      return std::nullopt;
    // A member initializer or default member initializer comes first.
    Changes values = std::move(*assigned);
    for (const CXXCtorInitializer *init :
         dyn_cast<CXXConstructorDecl>(def)->inits())
      if (init->getMember() == field && init->getInit() &&
          (init->isWritten() || isa<CXXDefaultInitExpr>(init->getInit()))) {
        values.plain.insert(values.plain.begin(), init->getInit());
        values.cases.insert(values.cases.begin(), nullptr);
      }
    return withDefaults(values, depth);
  }

  /// The values a counted host loop's variable takes, when they are few:
  /// a constant start, a comparison with a constant, a constant step
  /// (`++`, `--`, `+=`, `-=`, `*=`, `/=`, `<<=`, `>>=`), and a body that does
  /// not change the variable. A benchmark's sweep over sizes
  /// (`for (int x = 1; x <= 8; x *= 2) kernel<<<g, b>>>(..., x);`) makes one
  /// value per iteration, as a range-for over a list does.
  std::optional<std::vector<int64_t>> loopValues(const VarDecl *v,
                                                 const ForStmt *f,
                                                 int depth) const {
    auto start = v->getInit() ? one(v->getInit(), depth + 1) : std::nullopt;
    auto *cond = dyn_cast_or_null<BinaryOperator>(
        f->getCond() ? f->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!start || !cond || !isVar(cond->getLHS(), v) ||
        changesIn(v, f->getBody()).any())
      return std::nullopt;
    auto bound = one(cond->getRHS(), depth + 1);
    if (!bound)
      return std::nullopt;
    // The step: x' = step(x), or none.
    const Expr *inc = f->getInc() ? f->getInc()->IgnoreParenImpCasts() : nullptr;
    BinaryOperatorKind stepOp;
    int64_t by = 1;
    if (auto *u = dyn_cast_or_null<UnaryOperator>(inc);
        u && u->isIncrementDecrementOp() && isVar(u->getSubExpr(), v)) {
      stepOp = u->isIncrementOp() ? BO_Add : BO_Sub;
    } else if (auto *c = dyn_cast_or_null<CompoundAssignOperator>(inc);
               c && isVar(c->getLHS(), v)) {
      auto amount = one(c->getRHS(), depth + 1);
      if (!amount)
        return std::nullopt;
      by = *amount;
      stepOp = BinaryOperator::getOpForCompoundAssignment(c->getOpcode());
    } else {
      return std::nullopt;
    }
    auto holds = [&](int64_t x) {
      switch (cond->getOpcode()) {
      case BO_LT: return x < *bound;
      case BO_LE: return x <= *bound;
      case BO_GT: return x > *bound;
      case BO_GE: return x >= *bound;
      case BO_NE: return x != *bound;
      default: return false;
      }
    };
    std::vector<int64_t> out;
    int64_t x = *start;
    while (holds(x)) {
      if (!add(out, x))
        return std::nullopt; // too many to be one launch each
      int64_t next;
      switch (stepOp) {
      case BO_Add: next = x + by; break;
      case BO_Sub: next = x - by; break;
      case BO_Mul: next = x * by; break;
      case BO_Div: next = by ? x / by : x; break;
      case BO_Shl: next = by >= 0 && by < 32 ? x << by : x; break;
      case BO_Shr: next = by >= 0 && by < 63 ? x >> by : x; break;
      default: return std::nullopt;
      }
      if (next == x || std::abs(next) > (int64_t(1) << 40))
        return std::nullopt; // no progress, or runaway
      x = next;
    }
    if (out.empty())
      return std::nullopt;
    return out;
  }

  static bool isVar(const Expr *e, const VarDecl *v) {
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d && d->getDecl() == v;
  }

  /// Adds the values of `e` to `out`; false when it has none, or too many.
  bool unite(std::vector<int64_t> &out, const Expr *e, int depth) const {
    auto v = ints(e, depth + 1);
    if (!v)
      return false;
    for (int64_t x : *v)
      if (!add(out, x))
        return false;
    return true;
  }

  /// The range of the range-for loop whose variable `v` is
  /// (`for (int bs : sizes)`), or null.
  const Expr *rangeOf(const VarDecl *v) const {
    auto it = facts.ranges.find(v);
    return it == facts.ranges.end() ? nullptr : it->second;
  }

  /// The values a range-for loop takes: a braced list, or a local array
  /// initialised with constants and never written (`int sizes[] = {64,
  /// 128}; for (int bs : sizes) ...`): each launch in the loop is one shape.
  std::optional<std::vector<int64_t>> elements(const Expr *range,
                                               int depth) const {
    range = range->IgnoreParenImpCasts();
    if (auto *m = dyn_cast<MaterializeTemporaryExpr>(range))
      range = m->getSubExpr()->IgnoreParenImpCasts();
    if (auto *il = dyn_cast<CXXStdInitializerListExpr>(range))
      range = il->getSubExpr()->IgnoreParenImpCasts();
    if (auto *m = dyn_cast<MaterializeTemporaryExpr>(range))
      range = m->getSubExpr()->IgnoreParenImpCasts();
    const InitListExpr *list = dyn_cast<InitListExpr>(range);
    if (!list)
      if (auto *d = dyn_cast<DeclRefExpr>(range))
        if (auto *arr = dyn_cast<VarDecl>(d->getDecl());
            arr && arr->isLocalVarDecl() && arr->getType()->isArrayType() &&
            !reassigned(arr) && arr->getInit())
          list = dyn_cast<InitListExpr>(arr->getInit()->IgnoreParenImpCasts());
    if (!list || list->getNumInits() == 0)
      return std::nullopt;
    std::vector<int64_t> out;
    for (const Expr *x : list->inits())
      if (!unite(out, x, depth))
        return std::nullopt;
    return out;
  }

  /// The elements of a local array with constant elements that nothing
  /// changes (in order), when `e` names one.
  std::optional<std::vector<int64_t>> constantArray(const Expr *e,
                                                    int depth) const {
    auto *d = e ? dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()) : nullptr;
    auto *arr = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (!arr || !arr->isLocalVarDecl() || !arr->getType()->isArrayType() ||
        !arr->getInit())
      return std::nullopt;
    auto *list = dyn_cast<InitListExpr>(arr->getInit()->IgnoreParenImpCasts());
    if (!list || list->getNumInits() == 0 || list->getNumInits() > 16 ||
        !arrayUnchanged(arr))
      return std::nullopt;
    std::vector<int64_t> out;
    for (const Expr *x : list->inits()) {
      auto v = one(x, depth + 1);
      if (!v)
        return std::nullopt;
      out.push_back(*v);
    }
    return out;
  }

  /// The arrays `base` may name: a constant local array, or the arrays a
  /// pointer parameter of the launching function is passed (one per call).
  std::optional<std::vector<std::vector<int64_t>>>
  arrayValues(const Expr *base, int depth) const {
    if (depth > 8)
      return std::nullopt;
    if (auto a = constantArray(base, depth))
      return std::vector<std::vector<int64_t>>{*a};
    auto *d = dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts());
    auto *p = d ? dyn_cast<ParmVarDecl>(d->getDecl()) : nullptr;
    auto *fd = p ? dyn_cast_or_null<FunctionDecl>(p->getDeclContext())
                 : nullptr;
    if (!fd || !p->getType()->isPointerType() || reassigned(p))
      return std::nullopt;
    unsigned index = p->getFunctionScopeIndex();
    if (const Expr *arg = boundArgument(p))
      return unbound().arrayValues(arg, depth + 1);
    if (boundForeign && fd->getCanonicalDecl() == boundFn) {
      if (index < boundForeign->arrays.size() && boundForeign->arrays[index])
        return std::vector<std::vector<int64_t>>{*boundForeign->arrays[index]};
      return std::nullopt;
    }
    auto it = facts.calls.find(fd->getCanonicalDecl());
    if (it == facts.calls.end() || it->second.empty() ||
        it->second.size() > MaxValues)
      return std::nullopt;
    std::vector<std::vector<int64_t>> out;
    for (const CallExpr *c : it->second) {
      auto a = index < c->getNumArgs()
                   ? arrayValues(c->getArg(index), depth + 1)
                   : std::nullopt;
      if (!a)
        return std::nullopt;
      out.insert(out.end(), a->begin(), a->end());
    }
    return out;
  }

  std::optional<std::vector<int64_t>> parameter(const ParmVarDecl *p,
                                                int depth) const {
    if (const Expr *arg = boundArgument(p))
      return unbound().ints(arg, depth + 1);
    if (auto *fd = dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
        boundForeign && fd && fd->getCanonicalDecl() == boundFn) {
      unsigned index = p->getFunctionScopeIndex();
      if (index < boundForeign->assuming.size())
        for (const std::string &d : boundForeign->assuming[index])
          addUnique(*defaults, d);
      if (index < boundForeign->args.size())
        return boundForeign->args[index];
      return std::nullopt;
    }
    auto *fd = dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
    if (!fd)
      return std::nullopt;
    auto it = facts.calls.find(fd->getCanonicalDecl());
    if (it == facts.calls.end() || it->second.empty())
      return std::nullopt;
    unsigned index = p->getFunctionScopeIndex();
    std::vector<int64_t> out;
    for (const CallExpr *c : it->second)
      if (!unite(out, index < c->getNumArgs() ? c->getArg(index) : nullptr,
                 depth))
        return std::nullopt;
    return out;
  }

  static bool add(std::vector<int64_t> &out, int64_t v) {
    if (std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
    return out.size() <= MaxInts;
  }

  /// One value, or none.
  std::optional<int64_t> one(const Expr *e, int depth) const {
    auto v = ints(e, depth);
    if (v && v->size() == 1)
      return (*v)[0];
    return std::nullopt;
  }

  /// A dim3 expression's values: dim3(16, 16), a dim3 variable initialised
  /// from constants, or an integer (x only). A member that is not constant
  /// is 0.
  std::optional<std::vector<Shape>> dims(const Expr *e, int depth) const {
    // A template's pattern has initializers with no type yet (`dim3
    // b(param.n / 4)` as a ParenListExpr): nothing to read there.
    if (!e || depth > 8 || e->getType().isNull() || e->isTypeDependent() ||
        e->isValueDependent())
      return std::nullopt;
    e = e->IgnoreParenImpCasts();
    if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
      return dims(m->getSubExpr(), depth + 1);
    if (auto *f = dyn_cast<FullExpr>(e))
      return dims(f->getSubExpr(), depth + 1);
    if (auto *b = dyn_cast<CXXBindTemporaryExpr>(e))
      return dims(b->getSubExpr(), depth + 1);
    if (auto *c = dyn_cast<CXXFunctionalCastExpr>(e))
      return dims(c->getSubExpr(), depth + 1);
    auto members = [&](std::vector<const Expr *> args)
        -> std::optional<std::vector<Shape>> {
      std::vector<Shape> out{Shape{1, 1, 1}};
      for (size_t i = 0; i < args.size() && i < 3; ++i) {
        auto v = ints(args[i], depth + 1);
        // A member whose value the host code does not show is unknown (0);
        // the members given and the 1s of those left out still hold.
        if (!v)
          v = std::vector<int64_t>{0};
        // A block dimension is positive: a variable's placeholder (`int
        // threads = 0;` then set on every path) is not one of its shapes.
        if (std::any_of(v->begin(), v->end(), [](int64_t x) { return x > 0; }))
          v->erase(std::remove_if(v->begin(), v->end(),
                                  [](int64_t x) { return x <= 0; }),
                   v->end());
        std::vector<Shape> next;
        for (const Shape &sh : out)
          for (int64_t x : *v) {
            Shape t = sh;
            (i == 0 ? t.x : i == 1 ? t.y : t.z) = x;
            if (std::find(next.begin(), next.end(), t) == next.end())
              next.push_back(t);
          }
        if (next.size() > MaxValues)
          return std::nullopt;
        out = std::move(next);
      }
      return out;
    };
    if (auto *c = dyn_cast<CXXConstructExpr>(e)) {
      if (c->getNumArgs() == 1 &&
          c->getArg(0)->getType()->isRecordType()) // copy/move or uint3
        return dims(c->getArg(0), depth + 1);
      return members({c->getArgs(), c->getArgs() + c->getNumArgs()});
    }
    if (auto *il = dyn_cast<InitListExpr>(e))
      return members({il->getInits(), il->getInits() + il->getNumInits()});
    if (auto *d = dyn_cast<DeclRefExpr>(e))
      if (auto *v = dyn_cast<VarDecl>(d->getDecl())) {
        if (auto *p = dyn_cast<ParmVarDecl>(v)) {
          if (!p->getType()->isRecordType() || reassigned(p))
            return std::nullopt;
          return dimParameter(p, depth);
        }
        if (v->getInit()) {
          auto s = dims(v->getInit(), depth + 1);
          // `dim3 b; b.x = 1; b.y = n;`: the members assigned later win; a
          // member set to a value that is not constant is unknown (0).
          for (const auto &[dim, value] : memberAssignments(v, d)) {
            if (!s)
              break;
            auto x = one(value, depth + 1);
            int64_t c = x && *x > 0 ? *x : 0;
            for (Shape &sh : *s)
              (dim == 0 ? sh.x : dim == 1 ? sh.y : sh.z) = c;
          }
          return s;
        }
      }
    // An integer is x alone: y and z are 1 even when x is not known.
    if (e->getType()->isIntegralOrEnumerationType()) {
      std::vector<Shape> out;
      if (auto v = ints(e, depth + 1))
        for (int64_t x : *v)
          out.push_back(Shape{x, 1, 1});
      else
        out.push_back(Shape{0, 1, 1});
      return out;
    }
    return std::nullopt;
  }

  /// A dim3 parameter of the launching function: the shapes its calls pass.
  std::optional<std::vector<Shape>> dimParameter(const ParmVarDecl *p,
                                                 int depth) const {
    if (const Expr *arg = boundArgument(p))
      return unbound().dims(arg, depth + 1);
    auto *fd = dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
    auto it = fd ? facts.calls.find(fd->getCanonicalDecl())
                 : facts.calls.end();
    if (it == facts.calls.end() || it->second.empty())
      return std::nullopt;
    unsigned index = p->getFunctionScopeIndex();
    std::vector<Shape> out;
    for (const CallExpr *c : it->second) {
      auto v = index < c->getNumArgs() ? dims(c->getArg(index), depth + 1)
                                       : std::nullopt;
      if (!v)
        return std::nullopt;
      for (const Shape &sh : *v)
        if (std::find(out.begin(), out.end(), sh) == out.end())
          out.push_back(sh);
    }
    if (out.size() > MaxValues)
      return std::nullopt;
    return out;
  }
};

class LaunchVisitor : public RecursiveASTVisitor<LaunchVisitor> {
public:
  LaunchVisitor(ASTContext &ac, LaunchSites &out) : AC(ac), Out(out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  /// Kernels a function pointer variable is set to (`kernel = &copy;`,
  /// `void (*k)(...) = f;`, an array of them): a launch through the
  /// variable launches each of them.
  std::map<const VarDecl *, std::vector<const FunctionDecl *>> Targets;
  void noteTarget(const VarDecl *v, const Expr *e) {
    if (!v || !e)
      return;
    e = e->IgnoreParenImpCasts();
    if (auto *il = dyn_cast<InitListExpr>(e)) {
      for (const Expr *x : il->inits())
        noteTarget(v, x);
      return;
    }
    if (auto *c = dyn_cast<ConditionalOperator>(e)) {
      noteTarget(v, c->getTrueExpr());
      noteTarget(v, c->getFalseExpr());
      return;
    }
    if (auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf)
      e = u->getSubExpr()->IgnoreParenImpCasts();
    if (auto *d = dyn_cast<DeclRefExpr>(e))
      if (auto *f = dyn_cast<FunctionDecl>(d->getDecl()); f && f->hasAttr<CUDAGlobalAttr>())
        Targets[v].push_back(f);
  }
  bool VisitVarDecl(VarDecl *v) {
    if (v->getInit())
      noteTarget(v, v->getInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->getOpcode() != BO_Assign)
      return true;
    const Expr *l = b->getLHS()->IgnoreParenImpCasts();
    if (auto *s = dyn_cast<ArraySubscriptExpr>(l))
      l = s->getBase()->IgnoreParenImpCasts();
    if (auto *d = dyn_cast<DeclRefExpr>(l))
      noteTarget(dyn_cast<VarDecl>(d->getDecl()), b->getRHS());
    return true;
  }
  std::vector<const CUDAKernelCallExpr *> Indirect;

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *call) {
    // A launch inside a template's pattern: its instantiations say more.
    if (call->isInstantiationDependent())
      return true;
    if (!Functions.empty())
      Launcher[call] = Functions.back();
    if (call->getDirectCallee()) {
      Direct.push_back(call); // after every call has been seen
      return true;
    }
    Indirect.push_back(call); // after every assignment has been seen
    return true;
  }
  std::vector<const CUDAKernelCallExpr *> Direct;
  std::map<const CallExpr *, const FunctionDecl *> Launcher;
  /// cudaLaunchKernel(kernel, grid, block, args, ...) and the cooperative
  /// form: the kernel is their first argument, the block their third.
  std::vector<const CallExpr *> ApiLaunches;
  static bool isLaunchApi(const FunctionDecl *f) {
    if (!f || !f->getIdentifier())
      return false;
    StringRef n = f->getName();
    return n == "cudaLaunchKernel" || n == "cudaLaunchCooperativeKernel";
  }
  /// Host calls by callee (a launcher's parameters take their values) and
  /// range-for loop variables (a loop over block sizes).
  HostFacts Facts;
  bool VisitCallExpr(CallExpr *c) {
    if (isa<CUDAKernelCallExpr>(c) || c->isInstantiationDependent())
      return true;
    if (isLaunchApi(c->getDirectCallee()) && c->getNumArgs() >= 3) {
      if (!Functions.empty())
        Launcher[c] = Functions.back();
      ApiLaunches.push_back(c);
      return true;
    }
    if (const FunctionDecl *f = c->getDirectCallee()) {
      Facts.calls[f->getCanonicalDecl()].push_back(c);
      // A function defined elsewhere that takes an integer (or integers
      // through a pointer to const): perhaps a launcher wrapper of another
      // file, whose launch these values bind.
      if (!f->isDefined() && !f->getBuiltinID() &&
          !AC.getSourceManager().isInSystemHeader(f->getLocation()) &&
          std::any_of(f->param_begin(), f->param_end(),
                      [](const ParmVarDecl *p) {
                        QualType t = p->getType();
                        if (pointsToConst(t))
                          t = t->getPointeeType();
                        return t->isIntegralOrEnumerationType();
                      }))
        Outgoing.push_back(c);
    }
    return true;
  }
  std::vector<const CallExpr *> Outgoing;
  bool VisitForStmt(ForStmt *f) {
    if (auto *ds = dyn_cast_or_null<DeclStmt>(f->getInit());
        ds && ds->isSingleDecl())
      if (auto *v = dyn_cast<VarDecl>(ds->getSingleDecl());
          v && v->getType()->isIntegerType() && v->getInit())
        Facts.loops[v] = f;
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *f) {
    if (f->getLoopVariable() && f->getRangeInit())
      Facts.ranges[f->getLoopVariable()] = f->getRangeInit();
    return true;
  }
  /// The function being traversed: where a launch is written.
  std::vector<const FunctionDecl *> Functions;
  bool TraverseDecl(Decl *d) {
    auto *f = dyn_cast_or_null<FunctionDecl>(d);
    // A declaration of a system header (the CUDA runtime's, a library's)
    // launches only the library's kernels, which are not analyzed: it is
    // not walked, and a namespace of one holds only its header's
    // declarations (the program's parts of it are namespaces of their own).
    if (d && !isa<TranslationUnitDecl>(d) &&
        AC.getSourceManager().isInSystemHeader(d->getLocation()))
      return true;
    if (f)
      Functions.push_back(f);
    bool ok = RecursiveASTVisitor::TraverseDecl(d);
    if (f)
      Functions.pop_back();
    return ok;
  }
  void finish() {
    for (const CallExpr *c : Outgoing) {
      CallValues values;
      for (const Expr *arg : c->arguments()) {
        HostEval eval{AC, Facts};
        values.args.push_back(arg->getType()->isIntegralOrEnumerationType()
                                  ? eval.ints(arg, 0)
                                  : std::nullopt);
        values.arrays.push_back(arg->getType()->isPointerType()
                                    ? eval.constantArray(arg, 0)
                                    : std::nullopt);
        values.assuming.push_back(*eval.defaults);
      }
      values.where = whereIs(c);
      Out.outgoing[c->getDirectCallee()->getCanonicalDecl()].push_back(values);
    }
    auto configArg = [](const CUDAKernelCallExpr *call,
                        unsigned i) -> const Expr * {
      const CallExpr *config = call->getConfig();
      return config && config->getNumArgs() >= 2 ? config->getArg(i) : nullptr;
    };
    for (const CUDAKernelCallExpr *call : Direct)
      note(call, call->getDirectCallee(), configArg(call, 1),
           configArg(call, 0), true);
    // The kernels a callee expression names: a kernel, a variable set to
    // some (through `(void *)`, `&`, an array element), or a parameter of
    // the launching function, which each call of it names (`template <class
    // K> void launch(K kernel, int n) { kernel<<<...>>>(n); }` called as
    // `launch(scale<4>, n)`).
    auto kernelsOf = [&](const Expr *callee, const CallExpr *call) {
      std::vector<const FunctionDecl *> out;
      auto add = [&](const FunctionDecl *k) {
        if (std::none_of(out.begin(), out.end(), [&](const FunctionDecl *o) {
              return o->getCanonicalDecl() == k->getCanonicalDecl();
            }))
          out.push_back(k);
      };
      if (const FunctionDecl *f = namedKernel(callee)) {
        out.push_back(f);
        return out;
      }
      if (const ParmVarDecl *p = kernelParameter(call)) {
        for (const CallExpr *c : callsOf(launcherOf(call)))
          if (const FunctionDecl *k = kernelPassed(c, p))
            add(k);
        return out;
      }
      callee = callee->IgnoreParenCasts();
      if (auto *u = dyn_cast<UnaryOperator>(callee);
          u && u->getOpcode() == UO_AddrOf)
        callee = u->getSubExpr()->IgnoreParenCasts();
      if (auto *s = dyn_cast<ArraySubscriptExpr>(callee))
        callee = s->getBase()->IgnoreParenImpCasts();
      auto *d = dyn_cast<DeclRefExpr>(callee);
      auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      auto it = v ? Targets.find(v) : Targets.end();
      if (it == Targets.end())
        return out;
      for (const FunctionDecl *k : it->second)
        add(k);
      return out;
    };
    for (const CUDAKernelCallExpr *call : Indirect)
      for (const FunctionDecl *k : kernelsOf(call->getCallee(), call))
        note(call, k, configArg(call, 1), configArg(call, 0), true);
    // Through the runtime API the kernel's arguments are an array of
    // pointers: only the grid and block shapes are read.
    for (const CallExpr *call : ApiLaunches)
      for (const FunctionDecl *k : kernelsOf(call->getArg(0), call))
        note(call, k, call->getArg(2), call->getArg(1), false);
  }

  /// The kernel an expression names (through `&` and casts), if any.
  static const FunctionDecl *namedKernel(const Expr *e) {
    e = e->IgnoreParenCasts();
    if (auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf)
      e = u->getSubExpr()->IgnoreParenCasts();
    auto *d = dyn_cast<DeclRefExpr>(e);
    auto *f = d ? dyn_cast<FunctionDecl>(d->getDecl()) : nullptr;
    return f && f->hasAttr<CUDAGlobalAttr>() ? f : nullptr;
  }

  /// The parameter of the launching function that a launch's kernel is
  /// (`kernel<<<g, b>>>(...)` or `cudaLaunchKernel(kernel, ...)` with
  /// `kernel` a parameter), or null.
  const ParmVarDecl *kernelParameter(const CallExpr *call) const {
    const Expr *callee = nullptr;
    if (auto *k = dyn_cast<CUDAKernelCallExpr>(call))
      callee = k->getCallee();
    else if (call->getNumArgs() > 0)
      callee = call->getArg(0);
    auto *d = callee ? dyn_cast<DeclRefExpr>(callee->IgnoreParenCasts())
                     : nullptr;
    auto *p = d ? dyn_cast<ParmVarDecl>(d->getDecl()) : nullptr;
    const FunctionDecl *launcher = launcherOf(call);
    if (!p || !launcher || p->getDeclContext() != launcher ||
        p->getFunctionScopeIndex() >= launcher->getNumParams())
      return nullptr;
    return p;
  }

  /// The calls of `launcher` in this file.
  const std::vector<const CallExpr *> &callsOf(const FunctionDecl *launcher) const {
    static const std::vector<const CallExpr *> none;
    auto it = launcher ? Facts.calls.find(launcher->getCanonicalDecl())
                       : Facts.calls.end();
    return it == Facts.calls.end() ? none : it->second;
  }

  /// The kernel call `c` of a launcher passes as its parameter `p`.
  static const FunctionDecl *kernelPassed(const CallExpr *c,
                                          const ParmVarDecl *p) {
    unsigned i = p->getFunctionScopeIndex();
    return !isa<CXXOperatorCallExpr>(c) && i < c->getNumArgs()
               ? namedKernel(c->getArg(i))
               : nullptr;
  }

  std::string whereIs(const Expr *e) const { return warplint::whereIs(AC, e); }

  /// " (with the default of option -i (main.cu:63))": what the values read
  /// at a launch or call rest on, or "".
  static std::string assuming(const std::vector<std::string> &defaults) {
    return defaults.empty() ? "" : " (with " + listed(defaults) + ")";
  }
  /// "a, b and c".
  static std::string listed(const std::vector<std::string> &items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
      out += (i ? i + 1 == items.size() ? " and " : ", " : "") + items[i];
    return out;
  }

  /// The function a launch is written in.
  const FunctionDecl *launcherOf(const CallExpr *call) const {
    auto it = Launcher.find(call);
    return it == Launcher.end() ? nullptr : it->second;
  }

  /// A launch of `k` by `call` with block shape `block`; `withArgs`: the
  /// call's arguments are the kernel's (a `<<<...>>>` launch).
  void note(const CallExpr *call, const FunctionDecl *k, const Expr *block,
            const Expr *grid, bool withArgs) {
    // One evaluation per call of the launching function (its parameters
    // bound together), or one unbound when nothing calls it here.
    std::vector<HostEval> evals;
    const FunctionDecl *launcher = launcherOf(call);
    auto calls = launcher ? Facts.calls.find(launcher->getCanonicalDecl())
                          : Facts.calls.end();
    const std::vector<CallValues> *foreign = nullptr;
    if (launcher && launcher->getNumParams() > 0 &&
        calls == Facts.calls.end()) {
      addUnique(Out.uncalledLaunchers, launcher->getCanonicalDecl());
      if (Facts.incoming)
        if (auto it = Facts.incoming->find(launcher->getCanonicalDecl());
            it != Facts.incoming->end() && !it->second.empty() &&
            it->second.size() <= HostEval::MaxValues)
          foreign = &it->second;
    }
    // A launcher that takes the kernel as a parameter: the calls that pass
    // this kernel.
    const ParmVarDecl *kernelParam = kernelParameter(call);
    std::vector<const CallExpr *> passing;
    if (calls != Facts.calls.end())
      for (const CallExpr *c : calls->second) {
        const FunctionDecl *named =
            kernelParam ? kernelPassed(c, kernelParam) : nullptr;
        if (!kernelParam || (named && k &&
                             named->getCanonicalDecl() == k->getCanonicalDecl()))
          passing.push_back(c);
      }
    if (calls != Facts.calls.end() && launcher->getNumParams() > 0 &&
        passing.size() <= HostEval::MaxValues)
      for (const CallExpr *c : passing)
        evals.push_back(HostEval{AC, Facts, launcher->getCanonicalDecl(), c});
    else if (foreign)
      for (const CallValues &c : *foreign)
        evals.push_back(
            HostEval{AC, Facts, launcher->getCanonicalDecl(), nullptr, &c});
    else
      evals.push_back(HostEval{AC, Facts});
    if (!k)
      return;
    k = k->getCanonicalDecl();
    // The arguments as linear forms, for relations between parameters.
    std::vector<std::optional<HostLinear>> forms;
    for (unsigned i = 0; withArgs && i < call->getNumArgs(); ++i)
      forms.push_back(linearOf(AC, call->getArg(i), 0));
    Out.forms[k].push_back(std::move(forms));
    if (!block)
      return;
    std::string where = whereIs(call);
    if (foreign) {
      // The launch and the calls in other files that set its values.
      where += ", called from " + (*foreign)[0].where;
      for (size_t i = 1; i < foreign->size() && i < 3; ++i)
        where += " and " + (*foreign)[i].where;
      if (foreign->size() > 3)
        where += " and " + std::to_string(foreign->size() - 3) + " more";
    }
    // What the values read rest on (an option at its default), gathered
    // per argument and for the shapes.
    auto takeDefaults = [&](std::vector<std::string> &into) {
      for (const HostEval &eval : evals) {
        for (const std::string &d : *eval.defaults)
          addUnique(into, d);
        eval.defaults->clear();
      }
    };
    for (unsigned i = 0; withArgs && i < call->getNumArgs(); ++i) {
      const Expr *arg = call->getArg(i);
      if (!arg->getType()->isIntegralOrEnumerationType())
        continue;
      LaunchSites::ArgValues &av = Out.args[k][i];
      std::vector<int64_t> values;
      for (const HostEval &eval : evals) {
        if (auto vs = eval.ints(arg, 0)) {
          for (int64_t v : *vs)
            if (std::find(values.begin(), values.end(), v) == values.end())
              values.push_back(v);
        } else {
          av.allConstant = false;
        }
      }
      std::vector<std::string> defaults;
      takeDefaults(defaults);
      av.where.push_back(where + assuming(defaults));
      // A value the command line may set is the run's, not the default's
      // (rushlarsen's one node by default, 100000 in its run): the
      // parameter stays unknown, and its assumption gives the default.
      if (!defaults.empty()) {
        av.allConstant = false;
        std::string v;
        for (int64_t x : values)
          v += (v.empty() ? "" : ", ") + std::to_string(x);
        av.commandLine.push_back(whereIs(call) + " (" + v + " is only " +
                                 listed(defaults) + ")");
        continue;
      }
      for (int64_t v : values)
        if (std::find(av.values.begin(), av.values.end(), v) ==
            av.values.end())
          av.values.push_back(v);
    }
    std::vector<Shape> shapes;
    bool blockKnown = true;
    for (const HostEval &eval : evals) {
      std::optional<std::vector<Shape>> some = eval.dims(block, 0);
      if (!some) {
        blockKnown = false;
        break;
      }
      for (const Shape &s : *some)
        if (std::find(shapes.begin(), shapes.end(), s) == shapes.end())
          shapes.push_back(s);
    }
    // The grid, where every evaluation gives one and the same constant.
    Shape gridShape{0, 0, 0};
    std::optional<Shape> one;
    bool constantGrid = grid != nullptr && blockKnown;
    for (const HostEval &eval : evals) {
      std::optional<std::vector<Shape>> g =
          constantGrid ? eval.dims(grid, 0) : std::nullopt;
      if (!g || g->size() != 1 || (one && !(*one == (*g)[0]))) {
        constantGrid = false;
        break;
      }
      one = (*g)[0];
    }
    std::vector<std::string> defaults;
    takeDefaults(defaults);
    where += assuming(defaults);
    if (!blockKnown) {
      Out.unknown[k]++;
      return;
    }
    // (A dimension the host code does not show stays 0: the others hold.)
    if (constantGrid && one)
      gridShape = {std::max<int64_t>(one->x, 0), std::max<int64_t>(one->y, 0),
                   std::max<int64_t>(one->z, 0)};
    for (const Shape &s : shapes) {
      if (s.x > 0 && s.y > 0 && s.z > 0) {
        Out.launches.push_back({call, k, s});
        Out.grids[k].push_back({s, gridShape, where, !defaults.empty()});
        auto &v = Out.shapes[k];
        if (std::find(v.begin(), v.end(), s) == v.end())
          v.push_back(s);
      } else {
        auto &v = Out.partial[k];
        if (std::find(v.begin(), v.end(), s) == v.end())
          v.push_back(s);
      }
    }
  }

private:
  ASTContext &AC;
  LaunchSites &Out;
};

} // namespace

std::optional<std::pair<Shape, std::string>>
launchGridDims(const LaunchSites &sites, const FunctionDecl *kernel,
               const Shape &block) {
  auto it = sites.grids.find(kernel->getCanonicalDecl());
  if (it == sites.grids.end())
    return std::nullopt;
  std::optional<std::pair<Shape, std::string>> out;
  for (const LaunchSites::GridLaunch &g : it->second) {
    if (!(g.block == block))
      continue;
    if (!out) {
      out = {g.grid, g.where};
      continue;
    }
    int64_t *mine[3] = {&out->first.x, &out->first.y, &out->first.z};
    const int64_t theirs[3] = {g.grid.x, g.grid.y, g.grid.z};
    for (int d = 0; d < 3; ++d)
      if (*mine[d] != theirs[d])
        *mine[d] = 0;
  }
  if (!out || (out->first.x <= 0 && out->first.y <= 0 && out->first.z <= 0))
    return std::nullopt;
  return out;
}

std::optional<std::pair<Shape, std::string>>
launchGrid(const LaunchSites &sites, const FunctionDecl *kernel,
           const Shape &block) {
  auto g = launchGridDims(sites, kernel, block);
  if (!g || g->first.x <= 0 || g->first.y <= 0 || g->first.z <= 0)
    return std::nullopt;
  return g;
}

namespace {
std::vector<Shape> candidateShapes(int dims) {
  if (dims & 4)
    return {{8, 8, 4}, {16, 8, 2}, {32, 4, 2}, {8, 4, 8}};
  if (dims & 2)
    return {{16, 16, 1}, {32, 8, 1}, {32, 32, 1}, {8, 32, 1}, {64, 4, 1}};
  return {{256, 1, 1}, {128, 1, 1}, {1024, 1, 1}, {64, 1, 1}, {32, 1, 1}};
}

} // namespace

std::vector<ShapeChoice> chooseShapes(ASTContext &ac, const FunctionDecl *k,
                                      const LaunchSites &sites,
                                      const std::optional<Shape> &option,
                                      int dims) {
  std::vector<ShapeChoice> out;
  auto it = sites.shapes.find(k->getCanonicalDecl());
  if (it != sites.shapes.end()) {
    auto from = sites.foreign.find(k->getCanonicalDecl());
    std::string source = from == sites.foreign.end()
                             ? "launch site"
                             : "launch site in " + from->second;
    auto grids = sites.grids.find(k->getCanonicalDecl());
    for (const Shape &s : it->second) {
      ShapeChoice c{{s}, source, false, ""};
      // A shape a launch takes from a command-line default says so (the
      // first such launch; the others of the shape are alike).
      if (grids != sites.grids.end())
        for (const LaunchSites::GridLaunch &g : grids->second)
          if (g.block == s && g.onDefaults) {
            c.assuming = "the launch at " + g.where;
            break;
          }
      out.push_back(std::move(c));
    }
    return out;
  }
  if (auto s = annotatedShape(ac, k))
    return {{{*s}, "annotation", false}};
  if (option)
    return {{{*option}, "option", false}};
  // A launch whose block sets some dimensions to constants (`b.x = 1;
  // b.y = n;`): those are kept, the others take the usual candidates.
  if (auto p = sites.partial.find(k->getCanonicalDecl());
      p != sites.partial.end()) {
    for (const Shape &part : p->second) {
      std::vector<Shape> shapes;
      static const int64_t Fill[] = {256, 128, 32, 16, 8, 64};
      std::string which;
      for (int d = 0; d < 3; ++d)
        if ((d == 0 ? part.x : d == 1 ? part.y : part.z) == 0)
          which += std::string(which.empty() ? "" : ", ") + "xyz"[d];
      // A one-dimensional block of unknown size (`<<<g, n>>>`) takes the
      // one-dimensional candidates: whole warps, as such launches have.
      std::vector<int64_t> fill(std::begin(Fill), std::end(Fill));
      if (part.x == 0 && part.y == 1 && part.z == 1) {
        fill.clear();
        for (const Shape &c : candidateShapes(1))
          fill.push_back(c.x);
      }
      // Several members unknown (`dim3 b(bx, by)`): the usual candidates
      // that agree with the members the launch does give.
      if ((part.x == 0) + (part.y == 0) + (part.z == 0) >= 2) {
        for (const Shape &c : candidateShapes(dims | (part.z == 0 ? 4 : 2)))
          if ((part.x == 0 || c.x == part.x) &&
              (part.y == 0 || c.y == part.y) &&
              (part.z == 0 || c.z == part.z) &&
              std::find(shapes.begin(), shapes.end(), c) == shapes.end())
            shapes.push_back(c);
        if (!shapes.empty())
          fill.clear();
      }
      for (int64_t f : fill) {
        Shape s = part;
        for (int64_t *c : {&s.x, &s.y, &s.z})
          if (*c == 0)
            *c = f;
        if (s.threads() <= 1024 &&
            std::find(shapes.begin(), shapes.end(), s) == shapes.end())
          shapes.push_back(s);
      }
      if (!shapes.empty())
        out.push_back({shapes, "launch site, blockDim." + which + " assumed",
                       true});
    }
    if (!out.empty())
      return out;
  }
  std::vector<Shape> cands = candidateShapes(dims);
  if (auto n = launchBound(ac, k); n && *n > 0 && !(dims & 6)) {
    cands.insert(cands.begin(), Shape{*n, 1, 1});
    return {{cands, "launch bounds", true}};
  }
  return {{cands, "assumed", true}};
}

std::string shapeText(const Shape &s) {
  return std::to_string(s.x) + "x" + std::to_string(s.y) + "x" +
         std::to_string(s.z);
}


LaunchSites collectLaunchSites(ASTContext &ac,
                               const CallsByFunction *incoming) {
  LaunchSites out;
  LaunchVisitor v(ac, out);
  v.Facts.incoming = incoming;
  v.TraverseDecl(ac.getTranslationUnitDecl());
  v.finish();
  return out;
}

std::optional<Shape> annotatedShape(ASTContext &ac, const FunctionDecl *k) {
  for (const FunctionDecl *d = k; d; d = d->getPreviousDecl()) {
    const FunctionDecl *pattern = d->getTemplateInstantiationPattern();
    for (const FunctionDecl *f : {d, pattern}) {
      if (!f)
        continue;
      for (const auto *a : f->specific_attrs<AnnotateAttr>()) {
        if (a->getAnnotation() != "warplint.block_dim")
          continue;
        int64_t v[3] = {1, 1, 1};
        unsigned i = 0;
        for (const Expr *arg : a->args()) {
          if (i >= 3)
            break;
          auto x = HostEval{ac, NoFacts}.one(arg, 0);
          if (!x || *x <= 0)
            return std::nullopt;
          v[i++] = *x;
        }
        if (i == 0)
          return std::nullopt;
        return Shape{v[0], v[1], v[2]};
      }
    }
  }
  return std::nullopt;
}

std::optional<int64_t> launchBound(ASTContext &ac, const FunctionDecl *k) {
  if (auto *a = k->getAttr<CUDALaunchBoundsAttr>())
    return HostEval{ac, NoFacts}.one(a->getMaxThreads(), 0);
  return std::nullopt;
}

} // namespace warplint

namespace warplint {

/// "the launch at main.cu:52", "the launches at a.cu:3, a.cu:9, ...".
static std::string launchesText(std::vector<std::string> where) {
  where.erase(std::unique(where.begin(), where.end()), where.end());
  if (where.empty())
    return "the launches";
  std::string text = where.size() == 1 ? "the launch at " + where[0]
                                       : "the launches at " + where[0];
  for (size_t i = 1; i < where.size() && i < 4; ++i)
    text += ", " + where[i];
  if (where.size() > 4)
    text += ", ...";
  return text;
}

std::map<unsigned, std::pair<std::vector<int64_t>, std::string>>
launchBindings(const LaunchSites &sites, const FunctionDecl *kernel) {
  std::map<unsigned, std::pair<std::vector<int64_t>, std::string>> out;
  auto it = sites.args.find(kernel->getCanonicalDecl());
  if (it == sites.args.end())
    return out;
  for (const auto &[index, av] : it->second) {
    if (av.allConstant && !av.values.empty()) {
      out[index] = {av.values, launchesText(av.where)};
    } else if (!av.commandLine.empty()) {
      std::string text = "set by the command line at " + av.commandLine[0];
      if (av.commandLine.size() > 1)
        text += ", and at " + std::to_string(av.commandLine.size() - 1) +
                " more launch" + (av.commandLine.size() > 2 ? "es" : "");
      out[index] = {{}, text};
    }
  }
  return out;
}

std::map<unsigned, ParamRelation> launchRelations(const LaunchSites &sites,
                                                  const FunctionDecl *kernel) {
  std::map<unsigned, ParamRelation> out;
  const FunctionDecl *k = kernel->getCanonicalDecl();
  auto it = sites.forms.find(k);
  if (it == sites.forms.end() || it->second.empty() || sites.foreign.count(k))
    return out;
  const auto &launches = it->second;
  auto bound = launchBindings(sites, kernel);
  for (auto b = bound.begin(); b != bound.end();)
    b = b->second.first.empty() ? bound.erase(b) : std::next(b);
  unsigned n = kernel->getNumParams();
  // The parameters every launch passes a form with variables in.
  std::vector<unsigned> open;
  for (unsigned p = 0; p < n; ++p) {
    if (bound.count(p) ||
        !kernel->getParamDecl(p)->getType()->isIntegralOrEnumerationType())
      continue;
    bool all = true;
    for (const auto &args : launches)
      all &= p < args.size() && args[p] && !args[p]->terms.empty();
    if (all)
      open.push_back(p);
  }
  // p and q relate when every launch passes them the same variables and one
  // difference of constants.
  auto offset = [&](unsigned p, unsigned q) -> std::optional<int64_t> {
    std::optional<int64_t> d;
    for (const auto &args : launches) {
      if (args[p]->terms != args[q]->terms)
        return std::nullopt;
      int64_t x = args[p]->constant - args[q]->constant;
      if (d && *d != x)
        return std::nullopt;
      d = x;
    }
    return d;
  };
  std::vector<char> grouped(n);
  for (unsigned p : open) {
    if (grouped[p])
      continue;
    std::vector<unsigned> group{p};
    for (unsigned q : open)
      if (q > p && !grouped[q] && offset(q, p))
        group.push_back(q);
    if (group.size() < 2)
      continue;
    // The base: the smallest constant in size at the first launch (the
    // variable passed as it is), then the first.
    unsigned base = group[0];
    for (unsigned q : group)
      if (std::llabs(launches[0][q]->constant) <
          std::llabs(launches[0][base]->constant))
        base = q;
    auto args = sites.args.find(k);
    for (unsigned q : group) {
      grouped[q] = 1;
      if (q == base)
        continue;
      std::vector<std::string> where;
      if (args != sites.args.end())
        if (auto a = args->second.find(q); a != args->second.end())
          where = a->second.where;
      out[q] = {base, *offset(q, base), launchesText(where)};
    }
  }
  return out;
}

} // namespace warplint
