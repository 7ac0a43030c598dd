//===- Action.h - run warplint over files -----------------------*- C++ -*-===//
#ifndef WARPLINT_FRONTEND_ACTION_H
#define WARPLINT_FRONTEND_ACTION_H

#include "frontend/project/CommandLine.h"
#include "report/Report.h"
#include "rules/RuleSet.h"

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <memory>
#include <functional>
#include <set>
#include <optional>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
}

namespace warplint {

struct ToolOptions {
  std::vector<std::string> files;
  /// The run's files before --shard or --changed-since chose `files`: their
  /// launches bind kernels as in a run over all of them (empty: `files`).
  std::vector<std::string> projectFiles;
  std::string buildPath;              // -p: directory of compile_commands.json
  std::optional<std::vector<std::string>> fixedArgs; // after "--"
  std::vector<std::string> extraArgs, extraArgsBefore;
  /// --query-driver: host compilers named by path that may be asked for
  /// their include directories (globs); by plain name, any on PATH.
  std::vector<std::string> queryDriver;
  CudaSetup cuda;
  std::optional<Shape> blockDim; // --block-dim
  /// --param NAME=VALUE: kernel parameters (and locals initialised from
  /// them) with a known value instead of sampled ones.
  std::map<std::string, int64_t> params;
  /// The rules the file runs, with their options (built from its
  /// configuration).
  RuleSet rules;
  /// --header-filter: findings in headers whose path does not match this
  /// regular expression are left out (counted); unset: all shown.
  std::optional<std::string> headerFilter;
  /// Paths in fingerprints are relative to it (--project-root).
  std::string projectRoot;
  /// --baseline: fingerprints of findings not to report (shared by the
  /// per-file copies of the options).
  std::shared_ptr<const std::set<std::string>> baseline;
  bool baselineUsed = false;
  bool textDiagnostics = true; // print warnings clang-style on stdout
  bool remarks = false;        // the model's view of every access
  /// Keep each access's record in the report (the JSON document lists
  /// them); false: only what the summary counts of them (AccessTally),
  /// which a run printing findings needs. A kernel of 20,000 accesses held
  /// 18 MB of records no other output reads.
  bool accessRecords = true;
  bool compilerWarnings = false;
  /// --absolute-paths: the parse names a file given on the command line by
  /// its absolute path (the compiler's messages and the text findings print
  /// it so); without it, as given (the other outputs are absolute either
  /// way).
  bool absolutePaths = false;
  /// The files are the compile database's (-p without files): each is
  /// named as its entry spells it, relative to the entry's directory, as
  /// the build's compiler prints it (absolute with --absolute-paths).
  bool filesFromDatabase = false;
  uint64_t maxFileBytes = 16u << 20;
  /// -j: files analyzed at once (0: one per core). The output is the same
  /// for any number: files are committed in the run's order.
  unsigned jobs = 1;
  /// --timeout: seconds of analysis per file after its parse (0: none); the
  /// kernels not analyzed in time are reported, and the file fails.
  double timeoutSeconds = 0;
  /// Sets a file's own options from its project configuration
  /// (.warplint.yaml, Config.h) on a copy of these; returns an error, or "".
  std::function<std::string(const std::string &file, ToolOptions &own)>
      configure;
  // --explain FILE:LINE: draw one warp's request for the accesses on it.
  std::string explainFile;
  unsigned explainLine = 0;
  /// Where explanations go instead of stdout (the language server's hovers),
  /// each with the place it explains; with explainAll, every access, branch
  /// and loop is explained, not only those on explainLine.
  std::function<void(const SourcePos &at, const std::string &text)>
      explainSink;
  bool explainAll = false;
};

/// --explain: is the line at `p` one to draw?
bool explaining(const ToolOptions &opts, const SourcePos &p);
/// Hands over the drawing of the access, branch or loop at `p`: to
/// ToolOptions::explainSink (the language server's hovers), else stdout.
void explained(const ToolOptions &opts, const SourcePos &p,
               const std::string &text);

/// The file system a parse reads through: the disk, with a working
/// directory of its own, so that a parse that moves to its compile
/// command's directory moves no other parse (-j, the language server).
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> ownFileSystem();

/// Analyzes every file into `report`; clang-style diagnostics go to stdout in
/// text mode, errors always to stderr. Returns false if the compile database
/// could not be loaded (a usage error: nothing was analyzed).
bool analyzeFiles(const ToolOptions &opts, Report &report);

/// Prints, one line per file of opts.files, the Clang command the file is
/// parsed with, shell-quoted. False (the errors on stderr) if the compile
/// database could not be loaded or a file has no command (its
/// configuration or its compile command is in error: no line for it).
bool printParseCommands(const ToolOptions &opts, llvm::raw_ostream &os);

/// Turns on the recovery of crashes in parses and analyses (LLVM's
/// CrashRecoveryContext), with its handlers on the crashing thread's
/// alternate signal stack where it has one, so that a stack overflow is
/// recovered too. analyzeFiles() calls it; the language server too.
void enableCrashRecovery();

/// Runs `fn` with a signal stack of its own on this thread, where the crash
/// handlers run (a handler cannot run on a stack that is exhausted); the
/// thread's previous one is put back after.
void withSignalStack(llvm::function_ref<void()> fn);

/// The device-side parse command analyzeFiles gives `file` with the compile
/// database `db` (null: none): the absolute file, its directory and
/// arguments, or why it has none.
struct ParseCommand {
  std::string file, dir; // file: absolute, without dots
  std::vector<std::string> argv, errors; // argv ends with the file
  std::vector<std::string> notes; // e.g. a host compiler that was not asked
};
ParseCommand parseCommand(const std::string &file, const ToolOptions &opts,
                          const clang::tooling::CompilationDatabase *db);

/// The launch facts of another file of the project, for ProjectLaunches, as
/// analyzeFiles gathers them: `file` parsed device side with its command in
/// `db` (null: none), its errors not reported; nullopt when it yields no AST.
struct FileFacts;
std::optional<FileFacts>
launchFacts(const std::string &file, const ToolOptions &opts,
            const clang::tooling::CompilationDatabase *db);

/// The files among `files` whose text includes a file named like `header`,
/// as analyzeFiles finds the files to analyze a header's kernel templates in.
class ProjectLaunches;
std::vector<std::string> filesIncluding(const std::string &header,
                                        const std::vector<std::string> &files,
                                        ProjectLaunches &project);

} // namespace warplint

#endif
