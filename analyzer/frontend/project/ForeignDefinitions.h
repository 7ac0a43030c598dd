//===- ForeignDefinitions.h - device functions of other files --*- C++ -*-===//
//
// Separately compiled device code (nvcc -rdc): a kernel calls a __device__
// function that its translation unit declares and another file of the run
// or of the compile database defines. That file is parsed device side with
// its own compile command, and the definition is imported into this
// translation unit (clang's ASTImporter, as its cross-translation-unit
// analysis does), so that the kernel walker follows the call as it follows
// one defined here, and reports the accesses at their lines in that file.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_FOREIGNDEFINITIONS_H
#define WARPLINT_FRONTEND_FOREIGNDEFINITIONS_H

#include "clang/AST/ASTContext.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTUnit;
}

namespace warplint {

class ProjectLaunches;

/// What importDefinitions did: the other files' ASTs, which the imported
/// definitions were read from (kept for as long as the translation unit is
/// analyzed), and the functions left without a definition.
struct ForeignDefinitions {
  std::vector<std::unique_ptr<clang::ASTUnit>> units;
  /// Why a function (by name) stays without a definition: no file of the
  /// project defines it, or its definition could not be imported.
  std::map<std::string, std::string> why;
  /// Declarations that the imported definition does not redeclare, by
  /// their canonical declaration: an `extern "C"` function declared here
  /// with other parameter types (`const double a[]` where its file has
  /// `double a[]`), which the linker joins by name.
  std::map<const clang::FunctionDecl *, const clang::FunctionDecl *> byName;
  ForeignDefinitions();
  ForeignDefinitions(ForeignDefinitions &&);
  ~ForeignDefinitions();
};

/// Imports into `ac` the definitions, from the project's other files, of
/// the device functions that `kernels` call (directly or through functions
/// defined here) and this translation unit does not define. Only files
/// whose text names such a function are parsed, at most `maxFiles`.
ForeignDefinitions
importDefinitions(clang::ASTContext &ac,
                  const std::vector<const clang::FunctionDecl *> &kernels,
                  ProjectLaunches &project, const std::string &mainFile,
                  size_t maxFiles = 8);

/// The definition of `f` the kernel walker follows: its own (any
/// redeclaration's body), or the one imported for it by name while
/// `ForeignScope` holds this thread's imports; null when there is none.
const clang::FunctionDecl *definitionOf(const clang::FunctionDecl *f);

/// Why the function named `name` has no definition here, as a clause
/// ("no file of the run or of the compile database defines it"), or ""
/// when the imports on this thread do not say.
std::string whyNotDefined(const std::string &name);

/// Makes `defs` the imports definitionOf() consults on this thread (a
/// translation unit is analyzed on one thread) for the scope's lifetime.
class ForeignScope {
public:
  explicit ForeignScope(const ForeignDefinitions *defs);
  ~ForeignScope();

private:
  const ForeignDefinitions *Saved;
};

} // namespace warplint

#endif
