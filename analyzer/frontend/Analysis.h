//===- Analysis.h - warplint's pass over one translation unit ---*- C++ -*-===//
#ifndef WARPLINT_FRONTEND_ANALYSIS_H
#define WARPLINT_FRONTEND_ANALYSIS_H

#include "Action.h"
#include "KernelWalker.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"

#include <memory>
#include <set>

namespace warplint {

/// What the analyses of one translation unit share: source positions and
/// text, NOLINT, and emitting a finding (clang diagnostic + JSON record).
class Reporter {
public:
  virtual ~Reporter() = default;
  virtual SourcePos pos(clang::SourceLocation loc) = 0;
  virtual std::string text(clang::SourceRange r) = 0;
  virtual bool suppressed(clang::SourceLocation loc, const std::string &rule) = 0;
  /// Reports `f` of `rule` at `loc`, with the notes' origins resolved through
  /// the kernel's model and a note for each call on the way.
  virtual void emit(const clang::FunctionDecl *kernel, const KernelModel &m,
                    const std::string &rule, const Finding &f,
                    clang::SourceLocation loc, clang::SourceRange range,
                    const std::vector<const clang::CallExpr *> &calls) = 0;
};

/// A kernel's name as JSON reports it (unqualified, no template arguments)
/// and its instantiation's signature.
std::string kernelName(const clang::FunctionDecl *k);
std::string kernelSignature(const clang::FunctionDecl *k);

/// The consumer that analyzes every kernel of a translation unit. `ownIds`
/// receives the diagnostic ids warplint reports with.
std::unique_ptr<clang::ASTConsumer> makeAnalysis(clang::CompilerInstance &ci,
                                                 const ToolOptions &opts,
                                                 Report &report,
                                                 std::set<unsigned> &ownIds);

} // namespace warplint

#endif
