#include "frontend/project/ForeignDefinitions.h"

#include "frontend/project/ProjectLaunches.h"

#include "clang/AST/ASTImporter.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>

using namespace clang;

namespace warplint {

ForeignDefinitions::ForeignDefinitions() = default;
ForeignDefinitions::ForeignDefinitions(ForeignDefinitions &&) = default;
ForeignDefinitions::~ForeignDefinitions() = default;

namespace {
thread_local const ForeignDefinitions *Current = nullptr;
} // namespace

ForeignScope::ForeignScope(const ForeignDefinitions *defs) : Saved(Current) {
  Current = defs;
}
ForeignScope::~ForeignScope() { Current = Saved; }

const FunctionDecl *definitionOf(const FunctionDecl *f) {
  if (!f)
    return nullptr;
  const FunctionDecl *def = nullptr;
  if (f->hasBody(def) && def)
    return def;
  if (Current) {
    auto it = Current->byName.find(f->getCanonicalDecl());
    if (it != Current->byName.end())
      return it->second;
  }
  return nullptr;
}

std::string whyNotDefined(const std::string &name) {
  if (!Current)
    return "";
  auto it = Current->why.find(name);
  return it == Current->why.end() ? "" : it->second;
}

namespace {

bool deviceSide(const FunctionDecl *f) {
  return f->hasAttr<CUDAGlobalAttr>() || f->hasAttr<CUDADeviceAttr>();
}

/// Is `f` a device function of the program's own (not the toolkit's, not
/// a builtin or an intrinsic), with external linkage, not a template or a
/// method, that no declaration in this translation unit defines?
bool definedElsewhere(const FunctionDecl *f, const SourceManager &sm) {
  return f && !f->hasBody() && !f->getBuiltinID() && f->getIdentifier() &&
         !f->getName().starts_with("__") && f->hasAttr<CUDADeviceAttr>() &&
         f->isExternallyVisible() && !f->isTemplateInstantiation() &&
         !f->getDescribedFunctionTemplate() && !isa<CXXMethodDecl>(f) &&
         !sm.isInSystemHeader(f->getLocation());
}

/// The functions defined elsewhere that the kernels call, directly or
/// through the functions they call that are defined here.
struct UndefinedCallees : RecursiveASTVisitor<UndefinedCallees> {
  const SourceManager &SM;
  std::vector<const FunctionDecl *> found, work;
  std::set<const FunctionDecl *> seen;
  explicit UndefinedCallees(const SourceManager &sm) : SM(sm) {}
  void from(const std::vector<const FunctionDecl *> &kernels) {
    for (const FunctionDecl *k : kernels)
      add(k);
    while (!work.empty()) {
      const FunctionDecl *f = work.back();
      work.pop_back();
      TraverseStmt(f->getBody());
    }
  }
  void add(const FunctionDecl *f) {
    if (const FunctionDecl *def = definitionOf(f)) {
      if (seen.insert(def).second && !SM.isInSystemHeader(def->getLocation()))
        work.push_back(def);
    } else if (definedElsewhere(f, SM) &&
               seen.insert(f->getCanonicalDecl()).second) {
      found.push_back(f);
    }
  }
  bool VisitCallExpr(CallExpr *c) {
    if (const FunctionDecl *f = c->getDirectCallee())
      add(f);
    return true;
  }
};

/// A file's device function definitions by name, gathered once per file.
struct Definitions : RecursiveASTVisitor<Definitions> {
  std::multimap<std::string, FunctionDecl *> byName;
  bool VisitFunctionDecl(FunctionDecl *f) {
    if (f->getIdentifier() && f->doesThisDeclarationHaveABody() &&
        deviceSide(f))
      byName.emplace(f->getName().str(), f);
    return true;
  }
};

/// A file another one reads: its AST (null: it did not parse), its
/// definitions, and the importer that brings them over.
struct Source {
  ASTUnit *unit = nullptr;
  Definitions defs;
  std::unique_ptr<ASTImporter> importer;
};

} // namespace

ForeignDefinitions
importDefinitions(ASTContext &ac,
                  const std::vector<const FunctionDecl *> &kernels,
                  ProjectLaunches &project, const std::string &mainFile,
                  size_t maxFiles) {
  ForeignDefinitions out;
  ForeignScope scope(&out);
  std::map<std::string, Source> sources; // by file, each parsed once
  std::set<std::string> tried;
  // Rounds: an imported definition may call another defined elsewhere.
  for (int round = 0; round < 4; ++round) {
    UndefinedCallees uc(ac.getSourceManager());
    uc.from(kernels);
    bool progress = false;
    for (const FunctionDecl *f : uc.found) {
      std::string mangled = mangledName(ac, f);
      if (!tried.insert(mangled).second)
        continue;
      std::string name = f->getName().str();
      std::string why = "no file of the run or of the compile database "
                        "defines it";
      bool imported = false;
      for (const std::string &file : project.filesNaming(name, mainFile)) {
        std::string where = llvm::sys::path::filename(file).str();
        auto it = sources.find(file);
        if (it == sources.end()) {
          if (sources.size() >= maxFiles) {
            why = "warplint reads at most " + std::to_string(maxFiles) +
                  " other files for a file's separately compiled device "
                  "functions";
            break;
          }
          it = sources.emplace(file, Source()).first;
          if (std::unique_ptr<ASTUnit> unit = project.parseUnit(file)) {
            it->second.unit = unit.get();
            it->second.defs.TraverseDecl(
                unit->getASTContext().getTranslationUnitDecl());
            out.units.push_back(std::move(unit));
          }
        }
        Source &src = it->second;
        if (!src.unit) {
          why = "a file that names it, " + where + ", could not be parsed";
          continue;
        }
        FunctionDecl *def = nullptr;
        auto [from, to] = src.defs.byName.equal_range(name);
        for (auto d = from; d != to && !def; ++d)
          if (mangledName(src.unit->getASTContext(), d->second) == mangled)
            def = d->second;
        if (!def)
          continue;
        if (!src.importer)
          src.importer = std::make_unique<ASTImporter>(
              ac, ac.getSourceManager().getFileManager(),
              src.unit->getASTContext(), src.unit->getFileManager(),
              /*MinimalImport=*/false);
        llvm::Expected<Decl *> copy = src.importer->Import(def);
        if (!copy) {
          why = "its definition in " + where + " could not be imported: " +
                llvm::toString(copy.takeError());
        } else {
          imported = progress = true;
          if (!f->hasBody())
            if (auto *d = dyn_cast<FunctionDecl>(*copy))
              out.byName[f->getCanonicalDecl()] = d;
        }
        break;
      }
      if (!imported)
        out.why[f->getQualifiedNameAsString()] = why;
    }
    if (!progress)
      break;
  }
  return out;
}

} // namespace warplint
