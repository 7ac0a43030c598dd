#include "Analysis.h"

#include "llvm/Support/Regex.h"

#include "ControlFlow.h"
#include "KernelWalker.h"
#include "LaunchShapes.h"
#include "ForeignDefinitions.h"
#include "ProjectLaunches.h"
#include "Suppressions.h"
#include "model/Explain.h"
#include "model/Sampling.h"
#include "report/Drawing.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <tuple>

using namespace clang;

namespace warplint {
namespace {

/// Does the address read gridDim (through its loops too)?
bool readsGridDim(const LaneExpr &e, const Context &ctx) {
  bool found = false;
  visitWithLoops(e, ctx, [&](const Node &n) {
    found |= n.op == Op::GridDim;
    return !found;
  });
  return found;
}

class KernelCollector : public RecursiveASTVisitor<KernelCollector> {
public:
  KernelCollector(const SourceManager &sm,
                  std::optional<llvm::sys::fs::UniqueID> only)
      : SM(sm), Only(only) {}
  std::vector<const FunctionDecl *> kernels;
  /// Kernel templates of the main file with no instantiation.
  std::vector<std::string> uninstantiated;
  bool shouldVisitTemplateInstantiations() const { return true; }
  // Kernels are declarations, and no statement or type holds one: bodies,
  // initializers and types are not walked (the walk covers every header
  // the file includes, the CUDA runtime's among them).
  bool TraverseStmt(Stmt *, DataRecursionQueue * = nullptr) { return true; }
  bool TraverseTypeLoc(TypeLoc, bool = true) { return true; }
  // Nor are a function's parameters and template arguments: the function
  // itself is all there is to see (its instantiations are reached through
  // its template).
  bool TraverseFunctionDecl(FunctionDecl *f) {
    return WalkUpFromFunctionDecl(f);
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *f) {
    return WalkUpFromCXXMethodDecl(f);
  }
  // A system header's declarations are only looked at for library kernels
  // the program instantiates (VisitFunctionDecl): a kernel is a function at
  // namespace scope, so of a system header's namespace (which holds only
  // that header's declarations) only the namespaces and kernels are seen,
  // without the visitor's walk of every class and type in it.
  bool TraverseDecl(Decl *d) {
    if (d && !isa<TranslationUnitDecl>(d) &&
        SM.isInSystemHeader(d->getLocation())) {
      systemDecl(d);
      return true;
    }
    return RecursiveASTVisitor::TraverseDecl(d);
  }
  void systemDecl(Decl *d) {
    if (auto *dc = dyn_cast<NamespaceDecl>(d))
      for (Decl *c : dc->decls())
        systemDecl(c);
    else if (auto *ls = dyn_cast<LinkageSpecDecl>(d))
      for (Decl *c : ls->decls())
        systemDecl(c);
    else if (auto *t = dyn_cast<FunctionTemplateDecl>(d)) {
      if (t->getTemplatedDecl()->hasAttr<CUDAGlobalAttr>())
        for (FunctionDecl *f : t->specializations())
          VisitFunctionDecl(f);
    } else if (auto *f = dyn_cast<FunctionDecl>(d))
      VisitFunctionDecl(f);
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *) { return true; }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *) { return true; }
  bool TraverseCXXConversionDecl(CXXConversionDecl *) { return true; }
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *t) {
    const FunctionDecl *f = t->getTemplatedDecl();
    if (f->hasAttr<CUDAGlobalAttr>() && t->isThisDeclarationADefinition() &&
        t->specializations().empty() &&
        SM.isInMainFile(SM.getExpansionLoc(t->getLocation())))
      uninstantiated.push_back(t->getNameAsString());
    return true;
  }
  /// Library kernels instantiated with the program's types.
  std::vector<std::string> library;
  std::set<std::string> librarySeen;
  // The program's own types among a type's parts (template arguments,
  // pointees), by name.
  void userTypes(QualType t, std::set<std::string> &out, int depth = 0) {
    if (t.isNull() || depth > 8)
      return;
    t = t.getCanonicalType();
    if (t->isPointerType() || t->isReferenceType())
      return userTypes(t->getPointeeType(), out, depth + 1);
    if (const auto *a = dyn_cast<ArrayType>(t.getTypePtr()))
      return userTypes(a->getElementType(), out, depth + 1);
    const TagDecl *td = t->getAsTagDecl();
    if (!td)
      return;
    if (!SM.isInSystemHeader(td->getLocation())) {
      out.insert(QualType(t).getAsString(
          td->getASTContext().getPrintingPolicy()));
      return;
    }
    if (const auto *sp = dyn_cast<ClassTemplateSpecializationDecl>(td))
      templateArgs(sp->getTemplateArgs().asArray(), out, depth + 1);
  }
  void templateArgs(ArrayRef<TemplateArgument> args, std::set<std::string> &out,
                    int depth) {
    for (const TemplateArgument &a : args) {
      if (a.getKind() == TemplateArgument::Type)
        userTypes(a.getAsType(), out, depth);
      else if (a.getKind() == TemplateArgument::Pack)
        templateArgs(a.pack_elements(), out, depth);
    }
  }
  bool VisitFunctionDecl(FunctionDecl *f) {
    if (!f->hasAttr<CUDAGlobalAttr>() || !f->doesThisDeclarationHaveABody() ||
        f->isDependentContext() || f->isInvalidDecl())
      return true;
    if (SM.isInSystemHeader(f->getLocation())) {
      // A library's kernel is not analyzed; one the program instantiates
      // with its own types runs the program's code (a functor's loads), so
      // it is named instead of being passed over in silence.
      if (const TemplateArgumentList *args = f->getTemplateSpecializationArgs()) {
        std::set<std::string> types;
        templateArgs(args->asArray(), types, 0);
        if (!types.empty()) {
          std::string name = f->getQualifiedNameAsString() + " (with ";
          size_t i = 0;
          for (const std::string &t : types)
            name += (i++ ? ", " : "") + t;
          name += ")";
          if (librarySeen.insert(name).second)
            library.push_back(name);
        }
      }
      return true;
    }
    if (Only) {
      // A header analyzed in the context of a file that includes it.
      auto fe = SM.getFileEntryRefForID(
          SM.getFileID(SM.getExpansionLoc(f->getLocation())));
      if (!fe || fe->getUniqueID() != *Only)
        return true;
    }
    // One kernel per place in the source and signature: a file included
    // more than once without a guard (or including itself) repeats its
    // definitions, which Clang reports as errors; they are one kernel.
    PresumedLoc p = SM.getPresumedLoc(SM.getSpellingLoc(f->getLocation()));
    std::string key = (p.isValid() ? std::string(p.getFilename()) + ":" +
                                         std::to_string(p.getLine()) + ":" +
                                         std::to_string(p.getColumn())
                                   : "") +
                      " " + f->getType().getAsString();
    if (f->getTemplateSpecializationArgs()) {
      llvm::raw_string_ostream os(key);
      os << " ";
      f->getNameForDiagnostic(os, f->getASTContext().getPrintingPolicy(),
                              /*Qualified=*/true);
    }
    if (seen.insert(key).second)
      kernels.push_back(f);
    return true;
  }

private:
  const SourceManager &SM;
  std::optional<llvm::sys::fs::UniqueID> Only;
  std::set<std::string> seen;
};


