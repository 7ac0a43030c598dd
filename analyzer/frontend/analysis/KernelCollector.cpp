#include "frontend/analysis/KernelCollector.h"
#include "frontend/launches/LaunchShapes.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace clang;

namespace warplint {
namespace {

class KernelCollector : public RecursiveASTVisitor<KernelCollector> {
public:
  KernelCollector(const SourceManager &sm,
                  std::optional<llvm::sys::fs::UniqueID> only)
      : SM(sm), Only(only) {}
  std::vector<const FunctionDecl *> kernels;
  /// Kernel templates of the main file with no instantiation.
  std::vector<std::string> uninstantiated;
  bool shouldVisitTemplateInstantiations() const { return true; }
  // Kernels are declarations, and no statement or type holds one: bodies,
  // initializers and types are not walked (the walk covers every header
  // the file includes, the CUDA runtime's among them).
  bool TraverseStmt(Stmt *, DataRecursionQueue * = nullptr) { return true; }
  bool TraverseTypeLoc(TypeLoc, bool = true) { return true; }
  // Nor are a function's parameters and template arguments: the function
  // itself is all there is to see (its instantiations are reached through
  // its template).
  bool TraverseFunctionDecl(FunctionDecl *f) {
    return WalkUpFromFunctionDecl(f);
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *f) {
    return WalkUpFromCXXMethodDecl(f);
  }
  // A system header's declarations are only looked at for library kernels
  // the program instantiates (VisitFunctionDecl): a kernel is a function at
  // namespace scope, so of a system header's namespace (which holds only
  // that header's declarations) only the namespaces and kernels are seen,
  // without the visitor's walk of every class and type in it.
  bool TraverseDecl(Decl *d) {
    if (fromPreamble(d))
      return true;
    if (d && !isa<TranslationUnitDecl>(d) &&
        SM.isInSystemHeader(d->getLocation())) {
      systemDecl(d);
      return true;
    }
    return RecursiveASTVisitor::TraverseDecl(d);
  }
  void systemDecl(Decl *d) {
    if (auto *dc = dyn_cast<NamespaceDecl>(d))
      for (Decl *c : dc->decls())
        systemDecl(c);
    else if (auto *ls = dyn_cast<LinkageSpecDecl>(d))
      for (Decl *c : ls->decls())
        systemDecl(c);
    else if (auto *t = dyn_cast<FunctionTemplateDecl>(d)) {
      if (t->getTemplatedDecl()->hasAttr<CUDAGlobalAttr>())
        for (FunctionDecl *f : t->specializations())
          VisitFunctionDecl(f);
    } else if (auto *f = dyn_cast<FunctionDecl>(d))
      VisitFunctionDecl(f);
  }
  bool TraverseCXXConstructorDecl(CXXConstructorDecl *) { return true; }
  bool TraverseCXXDestructorDecl(CXXDestructorDecl *) { return true; }
  bool TraverseCXXConversionDecl(CXXConversionDecl *) { return true; }
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *t) {
    const FunctionDecl *f = t->getTemplatedDecl();
    if (f->hasAttr<CUDAGlobalAttr>() && t->isThisDeclarationADefinition() &&
        t->specializations().empty() &&
        SM.isInMainFile(SM.getExpansionLoc(t->getLocation())))
      uninstantiated.push_back(t->getNameAsString());
    return true;
  }
  /// Library kernels instantiated with the program's types.
  std::vector<std::string> library;
  std::set<std::string> librarySeen;
  // The program's own types among a type's parts (template arguments,
  // pointees), by name.
  void userTypes(QualType t, std::set<std::string> &out, int depth = 0) {
    if (t.isNull() || depth > 8)
      return;
    t = t.getCanonicalType();
    if (t->isPointerType() || t->isReferenceType())
      return userTypes(t->getPointeeType(), out, depth + 1);
    if (const auto *a = dyn_cast<ArrayType>(t.getTypePtr()))
      return userTypes(a->getElementType(), out, depth + 1);
    const TagDecl *td = t->getAsTagDecl();
    if (!td)
      return;
    if (!SM.isInSystemHeader(td->getLocation())) {
      out.insert(
          QualType(t).getAsString(td->getASTContext().getPrintingPolicy()));
      return;
    }
    if (const auto *sp = dyn_cast<ClassTemplateSpecializationDecl>(td))
      templateArgs(sp->getTemplateArgs().asArray(), out, depth + 1);
  }
  void templateArgs(ArrayRef<TemplateArgument> args, std::set<std::string> &out,
                    int depth) {
    for (const TemplateArgument &a : args) {
      if (a.getKind() == TemplateArgument::Type)
        userTypes(a.getAsType(), out, depth);
      else if (a.getKind() == TemplateArgument::Pack)
        templateArgs(a.pack_elements(), out, depth);
    }
  }
  bool VisitFunctionDecl(FunctionDecl *f) {
    if (!f->hasAttr<CUDAGlobalAttr>() || !f->doesThisDeclarationHaveABody() ||
        f->isDependentContext() || f->isInvalidDecl())
      return true;
    if (SM.isInSystemHeader(f->getLocation())) {
      // A library's kernel is not analyzed; one the program instantiates
      // with its own types runs the program's code (a functor's loads), so
      // it is named instead of being passed over in silence.
      if (const TemplateArgumentList *args =
              f->getTemplateSpecializationArgs()) {
        std::set<std::string> types;
        templateArgs(args->asArray(), types, 0);
        if (!types.empty()) {
          std::string name = f->getQualifiedNameAsString() + " (with ";
          size_t i = 0;
          for (const std::string &t : types)
            name += (i++ ? ", " : "") + t;
          name += ")";
          if (librarySeen.insert(name).second)
            library.push_back(name);
        }
      }
      return true;
    }
    if (Only) {
      // A header analyzed in the context of a file that includes it.
      auto fe = SM.getFileEntryRefForID(
          SM.getFileID(SM.getExpansionLoc(f->getLocation())));
      if (!fe || fe->getUniqueID() != *Only)
        return true;
    }
    // One kernel per place in the source and signature: a file included
    // more than once without a guard (or including itself) repeats its
    // definitions, which Clang reports as errors; they are one kernel.
    PresumedLoc p = SM.getPresumedLoc(SM.getSpellingLoc(f->getLocation()));
    std::string key = (p.isValid() ? std::string(p.getFilename()) + ":" +
                                         std::to_string(p.getLine()) + ":" +
                                         std::to_string(p.getColumn())
                                   : "") +
                      " " + f->getType().getAsString();
    if (f->getTemplateSpecializationArgs()) {
      llvm::raw_string_ostream os(key);
      os << " ";
      f->getNameForDiagnostic(os, f->getASTContext().getPrintingPolicy(),
                              /*Qualified=*/true);
    }
    if (seen.insert(key).second)
      kernels.push_back(f);
    return true;
  }

private:
  const SourceManager &SM;
  std::optional<llvm::sys::fs::UniqueID> Only;
  std::set<std::string> seen;
};

} // namespace

TranslationUnitKernels
collectKernels(ASTContext &ac, std::optional<llvm::sys::fs::UniqueID> only) {
  KernelCollector kc(ac.getSourceManager(), only);
  kc.TraverseDecl(ac.getTranslationUnitDecl());
  return {std::move(kc.kernels), std::move(kc.uninstantiated),
          std::move(kc.library)};
}

} // namespace warplint
