// How host code changes the variables a launch reads (HostCode.h).
#include "frontend/launches/HostCode.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace warplint {
namespace host {

namespace {
// Every write of a variable in one function body, by the variable, in the
// order a traversal meets them. The questions below are asked per launch
// and per variable a launch reads; each walked the whole body, so a host
// function setting up a thousand launches took a thousand walks of itself
// (quadratic). Each question now answers from its variable's writes;
// within a HostIndexScope a body's writes are gathered once for all.
struct Write {
  enum Kind : uint8_t {
    Plain,   // v = E
    Other,   // v op= E, ++v, v--, &v
    Element, // v[i] = E (any assignment operator)
    WholeOp, // v = E through a class's operator= (dim3's)
    Member,  // v.x = E, v.y = E, v.z = E
  } kind;
  const Expr *rhs = nullptr;
  const CaseStmt *label = nullptr; // Plain: the switch case it falls under
  SourceLocation at;               // Plain, WholeOp, Member
  int dim = -1;                    // Member: 0, 1, 2
  Write(Kind k, const Expr *rhs = nullptr, const CaseStmt *label = nullptr,
        SourceLocation at = {}, int dim = -1)
      : kind(k), rhs(rhs), label(label), at(at), dim(dim) {}
};
// One variable's writes, and, built at the first question that needs
// them, its whole and member assignments ordered by location (stable: walk
// order among equal locations), so that a question about one launch of
// thousands searches them rather than scanning them all.
struct VarWrites {
  std::vector<Write> all; // walk order
  bool ordered = false;
  std::vector<uint32_t> whole;  // Plain and WholeOp with a location
  std::vector<uint32_t> member; // Member with a location
  // The latest in walk order of member[0 .. k) per dimension (-1: none),
  // and of the member assignments without a location.
  std::array<std::vector<int>, 3> memberUpTo;
  std::array<int, 3> memberUnplaced = {-1, -1, -1};
  void order(const SourceManager &sm) {
    if (ordered)
      return;
    ordered = true;
    for (uint32_t i = 0; i < all.size(); ++i) {
      const Write &x = all[i];
      if ((x.kind == Write::Plain || x.kind == Write::WholeOp) &&
          x.at.isValid())
        whole.push_back(i);
      if (x.kind == Write::Member) {
        if (x.at.isValid())
          member.push_back(i);
        else
          memberUnplaced[size_t(x.dim)] = int(i);
      }
    }
    auto before = [&](uint32_t a, uint32_t b) {
      return sm.isBeforeInTranslationUnit(all[a].at, all[b].at);
    };
    std::stable_sort(whole.begin(), whole.end(), before);
    std::stable_sort(member.begin(), member.end(), before);
    for (int d = 0; d < 3; ++d) {
      std::vector<int> &up = memberUpTo[size_t(d)];
      up.assign(member.size() + 1, -1);
      for (size_t k = 0; k < member.size(); ++k)
        up[k + 1] =
            all[member[k]].dim == d ? std::max(up[k], int(member[k])) : up[k];
    }
  }
};
using BodyWrites = llvm::DenseMap<const Decl *, VarWrites>;
struct ScopeIndex {
  std::unordered_map<const Stmt *, BodyWrites> bodies;
  llvm::DenseMap<const Decl *, bool> unchanged; // objectUnchanged's answers
};
thread_local ScopeIndex *Index = nullptr;

// 0, 1, 2 for a member named x, y, z (dim3's); -1 for any other.
int memberDim(const MemberExpr *m) {
  const IdentifierInfo *id = m->getMemberDecl()->getIdentifier();
  if (!id)
    return -1;
  StringRef n = id->getName();
  return n == "x" ? 0 : n == "y" ? 1 : n == "z" ? 2 : -1;
}

// The variable `e` names, or the field of `this` (a constructor's).
const Decl *referenced(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (auto *d = dyn_cast<DeclRefExpr>(e))
    return d->getDecl();
  if (auto *m = dyn_cast<MemberExpr>(e);
      m && isa<FieldDecl>(m->getMemberDecl()) &&
      isa<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts()))
    return m->getMemberDecl();
  return nullptr;
}

// The writes of `root`: walked once per scope, or, outside one, into
// `scratch` for this question alone.
BodyWrites &writesIn(const Stmt *root, BodyWrites &scratch) {
  BodyWrites *kept = &scratch;
  if (Index) {
    auto [it, added] = Index->bodies.try_emplace(root);
    if (!added)
      return it->second;
    kept = &it->second;
  }
  BodyWrites &out = *kept;
  struct Finder : CaseTracking<Finder> {
    BodyWrites &Out;
    explicit Finder(BodyWrites &o) : Out(o) {}
    void add(const Decl *d, Write w) {
      if (d)
        Out[d].all.push_back(w);
    }
    bool VisitBinaryOperator(BinaryOperator *b) {
      if (!b->isAssignmentOp())
        return true;
      const Expr *lhs = b->getLHS()->IgnoreParenImpCasts();
      if (auto *s = dyn_cast<ArraySubscriptExpr>(lhs)) {
        add(referenced(s->getBase()), Write(Write::Element));
        return true;
      }
      const bool plain = b->getOpcode() == BO_Assign;
      if (const Decl *d = referenced(lhs)) {
        if (plain)
          add(d,
              Write(Write::Plain, b->getRHS(), currentCase, b->getBeginLoc()));
        else
          add(d, Write(Write::Other));
        return true;
      }
      auto *m = dyn_cast<MemberExpr>(lhs);
      if (!plain || !m)
        return true;
      if (int dim = memberDim(m); dim >= 0)
        add(referenced(m->getBase()),
            Write(Write::Member, b->getRHS(), nullptr, b->getBeginLoc(), dim));
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *u) {
      if (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf)
        add(referenced(u->getSubExpr()), Write(Write::Other));
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *c) {
      if (c->getOperator() == OO_Equal && c->getNumArgs() == 2)
        add(referenced(c->getArg(0)),
            Write(Write::WholeOp, c->getArg(1), nullptr, c->getBeginLoc()));
      return true;
    }
  } f(out);
  if (root)
    f.TraverseStmt(const_cast<Stmt *>(root));
  return out;
}

VarWrites &writesOf(BodyWrites &w, const Decl *v) {
  static thread_local VarWrites none;
  auto it = w.find(v);
  return it == w.end() ? none : it->second;
}
} // namespace

