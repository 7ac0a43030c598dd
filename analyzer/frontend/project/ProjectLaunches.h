//===- ProjectLaunches.h - launches in the project's other files -*- C++ -*-===//
//
// A kernel defined in one translation unit is often launched from another
// (a library of kernels, an executable that launches them). The launches of
// the other files of the run and of the compile database give such a kernel
// its block shape and the constant arguments that bind its parameters, as a
// launch in its own file would.
//
// Kernels are matched across files by their mangled name, so overloads and
// template instantiations stay apart. Another file is parsed (device side,
// with its own compile command) only when its text names a kernel that its
// own file does not launch, or a launcher function that nothing in its own
// file calls, and at most once per run.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_PROJECTLAUNCHES_H
#define WARPLINT_FRONTEND_PROJECTLAUNCHES_H

#include "frontend/launches/LaunchShapes.h"
#include "frontend/project/Mentions.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTUnit;
}

namespace warplint {

/// What the launches of one kernel in other files say, without Clang.
struct ForeignLaunches {
  std::vector<Shape> shapes, partial;
  int unknown = 0;
  std::map<unsigned, LaunchSites::ArgValues> args;
  std::vector<std::string> files; // file names of the launches, in order
};
/// By the kernel's mangled name.
using LaunchTable = std::map<std::string, ForeignLaunches>;
/// Calls of functions defined elsewhere, by the function's mangled name.
using CallTable = std::map<std::string, std::vector<CallValues>>;

/// What one file tells the others: its launches, and its calls of functions
/// it does not define (launcher wrappers defined with their kernels).
struct FileFacts {
  LaunchTable launches;
  CallTable calls;
};

/// The facts of one translation unit.
FileFacts exportFacts(clang::ASTContext &ac, const LaunchSites &sites);

/// The kernel's name as the linker sees it (Itanium mangling; the plain name
/// for extern "C").
std::string mangledName(clang::ASTContext &ac, const clang::FunctionDecl *k);

/// The launch facts of the project's other files, gathered on demand.
class ProjectLaunches {
public:
  /// Parses `file` device side with its own compile command and returns its
  /// launch facts, or nullopt when it could not be parsed at all.
  using Parser = std::function<std::optional<FileFacts>(const std::string &)>;

  /// `files`: the run's files and the compile database's, absolute.
  ProjectLaunches(std::vector<std::string> files, Parser parse);

  /// The file's text, read once per run ("" when it cannot be read). Safe
  /// to call from several threads, as are the other members.
  const std::string &text(const std::string &file);

  /// The facts of a file the run has parsed anyway.
  void remember(const std::string &file, FileFacts facts);

  /// The launches, in files other than `except`, of the kernels named
  /// `names` (identifiers), merged over the files, by mangled name.
  LaunchTable launchesOf(const std::vector<std::string> &names,
                         const std::string &except);
  /// The calls, in files other than `except`, of the functions named
  /// `names`, by mangled name, in file order.
  CallTable callsOf(const std::vector<std::string> &names,
                    const std::string &except);

  /// Parses a file device side with its own compile command into an AST
  /// the caller keeps (separately compiled device functions are imported
  /// from it); null when it cannot be parsed.
  using UnitParser =
      std::function<std::unique_ptr<clang::ASTUnit>(const std::string &)>;
  void setUnitParser(UnitParser parse) { ParseUnit = std::move(parse); }
  std::unique_ptr<clang::ASTUnit> parseUnit(const std::string &file);
  /// The files other than `except` whose text calls or defines a function
  /// `ident` (Mention::Call), in order.
  std::vector<std::string> filesNaming(const std::string &ident,
                                       const std::string &except);

private:
  /// The facts of every file other than `except` whose text names one of
  /// `names` as `how` says.
  std::vector<const FileFacts *> naming(const std::vector<std::string> &names,
                                        const std::string &except, Mention how);
  const FileFacts *factsOf(const std::string &file);

  std::vector<std::string> Files;
  Parser Parse;
  UnitParser ParseUnit;
  /// Files analyzed at once (-j) share these: a file is read and parsed by
  /// the first that asks, the others wait for its result.
  std::mutex Lock;
  std::map<std::string, std::shared_future<std::optional<FileFacts>>> Parsed;
  /// The files' text, read once.
  std::map<std::string, std::string> Text;
};

/// The calls other files make of `launchers` (this file's launcher
/// functions that nothing here calls), for collectLaunchSites.
CallsByFunction
importCalls(clang::ASTContext &ac,
            const std::vector<const clang::FunctionDecl *> &launchers,
            ProjectLaunches &project, const std::string &mainFile);

/// Adds to `sites` the launches other files make of the kernels in `kernels`
/// that this translation unit does not launch; `sites.foreign` then says
/// where they came from.
void importLaunches(clang::ASTContext &ac, LaunchSites &sites,
                    const std::vector<const clang::FunctionDecl *> &kernels,
                    ProjectLaunches &project, const std::string &mainFile);

} // namespace warplint

#endif
