#include "LaunchShapes.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace warplint {
namespace {

std::optional<int64_t> intConstant(ASTContext &ac, const Expr *e, int depth);

/// `v.x = E`, `v.y = E`, `v.z = E` in the function that declares `v`, by
/// member (0, 1, 2), the last in source order.
std::map<int, const Expr *> memberAssignments(const VarDecl *v) {
  std::map<int, const Expr *> out;
  auto *fd = dyn_cast_or_null<FunctionDecl>(v->getParentFunctionOrMethod());
  if (!fd || !fd->getBody())
    return out;
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    std::map<int, const Expr *> &Out;
    Finder(const VarDecl *v, std::map<int, const Expr *> &o) : V(v), Out(o) {}
    bool VisitBinaryOperator(BinaryOperator *b) {
      if (b->getOpcode() != BO_Assign)
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
  } f(v, out);
  f.TraverseStmt(fd->getBody());
  return out;
}

/// A dim3 expression made of constants: dim3(16, 16), a dim3 variable
/// initialised from constants, or an integer (x only).
std::optional<Shape> dim3Constant(ASTContext &ac, const Expr *e, int depth) {
  // A template's pattern has initializers with no type yet (`dim3
  // b(param.n / 4)` as a ParenListExpr): nothing to read there.
  if (!e || depth > 8 || e->getType().isNull() || e->isTypeDependent() ||
      e->isValueDependent())
    return std::nullopt;
  e = e->IgnoreParenImpCasts();
  if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
    return dim3Constant(ac, m->getSubExpr(), depth + 1);
  if (auto *f = dyn_cast<FullExpr>(e))
    return dim3Constant(ac, f->getSubExpr(), depth + 1);
  if (auto *b = dyn_cast<CXXBindTemporaryExpr>(e))
    return dim3Constant(ac, b->getSubExpr(), depth + 1);
  if (auto *c = dyn_cast<CXXFunctionalCastExpr>(e))
    return dim3Constant(ac, c->getSubExpr(), depth + 1);
  if (auto *c = dyn_cast<CXXConstructExpr>(e)) {
    if (c->getNumArgs() == 1 &&
        c->getArg(0)->getType()->isRecordType()) // copy/move or uint3
      return dim3Constant(ac, c->getArg(0), depth + 1);
    int64_t v[3] = {1, 1, 1};
    for (unsigned i = 0; i < c->getNumArgs() && i < 3; ++i) {
      auto x = intConstant(ac, c->getArg(i), depth + 1);
      if (!x)
        return std::nullopt;
      v[i] = *x;
    }
    return Shape{v[0], v[1], v[2]};
  }
  if (auto *il = dyn_cast<InitListExpr>(e)) {
    int64_t v[3] = {1, 1, 1};
    for (unsigned i = 0; i < il->getNumInits() && i < 3; ++i) {
      auto x = intConstant(ac, il->getInit(i), depth + 1);
      if (!x)
        return std::nullopt;
      v[i] = *x;
    }
    return Shape{v[0], v[1], v[2]};
  }
  if (auto *d = dyn_cast<DeclRefExpr>(e))
    if (auto *v = dyn_cast<VarDecl>(d->getDecl()))
      if (v->getInit() && !isa<ParmVarDecl>(v)) {
        std::optional<Shape> s = dim3Constant(ac, v->getInit(), depth + 1);
        // `dim3 b; b.x = 1; b.y = n;`: the members assigned later win; a
        // member set to a value that is not constant is unknown (0).
        for (const auto &[dim, value] : memberAssignments(v)) {
          if (!s)
            break;
          auto x = intConstant(ac, value, depth + 1);
          int64_t c = x && *x > 0 ? *x : 0;
          (dim == 0 ? s->x : dim == 1 ? s->y : s->z) = c;
        }
        return s;
      }
  if (e->getType()->isIntegralOrEnumerationType())
    if (auto x = intConstant(ac, e, depth + 1))
      return Shape{*x, 1, 1};
  return std::nullopt;
}

/// An integer constant, also through a local variable initialised with one
/// (`int threads = 256;`), the common way launch code is written.
std::optional<int64_t> intConstant(ASTContext &ac, const Expr *e, int depth) {
  if (!e || depth > 8 || e->isValueDependent())
    return std::nullopt;
  Expr::EvalResult r;
  if (e->EvaluateAsInt(r, ac))
    return r.Val.getInt().getExtValue();
  const Expr *s = e->IgnoreParenImpCasts();
  if (auto *d = dyn_cast<DeclRefExpr>(s))
    if (auto *v = dyn_cast<VarDecl>(d->getDecl()))
      if (v->getInit() && !isa<ParmVarDecl>(v) && v->isLocalVarDecl())
        return intConstant(ac, v->getInit(), depth + 1);
  if (auto *b = dyn_cast<BinaryOperator>(s)) {
    auto l = intConstant(ac, b->getLHS(), depth + 1);
    auto r2 = intConstant(ac, b->getRHS(), depth + 1);
    if (l && r2) {
      switch (b->getOpcode()) {
      case BO_Add: return *l + *r2;
      case BO_Sub: return *l - *r2;
      case BO_Mul: return *l * *r2;
      case BO_Div: if (*r2) return *l / *r2; break;
      default: break;
      }
    }
  }
  return std::nullopt;
}

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
    if (call->getDirectCallee()) {
      note(call, call->getDirectCallee());
      return true;
    }
    Indirect.push_back(call); // after every assignment has been seen
    return true;
  }
  void finish() {
    for (const CUDAKernelCallExpr *call : Indirect) {
      const Expr *callee = call->getCallee()->IgnoreParenImpCasts();
      if (auto *s = dyn_cast<ArraySubscriptExpr>(callee))
        callee = s->getBase()->IgnoreParenImpCasts();
      auto *d = dyn_cast<DeclRefExpr>(callee);
      auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      auto it = v ? Targets.find(v) : Targets.end();
      if (it == Targets.end())
        continue;
      std::vector<const FunctionDecl *> seen;
      for (const FunctionDecl *k : it->second)
        if (std::find(seen.begin(), seen.end(), k->getCanonicalDecl()) ==
            seen.end()) {
          seen.push_back(k->getCanonicalDecl());
          note(call, k);
        }
    }
  }

  void note(const CUDAKernelCallExpr *call, const FunctionDecl *k) {
    const CallExpr *config = call->getConfig();
    if (!k || !config || config->getNumArgs() < 2)
      return;
    k = k->getCanonicalDecl();
    const SourceManager &sm = AC.getSourceManager();
    PresumedLoc pl = sm.getPresumedLoc(sm.getExpansionLoc(call->getBeginLoc()));
    std::string where =
        pl.isValid() ? llvm::sys::path::filename(pl.getFilename()).str() + ":" +
                           std::to_string(pl.getLine())
                     : "a launch";
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const Expr *arg = call->getArg(i);
      if (!arg->getType()->isIntegralOrEnumerationType())
        continue;
      LaunchSites::ArgValues &av = Out.args[k][i];
      av.where.push_back(where);
      if (auto v = intConstant(AC, arg, 0)) {
        if (std::find(av.values.begin(), av.values.end(), *v) == av.values.end())
          av.values.push_back(*v);
      } else {
        av.allConstant = false;
      }
    }
    std::optional<Shape> s = dim3Constant(AC, config->getArg(1), 0);
    if (s && s->x > 0 && s->y > 0 && s->z > 0) {
      Out.launches.push_back({call, *s});
      auto &v = Out.shapes[k];
      if (std::find(v.begin(), v.end(), *s) == v.end())
        v.push_back(*s);
    } else if (s) {
      auto &v = Out.partial[k];
      if (std::find(v.begin(), v.end(), *s) == v.end())
        v.push_back(*s);
    } else {
      Out.unknown[k]++;
    }
  }

