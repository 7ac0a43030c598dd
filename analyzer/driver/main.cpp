// warplint: predicts, per warp, how CUDA kernels touch memory.
// Usage: warplint [options] <file.cu>... [-- <compiler args>]
#include "frontend/Action.h"
#include "frontend/ChangedFiles.h"
#include "frontend/Config.h"
#include "lsp/Server.h"
#include "report/CiReports.h"
#include "report/Shards.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <tuple>

using namespace llvm;

static cl::OptionCategory Category("warplint options");
static cl::list<std::string> Files(cl::Positional, cl::desc("<file.cu>..."),
                                   cl::cat(Category));
static cl::opt<std::string> BuildPath(
    "p", cl::desc("Build directory with compile_commands.json"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::list<std::string> ExtraArgs(
    "extra-arg", cl::desc("Append an argument to each compile command"),
    cl::cat(Category));
static cl::list<std::string> ExtraArgsBefore(
    "extra-arg-before", cl::desc("Prepend an argument to each compile command"),
    cl::cat(Category));
static cl::opt<std::string>
    Format("format",
           cl::desc("Output: text, json, sarif (SARIF 2.1.0), github "
                    "(GitHub Actions annotations) or rdjson (reviewdog)"),
           cl::init("text"), cl::cat(Category));
static cl::opt<std::string> Baseline(
    "baseline",
    cl::desc("Report only findings not recorded in this file "
             "(written by --write-baseline)"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> WriteBaseline(
    "write-baseline",
    cl::desc("Record the findings of this run in a baseline file"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> ProjectRoot(
    "project-root",
    cl::desc("Directory that sarif and github output paths are relative to "
             "(default: the current directory)"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string> BlockDim(
    "block-dim",
    cl::desc("Threads per block X[,Y[,Z]] for kernels without a launch site "
             "or annotation"),
    cl::cat(Category));
static cl::list<std::string> Params(
    "param",
    cl::desc("Give an integer kernel parameter a value instead of sampling "
             "it: --param=width=4096 (repeatable; applies to every kernel "
             "with a parameter of that name)"),
    cl::value_desc("name=value"), cl::cat(Category));
static cl::opt<std::string> CudaPath(
    "cuda-path", cl::desc("CUDA toolkit root (default: /usr/local/cuda)"),
    cl::cat(Category));
static cl::opt<bool> NoToolkit(
    "no-cuda-toolkit",
    cl::desc("Parse with warplint's bundled CUDA header, not a toolkit"),
    cl::cat(Category));
static cl::opt<std::string> Arch(
    "cuda-gpu-arch",
    cl::desc("Device architecture to parse for (default: the newest in the "
             "compile command, else sm_90)"),
    cl::cat(Category));
static cl::opt<double> Threshold(
    "threshold",
    cl::desc("Warn when a warp moves at least this many times the ideal "
             "sectors (default 2)"),
    cl::init(2.0), cl::cat(Category));
static cl::opt<std::string> Rules(
    "rules",
    cl::desc("Rules to run, clang-tidy style: comma-separated globs, '-' to "
             "turn one off (default '*'; --list-rules shows them)"),
    cl::init("*"), cl::cat(Category));
static cl::opt<std::string> HeaderFilter(
    "header-filter",
    cl::desc("Show findings in headers only when the header's path matches "
             "this regular expression (default: all; '' hides them); the "
             "summary counts the others"),
    cl::value_desc("regex"), cl::cat(Category));
static cl::opt<std::string> ConfigText(
    "config",
    cl::desc("Configuration as YAML, used for every file instead of the "
             ".warplint.yaml files: --config='{Rules: \"-*,smem-*\"}'"),
    cl::value_desc("yaml"), cl::cat(Category));
static cl::opt<std::string> ConfigFile(
    "config-file",
    cl::desc("Configuration file used for every file instead of the "
             ".warplint.yaml files"),
    cl::value_desc("path"), cl::cat(Category));
static cl::opt<bool> DumpConfig(
    "dump-config",
    cl::desc("Print the configuration that applies to the first input file "
             "(or the current directory), options included, and exit"),
    cl::cat(Category));
static cl::opt<bool> VerifyConfig(
    "verify-config",
    cl::desc("Check the configuration files that apply to the input files "
             "(or the current directory) and exit"),
    cl::cat(Category));
static cl::opt<bool> ListRules("list-rules",
                               cl::desc("List the rules and exit"),
                               cl::cat(Category));
static cl::opt<bool> DataBranches(
    "warn-data-dependent-branches",
    cl::desc("Also warn on branches whose condition depends on data loaded "
             "per lane"),
    cl::cat(Category));
static cl::opt<std::string> DataMasks(
    "data-masks",
    cl::desc("Accesses under a condition on data loaded per lane: report "
             "their upper-bound figure as a 'remark' (default), a 'warning', "
             "or not at all ('off')"),
    cl::init("remark"), cl::cat(Category));
static cl::opt<std::string> DataAddresses(
    "data-addresses",
    cl::desc("Accesses whose address depends on data loaded per lane "
             "(x[col[i]]): report their figure with the data drawn at random "
             "as a 'warning' for global elements of 1 or 2 bytes, for "
             "addresses that take a field of data's bits (table[w & 0xff]) "
             "and for global atomics by key or a segment or record per lane "
             "('narrow', the default: such a warp fits one or two sectors "
             "only where the lanes' data is that close), as a 'remark' or a "
             "'warning' for every element, or not at all ('off'; on real code "
             "the estimate for wider elements is right about as often as "
             "not)"),
    cl::init("narrow"), cl::cat(Category));
static cl::opt<bool> Remarks(
    "remarks", cl::desc("Print the model's view of every access as remarks"),
    cl::cat(Category));
static cl::opt<bool> FailOnWarnings(
    "fail-on-warnings", cl::desc("Exit with 1 when there are findings"),
    cl::cat(Category));
static cl::opt<std::string> FailOn(
    "fail-on",
    cl::desc("Exit with 1 when there are findings at or above this level: "
             "warning, remark (also the upper bounds under data-dependent "
             "conditions) or none (default)"),
    cl::value_desc("level"), cl::init("none"), cl::cat(Category));
static cl::opt<bool> CompilerWarnings(
    "compiler-warnings", cl::desc("Also show the compiler's own warnings"),
    cl::cat(Category));
static cl::opt<double> Timeout(
    "timeout",
    cl::desc("Seconds of analysis per file after its parse (default 0: no "
             "limit); kernels left out are reported and the file fails"),
    cl::init(0), cl::cat(Category));

static cl::opt<unsigned> Jobs(
    "j",
    cl::desc("Files to analyze at once (default 0: one per core); the "
             "output is the same for any number"),
    cl::value_desc("N"), cl::init(0), cl::Prefix, cl::cat(Category));
static cl::alias JobsLong("jobs", cl::desc("Alias for -j"),
                          cl::aliasopt(Jobs));

static cl::opt<unsigned> MaxFileSize(
    "max-file-size", cl::desc("Largest file to analyze, in MiB (default 16)"),
    cl::init(16), cl::cat(Category));

static cl::opt<std::string> Shard(
    "shard",
    cl::desc("Analyze shard I of N (counted from 1) of the run's files, "
             "split by size; 'warplint merge' combines the shards' JSON "
             "reports into a single run's"),
    cl::value_desc("I/N"), cl::cat(Category));
static cl::opt<std::string> ChangedSinceRev(
    "changed-since",
    cl::desc("Analyze only the files that changed since this git revision, "
             "or whose included headers did (the others are counted as "
             "skipped)"),
    cl::value_desc("rev"), cl::cat(Category));

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
static cl::opt<bool> MergeFailOnWarnings(
    "fail-on-warnings", cl::desc("Exit with 1 when there are findings"),
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

static cl::opt<bool> Lsp(
    "lsp",
    cl::desc("Run as a language server on stdin/stdout (docs/editors.md); "
             "the other options apply to every document"),
    cl::cat(Category));

static cl::opt<std::string> Explain(
    "explain",
    cl::desc("Draw, for the accesses on FILE:LINE, which lane of one warp "
             "hits which bank or sector"),
    cl::value_desc("file:line"), cl::cat(Category));

static bool parseShape(const std::string &s, warplint::Shape &out) {
  int64_t v[3] = {1, 1, 1};
  size_t i = 0, start = 0;
  while (i < 3) {
    size_t comma = s.find(',', start);
    std::string part = s.substr(start, comma - start);
    // getAsInteger fails on anything but digits and on values that do not
    // fit, so no input reaches an exception.
    unsigned long long x = 0;
    if (part.empty() || llvm::StringRef(part).getAsInteger(10, x) || x == 0 ||
        x > 1024)
      return false;
    v[i++] = int64_t(x);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  out = {v[0], v[1], v[2]};
  return out.threads() <= 1024;
}

/// warplint's bundled headers: next to an installed binary
/// (<prefix>/share/warplint/include-stub, see `cmake --install`), else in the
/// source tree it was built from.
/// The doc pages: installed next to the binary (<prefix>/share/doc/warplint)
/// or, in a build tree, the source's docs/.
static std::string docDirectory(const char *argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&docDirectory));
  if (!exe.empty()) {
    llvm::SmallString<256> dir(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(dir, "..", "share", "doc", "warplint");
    llvm::sys::path::remove_dots(dir, true);
    if (llvm::sys::fs::is_directory(dir + "/rules"))
      return std::string(dir);
  }
  return WARPLINT_DOC_DIR;
}

/// remark, warning or off: how findings that rest on data are reported.
static std::optional<warplint::RuleOptions::DataMasks>
dataLevel(const std::string &s, bool narrow = false) {
  using L = warplint::RuleOptions::DataMasks;
  if (narrow && s == "narrow")
    return L::Narrow;
  if (s == "remark")
    return L::Remark;
  if (s == "warning")
    return L::Warning;
  if (s == "off")
    return L::Off;
  return std::nullopt;
}

/// What the command line sets, as a configuration over the files' own
/// (options win).
static warplint::Config commandLineConfig(
    const std::map<std::string, int64_t> &params,
    const std::optional<warplint::Shape> &blockDim) {
  warplint::Config c;
  if (Rules.getNumOccurrences())
    c.rules = Rules;
  c.blockDim = blockDim;
  if (Arch.getNumOccurrences())
    c.arch = Arch;
  c.params = params;
  if (Threshold.getNumOccurrences())
    c.thresholds["uncoalesced-global-access"] = Threshold;
  if (DataMasks.getNumOccurrences())
    c.dataMasks = DataMasks;
  if (DataAddresses.getNumOccurrences())
    c.dataAddresses = DataAddresses;
  if (DataBranches.getNumOccurrences())
    c.dataDependentBranches = DataBranches;
  if (HeaderFilter.getNumOccurrences())
    c.headerFilter = HeaderFilter;
  return c;
}

/// Applies a configuration (options already overlaid) to a file's options;
/// returns an error, or "".
static std::string applyConfig(const warplint::Config &c,
                               warplint::ToolOptions &o) {
  std::string where = c.sources.empty() ? "the options" : c.sources.front();
  if (c.rules) {
    bool any = false;
    for (const warplint::RuleInfo &r : warplint::allRules())
      any |= warplint::ruleEnabled(*c.rules, r.id);
    if (!any)
      return where + ": Rules '" + *c.rules +
             "' turns on no rule (see --list-rules)";
    o.rules.enabled = *c.rules;
  }
  if (c.blockDim)
    o.blockDim = c.blockDim;
  if (c.arch)
    o.cuda.arch = *c.arch;
  for (const auto &[k, v] : c.params)
    o.params[k] = v;
  for (const auto &[rule, t] : c.thresholds) {
    if (rule == "uncoalesced-global-access")
      o.rules.threshold = t;
    else if (rule == "smem-bank-conflict")
      o.rules.bankThreshold = t;
    else if (rule == "constant-nonuniform-access")
      o.rules.constantThreshold = t;
  }
  // (The configuration was validated when it was read.)
  if (c.dataMasks)
    o.rules.dataMasks = *dataLevel(*c.dataMasks);
  if (c.dataAddresses)
    o.rules.dataAddresses = *dataLevel(*c.dataAddresses, true);
  if (c.dataDependentBranches)
    o.rules.warnDataDependentBranches = *c.dataDependentBranches;
  if (c.headerFilter) {
    std::string error;
    if (!llvm::Regex(*c.headerFilter).isValid(error))
      return where + ": HeaderFilter '" + *c.headerFilter +
             "' is not a regular expression: " + error;
    o.headerFilter = c.headerFilter;
  }
  return "";
}

static std::string stubDirectory(const char *argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&stubDirectory));
  if (!exe.empty()) {
    llvm::SmallString<256> dir(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(dir, "..", "share", "warplint", "include-stub");
    llvm::sys::path::remove_dots(dir, true);
    if (llvm::sys::fs::is_directory(dir))
      return std::string(dir);
  }
  return WARPLINT_STUB_DIR;
}

/// The summary line (stderr in text mode), with `extra` ("; ...") from the
/// run's own options.
static void printSummary(const warplint::Report &report,
                         const std::string &extra) {
  size_t failedFiles = 0;
  for (const auto &f : report.files)
    failedFiles += !f.ok;
  size_t n = 0, remarks = 0;
  for (const auto &d : report.diagnostics)
    (d.severity == "remark" ? remarks : n) += 1;
  errs() << "warplint: " << n << " warning" << (n == 1 ? "" : "s");
  if (remarks)
    errs() << " and " << remarks << " remark" << (remarks == 1 ? "" : "s")
           << " on data-dependent accesses";
  errs() << " in " << report.files.size() << " file"
         << (report.files.size() == 1 ? "" : "s") << " ("
         << report.kernels.size() << " kernel configuration"
         << (report.kernels.size() == 1 ? "" : "s") << ", "
         << report.accesses.size() << " memory access"
         << (report.accesses.size() == 1 ? "" : "es") << ")";
  size_t unknown = 0, ranged = 0, intrinsics = 0;
  for (const auto &a : report.accesses) {
    unknown += !a.evaluated;
    ranged += a.evaluated && !a.exact;
    intrinsics += !a.evaluated && !a.intrinsic.empty() &&
                  a.unknownReason.rfind("unknown: ", 0) == 0;
  }
  size_t leftOut = 0;
  for (const auto &k : report.kernels)
    leftOut += k.accessesLeftOut;
  if (leftOut)
    errs() << "; " << leftOut << " accesses left out (per-kernel limit)";
  size_t deep = 0;
  for (const auto &k : report.kernels)
    deep += k.callsNotFollowed;
  if (deep)
    errs() << "; " << deep << (deep == 1 ? " call" : " calls")
           << " not followed (deeper than warplint follows, or defined in "
              "another file)";
  if (intrinsics)
    errs() << "; " << intrinsics << " intrinsic access"
           << (intrinsics == 1 ? "" : "es")
           << " whose lane layout warplint does not model";
  if (unknown || ranged)
    errs() << "; " << unknown << " not evaluated, " << ranged
           << " depending on unknown values (--remarks or --format=json "
              "says which)";
  if (failedFiles)
    errs() << "; " << failedFiles << " of " << report.files.size() << " file"
           << (report.files.size() == 1 ? "" : "s")
           << " could not be analyzed";
  if (report.suppressed)
    errs() << "; " << report.suppressed << " suppressed by NOLINT";
  if (report.headerHidden)
    errs() << "; " << report.headerHidden
           << " in headers --header-filter leaves out";
  if (report.baselined)
    errs() << "; " << report.baselined << " in the baseline not shown";
  errs() << extra << "\n";
}

/// Writes `report` in a machine format on stdout; false for "text". `shard`:
/// a --shard run's JSON report, which its SARIF carries for merge.
static bool printMachineFormat(const std::string &format,
                               const warplint::Report &report,
                               const std::string &root, const char *argv0,
                               std::optional<llvm::json::Value> shard = {}) {
  if (format == "json") {
    outs() << warplint::toJson(report) << "\n";
  } else if (format == "sarif") {
    std::vector<warplint::RuleDoc> rules;
    for (const warplint::RuleInfo &r : warplint::allRules())
      rules.push_back({r.id, r.summary});
    warplint::SarifOptions so;
    so.root = root;
    so.docDir = docDirectory(argv0);
    so.version = WARPLINT_VERSION;
    so.shardReport = std::move(shard);
    outs() << warplint::toSarif(report, rules, so) << "\n";
  } else if (format == "github") {
    outs() << warplint::toGithub(report, root);
  } else if (format == "rdjson") {
    outs() << warplint::toRdjson(report, root, docDirectory(argv0)) << "\n";
  } else {
    return false;
  }
  return true;
}

/// 2 when a file could not be analyzed, 1 for findings at the --fail-on
/// level, else 0.
static int exitCode(const warplint::Report &report, const std::string &failOn,
                    bool failOnWarnings) {
  for (const auto &f : report.files)
    if (!f.ok)
      return 2;
  bool anyWarning = false, anyRemark = false;
  for (const auto &d : report.diagnostics)
    (d.severity == "warning" ? anyWarning : anyRemark) = true;
  if (failOn == "remark")
    return anyWarning || anyRemark ? 1 : 0;
  return (failOnWarnings || failOn == "warning") && anyWarning ? 1 : 0;
}

static bool validFormat(const std::string &f) {
  return f == "text" || f == "json" || f == "sarif" || f == "github" ||
         f == "rdjson";
}

/// --project-root, absolute (default: the current directory); "" with a
/// message when it is no directory.
static bool projectRoot(const std::string &given, std::string &root) {
  root = given;
  if (root.empty()) {
    llvm::SmallString<256> cwd;
    if (!llvm::sys::fs::current_path(cwd))
      root = std::string(cwd);
    return true;
  }
  llvm::SmallString<256> abs(root);
  if (llvm::sys::fs::make_absolute(abs) || !llvm::sys::fs::is_directory(abs)) {
    errs() << "warplint: error: --project-root: no directory '" << root
           << "'\n";
    return false;
  }
  llvm::sys::path::remove_dots(abs, true);
  root = std::string(abs);
  return true;
}

/// `warplint merge`: the shards' reports as a single run's.
static int mergeMain(const char *argv0) {
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
  warplint::MergeOptions mo;
  for (const warplint::RuleInfo &r : warplint::allRules())
    if (r.launch)
      mo.launchRules.insert(r.id);
  if (!MergeBaseline.empty()) {
    std::string error;
    if (!warplint::readBaseline(MergeBaseline, known, error)) {
      errs() << "warplint: error: --baseline: " << error << "\n";
      return 2;
    }
    mo.baseline = &known;
  }
  warplint::Report report;
  std::string error;
  std::vector<std::string> warnings;
  std::vector<std::string> inputs(MergeInputs.begin(), MergeInputs.end());
  if (!warplint::mergeShardReports(inputs, mo, report, error, warnings)) {
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
      if (!shown.insert({d.pos.file, d.pos.line, message}).second)
        continue;
      outs() << d.pos.file << ":" << d.pos.line << ":" << d.pos.column << ": "
             << d.severity << ": " << message << "\n";
      for (const auto &n : d.notes)
        outs() << (n.pos.file.empty() ? std::string("warplint")
                                      : n.pos.file + ":" +
                                            std::to_string(n.pos.line) + ":" +
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

int main(int argc, const char **argv) {
  // LLVM's signal handlers: a crash outside a file's analysis (which
  // recovers on its own) still prints a stack trace, never dies silently.
  llvm::InitLLVM initLLVM(argc, argv);
  // Everything after "--" is the compile command for files without a database.
  std::vector<const char *> args;
  std::optional<std::vector<std::string>> fixed;
  for (int i = 0; i < argc; ++i) {
    if (std::string(argv[i]) == "--" && !fixed) {
      fixed.emplace();
      continue;
    }
    if (fixed)
      fixed->push_back(argv[i]);
    else
      args.push_back(argv[i]);
  }
  cl::HideUnrelatedOptions({&Category, &MergeCategory});
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "warplint " << WARPLINT_VERSION << " (built with Clang/LLVM "
       << LLVM_VERSION_STRING << ")\n";
  });
  if (!cl::ParseCommandLineOptions(int(args.size()), args.data(),
                                   "warplint: per-warp memory analysis of CUDA "
                                   "kernels\n",
                                   &errs()))
    return 2;
  if (MergeCommand)
    return mergeMain(argv[0]);
  std::string explainFile;
  unsigned explainLine = 0;
  if (!Explain.empty()) {
    size_t colon = Explain.rfind(':');
    std::string line = colon == std::string::npos ? "" : Explain.substr(colon + 1);
    // (getAsInteger refuses an empty line, anything but digits, and a
    // number too big for an unsigned.)
    if (colon == 0 || llvm::StringRef(line).getAsInteger(10, explainLine) ||
        explainLine == 0) {
      errs() << "warplint: error: --explain wants FILE:LINE with a line "
                "number from 1 to "
             << std::numeric_limits<unsigned>::max() << ", not '" << Explain
             << "'\n";
      return 2;
    }
    explainFile = Explain.substr(0, colon);
    if (Files.empty())
      Files.push_back(explainFile);
  }
  if (ListRules) {
    for (const warplint::RuleInfo &r : warplint::allRules())
      outs() << r.id << "\n    " << r.summary << "\n";
    return 0;
  }
  if (Files.empty() && BuildPath.empty() && !DumpConfig && !VerifyConfig &&
      !Lsp) {
    errs() << "warplint: error: no input files (usage: warplint [options] "
              "<file.cu>... [-- <compiler args>])\n";
    return 2;
  }
  if (FailOn != "none" && FailOn != "warning" && FailOn != "remark") {
    errs() << "warplint: error: --fail-on wants warning, remark or none, not '"
           << FailOn << "'\n";
    return 2;
  }
  if (!validFormat(Format)) {
    errs() << "warplint: error: --format must be text, json, sarif, github "
              "or rdjson, not '"
           << Format << "'\n";
    return 2;
  }
  std::optional<warplint::ShardSpec> shard;
  if (Shard.getNumOccurrences()) {
    warplint::ShardSpec spec;
    std::string error;
    if (!warplint::parseShardSpec(Shard, spec, error)) {
      errs() << "warplint: error: " << error << "\n";
      return 2;
    }
    shard = spec;
  }
  if (ChangedSinceRev.getNumOccurrences() && ChangedSinceRev.empty()) {
    errs() << "warplint: error: --changed-since wants a git revision\n";
    return 2;
  }
  std::string root;
  if (!projectRoot(ProjectRoot, root))
    return 2;
  warplint::ToolOptions opts;
  opts.files.assign(Files.begin(), Files.end());
  opts.buildPath = BuildPath;
  opts.fixedArgs = fixed;
  opts.extraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  opts.extraArgsBefore.assign(ExtraArgsBefore.begin(), ExtraArgsBefore.end());
  if (!BlockDim.empty()) {
    warplint::Shape s;
    if (!parseShape(BlockDim, s)) {
      errs() << "warplint: error: --block-dim wants X[,Y[,Z]] with at most "
                "1024 threads, not '"
             << BlockDim << "'\n";
      return 2;
    }
    opts.blockDim = s;
  }
  for (const std::string &p : Params) {
    size_t eq = p.find('=');
    std::string name = p.substr(0, eq), value =
        eq == std::string::npos ? "" : p.substr(eq + 1);
    long long v = 0;
    // Base 0: decimal, 0x hex or 0 octal; values past 64 bits are refused,
    // not saturated.
    if (name.empty() || value.empty() ||
        llvm::StringRef(value).getAsInteger(0, v)) {
      errs() << "warplint: error: --param wants NAME=INTEGER (64-bit), not '"
             << p << "'\n";
      return 2;
    }
    opts.params[name] = v;
  }
  if (!CudaPath.empty() && warplint::findCudaPath(CudaPath, false).empty())
    errs() << "warplint: note: no CUDA toolkit at '" << CudaPath
           << "'; using the bundled CUDA header\n";
  opts.cuda.cudaPath = warplint::findCudaPath(CudaPath, NoToolkit);
  opts.cuda.arch = Arch;
  opts.cuda.resourceDir = WARPLINT_RESOURCE_DIR;
  opts.cuda.stubDir = stubDirectory(argv[0]);
  if (!llvm::sys::fs::exists(opts.cuda.stubDir + "/warplint_cuda.h")) {
    errs() << "warplint: error: bundled CUDA headers not found in '"
           << opts.cuda.stubDir << "'; reinstall warplint\n";
    return 2;
  }
  if (!(Threshold > 1.0) || !std::isfinite(Threshold)) {
    errs() << "warplint: error: --threshold must be a number greater than 1\n";
    return 2;
  }
  opts.rules.threshold = Threshold;
  opts.rules.enabled = Rules;
  opts.rules.warnDataDependentBranches = DataBranches;
  for (auto [option, value, level, narrow] :
       {std::tuple{"--data-masks", &DataMasks, &opts.rules.dataMasks, false},
        std::tuple{"--data-addresses", &DataAddresses,
                   &opts.rules.dataAddresses, true}}) {
    auto parsed = dataLevel(*value, narrow);
    if (!parsed) {
      errs() << "warplint: error: " << option << " wants "
             << (narrow ? "narrow, " : "") << "remark, warning or off, not '"
             << *value << "'\n";
      return 2;
    }
    *level = *parsed;
  }
  bool anyRule = false;
  for (const warplint::RuleInfo &r : warplint::allRules())
    anyRule |= warplint::ruleEnabled(Rules, r.id);
  if (!anyRule) {
    errs() << "warplint: error: --rules='" << Rules
           << "' turns on no rule (see --list-rules)";
    // A misspelt rule name: the closest one.
    llvm::SmallVector<llvm::StringRef, 4> globs;
    llvm::StringRef(Rules).split(globs, ',');
    std::string best;
    unsigned bestDistance = 4;
    for (llvm::StringRef g : globs)
      for (const warplint::RuleInfo &r : warplint::allRules()) {
        unsigned d = g.trim().edit_distance(r.id);
        if (d < bestDistance) {
          bestDistance = d;
          best = r.id;
        }
      }
    if (!best.empty())
      errs() << "; did you mean '" << best << "'?";
    errs() << "\n";
    return 2;
  }
  opts.projectRoot = root;
  if (!Baseline.empty() && !WriteBaseline.empty()) {
    errs() << "warplint: error: --baseline and --write-baseline do not go "
              "together (write a new baseline from a run without one)\n";
    return 2;
  }
  if (!Baseline.empty()) {
    std::string error;
    auto known = std::make_shared<std::set<std::string>>();
    if (!warplint::readBaseline(Baseline, *known, error)) {
      errs() << "warplint: error: --baseline: " << error << "\n";
      return 2;
    }
    opts.baseline = std::move(known);
    opts.baselineUsed = true;
  }
  opts.textDiagnostics = Format == "text";
  opts.remarks = Remarks;
  opts.compilerWarnings = CompilerWarnings;
  opts.maxFileBytes = uint64_t(MaxFileSize) << 20;
  if (!(Timeout >= 0) || !std::isfinite(Timeout)) {
    errs() << "warplint: error: --timeout wants a number of seconds >= 0\n";
    return 2;
  }
  opts.timeoutSeconds = Timeout;
  opts.jobs = Jobs;
  opts.explainFile = explainFile;
  opts.explainLine = explainLine;

  // The project's configuration: --config or --config-file for every file,
  // else each file's closest .warplint.yaml; options override both.
  std::shared_ptr<warplint::Config> fixedConfig;
  if (ConfigText.getNumOccurrences() && ConfigFile.getNumOccurrences()) {
    errs() << "warplint: error: --config and --config-file do not go "
              "together\n";
    return 2;
  }
  if (ConfigText.getNumOccurrences() || ConfigFile.getNumOccurrences()) {
    std::string text = ConfigText, name = "--config", error;
    if (ConfigFile.getNumOccurrences()) {
      name = ConfigFile;
      auto buf = llvm::MemoryBuffer::getFile(ConfigFile);
      if (!buf) {
        errs() << "warplint: error: --config-file: cannot read '" << ConfigFile
               << "': " << buf.getError().message() << "\n";
        return 2;
      }
      text = (*buf)->getBuffer().str();
    }
    fixedConfig = std::make_shared<warplint::Config>();
    if (!warplint::parseConfig(text, name, *fixedConfig, error)) {
      errs() << "warplint: error: " << error << "\n";
      return 2;
    }
  }
  warplint::Config cli = commandLineConfig(opts.params, opts.blockDim);
  auto finder = std::make_shared<warplint::ConfigFinder>();
  auto configFor = [finder, fixedConfig, cli](const std::string &file,
                                              warplint::Config &c,
                                              std::string &error) {
    if (fixedConfig)
      c = *fixedConfig;
    else if (!finder->forFile(file, c, error))
      return false;
    c.overlay(cli);
    return true;
  };
  if (DumpConfig || VerifyConfig) {
    std::vector<std::string> targets(Files.begin(), Files.end());
    if (targets.empty())
      targets.push_back("./.");
    bool ok = true;
    for (const std::string &t : targets) {
      warplint::Config c;
      std::string error;
      if (!configFor(t, c, error)) {
        errs() << "warplint: error: " << error << "\n";
        ok = false;
        continue;
      }
      if (std::string e = applyConfig(c, opts); !e.empty()) {
        errs() << "warplint: error: " << e << "\n";
        ok = false;
        continue;
      }
      std::string from = c.sources.empty() ? "no configuration file" : "";
      for (size_t i = 0; i < c.sources.size(); ++i)
        from += (i ? ", " : "") + c.sources[i];
      if (DumpConfig) {
        outs() << "# warplint configuration for " << t << " (from " << from
               << (cli.rules || cli.blockDim || cli.arch || !cli.params.empty() ||
                           !cli.thresholds.empty() || cli.dataMasks ||
                           cli.dataAddresses ||
                           cli.dataDependentBranches || cli.headerFilter
                       ? ", with the command line's options"
                       : "")
               << ")\n"
               << warplint::dumpConfig(c);
        break;
      }
      outs() << "warplint: " << t << ": configuration ok (" << from << ")\n";
    }
    return ok ? 0 : 2;
  }
  opts.configure = [configFor](const std::string &file,
                               warplint::ToolOptions &o) -> std::string {
    warplint::Config c;
    std::string error;
    if (!configFor(file, c, error))
      return error;
    return applyConfig(c, o);
  };
  if (Lsp)
    return warplint::runLanguageServer(opts, docDirectory(argv[0]));

  // The run's files: those given, or with -p alone every file of the
  // compile database. --changed-since keeps those a change touches,
  // --shard one part of them; launches in all of them still bind kernels.
  std::vector<std::string> runFiles(Files.begin(), Files.end());
  if (runFiles.empty() && !BuildPath.empty()) {
    std::string error;
    if (!warplint::databaseFiles(BuildPath, runFiles, error)) {
      errs() << "warplint: error: " << error << "\n";
      return 2;
    }
  }
  std::string extraSummary;
  if (ChangedSinceRev.getNumOccurrences()) {
    warplint::ChangedSince cs;
    std::string error;
    if (!warplint::changedSince(ChangedSinceRev, opts, runFiles, cs, error)) {
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
                    ChangedSinceRev + ", skipped";
    errs() << "warplint: --changed-since=" << ChangedSinceRev << ": "
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
  if (shard) {
    std::vector<uint64_t> bytes;
    for (const std::string &f : runFiles) {
      uint64_t size = 0;
      llvm::sys::fs::file_size(f, size);
      bytes.push_back(size);
    }
    std::vector<unsigned> of =
        warplint::assignShards(runFiles, bytes, shard->count);
    opts.files.clear();
    for (size_t i = 0; i < runFiles.size(); ++i)
      if (of[i] == shard->index - 1) {
        opts.files.push_back(runFiles[i]);
        positions.push_back(i);
      }
    extraSummary += "; shard " + std::to_string(shard->index) + "/" +
                    std::to_string(shard->count) + ": " +
                    std::to_string(opts.files.size()) + " of " +
                    std::to_string(runFiles.size()) + " file" +
                    (runFiles.size() == 1 ? "" : "s");
    if (opts.projectFiles.empty())
      opts.projectFiles = runFiles;
    if (Format != "text")
      errs() << "warplint: --shard=" << shard->index << "/" << shard->count
             << ": " << opts.files.size() << " of " << runFiles.size()
             << " file" << (runFiles.size() == 1 ? "" : "s") << "\n";
  } else {
    opts.files = runFiles;
  }

  warplint::Report report;
  if (!warplint::analyzeFiles(opts, report))
    return 2;
  report.baselineUsed = opts.baselineUsed;
  if (!WriteBaseline.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(WriteBaseline, ec);
    if (ec) {
      errs() << "warplint: error: --write-baseline: cannot write '"
             << WriteBaseline << "': " << ec.message() << "\n";
      return 2;
    }
    os << warplint::toBaseline(report, root) << "\n";
    errs() << "warplint: wrote " << report.diagnostics.size() << " finding"
           << (report.diagnostics.size() == 1 ? "" : "s") << " to "
           << WriteBaseline << "\n";
  }
  if (shard && Format == "json")
    outs() << warplint::toShardJson(report, *shard, runFiles, positions)
           << "\n";
  else if (!printMachineFormat(
               Format, report, root, argv[0],
               shard && Format == "sarif"
                   ? std::optional<llvm::json::Value>(warplint::shardObject(
                         report, *shard, runFiles, positions))
                   : std::nullopt))
    printSummary(report, extraSummary);
  if (report.crashed) {
    // What the crashed file's parse left behind (timers, caches) may fail to
    // tear down: the results are out, leave without running destructors.
    outs().flush();
    errs().flush();
    std::_Exit(2);
  }
  return exitCode(report, FailOn, FailOnWarnings);
}