HostIndexScope::HostIndexScope() : Saved(Index) { Index = new ScopeIndex(); }

HostIndexScope::~HostIndexScope() {
  delete Index;
  Index = static_cast<ScopeIndex *>(Saved);
}

const Expr *lastWholeAssignmentBefore(const VarDecl *v, const Expr *use,
                                      SourceLocation *at) {
  auto *fd = dyn_cast_or_null<FunctionDecl>(v->getParentFunctionOrMethod());
  if (!fd || !fd->getBody() || !use || use->getBeginLoc().isInvalid())
    return nullptr;
  const SourceManager &sm = fd->getASTContext().getSourceManager();
  // The first, in walk order, of the latest assignments before the use:
  // in location order (stable), the first of the run of equal locations
  // that ends where the use's begins.
  BodyWrites scratch;
  VarWrites &vw = writesOf(writesIn(fd->getBody(), scratch), v);
  vw.order(sm);
  const SourceLocation useAt = use->getBeginLoc();
  auto end =
      std::partition_point(vw.whole.begin(), vw.whole.end(), [&](uint32_t i) {
        return sm.isBeforeInTranslationUnit(vw.all[i].at, useAt);
      });
  if (end == vw.whole.begin()) {
    if (at)
      *at = SourceLocation();
    return nullptr;
  }
  const SourceLocation lastAt = vw.all[*(end - 1)].at;
  auto first = std::partition_point(vw.whole.begin(), end, [&](uint32_t i) {
    return sm.isBeforeInTranslationUnit(vw.all[i].at, lastAt);
  });
  if (at)
    *at = lastAt;
  return vw.all[*first].rhs;
}

