//===- Analysis.h - warplint's pass over one translation unit ---*- C++ -*-===//
#ifndef WARPLINT_FRONTEND_ANALYSIS_H
#define WARPLINT_FRONTEND_ANALYSIS_H

#include "Action.h"
#include "KernelWalker.h"
#include "report/CiReports.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Support/FileSystem.h"

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace warplint {

/// What the analyses of one translation unit share: source positions and
/// text, NOLINT, and emitting a finding (clang diagnostic + JSON record).
class Reporter {
public:
  virtual ~Reporter() = default;
  virtual SourcePos pos(clang::SourceLocation loc) = 0;
  virtual std::string text(clang::SourceRange r) = 0;
  virtual bool suppressed(clang::SourceLocation loc, const std::string &rule) = 0;
  /// Does --explain ask for this line?
  virtual bool explaining(const SourcePos &p) = 0;
  /// Hands over the explanation of the access, branch or loop at `p`.
  virtual void explained(const SourcePos &p, const std::string &text) = 0;
  /// Reports `f` of `rule` at `loc`, with the notes' origins resolved through
  /// the kernel's model and a note for each call on the way.
  virtual void emit(const clang::FunctionDecl *kernel, const KernelModel &m,
                    const std::string &rule, const Finding &f,
                    clang::SourceLocation loc, clang::SourceRange range,
                    const std::vector<const clang::CallExpr *> &calls) = 0;
};

/// A kernel's name as JSON reports it (unqualified, no template arguments)
/// and its instantiation's signature.
std::string kernelName(const clang::FunctionDecl *k);
std::string kernelSignature(const clang::FunctionDecl *k);

/// What one run shares across its files: the diagnostic ids warplint
/// reports with, what it has reported, and the kernel configurations it has
/// analyzed, so that a kernel in a header that several files include is
/// analyzed and reported once per configuration, not once per file.
class ProjectLaunches;
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
  std::set<unsigned> ownIds;
  std::set<std::tuple<std::string, unsigned, std::string>> emitted;
  std::set<std::tuple<std::string, std::string, unsigned, std::string>>
      recorded;
  std::set<std::string> kernelsAnalyzed;
  /// Kernels found in the files parsed so far, analyzed or already seen.
  size_t kernelsFound = 0;
  /// The current file's kernels (signatures) that --timeout left out,
  /// whole or in part.
  std::vector<std::string> kernelsTimedOut;
  /// Fingerprints of the findings in the order they are found; those the
  /// --baseline lists are left out of the report.
  std::unique_ptr<FingerprintState> prints;
  /// The kernel being analyzed (its signature), for a crash report.
  std::string currentKernel;
  /// Findings in headers --header-filter left out: file, line, rule.
  std::set<std::tuple<std::string, unsigned, std::string>> headerHidden;
  /// Findings a NOLINT comment suppressed: file, line, rule.
  std::set<std::tuple<std::string, unsigned, std::string>> suppressed;

  /// With -j: the state the run's files share (the configurations analyzed,
  /// the findings recorded, printed and suppressed, the fingerprints); this
  /// one is then the file's own. A file's kernels are analyzed into a
  /// private buffer, then, once `takeTurn` has returned (every earlier file
  /// is done), committed in the run's order against the shared state, so
  /// that the output is the one a run with one job gives.
  RunState *shared = nullptr;
  std::function<void()> takeTurn;
  bool turnHeld = false;
  /// The state that decides what is analyzed and reported again.
  RunState &dedupe() { return shared ? *shared : *this; }
  /// Waits for the file's turn (with -j), once.
  void ensureTurn() {
    if (takeTurn && !turnHeld) {
      takeTurn();
      turnHeld = true;
    }
  }
};

/// A finding handed to a client other than the command line (the
/// clang-tidy module): its rule ("" for the analysis's own warnings), place,
/// message (without the rule id) and notes.
struct SinkFinding {
  std::string rule;
  bool remark = false;
  clang::SourceLocation loc;
  clang::SourceRange range;
  std::string message;
  std::vector<std::tuple<clang::SourceLocation, std::string, clang::SourceRange>>
      notes;
  /// Verified fixes: what each does, and its edits.
  std::vector<std::pair<std::string, std::vector<clang::FixItHint>>> fixes;
};
using FindingSink = std::function<void(const SinkFinding &)>;

/// Analyzes every kernel of a translation unit another tool parsed, handing
/// each finding to `sink` instead of reporting it. With `run`, its state is
/// the caller's: its project's launches bind the kernels and its onlyFile
/// limits the kernels analyzed, as on the command line, and what it found
/// (uninstantiated templates, what was reported) is left there.
void analyzeParsed(clang::ASTContext &ac, const ToolOptions &opts,
                   const FindingSink &sink, RunState *run = nullptr);

/// The consumer that analyzes every kernel of a translation unit.
std::unique_ptr<clang::ASTConsumer> makeAnalysis(clang::CompilerInstance &ci,
                                                 const ToolOptions &opts,
                                                 Report &report, RunState &run);

} // namespace warplint

#endif
