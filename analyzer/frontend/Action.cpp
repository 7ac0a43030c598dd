#include "Action.h"

#include "KernelWalker.h"
#include "LaunchShapes.h"
#include "Suppressions.h"
#include "model/Explain.h"
#include "report/Drawing.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <set>
#include <tuple>

using namespace clang;
using namespace clang::tooling;

namespace warplint {
namespace {

// --- diagnostics --------------------------------------------------------------

/// Routes warplint's own diagnostics (and their notes) to stdout in text mode,
/// compiler errors to stderr, and drops the compiler's warnings unless asked:
/// a linter's output is its findings.
class Router : public DiagnosticConsumer {
public:
  Router(bool text, bool compilerWarnings)
      : Text(text), CompilerWarnings(compilerWarnings),
        Out(llvm::outs(), OutOpts), Err(llvm::errs(), ErrOpts) {
    OutOpts.ShowColors = llvm::outs().has_colors();
    ErrOpts.ShowColors = llvm::errs().has_colors();
  }
  std::set<unsigned> OwnIds;
  unsigned FileErrors = 0;
  std::string FirstError;

  void BeginSourceFile(const LangOptions &lo, const Preprocessor *pp) override {
    Out.BeginSourceFile(lo, pp);
    Err.BeginSourceFile(lo, pp);
  }
  void EndSourceFile() override {
    Out.EndSourceFile();
    Err.EndSourceFile();
    // Findings are counted in warplint's own summary, not as compiler
    // warnings ("N warnings generated").
    NumWarnings = 0;
  }
  void HandleDiagnostic(DiagnosticsEngine::Level level,
                        const Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level == DiagnosticsEngine::Note) {
      if (LastShown)
        (LastOwn ? Out : Err).HandleDiagnostic(level, info);
      return;
    }
    LastOwn = OwnIds.count(info.getID()) != 0;
    if (LastOwn) {
      LastShown = Text;
      if (Text)
        Out.HandleDiagnostic(level, info);
      return;
    }
    if (level >= DiagnosticsEngine::Error) {
      ++FileErrors;
      if (FirstError.empty()) {
        SmallString<128> msg;
        info.FormatDiagnostic(msg);
        FirstError = msg.str().str();
        if (info.hasSourceManager() && info.getLocation().isValid()) {
          PresumedLoc p =
              info.getSourceManager().getPresumedLoc(info.getLocation());
          if (p.isValid())
            FirstError = std::string(p.getFilename()) + ":" +
                         std::to_string(p.getLine()) + ":" +
                         std::to_string(p.getColumn()) + ": " + FirstError;
        }
      }
      LastShown = true;
      Err.HandleDiagnostic(level, info);
      return;
    }
    LastShown = CompilerWarnings;
    if (LastShown)
      Err.HandleDiagnostic(level, info);
  }

private:
  bool Text, CompilerWarnings;
  bool LastOwn = false, LastShown = false;
  DiagnosticOptions OutOpts, ErrOpts;
  TextDiagnosticPrinter Out, Err;
};

// --- per translation unit -------------------------------------------------------

class KernelCollector : public RecursiveASTVisitor<KernelCollector> {
public:
  explicit KernelCollector(const SourceManager &sm) : SM(sm) {}
  std::vector<const FunctionDecl *> kernels;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *f) {
    if (f->hasAttr<CUDAGlobalAttr>() && f->doesThisDeclarationHaveABody() &&
        !f->isDependentContext() && !SM.isInSystemHeader(f->getLocation()))
      kernels.push_back(f);
    return true;
  }

private:
  const SourceManager &SM;
};

struct ShapeChoice {
  std::vector<Shape> shapes; // [0] in use; the rest must agree
  std::string source;
  bool assumed = false;
};

