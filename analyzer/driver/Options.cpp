// The command line: warplint's options, checked, as an Invocation; the
// settings a configuration file may hold become a Config (the command
// line's), applied to each file's options with the file's own configuration
// under it.
#include "driver/Driver.h"

#include "report/CiReports.h"
#include "rules/RuleSet.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>
#include <tuple>

using namespace llvm;

namespace warplint {

static cl::OptionCategory Category("warplint options");
static cl::list<std::string> Files(cl::Positional, cl::desc("<file.cu>..."),
                                   cl::cat(Category));
static cl::opt<std::string>
    BuildPath("p", cl::desc("Build directory with compile_commands.json"),
              cl::value_desc("dir"), cl::cat(Category));
static cl::list<std::string>
    ExtraArgs("extra-arg",
              cl::desc("Append an argument to each compile command"),
              cl::cat(Category));
static cl::list<std::string>
    ExtraArgsBefore("extra-arg-before",
                    cl::desc("Prepend an argument to each compile command"),
                    cl::cat(Category));
static cl::opt<std::string>
    Format("format",
           cl::desc("Output: text, json, sarif (SARIF 2.1.0), github "
                    "(GitHub Actions annotations) or rdjson (reviewdog)"),
           cl::init("text"), cl::cat(Category));
static cl::opt<std::string>
    Baseline("baseline",
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
#ifndef WARPLINT_DOCS_URL
#define WARPLINT_DOCS_URL "https://github.com/warplint/warplint/blob/main/docs"
#endif
static cl::opt<std::string> DocsUrl(
    "docs-url",
    cl::desc("Base URL of warplint's documentation: SARIF's helpUri and "
             "rdjson's rule links are its rules/<id>.md pages (default: "
             WARPLINT_DOCS_URL ")"),
    cl::init(WARPLINT_DOCS_URL), cl::value_desc("url"), cl::cat(Category));
std::string docsUrl() { return DocsUrl; }

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
static cl::opt<std::string>
    CudaPath("cuda-path",
             cl::desc("CUDA toolkit root (default: /usr/local/cuda)"),
             cl::cat(Category));
static cl::list<std::string> QueryDriver(
    "query-driver",
    cl::desc("Host compilers warplint may ask for their include directories "
             "(globs, comma-separated, as clangd's --query-driver); a "
             "compiler named without a directory (g++) is always asked"),
    cl::value_desc("glob"), cl::CommaSeparated, cl::cat(Category));
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
static cl::opt<std::string>
    ConfigFile("config-file",
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
static cl::opt<bool> PrintParseCommands(
    "print-parse-commands",
    cl::desc("Print the Clang command each input file is parsed with (its "
             "compile command translated, warplint's flags added), one line "
             "per file, and exit"),
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
             "their upper-bound figure as a 'warning' where it stays over the "
             "threshold with only 4 random lanes of a warp taking the branch, "
             "else as a remark ('auto', the default), always as a 'remark' or "
             "a 'warning', or not at all ('off')"),
    cl::init("auto"), cl::cat(Category));
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
static cl::opt<bool>
    Remarks("remarks",
            cl::desc("Print the model's view of every access as remarks"),
            cl::cat(Category));
static cl::opt<bool>
    FailOnWarnings("fail-on-warnings",
                   cl::desc("Exit with 1 when there are findings"),
                   cl::cat(Category));
static cl::opt<std::string> FailOn(
    "fail-on",
    cl::desc("Exit with 1 when there are findings at or above this level: "
             "warning, remark (also the upper bounds under data-dependent "
             "conditions) or none (default)"),
    cl::value_desc("level"), cl::init("none"), cl::cat(Category));
static cl::opt<bool> AbsolutePaths(
    "absolute-paths",
    cl::desc("Name files by their absolute paths in text output (default: as "
             "given on the command line, as compilers do)"),
    cl::cat(Category));
static cl::opt<bool>
    CompilerWarnings("compiler-warnings",
                     cl::desc("Also show the compiler's own warnings"),
                     cl::cat(Category));
static cl::opt<double> Timeout(
    "timeout",
    cl::desc("Seconds of analysis per file after its parse (default 0: no "
             "limit); kernels left out are reported and the file fails"),
    cl::init(0), cl::cat(Category));

static cl::opt<unsigned>
    Jobs("j",
         cl::desc("Files to analyze at once (default 0: one per core); the "
                  "output is the same for any number"),
         cl::value_desc("N"), cl::init(0), cl::Prefix, cl::cat(Category));
static cl::alias JobsLong("jobs", cl::desc("Alias for -j"), cl::aliasopt(Jobs));

static cl::opt<std::string> StdinFilename(
    "stdin-filename",
    cl::desc("The file the source read from stdin ('-') is: its name in the "
             "diagnostics, its compile command (the file on disk is not "
             "read)"),
    cl::value_desc("path"), cl::cat(Category));

static cl::opt<unsigned>
    MaxFileSize("max-file-size",
                cl::desc("Largest file to analyze, in MiB (default 16)"),
                cl::init(16), cl::cat(Category));

static cl::opt<std::string>
    Shard("shard",
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

static cl::opt<bool>
    Lsp("lsp",
        cl::desc("Run as a language server on stdin/stdout (docs/editors.md); "
                 "the other options apply to every document"),
        cl::cat(Category));

static cl::opt<std::string> Explain(
    "explain",
    cl::desc("Draw, for the accesses on FILE:LINE, which lane of one warp "
             "hits which bank or sector"),
    cl::value_desc("file:line"), cl::cat(Category));

static bool parseShape(const std::string &s, Shape &out) {
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

/// remark, warning or off, or the option's own default level (`special`:
/// "auto" for masks, "narrow" for addresses): how findings that rest on
/// data are reported.
static std::optional<DataLevel> dataLevel(const std::string &s,
                                          llvm::StringRef special) {
  using L = DataLevel;
  if (s == special)
    return special == "narrow" ? L::Narrow : L::Auto;
  if (s == "remark")
    return L::Remark;
  if (s == "warning")
    return L::Warning;
  if (s == "off")
    return L::Off;
  return std::nullopt;
}

/// What the command line sets that a configuration may set too, into `c`
/// (its block shape and parameter values are already there).
static void commandLineConfig(Config &c) {
  if (Rules.getNumOccurrences())
    c.rules = Rules;
  if (Arch.getNumOccurrences())
    c.arch = Arch;
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
}

std::string applyConfig(const Config &c, ToolOptions &o) {
  std::string where = c.sources.empty() ? "the options" : c.sources.front();
  std::string errors; // every one, a line each
  auto bad = [&](const std::string &e) {
    errors += (errors.empty() ? "" : "\n") + e;
  };
  std::string enabled = o.rules.enabledGlobs();
  RuleOptionValues values = o.rules.values();
  SharedOptions shared = o.rules.shared();
  if (c.rules) {
    bool any = false;
    for (const RuleDef *r : allRules())
      any |= ruleEnabled(*c.rules, r->id());
    if (!any)
      bad(where + ": Rules '" + *c.rules +
          "' turns on no rule (see --list-rules)");
    else
      enabled = *c.rules;
  }
  if (c.blockDim)
    o.blockDim = c.blockDim;
  if (c.arch)
    o.cuda.arch = *c.arch;
  for (const auto &[k, v] : c.params)
    o.params[k] = v;
  for (const auto &[rule, t] : c.thresholds)
    values[rule]["Threshold"] = t;
  for (const auto &[key, v] : c.checkOptions) {
    auto [rule, name] = llvm::StringRef(key).rsplit('.');
    values[rule.str()][name.str()] = v;
  }
  // (The configuration was validated when it was read.)
  if (c.dataMasks)
    shared.dataMasks = *dataLevel(*c.dataMasks, "auto");
  if (c.dataAddresses)
    shared.dataAddresses = *dataLevel(*c.dataAddresses, "narrow");
  if (c.dataDependentBranches)
    shared.warnDataDependentBranches = *c.dataDependentBranches;
  o.rules = RuleSet(enabled, values, shared);
  if (c.headerFilter) {
    std::string error;
    if (!llvm::Regex(*c.headerFilter).isValid(error))
      bad(where + ": HeaderFilter '" + *c.headerFilter +
          "' is not a regular expression: " + error);
    else
      o.headerFilter = c.headerFilter;
  }
  return errors;
}

/// The configuration that applies to `file`: --config's, or the closest
/// .warplint.yaml's, with the command line's over it.
static bool configFor(const Invocation &inv, ConfigFinder &finder,
                      const std::string &file, Config &c, std::string &error) {
  if (inv.fixedConfig)
    c = *inv.fixedConfig;
  else if (!finder.forFile(file, c, error))
    return false;
  c.overlay(inv.cli);
  return true;
}

std::string configureFile(const Invocation &inv, ConfigFinder &finder,
                          const std::string &file, ToolOptions &own) {
  Config c;
  std::string error;
  if (!configFor(inv, finder, file, c, error))
    return error;
  return applyConfig(c, own);
}

int checkConfiguration(const Invocation &inv) {
  ToolOptions opts = inv.opts;
  ConfigFinder finder;
  std::vector<std::string> targets(inv.files.begin(), inv.files.end());
  if (targets.empty())
    targets.push_back("./.");
  bool ok = true;
  for (const std::string &t : targets) {
    Config c;
    std::string error;
    // Every error, one a line.
    auto report = [](const std::string &errors) {
      llvm::SmallVector<llvm::StringRef, 4> lines;
      llvm::StringRef(errors).split(lines, '\n', -1, false);
      for (llvm::StringRef l : lines)
        errs() << "warplint: error: " << l << "\n";
    };
    if (!configFor(inv, finder, t, c, error)) {
      report(error);
      ok = false;
      continue;
    }
    if (std::string e = applyConfig(c, opts); !e.empty()) {
      report(e);
      ok = false;
      continue;
    }
    std::string from = c.sources.empty() ? "no configuration file" : "";
    for (size_t i = 0; i < c.sources.size(); ++i)
      from += (i ? ", " : "") + c.sources[i];
    if (inv.dumpConfig) {
      outs() << "# warplint configuration for " << t << " (from " << from
             << (inv.cli.setsAnything() ? ", with the command line's options"
                                        : "")
             << ")\n"
             << dumpConfig(c);
      break;
    }
    outs() << "warplint: " << t << ": configuration ok (" << from << ")\n";
  }
  return ok ? 0 : 2;
}

cl::OptionCategory &mergeOptionCategory();

std::optional<int> parseInvocation(int argc, const char **argv,
                                   Invocation &inv) {
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
  cl::HideUnrelatedOptions({&Category, &mergeOptionCategory()});
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "warplint " << WARPLINT_VERSION << " (built with Clang/LLVM "
       << LLVM_VERSION_STRING << ")\n";
  });
  if (!cl::ParseCommandLineOptions(int(args.size()), args.data(),
                                   "warplint: per-warp memory analysis of CUDA "
                                   "kernels\n",
                                   &errs()))
    return 2;
  if (mergeRequested()) {
    inv.merge = true;
    return std::nullopt;
  }
  std::string explainFile;
  unsigned explainLine = 0;
  if (!Explain.empty()) {
    size_t colon = Explain.rfind(':');
    std::string line =
        colon == std::string::npos ? "" : Explain.substr(colon + 1);
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
    for (const RuleDef *r : allRules())
      outs() << r->id() << "\n    " << r->summary() << "\n";
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
  if (Shard.getNumOccurrences()) {
    ShardSpec spec;
    std::string error;
    if (!parseShardSpec(Shard, spec, error)) {
      errs() << "warplint: error: " << error << "\n";
      return 2;
    }
    inv.shard = spec;
  }
  if (ChangedSinceRev.getNumOccurrences() && ChangedSinceRev.empty()) {
    errs() << "warplint: error: --changed-since wants a git revision\n";
    return 2;
  }
  if (!projectRoot(ProjectRoot, inv.root))
    return 2;
  ToolOptions &opts = inv.opts;
  inv.files.assign(Files.begin(), Files.end());
  inv.stdinFilename = StdinFilename;
  inv.format = Format;
  inv.failOn = FailOn;
  inv.failOnWarnings = FailOnWarnings;
  inv.writeBaseline = WriteBaseline;
  inv.changedSinceGiven = ChangedSinceRev.getNumOccurrences() != 0;
  inv.changedSince = ChangedSinceRev;
  inv.lsp = Lsp;
  inv.dumpConfig = DumpConfig;
  inv.verifyConfig = VerifyConfig;
  inv.printParseCommands = PrintParseCommands;
  opts.files.assign(Files.begin(), Files.end());
  opts.buildPath = BuildPath;
  opts.fixedArgs = fixed;
  opts.extraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  opts.extraArgsBefore.assign(ExtraArgsBefore.begin(), ExtraArgsBefore.end());
  opts.queryDriver.assign(QueryDriver.begin(), QueryDriver.end());
  if (!BlockDim.empty()) {
    Shape s;
    if (!parseShape(BlockDim, s)) {
      errs() << "warplint: error: --block-dim wants X[,Y[,Z]] with at most "
                "1024 threads, not '"
             << BlockDim << "'\n";
      return 2;
    }
    inv.cli.blockDim = s;
  }
  for (const std::string &p : Params) {
    size_t eq = p.find('=');
    std::string name = p.substr(0, eq),
                value = eq == std::string::npos ? "" : p.substr(eq + 1);
    long long v = 0;
    // Base 0: decimal, 0x hex or 0 octal; values past 64 bits are refused,
    // not saturated.
    if (name.empty() || value.empty() ||
        llvm::StringRef(value).getAsInteger(0, v)) {
      errs() << "warplint: error: --param wants NAME=INTEGER (64-bit), not '"
             << p << "'\n";
      return 2;
    }
    inv.cli.params[name] = v;
  }
  if (!CudaPath.empty() && findCudaPath(CudaPath, false).empty())
    errs() << "warplint: note: no CUDA toolkit at '" << CudaPath
           << "'; using the bundled CUDA header\n";
  opts.cuda.cudaPath = findCudaPath(CudaPath, NoToolkit);
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
  for (auto [option, value, special] :
       {std::tuple{"--data-masks", &DataMasks, "auto"},
        std::tuple{"--data-addresses", &DataAddresses, "narrow"}}) {
    if (!dataLevel(*value, special)) {
      errs() << "warplint: error: " << option << " wants " << special
             << ", remark, warning or off, not '" << *value << "'\n";
      return 2;
    }
  }
  bool anyRule = !RuleSet(Rules, {}, {}).empty();
  if (!anyRule) {
    errs() << "warplint: error: --rules='" << Rules
           << "' turns on no rule (see --list-rules)";
    // A misspelt rule name: the closest one.
    llvm::SmallVector<llvm::StringRef, 4> globs;
    llvm::StringRef(Rules).split(globs, ',');
    std::string best;
    unsigned bestDistance = 4;
    for (llvm::StringRef g : globs)
      for (const RuleDef *r : allRules()) {
        unsigned d = g.trim().edit_distance(r->id());
        if (d < bestDistance) {
          bestDistance = d;
          best = r->id();
        }
      }
    if (!best.empty())
      errs() << "; did you mean '" << best << "'?";
    errs() << "\n";
    return 2;
  }
  opts.projectRoot = inv.root;
  if (!Baseline.empty() && !WriteBaseline.empty()) {
    errs() << "warplint: error: --baseline and --write-baseline do not go "
              "together (write a new baseline from a run without one)\n";
    return 2;
  }
  if (!Baseline.empty()) {
    std::string error;
    auto known = std::make_shared<std::set<std::string>>();
    if (!readBaseline(Baseline, *known, error)) {
      errs() << "warplint: error: --baseline: " << error << "\n";
      return 2;
    }
    opts.baseline = std::move(known);
    opts.baselineUsed = true;
  }
  opts.textDiagnostics = Format == "text";
  opts.accessRecords = Format == "json" || Shard.getNumOccurrences();
  opts.remarks = Remarks;
  opts.compilerWarnings = CompilerWarnings;
  opts.absolutePaths = AbsolutePaths;
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
    inv.fixedConfig = std::make_shared<Config>();
    if (!parseConfig(text, name, *inv.fixedConfig, error)) {
      errs() << "warplint: error: " << error << "\n";
      return 2;
    }
  }
  commandLineConfig(inv.cli);
  // The run's own options take the command line's configuration (the
  // launches of the project's other files are parsed with them); an error
  // in it is each file's, reported where the file's configuration is.
  (void)applyConfig(inv.cli, opts);
  return std::nullopt;
}

} // namespace warplint
