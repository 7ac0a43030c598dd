#include "frontend/analysis/Analysis.h"

#include "frontend/analysis/ControlFlow.h"
#include "frontend/analysis/KernelAnalysis.h"
#include "frontend/analysis/KernelCollector.h"
#include "frontend/project/ForeignDefinitions.h"
#include "frontend/project/ProjectLaunches.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <tuple>

using namespace clang;

namespace warplint {

static bool sameFile(const std::string &a, const std::string &b) {
  SmallString<256> x(a), y(b);
  llvm::sys::fs::make_absolute(x);
  llvm::sys::fs::make_absolute(y);
  llvm::sys::path::remove_dots(x, true);
  llvm::sys::path::remove_dots(y, true);
  return x == y;
}

bool explaining(const ToolOptions &opts, const SourcePos &p) {
  return opts.explainAll || (opts.explainLine && p.line == opts.explainLine &&
                             sameFile(p.file, opts.explainFile));
}

void explained(const ToolOptions &opts, const SourcePos &p,
               const std::string &text) {
  if (opts.explainSink)
    opts.explainSink(p, text);
  else
    llvm::outs() << text;
}

namespace {

/// WARPLINT_DEBUG_CRASH=<kernel>[:abort|segv|stack]: a developer's hook
/// (the tests' way to crash on purpose, with no real bug): the analysis of
/// the kernel of that name aborts, dereferences a bad address or exhausts
/// its stack.
[[gnu::noinline]] int exhaustStack(volatile int depth) {
  volatile char pad[4096];
  pad[0] = char(depth);
  if (depth < 0)
    return pad[0];
  return exhaustStack(depth + 1) + pad[0];
}

void crashIfAsked(const std::string &kernel) {
  static const char *spec = std::getenv("WARPLINT_DEBUG_CRASH");
  if (!spec || !*spec)
    return;
  StringRef name, how;
  std::tie(name, how) = StringRef(spec).split(':');
  if (name != kernel)
    return;
  if (how == "segv") {
    std::raise(SIGSEGV);
  } else if (how == "stack") {
    exhaustStack(0);
  }
  std::abort();
}

/// Clang-style text: each message through the parse's diagnostics engine,
/// under warplint's own diagnostic ids, with its notes and fix-its.
class DiagnosticPrinter : public MessagePrinter {
public:
  DiagnosticPrinter(DiagnosticsEngine &d, RunState &run, const ToolOptions &o)
      : Diags(d), Opts(o) {
    WarnId = d.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
    NoteId = d.getCustomDiagID(DiagnosticsEngine::Note, "%0");
    RemarkId = d.getCustomDiagID(DiagnosticsEngine::Remark, "%0");
    run.ownIds.insert({WarnId, NoteId, RemarkId});
  }
  void finding(const DiagnosticRecord &d) override {
    Diags.Report(locationOf(d.at), d.severity == "remark" ? RemarkId : WarnId)
        << d.message + " [" + d.rule + "]" << rangeOf(d.range);
    // A note on the very place and range the line above showed is given
    // without its range, and clang's printer then shows no snippet for it
    // (clang's own rule for diagnostics at one location): the snippet is
    // drawn once, not once per note.
    SourceHandle lastAt = d.at;
    RangeHandle lastRange = d.range;
    for (const NoteRecord &n : d.notes) {
      auto note = Diags.Report(locationOf(n.at), NoteId);
      note << n.message;
      if (!n.at || n.at != lastAt || !sameRange(n.range, lastRange))
        note << rangeOf(n.range);
      lastAt = n.at;
      lastRange = n.range;
    }
    // A fix-it goes on a note where the edit is (the declaration), as clang
    // does, so the warning's snippet stays the access's line.
    for (const FixRecord &f : d.fixes)
      Diags.Report(locationOf(f.edit.begin), NoteId)
          << "the array is declared here" << fixItOf(f);
  }
  void plain(const DiagnosticRecord &d) override {
    Diags.Report(locationOf(d.at), d.severity == "remark" ? RemarkId : WarnId)
        << d.message;
  }
  void explanation(const DiagnosticRecord &d) override {
    explained(Opts, d.pos, d.message);
  }

private:
  static bool sameRange(const RangeHandle &a, const RangeHandle &b) {
    return a.begin == b.begin && a.end == b.end && a.chars == b.chars;
  }
  DiagnosticsEngine &Diags;
  const ToolOptions &Opts;
  unsigned WarnId = 0, NoteId = 0, RemarkId = 0;
};

/// Shows nothing: what a file whose analysis crashed left in the run's
/// ledger is flushed through it, so that no later file prints records that
/// point into a parse that is gone (their place in the report stays).
class DroppedPrinter : public MessagePrinter {
public:
  void finding(const DiagnosticRecord &) override {}
  void plain(const DiagnosticRecord &) override {}
  void explanation(const DiagnosticRecord &) override {}
};

/// The main file's path as the run names its files: absolute, no dots.
std::string mainFile(const SourceManager &sm) {
  auto fe = sm.getFileEntryRefForID(sm.getMainFileID());
  return fe ? absolutePath(fe->getName().str()) : "";
}

class FileAnalysis : public ASTConsumer {
public:
  FileAnalysis(DiagnosticsEngine &diags, const ToolOptions &opts,
               Report &report, RunState &run, MessagePrinter *printer)
      : Diags(diags), Opts(opts), Global(report), Run(run),
        Printer(printer), Pipeline{opts.headerFilter, opts.projectRoot,
                                   opts.baseline} {}

