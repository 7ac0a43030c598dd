#include "frontend/analysis/Action.h"

#include "frontend/analysis/Analysis.h"
#include "frontend/analysis/Leniency.h"
#include "frontend/project/HostCompiler.h"
#include "frontend/project/Inputs.h"
#include "frontend/project/NvccOptions.h"
#include "frontend/project/ProjectDatabase.h"
#include "frontend/project/ProjectLaunches.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <optional>
#include <mutex>
#include <set>

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
  /// Findings are printed on `out`, compiler errors on `err` (with -j, the
  /// file's buffers, written out in the run's order), in colour as the
  /// terminal takes it.
  Router(bool text, bool compilerWarnings, llvm::raw_ostream &out,
         llvm::raw_ostream &err, bool outColors, bool errColors)
      : ErrStream(err), Text(text), CompilerWarnings(compilerWarnings),
        Out(out, OutOpts), Err(err, ErrOpts) {
    OutOpts.ShowColors = outColors;
    ErrOpts.ShowColors = errColors;
  }
  RunState Run;
  /// Where the file's messages go (the compiler's too).
  llvm::raw_ostream &ErrStream;
  unsigned FileErrors = 0;
  static constexpr unsigned MaxErrorsShown = 20;
  std::string FirstError;
  /// The parse's compiler, while it runs: where an error is (the function
  /// Sema is in) decides whether it fails the file.
  CompilerInstance *CI = nullptr;
  /// Errors in host-only code (the first with its place): warplint checks
  /// device code, so they do not fail the file.
  unsigned HostErrors = 0;
  std::string FirstHostError;
  /// Device code nvcc accepts and Clang rejects, each with its place.
  std::vector<std::string> NvccAccepted;
  static constexpr unsigned MaxNvccAccepted = 10;

  void clearFile() {
    clear();
    FileErrors = 0;
    FirstError.clear();
    HostErrors = 0;
    FirstHostError.clear();
    NvccAccepted.clear();
  }

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
    if (Leniency l = CI ? lenient(level, info, *CI) : Leniency::None;
        l != Leniency::None) {
      // Not counted as an error (Clang's count decides whether the file
      // failed): noted, and shown as a warning with --compiler-warnings.
      if (l == Leniency::HostCode && HostErrors++ == 0)
        FirstHostError = placed(info);
      if (l == Leniency::NvccAccepts && NvccAccepted.size() < MaxNvccAccepted)
        NvccAccepted.push_back(placed(info));
      LastOwn = false;
      LastShown = CompilerWarnings;
      if (LastShown)
        Err.HandleDiagnostic(DiagnosticsEngine::Warning, info);
      return;
    }
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level == DiagnosticsEngine::Note) {
      if (LastShown)
        (LastOwn ? Out : Err).HandleDiagnostic(level, info);
      return;
    }
    LastOwn = Run.ownIds.count(info.getID()) != 0;
    if (LastOwn) {
      LastShown = Text;
      if (Text)
        Out.HandleDiagnostic(level, info);
      return;
    }
    if (level >= DiagnosticsEngine::Error) {
      ++FileErrors;
      if (FileErrors > MaxErrorsShown) {
        LastShown = false;
        return;
      }
      if (FirstError.empty())
        FirstError = placed(info);
      LastShown = true;
      Err.HandleDiagnostic(level, info);
      return;
    }
    LastShown = CompilerWarnings;
    if (LastShown)
      Err.HandleDiagnostic(level, info);
  }

private:
  /// "file:line:col: message".
  static std::string placed(const Diagnostic &info) {
    SmallString<128> msg;
    info.FormatDiagnostic(msg);
    std::string out = msg.str().str();
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      PresumedLoc p = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (p.isValid())
        out = std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) +
              ":" + std::to_string(p.getColumn()) + ": " + out;
    }
    return out;
  }

  bool Text, CompilerWarnings;
  bool LastOwn = false, LastShown = false;
  DiagnosticOptions OutOpts, ErrOpts;
  TextDiagnosticPrinter Out, Err;
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
    // Clang's "too many errors" is itself fatal and would silence warplint's
    // findings; the router shows the first errors and counts the rest.
    ci.getDiagnostics().setErrorLimit(0);
    // "N errors generated" goes with the file's other messages.
    ci.setVerboseOutputStream(R.ErrStream);
    R.CI = &ci;
    return makeAnalysis(ci, Opts, Rep, R.Run);
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
  if (const InputText *in = inputText(absolutePath(path))) {
    // Read once already (stdin, a FIFO, a device), within the limit.
    if (!in->error.empty())
      return in->error;
    if (StringRef(in->text).take_front(65536).contains('\0'))
      return "binary file, not CUDA source";
    return "";
  }
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

