// The launch sites of a translation unit: every `<<<grid, block>>>` and
// cudaLaunchKernel-style call, the shapes, grids and arguments it passes
// (LaunchShapes.h).
#include "frontend/launches/HostCode.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace warplint {
namespace host {
namespace {

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
      if (auto *f = dyn_cast<FunctionDecl>(d->getDecl());
          f && f->hasAttr<CUDAGlobalAttr>())
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
    if (auto *a = dyn_cast_or_null<BinaryOperator>(f->getInit());
        a && a->getOpcode() == BO_Assign)
      if (auto *d = dyn_cast<DeclRefExpr>(a->getLHS()->IgnoreParenImpCasts()))
        if (auto *v = dyn_cast<VarDecl>(d->getDecl());
            v && v->isLocalVarDecl() && v->getType()->isIntegerType())
          Facts.assignedLoops[v].push_back(f);
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
        (AC.getSourceManager().isInSystemHeader(d->getLocation()) ||
         fromPreamble(d)))
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
    auto *d =
        callee ? dyn_cast<DeclRefExpr>(callee->IgnoreParenCasts()) : nullptr;
    auto *p = d ? dyn_cast<ParmVarDecl>(d->getDecl()) : nullptr;
    const FunctionDecl *launcher = launcherOf(call);
    if (!p || !launcher || p->getDeclContext() != launcher ||
        p->getFunctionScopeIndex() >= launcher->getNumParams())
      return nullptr;
    return p;
  }

  /// The calls of `launcher` in this file.
  const std::vector<const CallExpr *> &
  callsOf(const FunctionDecl *launcher) const {
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

  std::string whereIs(const Expr *e) const { return host::whereIs(AC, e); }

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
        if (!kernelParam ||
            (named && k && named->getCanonicalDecl() == k->getCanonicalDecl()))
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
    // (And the host loops whose first values were taken, for want of
    // their bound.)
    using Notes = std::shared_ptr<std::vector<std::string>> HostEval::*;
    auto take = [&](Notes notes, std::vector<std::string> &into) {
      for (const HostEval &eval : evals) {
        for (const std::string &d : *(eval.*notes))
          addUnique(into, d);
        (eval.*notes)->clear();
      }
    };
    auto openLoops = [&]() {
      std::vector<std::string> open;
      take(&HostEval::openLoops, open);
      return open.empty() ? std::string() : ", " + listed(open);
    };
    for (unsigned i = 0; withArgs && i < call->getNumArgs(); ++i) {
      const Expr *arg = call->getArg(i);
      if (!arg->getType()->isIntegralOrEnumerationType())
        continue;
      LaunchSites::ArgValues &av = Out.args[k][i];
      std::vector<int64_t> values;
      bool unknown = false;
      for (const HostEval &eval : evals) {
        if (auto vs = eval.ints(arg, 0)) {
          for (int64_t v : *vs)
            if (std::find(values.begin(), values.end(), v) == values.end())
              values.push_back(v);
        } else {
          unknown = true;
        }
      }
      av.allConstant &= !unknown;
      std::vector<std::string> defaults, stopped;
      take(&HostEval::defaults, defaults);
      take(&HostEval::stoppedAt, stopped);
      // The value is not known because the search for it ended at its
      // bound, not because the host code does not show it.
      if (unknown && !stopped.empty())
        av.stopped.push_back({whereIs(call), stopped[0]});
      av.where.push_back(where + assuming(defaults) + openLoops());
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
        if (std::find(av.values.begin(), av.values.end(), v) == av.values.end())
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
    // A block of more than 1024 threads (or z above 64) cannot launch: the
    // value is one the host's conditions keep from this launch (`if
    // (domain_size <= 1024) k<<<1, domain_size>>>`), not a run.
    shapes.erase(std::remove_if(shapes.begin(), shapes.end(),
                                [](const Shape &s) {
                                  return s.x > 1024 || s.y > 1024 || s.z > 64 ||
                                         s.threads() > 1024;
                                }),
                 shapes.end());
    if (shapes.empty())
      blockKnown = false;
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
    take(&HostEval::defaults, defaults);
    where += assuming(defaults) + openLoops();
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
} // namespace host

using namespace host;

LaunchSites collectLaunchSites(ASTContext &ac,
                               const CallsByFunction *incoming) {
  LaunchSites out;
  HostIndexScope index; // each host function's writes, walked once
  LaunchVisitor v(ac, out);
  v.Facts.incoming = incoming;
  v.TraverseDecl(ac.getTranslationUnitDecl());
  v.finish();
  return out;
}

} // namespace warplint