/// Which threadIdx/blockDim dimensions a kernel's accesses use (bit d).
int dimsUsed(const KernelModel &m) {
  int dims = 0;
  std::function<void(const LaneExpr &)> walk = [&](const LaneExpr &e) {
    if (!e)
      return;
    if ((e->op == Op::ThreadIdx || e->op == Op::BlockDim) && e->value > 0)
      dims |= 1 << e->value;
    walk(e->a);
    walk(e->b);
    walk(e->c);
  };
  for (const AccessSite &s : m.accesses) {
    walk(s.access.offset);
    walk(s.access.mask);
  }
  for (const Loop &l : m.ctx.loops) {
    walk(l.init);
    walk(l.next);
    walk(l.cond);
  }
  return dims;
}

std::vector<Shape> candidateShapes(int dims) {
  if (dims & 4)
    return {{8, 8, 4}, {16, 8, 2}, {32, 4, 2}, {8, 4, 8}};
  if (dims & 2)
    return {{16, 16, 1}, {32, 8, 1}, {32, 32, 1}, {8, 32, 1}, {64, 4, 1}};
  return {{256, 1, 1}, {128, 1, 1}, {1024, 1, 1}, {64, 1, 1}, {32, 1, 1}};
}

std::vector<ShapeChoice> chooseShapes(ASTContext &ac, const FunctionDecl *k,
                                      const LaunchSites &sites,
                                      const ToolOptions &opts, int dims) {
  std::vector<ShapeChoice> out;
  auto it = sites.shapes.find(k->getCanonicalDecl());
  if (it != sites.shapes.end()) {
    for (const Shape &s : it->second)
      out.push_back({{s}, "launch site", false});
    return out;
  }
  if (auto s = annotatedShape(ac, k))
    return {{{*s}, "annotation", false}};
  if (opts.blockDim)
    return {{{*opts.blockDim}, "option", false}};
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

class Analysis : public ASTConsumer {
public:
  Analysis(CompilerInstance &ci, const ToolOptions &opts, Report &report,
           Router &router)
      : CI(ci), Opts(opts), Rep(report), R(router) {}

  void HandleTranslationUnit(ASTContext &ac) override {
    DiagnosticsEngine &d = CI.getDiagnostics();
    WarnId = d.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
    NoteId = d.getCustomDiagID(DiagnosticsEngine::Note, "%0");
    RemarkId = d.getCustomDiagID(DiagnosticsEngine::Remark, "%0");
    R.OwnIds.insert({WarnId, NoteId, RemarkId});
    AC = &ac;
    KernelCollector kc(ac.getSourceManager());
    kc.TraverseDecl(ac.getTranslationUnitDecl());
    LaunchSites sites = collectLaunchSites(ac);
    for (const FunctionDecl *k : kc.kernels)
      analyzeKernel(k, sites);
  }

private:
  CompilerInstance &CI;
  const ToolOptions &Opts;
  Report &Rep;
  Router &R;
  ASTContext *AC = nullptr;
  unsigned WarnId = 0, NoteId = 0, RemarkId = 0;
  std::set<std::tuple<std::string, unsigned, std::string>> Emitted;
  std::set<std::tuple<std::string, std::string, unsigned, std::string>>
      Recorded;

  SourcePos pos(SourceLocation loc) {
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

  std::string text(SourceRange r) {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(r),
                                AC->getSourceManager(), AC->getLangOpts())
        .str();
  }

  bool suppressed(SourceLocation loc, const std::string &rule) {
    const SourceManager &sm = AC->getSourceManager();
    SourceLocation e = sm.getExpansionLoc(loc);
    FileID f = sm.getFileID(e);
    bool invalid = false;
    StringRef buf = sm.getBufferData(f, &invalid);
    if (invalid)
      return false;
    return isSuppressed(std::string_view(buf.data(), buf.size()),
                        sm.getExpansionLineNumber(e), rule);
  }

  static std::string kernelName(const FunctionDecl *k) {
    return k->getNameAsString();
  }
  static std::string signature(const FunctionDecl *k) {
    std::string s;
    llvm::raw_string_ostream os(s);
    k->getNameForDiagnostic(os, k->getASTContext().getPrintingPolicy(), true);
    return os.str();
  }

  void analyzeKernel(const FunctionDecl *k, const LaunchSites &sites) {
    KernelModel m = walkKernel(*AC, k);
    int dims = dimsUsed(m);
    for (const ShapeChoice &choice : chooseShapes(*AC, k, sites, Opts, dims)) {
      KernelRecord kr;
      kr.name = kernelName(k);
      kr.signature = signature(k);
      kr.pos = pos(k->getLocation());
      kr.block = choice.shapes[0];
      kr.blockSource = choice.source;
      for (const AccessSite &site : m.accesses)
        if (site.space != Space::Local) {
          analyzeAccessSite(k, m, site, choice);
          ++kr.accesses;
        }
      Rep.kernels.push_back(kr);
    }
    if (m.truncated)
      CI.getDiagnostics().Report(k->getLocation(), RemarkId)
          << "warplint stopped modelling this kernel after its first accesses "
             "(size limit)";
  }

  void analyzeAccessSite(const FunctionDecl *k, const KernelModel &m,
                         const AccessSite &site, const ShapeChoice &choice) {
    CostModel cost = site.space == Space::Shared     ? sharedWavefronts
                     : site.space == Space::Constant ? constantAddresses
                                                     : globalSectors;
    AccessResult r = analyzeAccess(site.access, m.ctx, choice.shapes, cost);
    SourceLocation loc = site.expr->getBeginLoc();
    AccessRecord ar;
    ar.kernel = kernelName(k);
    ar.signature = signature(k);
    ar.pos = pos(loc);
    ar.space = spaceName(site.space);
    ar.op = site.store ? "store" : "load";
    ar.expr = text(site.expr->getSourceRange());
    ar.elementBytes = site.access.elementBytes;
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
    if (choice.assumed)
      ar.assumptions.push_back("block shape " + shapeText(choice.shapes[0]) +
                               " assumed (" + choice.source + ")");
    if (r.guardAssumed)
      ar.assumptions.push_back("bounds guards hold for whole warps");
    if (r.maskDataDependent)
      ar.assumptions.push_back("active lanes depend on data; all assumed active");
    Rep.accesses.push_back(ar);

    if (Opts.remarks)
      remark(loc, ar, r, choice.assumed);
    if (Opts.explainLine && ar.pos.line == Opts.explainLine &&
        sameFile(ar.pos.file, Opts.explainFile))
      explain(m, site, ar, r, choice);

    AccessFacts facts{site.access, r, m.ctx, choice.shapes[0], choice.assumed,
                      site.space, site.store, site.structMember,
                      site.elementStride, array ? &*array : nullptr};
    for (const RuleInfo &rule : allRules()) {
      std::optional<Finding> f = rule.check(facts, Opts.rules);
      if (!f || suppressed(loc, rule.id))
        continue;
      emit(k, m, site, rule.id, *f);
    }
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
    WarpRequest req = firstRequest(site.access.offset, site.access.mask,
                                   m.ctx, choice.shapes[0]);
    std::string unit = ar.space == "global"   ? "sectors"
                       : ar.space == "shared" ? "wavefronts"
                                              : "addresses";
    llvm::raw_ostream &os = llvm::outs();
    os << ar.pos.file << ":" << ar.pos.line << ":" << ar.pos.column
       << ": explain: " << ar.space << " " << ar.op << " '" << ar.expr
       << "' in " << ar.signature << ", block " << shapeText(choice.shapes[0])
       << " (" << choice.source << ")\n";
    if (!r.evaluated || req.active == 0) {
      os << "  not drawn: "
         << (r.evaluated ? "no warp issues it" : r.unknownReason) << "\n";
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
    for (const AccessSite &other : m.accesses)
      if (other.array && other.array->var == v &&
          other.array->subscripts.size() == a.dims.size())
        a.uses.push_back({other.array->subscripts, other.access.mask,
                          other.access.elementBytes});
    return a;
  }

  void remark(SourceLocation loc, const AccessRecord &ar,
              const AccessResult &r, bool shapeAssumed) {
    std::string msg = ar.space + " " + ar.op + ": ";
    if (!r.evaluated) {
      msg += "not evaluated: " + r.unknownReason;
    } else {
      if (r.exact)
        msg += formatFigure(r.actual);
      else
        msg += formatFigure(r.minActual) + " to " + formatFigure(r.maxActual);
      std::string unit = ar.space == "global"   ? " sectors"
                         : ar.space == "shared" ? " wavefronts"
                                                : " addresses";
      msg += unit + " per request (ideal " + formatFigure(r.ideal) + ")";
      if (r.laneStride)
        msg += ", lanes " + std::to_string(*r.laneStride) + " B apart";
      msg += ", " + formatFigure(r.activeLanes) + " active lanes";
      if (!r.exact) {
        msg += "; depends on";
        for (const std::string &d : ar.dependsOn)
          msg += " '" + d + "'";
        if (shapeAssumed)
          msg += " the block shape";
      }
      if (r.maskDataDependent)
        msg += "; active lanes depend on data";
    }
    CI.getDiagnostics().Report(loc, RemarkId) << msg;
  }

  void emit(const FunctionDecl *k, const KernelModel &m, const AccessSite &site,
            const std::string &rule, const Finding &f) {
    SourceLocation loc = site.expr->getBeginLoc();
    std::string message = f.message + " [" + rule + "]";
    DiagnosticRecord dr;
    dr.rule = rule;
    dr.pos = pos(loc);
    dr.kernel = kernelName(k);
    dr.signature = signature(k);
    dr.message = f.message;
    // (location, message) pairs: one per note, then the calls that led here.
    std::vector<std::tuple<SourceLocation, std::string, SourceRange>> notes;
    for (const RuleNote &n : f.notes) {
      SourceRange range = n.origin >= 0 && size_t(n.origin) < m.origins.size()
                              ? m.origins[n.origin]
                              : site.expr->getSourceRange();
      std::string msg = n.message;
      if (n.origin >= 0)
        msg = "'" + text(range) + "' " + msg;
      notes.emplace_back(n.origin >= 0 ? range.getBegin() : loc, msg, range);
    }
    for (auto c = site.calls.rbegin(); c != site.calls.rend(); ++c)
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

    // JSON: once per instantiation, line and message. Text: once per line and
    // message (`v[i].x * v[i].x + ...` is one problem, and every instantiation
    // of a template says the same).
    if (!Recorded.insert({dr.signature, dr.pos.file, dr.pos.line, message})
             .second)
      return;
    Rep.diagnostics.push_back(dr);
    if (!Emitted.insert({dr.pos.file, dr.pos.line, message}).second)
      return;
    DiagnosticsEngine &d = CI.getDiagnostics();
    d.Report(loc, WarnId) << message << site.expr->getSourceRange();
    for (const auto &[at, msg, range] : notes)
      d.Report(at, NoteId) << msg << range;
  }
};

class Action : public ASTFrontendAction {
public:
  Action(const ToolOptions &o, Report &r, Router &router)
      : Opts(o), Rep(r), R(router) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci,
                                                 StringRef) override {
    // Like clangd: a missing header is an error, not the end of the parse, so
    // templates still get instantiated and the kernels that parsed are
    // analyzed; and findings are still printed after such an error.
    ci.getDiagnostics().setFatalsAsError(true);
    return std::make_unique<Analysis>(ci, Opts, Rep, R);
  }

private:
  const ToolOptions &Opts;
  Report &Rep;
  Router &R;
};

class Factory : public FrontendActionFactory {
public:
  Factory(const ToolOptions &o, Report &r, Router &router)
      : Opts(o), Rep(r), R(router) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(Opts, Rep, R);
  }

private:
  const ToolOptions &Opts;
  Report &Rep;
  Router &R;
};