  void HandleTranslationUnit(ASTContext &ac) override {
    DiagnosticPrinter text(Diags, Run, Opts);
    MessagePrinter &printer = Printer ? *Printer : text;
    // In the file's turn (one job, or a later parse of the file): what an
    // earlier file that crashed left uncommitted is not shown.
    if (!Run.takeTurn || Run.turnHeld)
      dropStale();
    Resolver resolver(ac);
    TranslationUnitKernels tu = collectKernels(ac, Run.onlyFile);
    // Device functions the kernels call and another file of the project
    // defines (-rdc): their definitions join this translation unit, kept
    // while it is analyzed.
    std::optional<ForeignDefinitions> foreign;
    if (Run.project && !tu.kernels.empty())
      foreign.emplace(importDefinitions(ac, tu.kernels, *Run.project,
                                        mainFile(ac.getSourceManager())));
    ForeignScope foreignScope(foreign ? &*foreign : nullptr);
    Run.uninstantiated = tu.uninstantiated;
    Run.libraryKernels = tu.library;
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
      importLaunches(ac, sites, tu.kernels, *Run.project, main);
    }
    Run.kernelsFound += tu.kernels.size();
    Start = std::chrono::steady_clock::now();
    // With -j, ahead of the file's turn: each kernel's output is held,
    // then committed in the run's order.
    const bool ahead = Run.takeTurn && !Run.turnHeld && !Printer;
    std::vector<std::pair<const FunctionDecl *, KernelOutput>> held;
    for (const FunctionDecl *k : tu.kernels) {
      if (outOfTime()) {
        Run.kernelsTimedOut.push_back(kernelSignature(k));
        continue;
      }
      Run.currentKernel = kernelSignature(k);
      KernelOutput out =
          analyze(ac, k, sites, resolver, ahead ? Run.ledger : Run.runLedger());
      if (ahead)
        held.emplace_back(k, std::move(out));
      else
        Run.runLedger().commit(std::move(out), true, resolver.nolint(),
                               Pipeline, Global, printer);
    }
    if (ahead)
      commit(ac, sites, resolver, held, printer);
    if (!Run.onlyFile) { // the including file's launches are its own
      Run.currentKernel = "(the launch checks)";
      Run.runLedger().commit(analyzeLaunches(ac, sites, Opts, resolver),
                             resolver.nolint(), Pipeline, Global, printer);
    }
    // One warning per place and rule, while the parse lives.
    Run.runLedger().flush(Global, printer);
  }

private:
  void dropStale() {
    DroppedPrinter none;
    Run.runLedger().flush(Global, none);
  }

  /// --timeout: has this file's analysis used its time?
  bool outOfTime() const {
    if (Opts.timeoutSeconds <= 0)
      return false;
    std::chrono::duration<double> used =
        std::chrono::steady_clock::now() - Start;
    return used.count() > Opts.timeoutSeconds;
  }

  /// One kernel, its configurations claimed in `ledger`.
  KernelOutput analyze(ASTContext &ac, const FunctionDecl *k,
                       const LaunchSites &sites, Resolver &resolver,
                       RunLedger &ledger) {
    crashIfAsked(k->getNameAsString());
    KernelJob job{ac,
                  Opts,
                  sites,
                  resolver,
                  [&](const std::string &key) { return ledger.claim(key); },
                  [this] { return outOfTime(); }};
    KernelAnalysis a = analyzeKernel(k, job);
    if (a.stopped)
      Run.kernelsTimedOut.push_back(*a.stopped);
    return std::move(a.out);
  }

  /// The file's turn: each kernel's held output goes into the run's report
  /// as a run with one job would have made it. A kernel whose
  /// configurations an earlier file analyzed is left out (as that run never
  /// analyzes it again); one with some of them analyzed earlier is analyzed
  /// again, now against the run's ledger.
  void commit(ASTContext &ac, const LaunchSites &sites, Resolver &resolver,
              std::vector<std::pair<const FunctionDecl *, KernelOutput>> &held,
              MessagePrinter &printer) {
    // --timeout counts analysis, not the wait for earlier files.
    auto waitStart = std::chrono::steady_clock::now();
    Run.ensureTurn();
    Start += std::chrono::steady_clock::now() - waitStart;
    dropStale();
    RunLedger &run = Run.runLedger();
    for (auto &[k, out] : held) {
      size_t before = run.claimed(out.configurations);
      if (before && before < out.configurations.size()) {
        Run.currentKernel = kernelSignature(k);
        run.commit(analyze(ac, k, sites, resolver, run), true,
                   resolver.nolint(), Pipeline, Global, printer);
        continue;
      }
      run.commit(std::move(out), before == 0, resolver.nolint(), Pipeline,
                 Global, printer);
    }
  }

  DiagnosticsEngine &Diags;
  const ToolOptions &Opts;
  /// The run's report.
  Report &Global;
  RunState &Run;
  /// Where messages go instead of the diagnostics engine (the language
  /// server, clang-tidy).
  MessagePrinter *Printer;
  const PipelineOptions Pipeline;
  std::chrono::steady_clock::time_point Start;
};

} // namespace

std::unique_ptr<ASTConsumer> makeAnalysis(CompilerInstance &ci,
                                          const ToolOptions &opts,
                                          Report &report, RunState &run) {
  return std::make_unique<FileAnalysis>(ci.getDiagnostics(), opts, report, run,
                                        nullptr);
}

void analyzeParsed(ASTContext &ac, const ToolOptions &opts,
                   MessagePrinter &printer, RunState *state) {
  Report report;
  RunState own;
  RunState &run = state ? *state : own;
  FileAnalysis a(ac.getDiagnostics(), opts, report, run, &printer);
  a.HandleTranslationUnit(ac);
}

} // namespace warplint
