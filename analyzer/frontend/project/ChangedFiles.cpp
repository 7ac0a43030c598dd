// --changed-since (ChangedFiles.h): git for what changed, the preprocessor
// for what each file includes.
#include "frontend/project/ChangedFiles.h"

#include "frontend/project/ProjectDatabase.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/Utils.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <set>

using namespace clang;
using namespace clang::tooling;

namespace warplint {
namespace {

/// Runs git with `args` in `dir`; its stdout in `out`, its stderr in `err`.
/// Returns the exit code, or -1 when git could not be run.
int git(const std::string &dir, const std::vector<std::string> &args,
        std::string &out, std::string &err) {
  auto exe = llvm::sys::findProgramByName("git");
  if (!exe) {
    err = "git is not installed (not found on PATH)";
    return -1;
  }
  llvm::SmallString<128> outFile, errFile;
  if (llvm::sys::fs::createTemporaryFile("warplint-git", "out", outFile) ||
      llvm::sys::fs::createTemporaryFile("warplint-git", "err", errFile)) {
    err = "cannot create a temporary file for git's output";
    return -1;
  }
  std::vector<llvm::StringRef> argv{*exe, "-C", dir};
  for (const std::string &a : args)
    argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(outFile),
                                                llvm::StringRef(errFile)};
  std::string msg;
  int rc = llvm::sys::ExecuteAndWait(*exe, argv, std::nullopt, redirects, 0, 0,
                                     &msg);
  if (auto b = llvm::MemoryBuffer::getFile(outFile))
    out = (*b)->getBuffer().str();
  if (auto b = llvm::MemoryBuffer::getFile(errFile))
    err = llvm::StringRef((*b)->getBuffer()).trim().str();
  llvm::sys::fs::remove(outFile);
  llvm::sys::fs::remove(errFile);
  if (rc < 0 && err.empty())
    err = msg;
  return rc;
}

/// A path as the file system resolves it (symbolic links, dots), to compare
/// git's paths with the compiler's; the path itself when it does not exist.
std::string canonical(llvm::StringRef path) {
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(path, real))
    return std::string(real);
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  llvm::sys::path::remove_dots(abs, true);
  return std::string(abs);
}

/// A preprocessor pass that lists the files a translation unit reads,
/// system headers left out (the toolkit's, the compiler's).
class Includes : public PreprocessOnlyAction {
public:
  explicit Includes(std::vector<std::string> &out) : Out(out) {}
  bool BeginSourceFileAction(CompilerInstance &ci) override {
    Collector = std::make_shared<DependencyCollector>();
    Collector->attachToPreprocessor(ci.getPreprocessor());
    return true;
  }
  void EndSourceFileAction() override {
    for (const std::string &d : Collector->getDependencies())
      Out.push_back(d);
    PreprocessOnlyAction::EndSourceFileAction();
  }

private:
  std::vector<std::string> &Out;
  std::shared_ptr<DependencyCollector> Collector;
};

/// The files `file` includes, with its own command; false when the pass
/// failed (an error in the preprocessor: what it reached may be partial).
bool includes(const ParseCommand &pc, std::vector<std::string> &out) {
  struct Db : CompilationDatabase {
    CompileCommand cmd;
    std::vector<CompileCommand> getCompileCommands(StringRef) const override {
      return {cmd};
    }
  } db;
  db.cmd = CompileCommand(pc.dir, pc.file, pc.argv, "");
  ClangTool tool(db, {pc.file}, std::make_shared<PCHContainerOperations>(),
                 ownFileSystem());
  IgnoringDiagConsumer quiet;
  tool.setDiagnosticConsumer(&quiet);
  tool.setPrintErrorMessage(false);
  struct Factory : FrontendActionFactory {
    std::vector<std::string> &Out;
    explicit Factory(std::vector<std::string> &o) : Out(o) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<Includes>(Out);
    }
  } factory(out);
  return tool.run(&factory) == 0;
}

} // namespace

bool databaseFiles(const std::string &buildPath,
                   std::vector<std::string> &files, std::string &error) {
  std::unique_ptr<CompilationDatabase> db =
      loadProjectDatabase(buildPath, error);
  if (!db) {
    error = "cannot load compile_commands.json from '" + buildPath +
            "': " + error;
    return false;
  }
  std::set<std::string> all;
  for (const std::string &f : db->getAllFiles()) {
    llvm::SmallString<256> abs(f);
    llvm::sys::fs::make_absolute(abs);
    llvm::sys::path::remove_dots(abs, true);
    all.insert(std::string(abs));
  }
  files.assign(all.begin(), all.end());
  return true;
}

bool changedSince(const std::string &rev, const ToolOptions &opts,
                  const std::vector<std::string> &files, ChangedSince &out,
                  std::string &error) {
  out.changed.assign(files.size(), false);
  if (files.empty())
    return true;
  // The repository that holds the files (the first one's).
  llvm::SmallString<256> dir(canonical(files[0]));
  llvm::sys::path::remove_filename(dir);
  std::string top, err;
  if (git(std::string(dir), {"rev-parse", "--show-toplevel"}, top, err) != 0) {
    error = "--changed-since: " + files[0] + " is not in a git repository" +
            (err.empty() ? "" : " (" + err + ")");
    return false;
  }
  top = llvm::StringRef(top).trim().str();
  std::string ignored;
  if (git(top, {"rev-parse", "--verify", "--quiet", rev + "^{commit}"},
          ignored, err) != 0) {
    error = "--changed-since: no revision '" + rev + "' in the repository " +
            top;
    return false;
  }
  // Tracked files that differ from REV in the work tree (staged or not),
  // then the untracked ones that are not ignored.
  std::string diff, untracked;
  if (git(top, {"diff", "--name-only", "-z", rev, "--"}, diff, err) != 0 ||
      git(top, {"ls-files", "--others", "--exclude-standard", "-z"}, untracked,
          err) != 0) {
    error = "--changed-since: git could not list the changes since '" + rev +
            "': " + err;
    return false;
  }
  std::set<std::string> changed;
  for (const std::string *list : {&diff, &untracked}) {
    llvm::SmallVector<llvm::StringRef, 0> names;
    llvm::StringRef(*list).split(names, '\0', -1, false);
    for (llvm::StringRef n : names) {
      llvm::SmallString<256> p(top);
      llvm::sys::path::append(p, n);
      changed.insert(canonical(p));
    }
  }

  std::unique_ptr<CompilationDatabase> db;
  if (!opts.buildPath.empty()) {
    db = loadProjectDatabase(opts.buildPath, err);
    if (!db) {
      error = "cannot load compile_commands.json from '" + opts.buildPath +
              "': " + err;
      return false;
    }
  }
  auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < files.size(); ++i) {
    if (changed.count(canonical(files[i]))) {
      out.changed[i] = true;
      continue;
    }
    ParseCommand pc = parseCommand(files[i], opts, db.get());
    std::vector<std::string> deps;
    ++out.scanned;
    if (!pc.errors.empty() || !includes(pc, deps)) {
      out.changed[i] = true; // not known to be unchanged: analyzed
      continue;
    }
    for (const std::string &d : deps) {
      llvm::SmallString<256> p(d);
      if (!llvm::sys::path::is_absolute(p))
        llvm::sys::path::make_absolute(pc.dir, p);
      if (changed.count(canonical(p))) {
        out.changed[i] = true;
        break;
      }
    }
  }
  out.scanSeconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  return true;
}

} // namespace warplint
