//===- Resolve.h - a rule's finding as a record of the source ---*- C++ -*-===//
//
// Rules speak of the model: a note's place is a model origin, a fix is "the
// array's inner extent becomes 33". Resolving a finding turns it into a
// DiagnosticRecord of the source: every place as a file, line and column
// (and as a handle into the parse, for the printers that draw snippets), a
// note for each call on the way and for the template instantiation, and each
// verified fix as a text edit. The NOLINT tables of the files findings fall
// in are read on the way.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_ANALYSIS_RESOLVE_H
#define WARPLINT_FRONTEND_ANALYSIS_RESOLVE_H

#include "report/Pipeline.h"
#include "rules/Rule.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// A clang place as a handle (report/Report.h), and back.
SourceHandle handleOf(clang::SourceLocation loc);
clang::SourceLocation locationOf(SourceHandle h);
RangeHandle handleOf(clang::SourceRange r);
clang::CharSourceRange rangeOf(const RangeHandle &r);
/// A fix's edit as clang's fix-it hint.
clang::FixItHint fixItOf(const FixRecord &f);

/// A kernel's name as JSON reports it (unqualified, no template arguments)
/// and its instantiation's signature.
std::string kernelName(const clang::FunctionDecl *k);
std::string kernelSignature(const clang::FunctionDecl *k);

/// Where a finding is and what it says about the source, before a rule's
/// words are added.
struct FindingSite {
  const clang::FunctionDecl *kernel = nullptr;
  /// The model's origins (KernelModel::origins): the source ranges a note
  /// with an origin points at.
  const std::vector<clang::SourceRange> *origins = nullptr;
  clang::SourceLocation loc;
  clang::SourceRange range;
  /// The calls through which the kernel reached it, outermost first.
  const std::vector<const clang::CallExpr *> *calls = nullptr;
  /// The accessed array's declaration, which a verified fix may change.
  const clang::VarDecl *array = nullptr;
};

/// Resolves findings in one translation unit.
class Resolver {
public:
  explicit Resolver(clang::ASTContext &ac) : AC(ac) {}

  /// Where `loc` is after macro expansion, as #line directives name it
  /// (a file absolute).
  SourcePos pos(clang::SourceLocation loc) const;
  /// The name the compiler's messages give `file` (a pos()'s): as the
  /// command line gave it (ToolOptions::absolutePaths), for the text
  /// output's own lines.
  std::string shown(const std::string &file) const {
    auto it = Shown.find(file);
    return it == Shown.end() ? file : it->second;
  }
  /// The source text of a token range.
  std::string text(clang::SourceRange r) const;

  /// `f` of `rule` at `site`.
  DiagnosticRecord finding(const std::string &rule, const Finding &f,
                           const FindingSite &site);
  /// A remark or warning of the analysis itself at `loc`.
  Message plain(clang::SourceLocation loc, bool remark,
                const std::string &message, bool always);

  /// The NOLINT comments of every file a finding was resolved in.
  const NolintTables &nolint() const { return Nolint; }

private:
  void place(DiagnosticRecord &d, clang::SourceLocation loc);
  std::optional<clang::FixItHint> fixIt(const FixEdit &fe,
                                        const clang::VarDecl *array) const;

  clang::ASTContext &AC;
  NolintTables Nolint;
  mutable std::map<std::string, std::string> Shown; // absolute -> as parsed
};

} // namespace warplint

#endif