private:
  ASTContext &AC;
  LaunchSites &Out;
};

} // namespace

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
    for (const Shape &s : it->second)
      out.push_back({{s}, "launch site", false});
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
      for (int64_t f : Fill) {
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


LaunchSites collectLaunchSites(ASTContext &ac) {
  LaunchSites out;
  LaunchVisitor v(ac, out);
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
          auto x = intConstant(ac, arg, 0);
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
    return intConstant(ac, a->getMaxThreads(), 0);
  return std::nullopt;
}

} // namespace warplint

namespace warplint {

std::map<unsigned, std::pair<std::vector<int64_t>, std::string>>
launchBindings(const LaunchSites &sites, const FunctionDecl *kernel) {
  std::map<unsigned, std::pair<std::vector<int64_t>, std::string>> out;
  auto it = sites.args.find(kernel->getCanonicalDecl());
  if (it == sites.args.end())
    return out;
  for (const auto &[index, av] : it->second) {
    if (!av.allConstant || av.values.empty())
      continue;
    std::vector<std::string> where = av.where;
    where.erase(std::unique(where.begin(), where.end()), where.end());
    std::string text = where.size() == 1 ? "the launch at " + where[0]
                                         : "the launches at " + where[0];
    for (size_t i = 1; i < where.size() && i < 4; ++i)
      text += ", " + where[i];
    if (where.size() > 4)
      text += ", ...";
    out[index] = {av.values, text};
  }
  return out;
}

} // namespace warplint
