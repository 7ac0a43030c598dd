// A run over files: which files (the given ones, the compile database's,
// those a change touches, a shard of them), their analysis, and its output.
#include "driver/Driver.h"

#include "frontend/project/ChangedFiles.h"
#include "frontend/project/CommandLine.h"
#include "frontend/project/Inputs.h"
#include "report/CiReports.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

namespace warplint {

int runAnalysis(Invocation &inv, const char *argv0) {
  ToolOptions &opts = inv.opts;
  // The run's files: those given, or with -p alone every file of the
  // compile database. --changed-since keeps those a change touches,
  // --shard one part of them; launches in all of them still bind kernels.
  std::vector<std::string> runFiles(inv.files.begin(), inv.files.end());
  // Inputs that are not regular files (`-`, a FIFO, a device) are read
  // once, here, and every parse reads the text kept.
  if (std::string error = readSpecialInputs(runFiles, inv.stdinFilename,
                                            opts.maxFileBytes);
      !error.empty()) {
    errs() << "warplint: error: " << error << "\n";
    return 2;
  }
  // The reports (fingerprints, snippets) read those texts too.
  setSourceTextLookup([](const std::string &abs) -> const std::string * {
    const InputText *t = inputText(abs);
    return t && t->error.empty() ? &t->text : nullptr;
  });
  if (runFiles.empty() && !opts.buildPath.empty()) {
    std::string error;
    if (!databaseFiles(opts.buildPath, runFiles, error)) {
      errs() << "warplint: error: " << error << "\n";
      return 2;
    }
    opts.filesFromDatabase = true;
  }
  std::string extraSummary;
  if (inv.changedSinceGiven) {
    ChangedSince cs;
    std::string error;
    if (!changedSince(inv.changedSince, opts, runFiles, cs, error)) {
      errs() << "warplint: error: " << error << "\n";
      return 2;
    }
    std::vector<std::string> kept;
    for (size_t i = 0; i < runFiles.size(); ++i)
      if (cs.changed[i])
        kept.push_back(runFiles[i]);
    size_t skipped = runFiles.size() - kept.size();
    extraSummary += "; " + std::to_string(skipped) + " of " +
                    std::to_string(runFiles.size()) + " file" +
                    (runFiles.size() == 1 ? "" : "s") + " unchanged since " +
                    inv.changedSince + ", skipped";
    errs() << "warplint: --changed-since=" << inv.changedSince << ": "
           << kept.size() << " of " << runFiles.size() << " file"
           << (runFiles.size() == 1 ? "" : "s")
           << " changed (or include a changed header), " << skipped
           << " skipped as unchanged; headers listed for " << cs.scanned
           << " file" << (cs.scanned == 1 ? "" : "s") << " in "
           << llvm::format("%.2f", cs.scanSeconds) << " s\n";
    opts.projectFiles = runFiles;
    runFiles = std::move(kept);
  }
  std::vector<size_t> positions;
  if (inv.shard) {
    std::vector<uint64_t> bytes;
    for (const std::string &f : runFiles) {
      uint64_t size = 0;
      llvm::sys::fs::file_size(f, size);
      bytes.push_back(size);
    }
    std::vector<unsigned> of = assignShards(runFiles, bytes, inv.shard->count);
    opts.files.clear();
    for (size_t i = 0; i < runFiles.size(); ++i)
      if (of[i] == inv.shard->index - 1) {
        opts.files.push_back(runFiles[i]);
        positions.push_back(i);
      }
    extraSummary += "; shard " + std::to_string(inv.shard->index) + "/" +
                    std::to_string(inv.shard->count) + ": " +
                    std::to_string(opts.files.size()) + " of " +
                    std::to_string(runFiles.size()) + " file" +
                    (runFiles.size() == 1 ? "" : "s");
    if (opts.projectFiles.empty())
      opts.projectFiles = runFiles;
    if (inv.format != "text")
      errs() << "warplint: --shard=" << inv.shard->index << "/"
             << inv.shard->count << ": " << opts.files.size() << " of "
             << runFiles.size() << " file" << (runFiles.size() == 1 ? "" : "s")
             << "\n";
  } else {
    opts.files = runFiles;
  }

  if (inv.printParseCommands)
    return printParseCommands(opts, outs()) ? 0 : 2;
  Report report;
  if (!analyzeFiles(opts, report))
    return 2;
  report.baselineUsed = opts.baselineUsed;
  if (!inv.writeBaseline.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(inv.writeBaseline, ec);
    if (ec) {
      errs() << "warplint: error: --write-baseline: cannot write '"
             << inv.writeBaseline << "': " << ec.message() << "\n";
      return 2;
    }
    os << toBaseline(report, inv.root) << "\n";
    errs() << "warplint: wrote " << report.diagnostics.size() << " finding"
           << (report.diagnostics.size() == 1 ? "" : "s") << " to "
           << inv.writeBaseline << "\n";
  }
  if (inv.shard && inv.format == "json")
    outs() << toShardJson(report, *inv.shard, runFiles, positions) << "\n";
  else if (!printMachineFormat(
               inv.format, report, inv.root, argv0,
               inv.shard && inv.format == "sarif"
                   ? std::optional<llvm::json::Object>(
                         shardObject(report, *inv.shard, runFiles, positions))
                   : std::nullopt))
    printSummary(report, extraSummary);
  if (report.crashed) {
    // What the crashed file's parse left behind (timers, caches) may fail to
    // tear down: the results are out, leave without running destructors.
    outs().flush();
    errs().flush();
    std::_Exit(2);
  }
  return exitCode(report, inv.failOn, inv.failOnWarnings);
}

} // namespace warplint