/// One compile command per file: the user's (from -p or after --) or a plain
/// one, rewritten for a device-side parse.
class DeviceDatabase : public CompilationDatabase {
public:
  std::map<std::string, CompileCommand> commands;
  std::vector<CompileCommand>
  getCompileCommands(StringRef file) const override {
    auto it = commands.find(file.str());
    if (it == commands.end())
      return {};
    return {it->second};
  }
};

/// A reason the file cannot be analyzed before parsing, or "".
std::string precheck(const std::string &path, uint64_t maxBytes) {
  llvm::sys::fs::file_status st;
  if (std::error_code ec = llvm::sys::fs::status(path, st))
    return "cannot open file: " + ec.message();
  if (llvm::sys::fs::is_directory(st))
    return "is a directory, not a source file";
  if (st.getSize() > maxBytes)
    return "file is too large to analyze (" +
           std::to_string(st.getSize() >> 20) + " MiB; the limit is " +
           std::to_string(maxBytes >> 20) + " MiB, see --max-file-size)";
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return "cannot read file: " + buf.getError().message();
  StringRef head = (*buf)->getBuffer().take_front(65536);
  if (head.contains('\0'))
    return "binary file, not CUDA source";
  return "";
}

} // namespace

bool analyzeFiles(const ToolOptions &opts, Report &report) {
  std::unique_ptr<CompilationDatabase> userDb;
  if (!opts.buildPath.empty()) {
    std::string err;
    userDb = CompilationDatabase::loadFromDirectory(opts.buildPath, err);
    if (!userDb) {
      llvm::errs() << "warplint: error: cannot load compile_commands.json from '"
                   << opts.buildPath << "': " << err << "\n";
      return false;
    }
  }
  Router router(opts.textDiagnostics, opts.compilerWarnings);
  for (const std::string &file : opts.files) {
    FileRecord fr;
    fr.path = file;
    std::string why = precheck(file, opts.maxFileBytes);
    if (!why.empty()) {
      fr.ok = false;
      fr.error = why;
      llvm::errs() << file << ": error: " << why << "\n";
      report.files.push_back(fr);
      continue;
    }
    SmallString<256> abs(file);
    llvm::sys::fs::make_absolute(abs);
    llvm::sys::path::remove_dots(abs, true);
    std::vector<std::string> cmd{"clang++", "-std=c++17"};
    std::string dir = ".";
    if (userDb) {
      auto cmds = userDb->getCompileCommands(abs);
      if (!cmds.empty()) {
        cmd = cmds[0].CommandLine;
        dir = cmds[0].Directory;
        // The database names the file; it is appended again below.
        cmd.erase(std::remove_if(cmd.begin() + 1, cmd.end(),
                                 [&](const std::string &a) {
                                   SmallString<256> p(a);
                                   if (!llvm::sys::path::is_absolute(p))
                                     llvm::sys::path::make_absolute(dir, p);
                                   llvm::sys::path::remove_dots(p, true);
                                   return p == abs;
                                 }),
                  cmd.end());
      }
    } else if (opts.fixedArgs) {
      cmd = {"clang++"};
      cmd.insert(cmd.end(), opts.fixedArgs->begin(), opts.fixedArgs->end());
    }
    std::vector<std::string> argv{cmd[0]};
    argv.insert(argv.end(), opts.extraArgsBefore.begin(),
                opts.extraArgsBefore.end());
    argv.insert(argv.end(), cmd.begin() + 1, cmd.end());
    argv.insert(argv.end(), opts.extraArgs.begin(), opts.extraArgs.end());
    argv = deviceParseCommand(argv, opts.cuda);
    argv.push_back(std::string(abs));
    DeviceDatabase db;
    db.commands[std::string(abs)] =
        CompileCommand(dir, std::string(abs), argv, "");

    ClangTool tool(db, {std::string(abs)});
    tool.setDiagnosticConsumer(&router);
    router.FileErrors = 0;
    router.FirstError.clear();
    size_t kernelsBefore = report.kernels.size();
    Factory factory(opts, report, router);
    int rc = tool.run(&factory);
    if (rc != 0 || router.FileErrors > 0) {
      fr.ok = false;
      fr.error = router.FirstError.empty() ? "the file could not be parsed"
                                           : router.FirstError;
      llvm::errs() << "warplint: error: " << file
                   << " could not be analyzed completely ("
                   << router.FileErrors << " error"
                   << (router.FileErrors == 1 ? "" : "s")
                   << "); its results are partial\n";
    } else if (report.kernels.size() == kernelsBefore) {
      llvm::errs() << "warplint: note: " << file
                   << ": no __global__ function to analyze\n";
    }
    report.files.push_back(fr);
  }
  return true;
}

} // namespace warplint
