// `warplint merge`: the JSON (or SARIF) reports of --shard=I/N runs into the
// report a single run over all their files gives (report/Shards.h).
#include "driver/Driver.h"

#include "report/CiReports.h"
#include "rules/RuleSet.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <tuple>

using namespace llvm;

namespace warplint {

// `warplint merge`: the shards' JSON reports into one.
static cl::SubCommand MergeCommand(
    "merge", "Combine the JSON reports of --shard=I/N runs into the report a "
             "single run over all their files gives");
static cl::OptionCategory MergeCategory("warplint merge options");
static cl::list<std::string> MergeInputs(cl::Positional,
                                         cl::desc("<shard.json>..."),
                                         cl::sub(MergeCommand),
                                         cl::cat(MergeCategory));
static cl::opt<std::string> MergeFormat(
    "format",
    cl::desc("Output: text, json, sarif, github or rdjson (as the main "
             "command's)"),
    cl::init("text"), cl::sub(MergeCommand), cl::cat(MergeCategory));
static cl::opt<std::string> MergeFailOn(
    "fail-on",
    cl::desc("Exit with 1 when there are findings at or above this level: "
             "warning, remark or none (default)"),
    cl::value_desc("level"), cl::init("none"), cl::sub(MergeCommand),
    cl::cat(MergeCategory));
static cl::opt<bool>
    MergeFailOnWarnings("fail-on-warnings",
                        cl::desc("Exit with 1 when there are findings"),
                        cl::sub(MergeCommand), cl::cat(MergeCategory));
static cl::opt<std::string> MergeBaseline(
    "baseline",
    cl::desc("Report only findings not recorded in this file (written by "
             "--write-baseline)"),
    cl::value_desc("file"), cl::sub(MergeCommand), cl::cat(MergeCategory));
static cl::opt<std::string> MergeProjectRoot(
    "project-root",
    cl::desc("Directory that sarif and github output paths are relative to "
             "(default: the current directory)"),
    cl::value_desc("dir"), cl::sub(MergeCommand), cl::cat(MergeCategory));

bool mergeRequested() { return bool(MergeCommand); }

cl::OptionCategory &mergeOptionCategory() { return MergeCategory; }

int mergeMain(const char *argv0) {
  if (MergeFailOn != "none" && MergeFailOn != "warning" &&
      MergeFailOn != "remark") {
    errs() << "warplint: error: --fail-on wants warning, remark or none, not '"
           << MergeFailOn << "'\n";
    return 2;
  }
  if (!validFormat(MergeFormat)) {
    errs() << "warplint: error: --format must be text, json, sarif, github "
              "or rdjson, not '"
           << MergeFormat << "'\n";
    return 2;
  }
  std::string root;
  if (!projectRoot(MergeProjectRoot, root))
    return 2;
  std::set<std::string> known;
  MergeOptions mo;
  for (const RuleDef *r : allRules())
    if (r->check<LaunchFacts>())
      mo.launchRules.insert(r->id());
  if (!MergeBaseline.empty()) {
    std::string error;
    if (!readBaseline(MergeBaseline, known, error)) {
      errs() << "warplint: error: --baseline: " << error << "\n";
      return 2;
    }
    mo.baseline = &known;
  }
  Report report;
  std::string error;
  std::vector<std::string> warnings;
  std::vector<std::string> inputs(MergeInputs.begin(), MergeInputs.end());
  if (!mergeShardReports(inputs, mo, report, error, warnings)) {
    errs() << "warplint merge: error: " << error << "\n";
    return 2;
  }
  for (const std::string &w : warnings)
    errs() << "warplint merge: warning: " << w << "\n";
  if (!printMachineFormat(MergeFormat, report, root, argv0)) {
    // Text: the findings clang-style, each line and message once, without
    // the source excerpts a run prints (merge reads no source).
    std::set<std::tuple<std::string, unsigned, std::string>> shown;
    for (const auto &d : report.diagnostics) {
      std::string message = d.message + " [" + d.rule + "]";
      if (d.repeat || !shown.insert({d.pos.file, d.pos.line, message}).second)
        continue;
      outs() << d.pos.file << ":" << d.pos.line << ":" << d.pos.column << ": "
             << d.severity << ": " << message << "\n";
      for (const auto &n : d.notes)
        outs() << (n.pos.file.empty()
                       ? std::string("warplint")
                       : n.pos.file + ":" + std::to_string(n.pos.line) + ":" +
                             std::to_string(n.pos.column))
               << ": note: " << n.message << "\n";
    }
    for (const auto &f : report.files)
      if (!f.ok)
        errs() << f.path << ": error: " << f.error << "\n";
    printSummary(report, "; merged from " + std::to_string(inputs.size()) +
                             " shard" + (inputs.size() == 1 ? "" : "s"));
  }
  return exitCode(report, MergeFailOn, MergeFailOnWarnings);
}

} // namespace warplint
