//===- Driver.h - the command line, composed --------------------*- C++ -*-===//
//
// warplint's main is option parsing (Options.cpp) and the pipeline it runs:
// the analysis of the run's files and its output (Run.cpp, Output.cpp), or
// the merge of shards' reports (Merge.cpp), the language server, or a look
// at the configuration.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_DRIVER_DRIVER_H
#define WARPLINT_DRIVER_DRIVER_H

#include "frontend/analysis/Action.h"
#include "frontend/project/Config.h"
#include "report/Shards.h"

#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// What the command line asks for, checked.
struct Invocation {
  bool merge = false, listRules = false, lsp = false, dumpConfig = false,
       verifyConfig = false, printParseCommands = false;
  /// The run's options: its files, compile commands, toolkit, outputs and
  /// limits, with the command line's configuration applied. Each file's own
  /// options come from `configure` (set by main).
  ToolOptions opts;
  /// The files named on the command line.
  std::vector<std::string> files;
  /// What the command line sets that a configuration file may set too: it
  /// wins over every file's configuration.
  Config cli;
  /// --config or --config-file, used for every file instead of the
  /// .warplint.yaml files (null: those).
  std::shared_ptr<Config> fixedConfig;
  std::string format, failOn, root, writeBaseline, changedSince;
  bool failOnWarnings = false, changedSinceGiven = false;
  std::optional<ShardSpec> shard;
  /// --stdin-filename: the name of the source `-` reads from stdin.
  std::string stdinFilename;
};

/// Parses and checks the command line into `inv`; an exit code when the
/// run ends here (a usage error, --help, --version).
std::optional<int> parseInvocation(int argc, const char **argv,
                                   Invocation &inv);

/// Applies a configuration (the command line's already over it) to a
/// file's options; returns an error, or "".
std::string applyConfig(const Config &c, ToolOptions &o);

/// A file's options: `own` (a copy of the run's) with the file's
/// configuration applied; returns an error, or "".
std::string configureFile(const Invocation &inv, ConfigFinder &finder,
                          const std::string &file, ToolOptions &own);

/// --dump-config and --verify-config for the invocation's files.
int checkConfiguration(const Invocation &inv);

/// Analyzes the invocation's files and writes the output it asks for;
/// returns the exit code.
int runAnalysis(Invocation &inv, const char *argv0);

/// `warplint merge`: whether it was asked for, and the merge.
bool mergeRequested();
int mergeMain(const char *argv0);

// Output.cpp
/// The doc pages: installed next to the binary (<prefix>/share/doc/warplint)
/// or, in a build tree, the source's docs/.
std::string docDirectory(const char *argv0);
/// --docs-url: the base URL of the published documentation that SARIF and
/// rdjson link rule pages under (never a path on the machine that ran).
std::string docsUrl();
/// warplint's bundled headers: next to an installed binary
/// (<prefix>/share/warplint/include-stub, see `cmake --install`), else in the
/// source tree it was built from.
std::string stubDirectory(const char *argv0);
bool validFormat(const std::string &f);
/// --project-root, absolute (default: the current directory); false with a
/// message when it is no directory.
bool projectRoot(const std::string &given, std::string &root);
/// The summary line (stderr in text mode), with `extra` ("; ...") from the
/// run's own options.
void printSummary(const Report &report, const std::string &extra);
/// Writes `report` in a machine format on stdout; false for "text".
/// `shard`: a --shard run's `shard` object (shardObject()), which its SARIF
/// carries with the report for merge.
bool printMachineFormat(const std::string &format, const Report &report,
                        const std::string &root, const char *argv0,
                        std::optional<llvm::json::Object> shard = {});
/// 2 when a file could not be analyzed, 1 for findings at the --fail-on
/// level, else 0.
int exitCode(const Report &report, const std::string &failOn,
             bool failOnWarnings);

} // namespace warplint

#endif
