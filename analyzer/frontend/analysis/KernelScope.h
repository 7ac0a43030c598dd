//===- KernelScope.h - one kernel configuration being judged ----*- C++ -*-===//
//
// What the code that judges each kind of site (accesses, branches, barriers
// and collectives, hazards) shares while one kernel is analyzed under one
// launch configuration: the parse, the file's options and rules, the kernel's
// model, the block shapes, and the output its records and findings go to.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_ANALYSIS_KERNELSCOPE_H
#define WARPLINT_FRONTEND_ANALYSIS_KERNELSCOPE_H

#include "frontend/analysis/Action.h"
#include "frontend/analysis/Resolve.h"
#include "frontend/analysis/WorkEstimate.h"
#include "frontend/launches/LaunchShapes.h"
#include "frontend/walker/KernelWalker.h"
#include "report/Pipeline.h"

#include <string>
#include <vector>

namespace warplint {

struct KernelScope {
  clang::ASTContext &ac;
  const ToolOptions &opts;
  const clang::FunctionDecl *kernel;
  const KernelModel &m;
  const ShapeChoice &choice;
  Resolver &resolver;
  KernelOutput &out;
  /// The kernel's work estimate, once the accesses are analyzed (what the
  /// branch rules weigh a body against).
  const KernelIssue *issue = nullptr;

  /// Where a finding at `loc` (underlining `range`, reached through
  /// `calls`) is, for the resolver.
  FindingSite site(clang::SourceLocation loc, clang::SourceRange range,
                   const std::vector<const clang::CallExpr *> &calls,
                   const clang::VarDecl *array = nullptr) const {
    return {kernel, &m.origins, loc, range, &calls, array};
  }
  /// Adds a rule's finding to the kernel's output.
  void report(const std::string &rule, const Finding &f,
              const FindingSite &at) {
    out.messages.push_back({resolver.finding(rule, f, at)});
  }
  bool explaining(const SourcePos &p) const {
    return warplint::explaining(opts, p);
  }
  /// The drawing of the access, branch or loop at `p`, printed in its
  /// place among the kernel's messages.
  void explained(const SourcePos &p, const std::string &text) {
    out.messages.push_back(explanation(p, text));
  }
  static Message explanation(const SourcePos &p, const std::string &text) {
    Message m;
    m.plain = m.explanation = true;
    m.record.pos = p;
    m.record.message = text;
    return m;
  }
};

} // namespace warplint

#endif