/// The device-side parse command of one file: the user's (from -p or after
/// --) or a plain one, with warplint's options, ending in the file.
ParseCommand fileCommand(const std::string &file, const ToolOptions &opts,
                         const CompilationDatabase *userDb) {
  ParseCommand fc;
  fc.dir = ".";
  fc.file = absolutePath(file);
  StringRef abs = fc.file;
  std::vector<std::string> cmd{"clang++", "-std=c++17"};
  bool fromDatabase = false;
  std::string databaseName; // the entry's "file", as written
  if (userDb) {
    // Files analyzed at once (-j) ask the database side by side.
    static std::mutex databaseLock;
    std::vector<CompileCommand> cmds;
    {
      std::lock_guard<std::mutex> hold(databaseLock);
      cmds = userDb->getCompileCommands(abs);
    }
    if (!cmds.empty() && cmds[0].CommandLine.empty()) {
      // (An entry `"arguments": []`: nothing to parse the file with.)
      fc.errors.push_back("the compile database's command for this file is "
                          "empty");
    } else if (!cmds.empty()) {
      fromDatabase = true;
      cmd = cmds[0].CommandLine;
      fc.dir = cmds[0].Directory;
      databaseName = cmds[0].Filename;
      // The database names the file; it is appended again below. A binary
      // response file is reported and left out of the parse.
      cmd.erase(std::remove_if(cmd.begin() + 1, cmd.end(),
                               [&](const std::string &a) {
                                 StringRef r(a);
                                 if (r.consume_front(BinaryResponseFile)) {
                                   fc.errors.push_back("response file '" +
                                                       r.str() +
                                                       "' is not a text file");
                                   return true;
                                 }
                                 SmallString<256> p(a);
                                 if (!llvm::sys::path::is_absolute(p))
                                   llvm::sys::path::make_absolute(fc.dir, p);
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
  fc.argv = deviceParseCommand(argv, opts.cuda, fc.dir, &fc.errors);
  // nvcc's host compiler: the one the command names (-ccbin), else g++ for
  // a database's nvcc command. Its own include directory (omp.h) goes after
  // Clang's, before the inputs.
  std::string host = namedHostCompiler(argv);
  if (host.empty() && fromDatabase && isNvcc(argv[0]))
    host = "g++";
  if (!host.empty()) {
    const HostIncludes &hi = hostIncludes(host, opts.queryDriver);
    if (!hi.note.empty())
      fc.notes.push_back(hi.note);
    auto at = std::find(fc.argv.begin(), fc.argv.end(), "--");
    std::vector<std::string> more;
    for (const std::string &d : hi.dirs) {
      more.push_back("-idirafter");
      more.push_back(d);
    }
    fc.argv.insert(at, more.begin(), more.end());
  }
  // The file as the command line gave it (compilers print it so), when the
  // parse runs in the current directory (a database's command runs in its
  // entry's directory: the same one, or the name is absolute); a file the
  // database listed, as its entry spells it, relative to the entry's
  // directory, as the build's compiler printed it.
  std::string shown = fc.file;
  std::string spelled;
  bool here = false; // the entry's directory is the current one
  if (fromDatabase && opts.filesFromDatabase)
    spelled = databaseName;
  else if (!fromDatabase ||
           (!llvm::sys::fs::equivalent(fc.dir, ".", here) && here))
    spelled = file;
  if (!opts.absolutePaths && !spelled.empty() &&
      !llvm::sys::path::is_absolute(spelled)) {
    SmallString<256> p(spelled);
    llvm::sys::path::remove_dots(p, true);
    if (!p.empty())
      shown = p.str().str();
  }
  fc.argv.push_back(shown);
  return fc;
}

/// Parses another file of the project only for its launches: its errors are
/// not reported (they are that file's, and it may not be among the files
/// analyzed), but a file that yields no AST gives nothing.
class LaunchCollector : public ASTFrontendAction {
public:
  explicit LaunchCollector(std::optional<FileFacts> &out) : Out(out) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci,
                                                 StringRef) override {
    ci.getDiagnostics().setFatalsAsError(true);
    ci.getDiagnostics().setErrorLimit(0);
    struct Consumer : ASTConsumer {
      std::optional<FileFacts> &Out;
      explicit Consumer(std::optional<FileFacts> &o) : Out(o) {}
      void HandleTranslationUnit(ASTContext &ac) override {
        Out = exportFacts(ac, collectLaunchSites(ac));
      }
    };
    return std::make_unique<Consumer>(Out);
  }

private:
  std::optional<FileFacts> &Out;
};

/// Runs `use` on a ClangTool that parses `file` device side with its own
/// compile command, its diagnostics dropped (another file, read for what it
/// tells this one); false when the file or its command fails the checks.
template <class Use>
bool withQuietTool(const std::string &file, const ToolOptions &opts,
                   const CompilationDatabase *userDb, Use use) {
  if (!precheck(file, opts.maxFileBytes).empty())
    return false;
  ParseCommand fc = fileCommand(file, opts, userDb);
  if (!fc.errors.empty())
    return false;
  DeviceDatabase db;
  db.commands[fc.file] = CompileCommand(fc.dir, fc.file, fc.argv, "");
  ClangTool tool(db, {fc.file}, std::make_shared<PCHContainerOperations>(),
                 ownFileSystem());
  IgnoringDiagConsumer quiet;
  tool.setDiagnosticConsumer(&quiet);
  tool.setPrintErrorMessage(false);
  use(tool);
  return true;
}

std::optional<FileFacts> parseLaunches(const std::string &file,
                                         const ToolOptions &opts,
                                         const CompilationDatabase *userDb) {
  std::optional<FileFacts> out;
  struct Factory : FrontendActionFactory {
    std::optional<FileFacts> &Out;
    explicit Factory(std::optional<FileFacts> &o) : Out(o) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<LaunchCollector>(Out);
    }
  } factory(out);
  withQuietTool(file, opts, userDb, [&](ClangTool &tool) { tool.run(&factory); });
  return out;
}

/// A file parsed device side with its own compile command, kept as an AST
/// (the definitions of separately compiled device functions are imported
/// from it); null when it cannot be parsed.
std::unique_ptr<ASTUnit> parseUnit(const std::string &file,
                                   const ToolOptions &opts,
                                   const CompilationDatabase *userDb) {
  std::vector<std::unique_ptr<ASTUnit>> units;
  bool built = false;
  withQuietTool(file, opts, userDb, [&](ClangTool &tool) {
    built = tool.buildASTs(units) == 0 && units.size() == 1 && units[0];
  });
  if (!built)
    return nullptr;
  // The unit outlives the tool's consumer: its diagnostics (an import's
  // notes on the file it reads from) go to a client it owns.
  units[0]->getDiagnostics().setClient(new IgnoringDiagConsumer,
                                       /*ShouldOwnClient=*/true);
  return std::move(units[0]);
}

/// Where a file's records begin in the report, and the kernel
/// configurations analyzed before it: its FileSpan once it is done.
struct SpanMark {
  const Report &rep;
  const RunState &run;
  FileSpan span;
  std::set<std::string> before;
  SpanMark(const Report &r, const RunState &s)
      : rep(r), run(s), before(s.ledger.configurations()) {
    span.kernels[0] = r.kernels.size();
    span.accesses[0] = r.accesses.size();
    span.branches[0] = r.branches.size();
    span.diagnostics[0] = r.diagnostics.size();
  }
  FileRecord close(FileRecord fr) {
    span.kernels[1] = rep.kernels.size();
    span.accesses[1] = rep.accesses.size();
    span.branches[1] = rep.branches.size();
    span.diagnostics[1] = rep.diagnostics.size();
    for (const std::string &k : run.ledger.configurations())
      if (!before.count(k))
        span.kernelKeys.push_back(k);
    fr.span = std::move(span);
    return fr;
  }
};

/// The stack a crash handler runs on in a thread that analyzes a file.
constexpr size_t AltStackBytes = 256u << 10;

/// Parses and analyzes one file with `router`'s state, each file's errors
/// its own; false when it crashed (the crash is recovered).
bool runTool(const ParseCommand &fc, Router &router, Factory &factory,
             int &rc) {
  DeviceDatabase db;
  db.commands[fc.file] = CompileCommand(fc.dir, fc.file, fc.argv, "");
  ClangTool tool(db, {fc.file}, std::make_shared<PCHContainerOperations>(),
                 ownFileSystem());
  tool.setDiagnosticConsumer(&router);
  // The consumer's counts (which clang reads to decide whether a file
  // failed) start again at zero.
  router.clearFile();
  router.Run.kernelsTimedOut.clear();
  router.Run.currentKernel.clear();
  // A crash in the parse or the analysis of one file ends that file, not
  // the run: the other files' results stand, and the file says where.
  // Clang's own message for a file that failed, on the file's stream.
  tool.setPrintErrorMessage(false);
  // On a thread of its own with a large stack, and with a signal stack of
  // its own for the crash handler: a stack exhausted (deep recursion in the
  // parse or the analysis) is then a crash recovered like any other, not
  // the end of the process.
  bool ran = false;
  llvm::thread worker(std::optional<unsigned>(64u << 20), [&] {
    withSignalStack([&] {
      llvm::CrashRecoveryContext crc;
      ran = crc.RunSafely([&] { rc = tool.run(&factory); });
    });
  });
  worker.join();
  router.CI = nullptr;
  if (!ran)
    return false;
  if (rc != 0)
    router.ErrStream << "Error while processing " << fc.argv.back() << ".\n";
  return true;
}

/// The files among `files` whose text includes a file named like `header`
/// (read through the project's text cache, as its launch lookups do).
std::vector<std::string> includersOf(const std::string &header,
                                     const std::vector<std::string> &files,
                                     ProjectLaunches &project) {
  std::string name = llvm::sys::path::filename(header).str();
  std::vector<std::string> out;
  for (const std::string &f : files) {
    if (f == header)
      continue;
    SmallVector<StringRef, 0> lines;
    StringRef(project.text(f)).split(lines, '\n');
    for (StringRef l : lines) {
      l = l.trim();
      if (!l.consume_front("#"))
        continue;
      l = l.ltrim();
      if (!l.consume_front("include"))
        continue;
      l = l.trim().drop_front().drop_back(); // "x/name.cuh" or <x/name.cuh>
      if (llvm::sys::path::filename(l) == name) {
        out.push_back(f);
        break;
      }
    }
  }
  return out;
}

/// A header whose kernel templates it instantiates nowhere: they are
/// analyzed as the files that include it instantiate them, and only the
/// header's kernels are reported.
void inContext(const std::string &file, const std::string &abs,
               const std::vector<std::string> &projectFiles,
               const ToolOptions &opts, const CompilationDatabase *userDb,
               Report &report, Router &router, llvm::raw_ostream &err) {
  constexpr size_t MaxContexts = 4;
  std::vector<std::string> templates = router.Run.uninstantiated;
  std::string names;
  for (size_t i = 0; i < templates.size() && i < 3; ++i)
    names += (i ? ", '" : "'") + templates[i] + "'";
  if (templates.size() > 3)
    names += " and " + std::to_string(templates.size() - 3) + " more";
  llvm::sys::fs::UniqueID id;
  std::vector<std::string> includers =
      includersOf(abs, projectFiles, *router.Run.project);
  if (includers.empty() || llvm::sys::fs::getUniqueID(abs, id)) {
    err << "warplint: note: " << file << ": kernel template"
        << (templates.size() == 1 ? " " : "s ") << names
        << " not instantiated here, and no file of the run or of "
           "the compile database includes this one: nothing to "
           "analyze for "
        << (templates.size() == 1 ? "it" : "them") << "\n";
    return;
  }
  std::string used;
  size_t n = 0;
  for (const std::string &inc : includers) {
    if (n == MaxContexts)
      break;
    ParseCommand fc = fileCommand(inc, opts, userDb);
    if (!fc.errors.empty())
      continue;
    Factory factory(opts, report, router);
    router.Run.onlyFile = id;
    int rc = 1;
    bool ran = runTool(fc, router, factory, rc);
    router.Run.onlyFile.reset();
    if (!ran)
      continue;
    used += std::string(n++ ? ", " : "") +
            llvm::sys::path::filename(inc).str() +
            (router.FileErrors ? " (which has compiler errors)" : "");
  }
  router.FileErrors = 0;
  err << "warplint: note: " << file << ": kernel template"
      << (templates.size() == 1 ? " " : "s ") << names;
  if (n == 0) {
    err << " not instantiated here, and none of the " << includers.size()
        << " files that include this one could be parsed\n";
    return;
  }
  err << " analyzed as instantiated in " << used;
  if (includers.size() > n)
    err << " (" << includers.size() - n << " other including files not used)";
  err << "\n";
}

/// What every file of a run shares.
struct RunShared {
  const CompilationDatabase *userDb;
  const std::vector<std::string> &projectFiles;
  Report &report;
};

/// Analyzes one file (`opts`: its own options, `why`: why it cannot be, or
/// "") with `router`'s state; its messages go to `err`. Its records go into
/// the run's report once `router.Run` has the file's turn (at once without
/// -j), `mark` taken then.
/// Is `error` an include of a library the toolkit ships and the bundled
/// header does not stand in for (Thrust, libcu++, cuBLAS, cuFFT, ...; a CUB
/// header the stand-in lacks) that was not found?
static bool bundledLacks(llvm::StringRef error) {
  size_t q = error.find('\'');
  if (q == llvm::StringRef::npos || !error.contains("' file not found"))
    return false;
  llvm::StringRef name = error.drop_front(q + 1);
  for (llvm::StringRef lib :
       {"cub/", "thrust/", "cuda/", "nv/", "cublas", "cufft", "cusparse",
        "cusolver", "curand.h", "nvrtc", "npp", "nvjpeg", "cupti", "nvml"})
    if (name.starts_with(lib))
      return true;
  return false;
}

void analyzeFile(const std::string &file, const ToolOptions &opts,
                 std::string why, const RunShared &run, Router &router,
                 std::optional<SpanMark> &mark, llvm::raw_ostream &err) {
  Report &report = run.report;
  FileRecord fr;
  fr.path = file;
  auto done = [&] {
    router.Run.ensureTurn();
    report.files.push_back(mark->close(std::move(fr)));
  };
  if (why.empty())
    why = precheck(file, opts.maxFileBytes);
  if (!why.empty()) {
    fr.ok = false;
    fr.error = why;
    err << file << ": error: " << why << "\n";
    done();
    return;
  }
  ParseCommand fc = fileCommand(file, opts, run.userDb);
  for (const std::string &e : fc.errors)
    err << "warplint: error: " << file << ": " << e << "\n";
  {
    // A note about the command (a host compiler not asked) once per run.
    static std::mutex noted;
    static std::set<std::string> seen;
    std::lock_guard<std::mutex> hold(noted);
    for (const std::string &n : fc.notes)
      if (seen.insert(n).second)
        err << "warplint: note: " << n << "\n";
  }
  if (!fc.errors.empty()) {
    fr.ok = false;
    fr.error = fc.errors[0];
  }
  std::string abs = fc.file;
  Factory factory(opts, report, router);
  size_t kernelsBefore = router.Run.kernelsFound;
  int rc = 1;
  if (!runTool(fc, router, factory, rc)) {
    fr.ok = false;
    fr.error = "warplint crashed while analyzing this file" +
               (router.Run.currentKernel.empty()
                    ? std::string(" (while parsing it)")
                    : " (in kernel " + router.Run.currentKernel + ")") +
               "; please report it with the file";
    err << "warplint: error: " << file << ": " << fr.error << "\n";
    done();
    report.crashed = true;
    return;
  }
  if (router.HostErrors) {
    fr.hostNotChecked = router.FirstHostError;
    err << "warplint: note: " << file << ": "
        << leniencyLabel(Leniency::HostCode) << ": " << router.FirstHostError;
    if (router.HostErrors > 1)
      err << " (" << router.HostErrors << " errors in host-only code)";
    err << "\n";
  }
  for (const std::string &m : router.NvccAccepted)
    err << "warplint: note: " << file << ": "
        << leniencyLabel(Leniency::NvccAccepts) << ": " << m << "\n";
  fr.nvccAccepted = router.NvccAccepted;
  if (rc != 0 || router.FileErrors > 0) {
    fr.ok = false;
    fr.error = router.FirstError.empty() ? "the file could not be parsed"
                                         : router.FirstError;
    err << "warplint: error: " << file << " could not be analyzed completely ("
        << router.FileErrors << " error" << (router.FileErrors == 1 ? "" : "s");
    if (router.FileErrors > Router::MaxErrorsShown)
      err << ", the first " << Router::MaxErrorsShown << " shown";
    err << "); its results are partial\n";
    // The bundled header stands in for the toolkit's runtime, intrinsics
    // and CUB, not for its other libraries: say what to give instead.
    if (opts.cuda.cudaPath.empty() && bundledLacks(router.FirstError))
      err << "warplint: note: " << file
          << ": warplint's bundled CUDA header has the runtime, the device "
             "intrinsics and CUB, not the toolkit's other libraries (Thrust, "
             "libcu++, cuBLAS, cuFFT, ...): give it a CUDA toolkit "
             "(--cuda-path=DIR) or those headers "
             "(--extra-arg=-isystem<dir>)\n";
  } else if (!router.Run.kernelsTimedOut.empty()) {
    const auto &left = router.Run.kernelsTimedOut;
    fr.ok = false;
    fr.error = "analysis stopped by --timeout: " + std::to_string(left.size()) +
               " kernel" + (left.size() == 1 ? "" : "s") +
               " not analyzed in full";
    err << "warplint: error: " << file << ": " << fr.error << ":";
    for (size_t i = 0; i < left.size() && i < 10; ++i)
      err << (i ? ", " : " ") << left[i];
    if (left.size() > 10)
      err << ", and " << left.size() - 10 << " more";
    err << "\n";
  } else if (!router.Run.uninstantiated.empty()) {
    // Further parses, each committed at once: the file has its turn.
    router.Run.ensureTurn();
    inContext(file, abs, run.projectFiles, opts, run.userDb, report, router,
              err);
  } else if (router.Run.kernelsFound == kernelsBefore &&
             router.Run.libraryKernels.empty()) {
    err << "warplint: note: " << file << ": no __global__ function to analyze\n";
  }
  if (!router.Run.libraryKernels.empty()) {
    // Library kernels run the program's code (functors, iterators) inlined:
    // their accesses are nowhere in the report, so the report says so.
    const auto &lib = router.Run.libraryKernels;
    err << "warplint: note: " << file << ": " << lib.size()
        << (lib.size() == 1 ? " kernel" : " kernels")
        << " of library headers instantiated with this file's types "
           "not analyzed (the accesses they make through those types are "
           "not modelled):";
    for (size_t i = 0; i < lib.size() && i < 5; ++i)
      err << (i ? "; " : " ") << lib[i];
    if (lib.size() > 5)
      err << "; and " << lib.size() - 5 << " more";
    err << "\n";
  }
  done();
}

/// Hands the files their turns in the run's order (-j), and the cores to
/// analyze with: a file that waits for its turn gives its core to another
/// file meanwhile.
class Turns {
public:
  explicit Turns(unsigned cores) : Cores(cores) {}
  void wait(size_t file) {
    std::unique_lock<std::mutex> lock(M);
    ++Cores;
    CV.notify_all();
    CV.wait(lock, [&] { return Next == file && Cores > 0; });
    --Cores;
  }
  void startFile() {
    std::unique_lock<std::mutex> lock(M);
    CV.wait(lock, [&] { return Cores > 0; });
    --Cores;
  }
  void endFile() {
    {
      std::lock_guard<std::mutex> lock(M);
      ++Next;
      ++Cores;
    }
    CV.notify_all();
  }

private:
  std::mutex M;
  std::condition_variable CV;
  size_t Next = 0;
  unsigned Cores;
};

} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> ownFileSystem() {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> disk(
      llvm::vfs::createPhysicalFileSystem().release());
  auto read = inputTexts();
  if (read.empty())
    return disk;
  // The inputs read once (stdin, FIFOs, devices), over the disk: every
  // parse reads the text kept, never the input again.
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const auto &[path, text] : read)
    memory->addFile(path, 0,
                    llvm::MemoryBuffer::getMemBuffer(*text, path, false));
  auto both = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(disk);
  both->pushOverlay(memory);
  return both;
}

/// -j: how many files are analyzed at once (0: one per core), at most one
/// job per file.
static unsigned jobsFor(unsigned asked, size_t files) {
  unsigned n = asked ? asked
                     : llvm::heavyweight_hardware_concurrency()
                           .compute_thread_count();
  return unsigned(std::max<size_t>(1, std::min<size_t>(n, files)));
}

void withSignalStack(llvm::function_ref<void()> fn) {
  std::unique_ptr<char[]> stack(new char[AltStackBytes]);
  stack_t own{}, previous{};
  own.ss_sp = stack.get();
  own.ss_size = AltStackBytes;
  sigaltstack(&own, &previous);
  fn();
  // Put back whether the run crashed or not, before the thread ends (the
  // sanitizers' runtime frees the one it gave the thread, and must find it).
  sigaltstack(&previous, nullptr);
}

void enableCrashRecovery() {
  llvm::CrashRecoveryContext::Enable();
  // Its handlers run on the thread's alternate stack where it has one
  // (runTool gives each analysis thread one): a handler cannot run on a
  // stack that is exhausted.
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP}) {
    struct sigaction sa;
    if (sigaction(sig, nullptr, &sa) == 0 && !(sa.sa_flags & SA_ONSTACK) &&
        sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN) {
      sa.sa_flags |= SA_ONSTACK;
      sigaction(sig, &sa, nullptr);
    }
  }
}