/// Which threadIdx/blockDim dimensions a kernel's accesses use (bit d).
int dimsUsed(const KernelModel &m) {
  int dims = 0;
  auto walk = [&](const LaneExpr &e) {
    visitNodes(e, [&](const Node &n) {
      if ((n.op == Op::ThreadIdx || n.op == Op::BlockDim) && n.value > 0)
        dims |= 1 << n.value;
      return true;
    });
  };
  for (const AccessSite &s : m.accesses) {
    walk(s.access.offset);
    walk(s.access.mask);
  }
  for (const BranchSite &b : m.branches) {
    walk(b.cond);
    walk(b.mask);
  }
  for (const SyncSite &s : m.syncs)
    walk(s.mask);
  for (const Loop &l : m.ctx.loops) {
    walk(l.init);
    walk(l.next);
    walk(l.cond);
  }
  return dims;
}


class Analysis : public ASTConsumer, public Reporter {
public:
  Analysis(DiagnosticsEngine &diags, const ToolOptions &opts, Report &report,
           RunState &run, const FindingSink *sink = nullptr)
      : Diags(diags), Opts(opts), Global(report), Rep(&report), Run(run),
        Sink(sink) {}

  void HandleTranslationUnit(ASTContext &ac) override {
    DiagnosticsEngine &d = Diags;
    WarnId = d.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
    NoteId = d.getCustomDiagID(DiagnosticsEngine::Note, "%0");
    RemarkId = d.getCustomDiagID(DiagnosticsEngine::Remark, "%0");
    Run.ownIds.insert({WarnId, NoteId, RemarkId});
    AC = &ac;
    Suppressions.clear();
    KernelCollector kc(ac.getSourceManager(), Run.onlyFile);
    kc.TraverseDecl(ac.getTranslationUnitDecl());
    // Device functions the kernels call and another file of the project
    // defines (-rdc): their definitions join this translation unit, kept
    // while it is analyzed.
    std::optional<ForeignDefinitions> foreign;
    if (Run.project && !kc.kernels.empty())
      foreign.emplace(importDefinitions(ac, kc.kernels, *Run.project,
                                        mainFile(ac.getSourceManager())));
    ForeignScope foreignScope(foreign ? &*foreign : nullptr);
    Run.uninstantiated = kc.uninstantiated;
    Run.libraryKernels = kc.library;
    LaunchSites sites = collectLaunchSites(ac);
    if (Run.project) {
      std::string main = mainFile(ac.getSourceManager());
      // Launcher functions nothing here calls: calls from other files bind
      // their parameters (a library's wrapper called by the program).
      if (!sites.uncalledLaunchers.empty()) {
        CallsByFunction calls =
            importCalls(ac, sites.uncalledLaunchers, *Run.project, main);
        if (!calls.empty())
          sites = collectLaunchSites(ac, &calls);
      }
      Run.project->remember(main, exportFacts(ac, sites));
      importLaunches(ac, sites, kc.kernels, *Run.project, main);
    }
    Run.kernelsFound += kc.kernels.size();
    Start = std::chrono::steady_clock::now();
    // With -j, ahead of the file's turn: into a buffer, committed below.
    if (Run.takeTurn && !Run.turnHeld && !Sink) {
      Ahead.emplace();
      Rep = &Ahead->report;
    }
    for (const FunctionDecl *k : kc.kernels) {
      if (outOfTime()) {
        Run.kernelsTimedOut.push_back(signature(k));
        continue;
      }
      Run.currentKernel = signature(k);
      analyzeKernel(k, sites);
    }
    if (Ahead)
      commit(sites);
    if (Run.onlyFile)
      return; // the including file's launches are its own business
    Run.currentKernel = "(the launch checks)";
    analyzeLaunches(ac, sites, Opts, *this);
  }

  /// --timeout: has this file's analysis used its time?
  bool outOfTime() const {
    if (Opts.timeoutSeconds <= 0)
      return false;
    std::chrono::duration<double> used =
        std::chrono::steady_clock::now() - Start;
    return used.count() > Opts.timeoutSeconds;
  }

private:
  /// The main file's path as the run names its files: absolute, no dots.
  static std::string mainFile(const SourceManager &sm) {
    auto fe = sm.getFileEntryRefForID(sm.getMainFileID());
    return fe ? absolutePath(fe->getName().str()) : "";
  }

  DiagnosticsEngine &Diags;
  const ToolOptions &Opts;
  /// The run's report, and where records go: the run's report, or while
  /// a file's kernels are analyzed ahead of its turn (-j), a buffer.
  Report &Global;
  Report *Rep;
  RunState &Run;
  /// Where findings go instead of the diagnostics engine (clang-tidy).
  const FindingSink *Sink;
  /// --header-filter, compiled on first use.
  std::optional<llvm::Regex> HeaderFilter;
  std::chrono::steady_clock::time_point Start;
  ASTContext *AC = nullptr;
  /// Each file's NOLINT index, built on its first diagnostic (by FileID).
  std::map<unsigned, SuppressionIndex> Suppressions;
  unsigned WarnId = 0, NoteId = 0, RemarkId = 0;

  SourcePos pos(SourceLocation loc) override {
    const SourceManager &sm = AC->getSourceManager();
    SourcePos p;
    PresumedLoc pl = sm.getPresumedLoc(sm.getExpansionLoc(loc));
    if (pl.isValid()) {
      p.file = pl.getFilename();
      p.line = pl.getLine();
      p.column = pl.getColumn();
    }
    return p;
  }

