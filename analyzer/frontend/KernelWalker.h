//===- KernelWalker.h - a kernel body as the model sees it ------*- C++ -*-===//
//
// Walks one kernel's body in program order, the way one thread would run it,
// but with every value a LaneExpr: locals are bound as they are assigned,
// branches merge into selects, for-loop induction variables become loop
// recurrences, device functions are inlined with their arguments bound, and
// every load and store through global, shared or constant memory becomes an
// AccessSite with the condition under which a lane reaches it.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_KERNELWALKER_H
#define WARPLINT_FRONTEND_KERNELWALKER_H

#include "model/Memory.h"
#include "rules/Rule.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <vector>

namespace warplint {

/// A __shared__ (or __constant__) array indexed with one subscript per
/// dimension: what the rules need to try another layout.
struct ArrayAccess {
  const clang::VarDecl *var = nullptr;
  std::vector<int64_t> dims;        // declared extents, outermost first
  std::vector<LaneExpr> subscripts; // one per dimension, in elements
  std::vector<const clang::Expr *> subscriptExprs;
};

struct AccessSite {
  Access access;
  const clang::ValueDecl *base = nullptr; // the allocation
  std::optional<ArrayAccess> array;
  Space space = Space::Global;
  bool store = false;
  const clang::Expr *expr = nullptr; // the lvalue accessed
  bool structMember = false;
  int64_t elementStride = 0;
  /// Calls through which the kernel reached this access, outermost first.
  std::vector<const clang::CallExpr *> calls;
};

struct KernelModel {
  Context ctx;
  std::vector<AccessSite> accesses;
  std::vector<clang::SourceRange> origins; // by LaneExpr origin id
  bool truncated = false;                  // hit a size limit
};

KernelModel walkKernel(clang::ASTContext &ac, const clang::FunctionDecl *kernel);

} // namespace warplint

#endif