/// The -p database, if one is named: false (the error said) when it cannot
/// be loaded.
static bool userDatabase(const ToolOptions &opts,
                         std::unique_ptr<CompilationDatabase> &db) {
  if (opts.buildPath.empty())
    return true;
  std::string err;
  db = loadProjectDatabase(opts.buildPath, err);
  if (!db)
    llvm::errs() << "warplint: error: cannot load compile_commands.json from '"
                 << opts.buildPath << "': " << err << "\n";
  return db != nullptr;
}

bool printParseCommands(const ToolOptions &runOpts, llvm::raw_ostream &os) {
  std::unique_ptr<CompilationDatabase> db;
  if (!userDatabase(runOpts, db))
    return false;
  // A compile command's relative paths are its directory's: said in the
  // command where that is not this one, so that it runs from anywhere.
  llvm::SmallString<256> here;
  llvm::sys::fs::current_path(here);
  bool ok = true;
  for (const std::string &f : runOpts.files) {
    // What would fail the file's analysis fails this too, said as there.
    ToolOptions own = runOpts;
    if (runOpts.configure)
      if (std::string why = runOpts.configure(f, own); !why.empty()) {
        llvm::errs() << f << ": error: " << why << "\n";
        ok = false;
        continue;
      }
    ParseCommand pc = parseCommand(f, own, db.get());
    for (const std::string &e : pc.errors)
      llvm::errs() << "warplint: error: " << f << ": " << e << "\n";
    if (!pc.errors.empty() || pc.argv.empty()) {
      ok = false;
      continue;
    }
    std::vector<std::string> argv = pc.argv;
    if (!pc.dir.empty() && pc.dir != here.str())
      argv.insert(argv.begin() + 1, "-working-directory=" + pc.dir);
    for (size_t i = 0; i < argv.size(); ++i) {
      os << (i ? " " : "");
      llvm::sys::printArg(os, argv[i], /*Quote=*/false);
    }
    os << "\n";
  }
  return ok;
}

