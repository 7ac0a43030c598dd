#include "frontend/project/ProjectDatabase.h"

#include "frontend/project/CommandLine.h"
#include "frontend/project/NvccOptions.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>

using namespace clang::tooling;

namespace warplint {
namespace {

/// The entries of `base` with nvcc commands in Clang spellings: what Clang's
/// interpolation can read. An options file that cannot be read is left out
/// here; the files that have their own entry report it when parsed.
class ClangSpelled : public CompilationDatabase {
public:
  explicit ClangSpelled(const CompilationDatabase &base) : Base(base) {}
  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef file) const override {
    return spell(Base.getCompileCommands(file));
  }
  std::vector<std::string> getAllFiles() const override {
    return Base.getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return spell(Base.getAllCompileCommands());
  }

private:
  static std::vector<CompileCommand> spell(std::vector<CompileCommand> cmds) {
    for (CompileCommand &c : cmds) {
      if (c.CommandLine.empty() || !isNvcc(c.CommandLine[0]))
        continue;
      std::vector<std::string> ignored;
      std::vector<std::string> args =
          translateNvccOptions(c.CommandLine, c.Directory, ignored);
      // nvcc's -arch/-gencode are kept joined by the translation (the
      // device parse reads the architecture from them); Clang's driver
      // does not know them, so they travel as --cuda-gpu-arch.
      std::string arch = newestArch(args);
      args.erase(std::remove_if(args.begin() + 1, args.end(),
                                [](const std::string &a) {
                                  return !newestArch({a}).empty();
                                }),
                 args.end());
      args[0] = "clang++";
      if (!arch.empty())
        args.insert(args.begin() + 1, "--cuda-gpu-arch=" + arch);
      c.CommandLine = std::move(args);
    }
    return cmds;
  }
  const CompilationDatabase &Base;
};

/// `@file` arguments whose file holds a NUL byte, replaced by
/// BinaryResponseFile and the path before Clang's loader expands the rest.
class TextResponseFiles : public CompilationDatabase {
public:
  explicit TextResponseFiles(std::unique_ptr<CompilationDatabase> base)
      : Base(std::move(base)) {}
  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef file) const override {
    return mark(Base->getCompileCommands(file));
  }
  std::vector<std::string> getAllFiles() const override {
    return Base->getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return mark(Base->getAllCompileCommands());
  }

private:
  static std::vector<CompileCommand> mark(std::vector<CompileCommand> cmds) {
    for (CompileCommand &c : cmds)
      for (std::string &a : c.CommandLine) {
        if (a.size() < 2 || a[0] != '@')
          continue;
        llvm::SmallString<256> path(llvm::StringRef(a).drop_front());
        if (!llvm::sys::path::is_absolute(path))
          llvm::sys::path::make_absolute(c.Directory, path);
        auto buf = llvm::MemoryBuffer::getFile(path);
        if (buf && (*buf)->getBuffer().contains('\0'))
          a = std::string(BinaryResponseFile) + std::string(path);
      }
    return cmds;
  }
  std::unique_ptr<CompilationDatabase> Base;
};

/// Exact entries as written; the others inferred from Clang-spelled
/// neighbours.
class ProjectDatabase : public CompilationDatabase {
public:
  explicit ProjectDatabase(std::unique_ptr<CompilationDatabase> exact)
      : Exact(std::move(exact)),
        Inferred(inferMissingCompileCommands(
            std::make_unique<ClangSpelled>(*Exact))) {}
  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef file) const override {
    std::vector<CompileCommand> own = Exact->getCompileCommands(file);
    return own.empty() ? Inferred->getCompileCommands(file) : own;
  }
  std::vector<std::string> getAllFiles() const override {
    return Exact->getAllFiles();
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return Exact->getAllCompileCommands();
  }

private:
  std::unique_ptr<CompilationDatabase> Exact;
  std::unique_ptr<CompilationDatabase> Inferred;
};

} // namespace

std::unique_ptr<CompilationDatabase>
loadProjectDatabase(const std::string &buildPath, std::string &error) {
  llvm::SmallString<256> json(buildPath);
  llvm::sys::path::append(json, "compile_commands.json");
  if (!llvm::sys::fs::exists(json))
    return CompilationDatabase::loadFromDirectory(buildPath, error);
  std::unique_ptr<CompilationDatabase> base = JSONCompilationDatabase::loadFromFile(
      json, error, JSONCommandLineSyntax::AutoDetect);
  if (!base)
    return nullptr;
  // `@file` response files, as Clang's own loader expands them.
  return std::make_unique<ProjectDatabase>(expandResponseFiles(
      std::make_unique<TextResponseFiles>(std::move(base)),
      llvm::vfs::getRealFileSystem()));
}

} // namespace warplint
