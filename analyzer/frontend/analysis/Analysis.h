//===- Analysis.h - warplint's pass over one translation unit ---*- C++ -*-===//
//
// One parsed translation unit: its kernels are collected, each is analyzed
// (KernelAnalysis.h) into Clang-free records and findings, which the run's
// pipeline (report/Pipeline.h) commits in the run's order and hands to a
// printer: clang-style text through the parse's diagnostics engine on the
// command line, or the client's own (the language server, clang-tidy).
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_ANALYSIS_ANALYSIS_H
#define WARPLINT_FRONTEND_ANALYSIS_ANALYSIS_H

#include "frontend/analysis/Action.h"
#include "frontend/analysis/Resolve.h"
#include "report/Pipeline.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Support/FileSystem.h"

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warplint {

class ProjectLaunches;

/// What the analyses of a run's files share: the project's launches, what
/// the run has committed (report/Pipeline.h), and, per file, what it found
/// that the run reports on its own (templates it does not instantiate,
/// kernels --timeout left out).
struct RunState {
  /// Launches in the project's other files (none: this file's only).
  ProjectLaunches *project = nullptr;
  /// Set while a header is analyzed in the context of a file that includes
  /// it: only the kernels defined in the header are analyzed.
  std::optional<llvm::sys::fs::UniqueID> onlyFile;
  /// Kernel templates defined in the main file that it instantiates nowhere.
  std::vector<std::string> uninstantiated;
  /// Kernels of library (system) headers that the current file instantiates
  /// with its own types (cub's reduce kernel over the program's functor):
  /// not analyzed, and said so. "template (with the program's types)".
  std::vector<std::string> libraryKernels;
  /// The diagnostic ids warplint prints with (the router shows them on
  /// stdout, apart from the compiler's).
  std::set<unsigned> ownIds;
  /// Kernels found in the files parsed so far, analyzed or already seen.
  size_t kernelsFound = 0;
  /// The current file's kernels (signatures) that --timeout left out,
  /// whole or in part.
  std::vector<std::string> kernelsTimedOut;
  /// The kernel being analyzed (its signature), for a crash report.
  std::string currentKernel;
  /// What the run has committed; with -j, the file's own (the
  /// configurations it analyzed ahead of its turn).
  RunLedger ledger;

  /// With -j: the state the run's files share (its ledger is the run's).
  /// A file's kernels are analyzed ahead of its turn, then, once `takeTurn`
  /// has returned (every earlier file is done), committed in the run's
  /// order, so that the output is the one a run with one job gives.
  RunState *shared = nullptr;
  std::function<void()> takeTurn;
  bool turnHeld = false;
  /// The ledger that decides what is analyzed and reported again.
  RunLedger &runLedger() { return shared ? shared->ledger : ledger; }
  /// Waits for the file's turn (with -j), once.
  void ensureTurn() {
    if (takeTurn && !turnHeld) {
      takeTurn();
      turnHeld = true;
    }
  }
};

/// Analyzes every kernel of a translation unit another tool parsed, handing
/// each message the pipeline lets through to `printer` while the parse lives
/// (DiagnosticRecord's handles are its source locations). With `run`, its
/// state is the caller's: its project's launches bind the kernels and its
/// onlyFile limits the kernels analyzed, as on the command line, and what
/// it found (uninstantiated templates, what was reported) is left there.
void analyzeParsed(clang::ASTContext &ac, const ToolOptions &opts,
                   MessagePrinter &printer, RunState *run = nullptr);

/// The consumer that analyzes every kernel of a translation unit, printing
/// clang-style through the parse's diagnostics engine.
std::unique_ptr<clang::ASTConsumer> makeAnalysis(clang::CompilerInstance &ci,
                                                 const ToolOptions &opts,
                                                 Report &report, RunState &run);

} // namespace warplint

#endif