bool analyzeFiles(const ToolOptions &runOpts, Report &report) {
  enableCrashRecovery();
  std::unique_ptr<CompilationDatabase> userDb;
  if (!userDatabase(runOpts, userDb))
    return false;
  // Launches in the run's other files and the database's bind the kernels a
  // file does not launch itself.
  std::vector<std::string> projectFiles;
  for (const std::string &f :
       runOpts.projectFiles.empty() ? runOpts.files : runOpts.projectFiles)
    projectFiles.push_back(absolutePath(f));
  if (userDb)
    for (const std::string &f : userDb->getAllFiles())
      projectFiles.push_back(absolutePath(f));
  ProjectLaunches project(projectFiles, [&](const std::string &f) {
    return parseLaunches(f, runOpts, userDb.get());
  });
  project.setUnitParser([&](const std::string &f) {
    return parseUnit(f, runOpts, userDb.get());
  });
  // Each file's own options: the project configuration applied to a copy.
  const std::vector<std::string> &files = runOpts.files;
  std::vector<std::optional<ToolOptions>> own(files.size());
  std::vector<std::string> why(files.size());
  if (runOpts.configure)
    for (size_t i = 0; i < files.size(); ++i) {
      own[i].emplace(runOpts);
      own[i]->files.clear();
      why[i] = runOpts.configure(files[i], *own[i]);
    }
  auto optsOf = [&](size_t i) -> const ToolOptions & {
    return own[i] ? *own[i] : runOpts;
  };
  RunShared run{userDb.get(), projectFiles, report};
  RunState *state = nullptr;
  std::optional<Router> router;
  unsigned jobs = runOpts.explainFile.empty() && !runOpts.explainSink
                      ? jobsFor(runOpts.jobs, files.size())
                      : 1;
  RunState shared;
  // Asked here, once: the streams cache the answer.
  bool outColors = llvm::outs().has_colors(),
       errColors = llvm::errs().has_colors();
  if (jobs == 1) {
    router.emplace(runOpts.textDiagnostics, runOpts.compilerWarnings,
                   llvm::outs(), llvm::errs(), outColors, errColors);
    router->Run.project = &project;
    state = &router->Run;
    for (size_t i = 0; i < files.size(); ++i) {
      std::optional<SpanMark> mark;
      mark.emplace(report, *state);
      analyzeFile(files[i], optsOf(i), why[i], run, *router, mark,
                  llvm::errs());
      // A file's findings are out before the next file's analysis: a crash
      // that nothing can recover (the process killed) loses no earlier
      // file's.
      llvm::outs().flush();
    }
  } else {
    // Files are analyzed side by side, each with its own state and its
    // messages buffered, and committed in the run's order (Analysis.h).
    shared.project = &project;
    state = &shared;
    Turns turns(jobs);
    // Threads for the files at work and for as many waiting for their
    // turns, each holding its parse (memory, not a core).
    llvm::StdThreadPool pool(llvm::hardware_concurrency(
        unsigned(std::min<size_t>(files.size(), 2 * size_t(jobs)))));
    for (size_t i = 0; i < files.size(); ++i)
      pool.async([&, i] {
        turns.startFile();
        // The file's output, both streams, buffered: Clang's diagnostic
        // printers change the buffering of the stream they print on when a
        // parse begins and ends, which the shared stdout must not see from
        // several threads. Written out in the file's turn.
        std::string outText, errText;
        llvm::raw_string_ostream out(outText), err(errText);
        out.enable_colors(outColors);
        err.enable_colors(errColors);
        Router fileRouter(runOpts.textDiagnostics, runOpts.compilerWarnings,
                          out, err, outColors, errColors);
        fileRouter.Run.project = &project;
        fileRouter.Run.shared = &shared;
        std::optional<SpanMark> mark;
        fileRouter.Run.takeTurn = [&] {
          turns.wait(i);
          mark.emplace(report, shared);
        };
        analyzeFile(files[i], optsOf(i), why[i], run, fileRouter, mark, err);
        fileRouter.Run.ensureTurn();
        // The file's messages, then the next file's turn.
        llvm::outs() << outText;
        llvm::outs().flush();
        llvm::errs() << errText;
        llvm::errs().flush();
        turns.endFile();
      });
    pool.wait();
  }
  const Places &suppressed = state->ledger.suppressed(),
               &hidden = state->ledger.headerHidden();
  report.suppressed = suppressed.size();
  report.headerHidden = hidden.size();
  report.suppressedPlaces.assign(suppressed.begin(), suppressed.end());
  report.headerHiddenPlaces.assign(hidden.begin(), hidden.end());
  return true;
}

ParseCommand parseCommand(const std::string &file, const ToolOptions &opts,
                          const CompilationDatabase *db) {
  return fileCommand(file, opts, db);
}

std::optional<FileFacts> launchFacts(const std::string &file,
                                     const ToolOptions &opts,
                                     const CompilationDatabase *db) {
  return parseLaunches(file, opts, db);
}

std::vector<std::string> filesIncluding(const std::string &header,
                                        const std::vector<std::string> &files,
                                        ProjectLaunches &project) {
  return includersOf(header, files, project);
}

} // namespace warplint