  std::string text(SourceRange r) override {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(r),
                                AC->getSourceManager(), AC->getLangOpts())
        .str();
  }

  bool suppressed(SourceLocation loc, const std::string &rule) override {
    const SourceManager &sm = AC->getSourceManager();
    SourceLocation e = sm.getExpansionLoc(loc);
    FileID f = sm.getFileID(e);
    bool invalid = false;
    StringRef buf = sm.getBufferData(f, &invalid);
    if (invalid)
      return false;
    unsigned line = sm.getExpansionLineNumber(e);
    auto index = Suppressions.find(f.getHashValue());
    if (index == Suppressions.end())
      index = Suppressions
                  .emplace(f.getHashValue(),
                           SuppressionIndex(
                               std::string_view(buf.data(), buf.size())))
                  .first;
    if (!index->second.suppressed(line, rule))
      return false;
    // Counted once per place and rule, however many instantiations or
    // launch configurations found it.
    if (auto fe = sm.getFileEntryRefForID(f))
      (Ahead ? Ahead->calls.back().suppressed : state().suppressed)
          .insert({fe->getName().str(), line, rule});
    return true;
  }

  /// The block shape an access's figures are for: the choice's first, or
  /// the alternative the model took where no lane runs it under the first.
  static const Shape &figureShape(const ShapeChoice &choice,
                                  const AccessResult &r) {
    return choice.shapes[std::min(r.shape, choice.shapes.size() - 1)];
  }

  static std::string signature(const FunctionDecl *k) {
    return kernelSignature(k);
  }

  void analyzeKernel(const FunctionDecl *k, const LaunchSites &sites) {
    if (Ahead) {
      Ahead->calls.emplace_back();
      KernelCall &c = Ahead->calls.back();
      c.kernel = k;
      c.begin = Ahead->report;
      analyzeKernelNow(k, sites);
      Ahead->calls.back().end = Ahead->report;
      return;
    }
    analyzeKernelNow(k, sites);
  }

  void analyzeKernelNow(const FunctionDecl *k, const LaunchSites &sites) {
    auto bindings = launchBindings(sites, k);
    auto relations = launchRelations(sites, k);
    KernelModel m = walkKernel(*AC, k, Opts.params, bindings, relations);
    int dims = dimsUsed(m);
    // A kernel in a header several files of the run include: each
    // configuration (place, instantiation, block shapes, launch values) is
    // analyzed once.
    SourcePos at = pos(k->getLocation());
    std::string context = at.file + ":" + std::to_string(at.line) + ":" +
                          std::to_string(at.column) + " " + signature(k);
    for (const auto &[index, values] : bindings) {
      context += " p" + std::to_string(index) + "=";
      for (int64_t v : values.first)
        context += std::to_string(v) + ",";
    }
    for (const auto &[index, r] : relations)
      context += " p" + std::to_string(index) + "=p" + std::to_string(r.base) +
                 "+" + std::to_string(r.offset);
    std::vector<ShapeChoice> choices =
        chooseShapes(*AC, k, sites, Opts.blockDim, dims);
    // Several launch configurations: their access findings are gathered,
    // and where they differ on a line, the worst is reported, naming its
    // block shape.
    std::vector<PendingFinding> pending;
    bool gather = choices.size() > 1;
    Pending = gather ? &pending : nullptr;
    bool stopped = false; // by --timeout
    for (const ShapeChoice &choice : choices) {
      std::string key = context + " " + choice.source;
      for (const Shape &sh : choice.shapes)
        key += " " + shapeText(sh);
      if (!state().kernelsAnalyzed.insert(key).second)
        continue;
      if (Ahead)
        Ahead->calls.back().keys.push_back(key);
      KernelRecord kr;
      kr.name = kernelName(k);
      kr.signature = signature(k);
      kr.pos = pos(k->getLocation());
      kr.block = choice.shapes[0];
      kr.blockSource = choice.source;
      ArrayUses.clear(); // this kernel model's arrays
      // gridDim reads the launch's grid where every launch with this block
      // passes the same constant one.
      GridSource.clear();
      m.ctx.grid = {0, 0, 0};
      ++m.ctx.generation;
      // A dimension the launches give as a constant when others are not
      // (`dim3 grid((n + 7) / 8, (m + 7) / 8, 2)`) holds on its own.
      if (!choice.assumed)
        if (auto grid = launchGridDims(sites, k, choice.shapes[0])) {
          const Shape &g = grid->first;
          m.ctx.grid = {g.x, g.y, g.z};
          ++m.ctx.generation;
          std::string dims;
          if (g.x > 0 && g.y > 0 && g.z > 0) {
            dims = "gridDim " + shapeText(g);
          } else {
            const int64_t v[3] = {g.x, g.y, g.z};
            for (int d = 0; d < 3; ++d)
              if (v[d] > 0)
                dims += std::string(dims.empty() ? "gridDim." : ", gridDim.") +
                        "xyz"[d] + " = " + std::to_string(v[d]);
          }
          GridSource = dims + " (the launch at " + grid->second + ")";
        }
      // Data each warp loads from one address is one value per warp
      // under these shapes: undone after the accesses, so that branches
      // on it stay conditions on data.
      std::vector<LaneExpr> offsets;
      for (const AccessSite &site : m.accesses)
        if (site.space != Space::Local && site.mergedInto < 0)
          offsets.push_back(site.access.offset);
      DataMarks marks = markWarpUniformData(m.ctx, offsets, choice.shapes);
      WarpUniformData = marks.atoms;
      AtomicAddresses.clear();
      for (const AccessSite &site : m.accesses)
        if (site.atomic)
          AtomicAddresses.insert({site.base, site.access.offset.get()});
      for (const AccessSite &site : m.accesses)
        if (site.space != Space::Local && site.mergedInto < 0) {
          if (outOfTime()) {
            stopped = true;
            break;
          }
          analyzeAccessSite(k, m, site, choice);
          ++kr.accesses;
        }
      restoreData(m.ctx, marks);
      WarpUniformData.clear();
      flushCallFindings(k, m);
      if (stopped) {
        Run.kernelsTimedOut.push_back(signature(k) + " (" +
                                      std::to_string(kr.accesses) + " of " +
                                      std::to_string(m.accesses.size()) +
                                      " accesses)");
        Rep->kernels.push_back(kr);
        break;
      }
      kr.accessesLeftOut = int(m.accessesLeftOut);
      kr.callsNotFollowed = m.callsTooDeep + m.callsElsewhere;
      analyzeControlFlow(*AC, k, m, choice, Opts, *Rep, *this);
      kr.issue = estimateKernelIssue(k, m, choice, sites, Opts);
      Rep->kernels.push_back(kr);
    }
    Pending = nullptr;
    if (gather)
      emitWorst(k, m, pending, choices.size());
    if (stopped)
      return;
    if (m.accessesLeftOut) {
      std::string msg =
          "warplint modelled the first " + std::to_string(m.accesses.size()) +
          " memory accesses of this kernel and left " +
          std::to_string(m.accessesLeftOut) +
          " out (its per-kernel limit); their findings are missing";
      if (Sink)
        (*Sink)({"", false, k->getLocation(), SourceRange(), msg, {}});
      else
        plain(k->getLocation(), WarnId, msg, /*always=*/true);
    }
    if (m.callsElsewhere) {
      std::string msg =
          std::to_string(m.callsElsewhere) +
          (m.callsElsewhere == 1 ? " call" : " calls") + " (of '" +
          m.firstElsewhere +
          (m.callsElsewhere == 1 ? "')" : "', and others)") +
          " to a function this file declares but does not define "
          "(separately compiled device code) " +
          (m.callsElsewhere == 1 ? "was" : "were") +
          " not followed, and the memory accesses in " +
          (m.callsElsewhere == 1 ? "it are" : "them are") + " missing";
      if (std::string why = whyNotDefined(m.firstElsewhere); !why.empty())
        msg += " ('" + m.firstElsewhere + "': " + why + ")";
      if (Sink)
        (*Sink)({"", true, k->getLocation(), SourceRange(), msg, {}});
      else
        plain(k->getLocation(), RemarkId, msg, /*always=*/true);
    }
    if (m.callsTooDeep) {
      std::string msg =
          "warplint follows calls " + std::to_string(MaxInlineDepth) +
          " deep; " + std::to_string(m.callsTooDeep) +
          (m.callsTooDeep == 1 ? " call" : " calls") + " deeper (of '" +
          m.firstTooDeep +
          (m.callsTooDeep == 1 ? "') was not followed, and the memory "
                                 "accesses in it are missing"
                               : "', and others) were not followed, and the "
                                 "memory accesses in them are missing");
      if (Sink)
        (*Sink)({"", true, k->getLocation(), SourceRange(), msg, {}});
      else
        plain(k->getLocation(), RemarkId, msg, /*always=*/true);
    }
  }

  void analyzeAccessSite(const FunctionDecl *k, const KernelModel &m,
                         const AccessSite &site, const ShapeChoice &choice) {
    CostModel cost = site.space == Space::Shared     ? sharedWavefronts
                     : site.space == Space::Constant ? constantAddresses
                                                     : globalSectors;
    // An atomic is counted as a load or store of its space is: sectors (or
    // wavefronts) as its lanes touch them, against the distinct elements
    // they ask for (measured: a scattered REDG.ADD is 21 sectors per request
    // against an ideal of 4, one address is 1 against 1). Serialization on
    // equal addresses is reported on its own.
    AccessResult r;
    if (site.unknown.empty())
      r = analyzeAccess(site.access, m.ctx, choice.shapes, cost);
    else
      r.unknownReason = site.unknown;
    // An address that depends on data, into a small fixed-size table: its
    // figure holds whatever the data (not for an atomic, whose lanes on one
    // address serialize).
    if (!r.evaluated && site.unknown.empty() && !site.atomic &&
        (site.space == Space::Shared || site.space == Space::Global))
      if (auto *vd = dyn_cast_or_null<VarDecl>(site.base))
        if (AC->getAsConstantArrayType(vd->getType()))
          if (auto t = analyzeWithinTable(
                  site.access, m.ctx, choice.shapes[0],
                  site.space == Space::Shared,
                  AC->getTypeSizeInChars(vd->getType()).getQuantity()))
            r = std::move(*t);
    // Shared rows picked by data (`deq[(w >> 6) & 63][lane]`): each lane's
    // bank is fixed by the rest of the address.
    if (!r.evaluated && site.unknown.empty() && !site.atomic &&
        site.space == Space::Shared)
      if (auto t = analyzeDataRows(site.access, m.ctx, choice.shapes))
        r = std::move(*t);
    // Any other address that depends on data: estimated with the data
    // drawn at random and with the lanes agreeing on it, and reported as
    // depending on data (not evaluated).
    if (!r.evaluated && site.unknown.empty() &&
        (site.space == Space::Shared || site.space == Space::Global))
      if (auto d = analyzeDataAddress(site.access, m.ctx, choice.shapes[0],
                                      cost))
        r = std::move(*d);
    // A 16-byte copy that bypasses L1 whose shared destination has a bank
    // conflict: the GPU reads its global side one sector request a lane
    // (measured at destination strides of 32 to 256 bytes; 4- and 8-byte
    // copies keep their sectors).
    bool splitByConflict = false;
    if (r.evaluated && site.splitByPeer >= 0 &&
        size_t(site.splitByPeer) < m.accesses.size()) {
      AccessResult dst = analyzeAccess(m.accesses[site.splitByPeer].access,
                                       m.ctx, choice.shapes, sharedWavefronts);
      if (dst.evaluated && dst.actual > dst.ideal + 1e-9 &&
          r.activeLanes > r.actual) {
        splitByConflict = true;
        double by = r.activeLanes / r.actual;
        r.actual = r.activeLanes;
        for (double *x : {&r.minActual, &r.maxActual, &r.minActualRealistic,
                          &r.maxActualRealistic, &r.minRatio, &r.maxRatio,
                          &r.minRatioRealistic, &r.maxRatioRealistic,
                          &r.minVerdictRealistic, &r.worstRatio})
          *x *= by;
        for (auto &sample : r.samples) {
          sample.actual *= by;
          sample.ratio *= by;
          sample.verdict *= by;
        }
      }
    }
    SourceLocation loc =
        site.reportAt.isValid() ? site.reportAt : site.expr->getBeginLoc();
    AccessRecord ar;
    ar.kernel = kernelName(k);
    ar.signature = signature(k);
    ar.pos = pos(loc);
    ar.space = spaceName(site.space);
    ar.op = site.atomic ? "atomic" : site.store ? "store" : "load";
    ar.expr = text(site.expr->getSourceRange());
    ar.elementBytes = site.access.elementBytes;
    ar.intrinsic = site.intrinsic;
    ar.evaluated = r.evaluated;
    ar.unknownReason = r.unknownReason;
    ar.activeLanes = r.activeLanes;
    if (r.evaluated) {
      ar.cost = r.actual;
      ar.idealCost = r.ideal;
      ar.minCost = r.minActual;
      ar.maxCost = r.maxActual;
      ar.exact = r.exact;
      ar.strideBytes = r.laneStride;
      ar.worstRatio = r.worstRatio;
      ar.tableBytes = r.tableBytes;
      ar.dataRowBytes = r.dataRowBytes;
    }
    if (r.dataEstimated) {
      AccessRecord::DataEstimate d{r.randomActual, r.randomIdeal,
                                   r.agreeActual, r.agreeIdeal, {},
                                   r.dataElementOffset};
      for (int a : r.dataAtoms)
        d.data.push_back(m.ctx.atoms[a].name);
      ar.dataEstimate = std::move(d);
    }
    std::optional<ArrayInfo> array = arrayInfo(m, site);
    if (site.base) {
      ar.array = site.base->getNameAsString();
      if (array)
        ar.arrayShape = array->dims;
    }
    for (int a : r.dependsOn)
      ar.dependsOn.push_back(m.ctx.atoms[a].name);
    if (site.space == Space::Global)
      ar.assumptions.push_back("allocation base 256-byte aligned");
    const Shape &shape = figureShape(choice, r);
    if (choice.assumed)
      ar.assumptions.push_back("block shape " + shapeText(shape) +
                               " assumed (" + choice.source + ")");
    const std::string shapeFrom =
        choice.assuming.empty() ? "" : shapeFromText(shape, choice.assuming);
    if (!shapeFrom.empty())
      ar.assumptions.push_back(shapeFrom);
    if (r.guardAssumed)
      ar.assumptions.push_back("bounds guards hold for whole warps");
    for (int a : r.dependsOn)
      if (!m.ctx.atoms[a].related.empty())
        ar.assumptions.push_back(m.ctx.atoms[a].related);
    if (!r.figureValues.empty() &&
        r.figureValues.size() == r.dependsOn.size()) {
      std::string at;
      for (size_t i = 0; i < r.dependsOn.size(); ++i)
        at += std::string(i ? ", '" : "'") + m.ctx.atoms[r.dependsOn[i]].name +
              "' = " + std::to_string(r.figureValues[i]);
      ar.assumptions.push_back("no lane runs it at the unknowns' "
                               "representative values; figures at " + at);
    }
    if (!GridSource.empty() && (readsGridDim(site.access.offset, m.ctx) ||
                                readsGridDim(site.access.mask, m.ctx)))
      ar.assumptions.push_back(GridSource);
    for (int a : r.dependsOn)
      if (std::count(WarpUniformData.begin(), WarpUniformData.end(), a))
        ar.assumptions.push_back("'" + m.ctx.atoms[a].name +
                                 "' is one value per warp: each warp's lanes "
                                 "load it from one address");
    if (splitByConflict)
      ar.assumptions.push_back(
          "the shared destination's bank conflict splits the 16-byte copy's "
          "global read into one request a lane");
    if (r.maskDataDependent)
      ar.assumptions.push_back("active lanes depend on data; all assumed active");
    if (site.atomic && r.evaluated) {
      WarpRequest req = firstRequest(site.access.offset, site.access.mask,
                                     m.ctx, shape);
      ar.sameAddressLanes = sameAddressLanes(req.addr, req.active);
    }
    AccessFacts facts{site.access, r, m.ctx, shape, choice.assumed,
                      site.space, site.store, site.structMember,
                      site.elementStride, array ? &*array : nullptr,
                      site.splitOf, site.intrinsic,
                      site.alternatives.empty() ? nullptr : &site.alternatives,
                      site.atomic};
    facts.shapeFrom = shapeFrom;
    facts.atAtomicAddress =
        r.dataEstimated && !site.atomic &&
        AtomicAddresses.count({site.base, site.access.offset.get()});
    if (ar.dataEstimate)
      ar.dataEstimate->expectsRandom = expectsRandomData(facts, Opts.rules);
    Rep->accesses.push_back(ar);

    if (Opts.remarks)
      remark(loc, ar, r, choice.assumed);
    if (explaining(ar.pos))
      explain(m, site, ar, r, choice);

    // Inline PTX is reported where its statement ends (its operand is
    // elsewhere): that place is the finding's whole range.
    SourceRange siteRange = !site.intrinsic.empty() && site.reportAt.isValid()
                                ? SourceRange(loc)
                                : site.expr->getSourceRange();
    const VarDecl *declared = site.array ? site.array->var : nullptr;
    // A call nvcc makes several instructions of (a wmma fragment's load or
    // store): one finding for the call, its worst instruction's.
    const size_t instructions =
        site.intrinsic.empty() ? 0 : instructionsOf(m, site);
    for (const RuleInfo &rule : allRules()) {
      if (!rule.check || !ruleEnabled(Opts.rules.enabled, rule.id))
        continue;
      std::optional<Finding> f = rule.check(facts, Opts.rules);
      if (!f || suppressed(loc, rule.id))
        continue;
      if (splitByConflict && site.space == Space::Global)
        f->message += " (the copy's shared destination has a bank conflict, "
                      "which splits its global read into one request a lane)";
      PendingFinding p{rule.id, *f, loc, siteRange, site.calls,
                       r.ideal > 0 ? r.actual / r.ideal : 1,
                       shape, declared};
      if (instructions > 1) {
        CallKey key{site.expr, site.space, site.store, site.calls, rule.id};
        auto [it, added] = CallFindings.try_emplace(key);
        if (added)
          CallOrder.push_back(key);
        it->second.instructions = instructions;
        it->second.findings.push_back(std::move(p));
        continue;
      }
      report(k, m, std::move(p));
    }
  }

  /// A finding of one launch configuration, held until all are analyzed.
  struct PendingFinding {
    std::string rule;
    Finding finding;
    SourceLocation loc;
    SourceRange range;
    std::vector<const CallExpr *> calls;
    double ratio;
    Shape shape;
    const VarDecl *array; // the accessed array's declaration (fixes)
  };
  std::vector<PendingFinding> *Pending = nullptr;

  /// The accesses the kernel model records for the intrinsic call `site`
  /// belongs to (one per instruction).
  static size_t instructionsOf(const KernelModel &m, const AccessSite &site) {
    size_t n = 0;
    for (const AccessSite &s : m.accesses)
      n += s.expr == site.expr && s.intrinsic == site.intrinsic &&
           s.space == site.space && s.store == site.store &&
           s.calls == site.calls && s.mergedInto < 0;
    return n;
  }

  void report(const FunctionDecl *k, const KernelModel &m, PendingFinding p) {
    if (Pending) {
      Pending->push_back(std::move(p));
      return;
    }
    FixArray = p.array;
    emit(k, m, p.rule, p.finding, p.loc, p.range, p.calls);
    FixArray = nullptr;
  }

  /// Findings of one intrinsic call's instructions (of one side: a copy
  /// has a global and a shared one), per rule, in order.
  using CallKey = std::tuple<const Expr *, Space, bool,
                             std::vector<const CallExpr *>, std::string>;
  struct CallGroup {
    size_t instructions = 0;
    std::vector<PendingFinding> findings;
  };
  std::map<CallKey, CallGroup> CallFindings;
  std::vector<CallKey> CallOrder;

  /// Reports each call's worst instruction, naming how many there are.
  void flushCallFindings(const FunctionDecl *k, const KernelModel &m) {
    for (const CallKey &key : CallOrder) {
      CallGroup &g = CallFindings[key];
      size_t worst = 0;
      for (size_t i = 1; i < g.findings.size(); ++i)
        if (g.findings[i].ratio > g.findings[worst].ratio)
          worst = i;
      PendingFinding p = std::move(g.findings[worst]);
      // The message's figures are that instruction's, per request.
      p.finding.message += " (the worst of the " +
                           std::to_string(g.instructions) +
                           " instructions nvcc makes of this call; " +
                           std::to_string(g.findings.size()) + " of them " +
                           (g.findings.size() == 1 ? "is" : "are") +
                           " flagged)";
      report(k, m, std::move(p));
    }
    CallFindings.clear();
    CallOrder.clear();
  }

  /// Per line and rule: one finding when every configuration says the same,
  /// else the worst one, with its block shape named.
  void emitWorst(const FunctionDecl *k, const KernelModel &m,
                 std::vector<PendingFinding> &pending, size_t configurations) {
    std::map<std::pair<unsigned, std::string>, std::vector<PendingFinding *>>
        groups;
    std::vector<std::pair<unsigned, std::string>> order;
    for (PendingFinding &p : pending) {
      auto key = std::make_pair(p.loc.getRawEncoding(), p.rule);
      if (!groups.count(key))
        order.push_back(key);
      groups[key].push_back(&p);
    }
    for (const auto &key : order) {
      std::vector<PendingFinding *> &g = groups[key];
      PendingFinding *worst = g[0];
      bool differ = false;
      for (PendingFinding *p : g) {
        differ |= p->finding.message != g[0]->finding.message;
        if (p->ratio > worst->ratio)
          worst = p;
      }
      Finding f = worst->finding;
      if (differ)
        f.message += " (with " + shapeText(worst->shape) +
                     " blocks, the worst of the kernel's " +
                     std::to_string(configurations) + " launch configurations)";
      FixArray = worst->array;
      emit(k, m, worst->rule, f, worst->loc, worst->range, worst->calls);
      FixArray = nullptr;
    }
  }

  bool explaining(const SourcePos &p) override {
    return Opts.explainAll || (Opts.explainLine && p.line == Opts.explainLine &&
                               sameFile(p.file, Opts.explainFile));
  }

  void explained(const SourcePos &p, const std::string &text) override {
    if (Opts.explainSink)
      Opts.explainSink(p, text);
    else
      llvm::outs() << text;
  }

  static bool sameFile(const std::string &a, const std::string &b) {
    SmallString<256> x(a), y(b);
    llvm::sys::fs::make_absolute(x);
    llvm::sys::fs::make_absolute(y);
    llvm::sys::path::remove_dots(x, true);
    llvm::sys::path::remove_dots(y, true);
    return x == y;
  }

  void explain(const KernelModel &m, const AccessSite &site,
               const AccessRecord &ar, const AccessResult &r,
               const ShapeChoice &choice) {
    const Shape &shape = figureShape(choice, r);
    WarpRequest req =
        firstRequest(site.access.offset, site.access.mask, m.ctx, shape);
    std::string unit = ar.space == "global"   ? "sectors"
                       : ar.space == "shared" ? "wavefronts"
                                              : "addresses";
    std::string drawn;
    llvm::raw_string_ostream os(drawn);
    [&] {
      os << ar.pos.file << ":" << ar.pos.line << ":" << ar.pos.column
         << ": explain: " << ar.space << " " << ar.op << " '" << ar.expr
         << "' in " << ar.signature << ", block " << shapeText(shape)
         << " (" << choice.source << ")\n";
      if (!r.evaluated || req.active == 0) {
        os << "  not drawn: "
           << (r.evaluated ? "no warp issues it" : r.unknownReason) << "\n";
        if (const auto &d = ar.dataEstimate) {
          const bool random = d->expectsRandom;
          os << "  figure taken: "
             << formatEstimate(random ? d->randomCost : d->agreeCost) << " "
             << unit << " per request, ideal "
             << formatEstimate(random ? d->randomIdeal : d->agreeIdeal)
             << (random ? ", with each lane's data drawn at random\n"
                        : std::string(", with the lanes of a warp agreeing "
                                      "on the data (assumed: ") +
                              AgreeAssumption + ")\n");
        }
        return;
      }
      os << "  warp " << req.warp << " (first to issue it), blockIdx 0, first "
         << "iteration: " << formatFigure(r.actual) << " " << unit
         << " per request on average, ideal " << formatFigure(r.ideal) << "\n";
      if (site.space == Space::Shared)
        os << drawSharedRequest(req.addr, req.active, site.access.elementBytes);
      else if (site.space == Space::Constant)
        os << drawConstantRequest(req.addr, req.active);
      else
        os << drawGlobalRequest(req.addr, req.active, site.access.elementBytes);
    }();
    explained(ar.pos, os.str());
  }

  std::optional<ArrayInfo> arrayInfo(const KernelModel &m,
                                     const AccessSite &site) {
    if (!site.array)
      return std::nullopt;
    ArrayInfo a;
    const VarDecl *v = site.array->var;
    a.name = v->getNameAsString();
    QualType t = v->getType();
    while (const auto *at = AC->getAsArrayType(t))
      t = at->getElementType();
    a.elementType = t.getUnqualifiedType().getAsString(AC->getPrintingPolicy());
    a.elementBytes = int(AC->getTypeSizeInChars(t).getQuantity());
    a.dims = site.array->dims;
    a.subscripts = site.array->subscripts;
    for (const Expr *e : site.array->subscriptExprs)
      a.subscriptText.push_back(text(e->getSourceRange()));
    auto &uses = ArrayUses[{v, a.dims.size()}];
    if (!uses) {
      auto all = std::make_shared<std::vector<ArrayUse>>();
      for (const AccessSite &other : m.accesses)
        if (other.array && other.array->var == v &&
            other.array->subscripts.size() == a.dims.size())
          all->push_back({other.array->subscripts, other.access.mask,
                          other.access.elementBytes});
      uses = std::move(all);
    }
    a.uses = uses;
    return a;
  }
  /// The uses of each array of the kernel being analyzed (arrayInfo).
  std::map<std::pair<const VarDecl *, size_t>,
           std::shared_ptr<const std::vector<ArrayUse>>>
      ArrayUses;
  /// "gridDim 256x1x1 (the launch at main.cu:52)" while the kernel being
  /// analyzed reads the grid of its launch, else empty.
  std::string GridSource;
  /// Data atoms each warp loads from one address, for the kernel and
  /// shapes being analyzed (markWarpUniformData()).
  std::vector<int> WarpUniformData;
  /// The allocations and offsets the atomics of the kernel being analyzed
  /// update (AccessFacts::atAtomicAddress).
  std::set<std::pair<const ValueDecl *, const Node *>> AtomicAddresses;

  /// What taking the figure where the lanes of a warp agree on an address's
  /// data assumes (said by --remarks and --explain).
  static constexpr const char *AgreeAssumption =
      "neighbouring lanes' data close together";

  void remark(SourceLocation loc, const AccessRecord &ar,
              const AccessResult &r, bool shapeAssumed) {
    std::string msg = (ar.intrinsic.empty() ? "" : ar.intrinsic + " ") +
                      ar.space + " " + ar.op + ": ";
    if (!r.evaluated) {
      msg += "not evaluated: " + r.unknownReason;
      if (r.dataEstimated) {
        std::string unit = ar.space == "global" ? " sector" : " wavefront";
        auto about = formatEstimate;
        msg += "; with the data drawn at random, " + about(r.randomActual) +
               unit + (about(r.randomActual) == "1" ? "" : "s") +
               " per request (ideal " + about(r.randomIdeal) + "), " +
               about(r.agreeActual) + " where the lanes of a warp agree on it";
        if (ar.dataEstimate)
          msg += ar.dataEstimate->expectsRandom
                     ? "; the figure taken is the random one (a kind of data "
                       "address whose lanes land apart)"
                     : std::string("; the figure taken is the one where "
                                   "they agree (assumed: ") +
                           AgreeAssumption + ")";
      }
    } else if (r.tableBytes) {
      std::string unit = ar.space == "global" ? " sector" : " wavefront";
      // Shared: exactly one wavefront per phase; global: a bound.
      msg += (ar.space == "global" ? "at most " : "") +
             formatFigure(r.actual) + unit +
             (formatFigure(r.actual) == "1" ? "" : "s") +
             " per request, its ideal (the address depends on data, within a " +
             std::to_string(r.tableBytes) + "-byte table), " +
             formatFigure(r.activeLanes) + " active lanes";
    } else if (r.dataRowBytes) {
      msg += formatFigure(r.actual) + " wavefront" +
             (formatFigure(r.actual) == "1" ? "" : "s") +
             " per request, its ideal (data picks whole " +
             std::to_string(r.dataRowBytes) +
             "-byte rows; each lane keeps its own bank), " +
             formatFigure(r.activeLanes) + " active lanes";
    } else {
      if (r.exact)
        msg += formatFigure(r.actual);
      else
        msg += formatFigure(r.minActual) + " to " + formatFigure(r.maxActual);
      std::string unit = ar.space == "global"   ? " sector"
                         : ar.space == "shared" ? " wavefront"
                                                : " address";
      if (!r.exact || formatFigure(r.actual) != "1")
        unit += ar.space == "constant" ? "es" : "s";
      msg += unit + " per request (ideal " + formatFigure(r.ideal) + ")";
      if (r.laneStride)
        msg += ", lanes " + std::to_string(*r.laneStride) + " B apart";
      msg += ", " + formatFigure(r.activeLanes) + " active lanes";
      if (!r.exact) {
        msg += "; depends on";
        for (size_t i = 0; i < ar.dependsOn.size(); ++i)
          msg += std::string(i ? ", '" : " '") + ar.dependsOn[i] + "'";
        if (shapeAssumed)
          msg += ar.dependsOn.empty() ? " the block shape" : " and the block shape";
      }
      if (r.maskDataDependent)
        msg += "; active lanes depend on data";
    }
    plain(loc, RemarkId, msg, /*always=*/false);
  }

  void emit(const FunctionDecl *k, const KernelModel &m, const std::string &rule,
            const Finding &f, SourceLocation loc, SourceRange siteRange,
            const std::vector<const CallExpr *> &calls) override {
    std::string message = f.message + " [" + rule + "]";
    // --header-filter: a finding in a header (not the file being analyzed)
    // is shown only when the header's path matches; the others are counted.
    if (Opts.headerFilter) {
      const SourceManager &sm = AC->getSourceManager();
      SourceLocation at = sm.getExpansionLoc(loc);
      if (!sm.isInMainFile(at)) {
        auto fe = sm.getFileEntryRefForID(sm.getFileID(at));
        std::string path = fe ? fe->getName().str() : "";
        if (!HeaderFilter)
          HeaderFilter.emplace(*Opts.headerFilter);
        if (!HeaderFilter->match(path)) {
          (Ahead ? Ahead->calls.back().headerHidden : state().headerHidden)
              .insert({path, sm.getExpansionLineNumber(at), rule});
          return;
        }
      }
    }
    DiagnosticRecord dr;
    dr.rule = rule;
    if (f.remark)
      dr.severity = "remark";
    dr.pos = pos(loc);
    dr.kernel = kernelName(k);
    dr.signature = signature(k);
    dr.message = f.message;
    // Reported on a struct's line (AccessSite::reportAt): notes without a
    // source expression of their own stay there, and one says where the
    // copy is written.
    bool elsewhere = siteRange.isValid() && loc != siteRange.getBegin();
    // (location, message) pairs: one per note, then the calls that led here.
    std::vector<std::tuple<SourceLocation, std::string, SourceRange>> notes;
    for (const RuleNote &n : f.notes) {
      SourceRange range = n.origin >= 0 && size_t(n.origin) < m.origins.size()
                              ? m.origins[n.origin]
                          : elsewhere ? SourceRange()
                                      : siteRange;
      std::string msg = n.message;
      if (n.origin >= 0)
        msg = "'" + text(range) + "' " + msg;
      notes.emplace_back(n.origin >= 0 ? range.getBegin() : loc, msg, range);
    }
    // An expression written over several lines is reported on a later line
    // of its own; a struct copy on the struct's line.
    const SourceManager &sm = AC->getSourceManager();
    bool within = elsewhere && loc.isValid() &&
                  sm.isBeforeInTranslationUnit(siteRange.getBegin(), loc) &&
                  !sm.isBeforeInTranslationUnit(siteRange.getEnd(), loc);
    if (within)
      notes.emplace_back(siteRange.getBegin(),
                         "the access begins here; nvcc puts it on the line "
                         "where its address ends, as the GPU's per-line "
                         "counters show it",
                         siteRange);
    else if (elsewhere)
      notes.emplace_back(siteRange.getBegin(),
                         "the struct is copied here; nvcc puts the copy's "
                         "accesses on the struct's line, as the GPU's "
                         "per-line counters show them",
                         siteRange);
    for (auto c = calls.rbegin(); c != calls.rend(); ++c)
      notes.emplace_back((*c)->getBeginLoc(), "in the call from here",
                         (*c)->getSourceRange());
    if (k->isTemplateInstantiation())
      notes.emplace_back(k->getPointOfInstantiation().isValid()
                             ? k->getPointOfInstantiation()
                             : k->getLocation(),
                         "in kernel instantiation '" + signature(k) + "'",
                         SourceRange());
    for (const auto &[at, msg, range] : notes)
      dr.notes.push_back({pos(at), msg});
    std::vector<FixItHint> hints;
    for (const FixEdit &fe : f.fixes)
      if (std::optional<FixItHint> h = fixIt(fe)) {
        dr.fixes.push_back({fe.description, pos(h->RemoveRange.getBegin()),
                            pos(h->RemoveRange.getEnd()), h->CodeToInsert});
        hints.push_back(std::move(*h));
      }
    Emission e;
    e.finding = true;
    e.remark = f.remark;
    e.record = std::move(dr);
    e.message = message;
    e.loc = loc;
    e.range = elsewhere ? SourceRange() : siteRange;
    e.notes = std::move(notes);
    e.hints = std::move(hints);
    if (Ahead)
      Ahead->calls.back().emissions.push_back(std::move(e));
    else
      record(e);
  }

  /// A finding (with its record and notes) or a plain diagnostic, as the
  /// run reports it once its place in the run's order is known.
  struct Emission {
    bool finding = false, remark = false;
    /// Plain: shown even when the kernel's configurations were analyzed
    /// by an earlier file (a limit of this kernel's model).
    bool always = false;
    unsigned id = 0; // plain: the diagnostic's id
    DiagnosticRecord record;
    std::string message;
    SourceLocation loc;
    SourceRange range;
    std::vector<std::tuple<SourceLocation, std::string, SourceRange>> notes;
    std::vector<FixItHint> hints;
  };

  /// The accessed array's declaration while its findings are emitted.
  const VarDecl *FixArray = nullptr;

  /// A rule's verified fix as a change of the source text, where the text
  /// can be changed (not inside a macro's definition).
  std::optional<FixItHint> fixIt(const FixEdit &fe) {
    if (fe.kind != FixEdit::Kind::InnerExtent || !FixArray)
      return std::nullopt;
    const TypeSourceInfo *tsi = FixArray->getTypeSourceInfo();
    if (!tsi || FixArray->getLocation().isMacroID())
      return std::nullopt;
    ConstantArrayTypeLoc inner;
    for (TypeLoc tl = tsi->getTypeLoc().getUnqualifiedLoc();;) {
      auto a = tl.getAs<ConstantArrayTypeLoc>();
      if (!a)
        break;
      inner = a;
      tl = a.getElementLoc().getUnqualifiedLoc();
    }
    if (!inner || !inner.getSizeExpr())
      return std::nullopt;
    const auto *type = AC->getAsConstantArrayType(inner.getType());
    if (!type)
      return std::nullopt;
    int64_t extent = int64_t(type->getSize().getZExtValue());
    if (fe.value <= extent)
      return std::nullopt;
    const SourceManager &sm = AC->getSourceManager();
    const Expr *size = inner.getSizeExpr();
    CharSourceRange range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(size->getSourceRange()), sm,
        AC->getLangOpts());
    if (range.isInvalid())
      return std::nullopt;
    std::string now =
        Lexer::getSourceText(range, sm, AC->getLangOpts()).trim().str();
    std::string text;
    if (isa<IntegerLiteral>(size->IgnoreParenImpCasts()) &&
        !size->getBeginLoc().isMacroID())
      text = std::to_string(fe.value);
    else if (!now.empty() && llvm::all_of(now, [](char c) {
               return llvm::isAlnum(c) || c == '_';
             }))
      text = now + " + " + std::to_string(fe.value - extent);
    else
      text = "(" + now + ") + " + std::to_string(fe.value - extent);
    return FixItHint::CreateReplacement(range, text);
  }

  /// A diagnostic without a record (--remarks, a kernel's limits).
  void plain(SourceLocation loc, unsigned id, const std::string &msg,
             bool always) {
    Emission e;
    e.id = id;
    e.always = always;
    e.message = msg;
    e.loc = loc;
    if (Ahead)
      Ahead->calls.back().emissions.push_back(std::move(e));
    else
      record(e);
  }

  void record(Emission &e) {
    if (!e.finding) {
      Diags.Report(e.loc, e.id) << e.message;
      return;
    }
    RunState &st = state();
    DiagnosticRecord &dr = e.record;
    // JSON: once per instantiation, line and message. Text: once per line and
    // message (`v[i].x * v[i].x + ...` is one problem, and every instantiation
    // of a template says the same).
    if (!st.recorded.insert({dr.signature, dr.pos.file, dr.pos.line, e.message})
             .second)
      return;
    if (!st.prints)
      st.prints = std::make_unique<FingerprintState>(Opts.projectRoot);
    dr.fingerprint = st.prints->next(dr);
    if (Opts.baseline && Opts.baseline->count(dr.fingerprint)) {
      ++Rep->baselined; // known: neither printed nor recorded
      return;
    }
    Rep->diagnostics.push_back(dr);
    if (!st.emitted.insert({dr.pos.file, dr.pos.line, e.message}).second)
      return;
    if (Sink) {
      SinkFinding sf{dr.rule, e.remark, e.loc, e.range, dr.message, e.notes, {}};
      for (size_t i = 0; i < e.hints.size() && i < dr.fixes.size(); ++i)
        sf.fixes.push_back({dr.fixes[i].description, {e.hints[i]}});
      (*Sink)(sf);
      return;
    }
    DiagnosticsEngine &d = Diags;
    d.Report(e.loc, e.remark ? RemarkId : WarnId) << e.message << e.range;
    for (const auto &[at, msg, range] : e.notes)
      d.Report(at, NoteId) << msg << range;
    // A fix-it goes on a note where the edit is (the declaration), as clang
    // does, so the warning's snippet stays the access's line.
    for (const FixItHint &h : e.hints)
      d.Report(h.RemoveRange.getBegin(), NoteId)
          << "the array is declared here" << h;
  }

  /// One kernel's analysis ahead of the file's turn: the configurations it
  /// analyzed (keys), its records (between two states of the buffer's
  /// report) and what it would report.
  struct KernelCall {
    const FunctionDecl *kernel = nullptr;
    std::vector<std::string> keys;
    struct Sizes {
      size_t kernels = 0, accesses = 0, branches = 0;
      Sizes &operator=(const Report &r) {
        kernels = r.kernels.size();
        accesses = r.accesses.size();
        branches = r.branches.size();
        return *this;
      }
    } begin, end;
    std::vector<Emission> emissions;
    std::set<std::tuple<std::string, unsigned, std::string>> suppressed,
        headerHidden;
  };
  struct Buffer {
    Report report;
    std::vector<KernelCall> calls;
  };
  std::optional<Buffer> Ahead;

  /// The state that decides what is analyzed and reported again: while
  /// ahead of the turn, the file's own; else the run's.
  RunState &state() { return Ahead ? Run : Run.dedupe(); }

  /// The file's turn: each kernel's buffered analysis goes into the run's
  /// report as a run with one job would have made it. A kernel whose
  /// configurations an earlier file analyzed is left out (as that run never
  /// analyzes it again); one with some of them analyzed earlier is analyzed
  /// again, now against the run's state.
  void commit(const LaunchSites &sites) {
    Buffer b = std::move(*Ahead);
    Ahead.reset();
    Rep = &Global;
    // --timeout counts analysis, not the wait for earlier files.
    auto waitStart = std::chrono::steady_clock::now();
    Run.ensureTurn();
    Start += std::chrono::steady_clock::now() - waitStart;
    RunState &st = state();
    for (KernelCall &c : b.calls) {
      size_t before = 0;
      for (const std::string &key : c.keys)
        before += st.kernelsAnalyzed.count(key);
      if (before && before < c.keys.size()) {
        Run.currentKernel = signature(c.kernel);
        analyzeKernelNow(c.kernel, sites);
        continue;
      }
      bool keep = before == 0;
      if (keep) {
        st.kernelsAnalyzed.insert(c.keys.begin(), c.keys.end());
        auto append = [](auto &to, const auto &from, size_t i, size_t e) {
          to.insert(to.end(), std::make_move_iterator(from.begin() + i),
                    std::make_move_iterator(from.begin() + e));
        };
        append(Rep->kernels, b.report.kernels, c.begin.kernels, c.end.kernels);
        append(Rep->accesses, b.report.accesses, c.begin.accesses,
               c.end.accesses);
        append(Rep->branches, b.report.branches, c.begin.branches,
               c.end.branches);
        st.suppressed.insert(c.suppressed.begin(), c.suppressed.end());
        st.headerHidden.insert(c.headerHidden.begin(), c.headerHidden.end());
      }
      for (Emission &e : c.emissions)
        if (keep || e.always)
          record(e);
    }
  }
};

} // namespace

std::string kernelName(const FunctionDecl *k) { return k->getNameAsString(); }

std::string kernelSignature(const FunctionDecl *k) {
  std::string s;
  llvm::raw_string_ostream os(s);
  k->getNameForDiagnostic(os, k->getASTContext().getPrintingPolicy(), true);
  return os.str();
}

std::unique_ptr<ASTConsumer> makeAnalysis(CompilerInstance &ci,
                                          const ToolOptions &opts,
                                          Report &report, RunState &run) {
  return std::make_unique<Analysis>(ci.getDiagnostics(), opts, report, run);
}

void analyzeParsed(ASTContext &ac, const ToolOptions &opts,
                   const FindingSink &sink, RunState *state) {
  Report report;
  RunState own;
  RunState &run = state ? *state : own;
  Analysis a(ac.getDiagnostics(), opts, report, run, &sink);
  a.HandleTranslationUnit(ac);
}

} // namespace warplint