std::map<int, const Expr *> memberAssignments(const VarDecl *v, const Expr *use,
                                              SourceLocation after) {
  std::map<int, const Expr *> out;
  auto *fd = dyn_cast_or_null<FunctionDecl>(v->getParentFunctionOrMethod());
  if (!fd || !fd->getBody())
    return out;
  const SourceManager &sm = fd->getASTContext().getSourceManager();
  // Per member, the last assignment in walk order between `after` and
  // the use (those without a location always): in location order, a
  // range of the assignments.
  BodyWrites scratch;
  VarWrites &vw = writesOf(writesIn(fd->getBody(), scratch), v);
  vw.order(sm);
  auto lo = vw.member.begin(), hi = vw.member.end();
  if (use && use->getBeginLoc().isValid())
    hi = std::partition_point(lo, hi, [&](uint32_t i) {
      return sm.isBeforeInTranslationUnit(vw.all[i].at, use->getBeginLoc());
    });
  if (after.isValid())
    lo = std::partition_point(lo, hi, [&](uint32_t i) {
      return !sm.isBeforeInTranslationUnit(after, vw.all[i].at);
    });
  for (int d = 0; d < 3; ++d) {
    int last = vw.memberUnplaced[size_t(d)];
    if (lo == vw.member.begin()) {
      last = std::max(last,
                      vw.memberUpTo[size_t(d)][size_t(hi - vw.member.begin())]);
    } else {
      for (auto i = lo; i != hi; ++i)
        if (vw.all[*i].dim == d)
          last = std::max(last, int(*i));
    }
    if (last >= 0)
      out[d] = vw.all[size_t(last)].rhs;
  }
  return out;
}

// The plain assignments and other changes `root` makes to `v`, a
// variable or a field of `this`.
static Changes changesTo(const Decl *v, const Stmt *root) {
  Changes out;
  if (!root)
    return out;
  BodyWrites scratch;
  for (const Write &x : writesOf(writesIn(root, scratch), v).all) {
    if (x.kind == Write::Plain) {
      out.plain.push_back(x.rhs);
      out.cases.push_back(x.label);
    } else if (x.kind == Write::Other || x.kind == Write::Element) {
      out.other = true;
    }
  }
  return out;
}

Changes changesIn(const VarDecl *v, const Stmt *root) {
  return changesTo(v, root);
}

Changes changesOf(const VarDecl *v) {
  auto *fd = dyn_cast_or_null<FunctionDecl>(v->getParentFunctionOrMethod());
  return changesIn(v, fd ? fd->getBody() : nullptr);
}

static bool objectUnchangedWalk(const VarDecl *obj);

bool objectUnchanged(const VarDecl *obj) {
  if (!Index)
    return objectUnchangedWalk(obj);
  if (auto it = Index->unchanged.find(obj); it != Index->unchanged.end())
    return it->second;
  const bool r = objectUnchangedWalk(obj);
  Index->unchanged[obj] = r;
  return r;
}

static bool objectUnchangedWalk(const VarDecl *obj) {
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

std::string whereIs(ASTContext &ac, const Expr *e) {
  const SourceManager &sm = ac.getSourceManager();
  PresumedLoc pl = sm.getPresumedLoc(sm.getExpansionLoc(e->getBeginLoc()));
  return pl.isValid() ? llvm::sys::path::filename(pl.getFilename()).str() +
                            ":" + std::to_string(pl.getLine())
                      : "a launch";
}

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

std::optional<Changes> constructorAssignments(const CXXConstructorDecl *ctor,
                                              const FieldDecl *field) {
  if (!ctor || !ctor->hasBody())
    return std::nullopt;
  Changes c = changesTo(field, ctor->getBody());
  if (c.other)
    return std::nullopt;
  return c;
}

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

bool pointsToConst(QualType t) {
  return t->isPointerType() && t->getPointeeType().isConstQualified();
}

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

} // namespace host
} // namespace warplint
