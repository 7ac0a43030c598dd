//===- LaunchShapes.h - where a kernel's block shape comes from -*- C++ -*-===//
#ifndef WARPLINT_FRONTEND_LAUNCHSHAPES_H
#define WARPLINT_FRONTEND_LAUNCHSHAPES_H

#include "model/Eval.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// Constant block shapes of every `<<<grid, block>>>` launch in the
/// translation unit, by kernel (canonical declaration; a template's
/// specialization for launches of an instantiation). Launches whose block
/// argument is not a constant are counted in `unknown`.
struct LaunchSites {
  std::map<const clang::FunctionDecl *, std::vector<Shape>> shapes;
  std::map<const clang::FunctionDecl *, int> unknown;
};
LaunchSites collectLaunchSites(clang::ASTContext &ac);

/// `__attribute__((annotate("warplint.block_dim", X, Y, Z)))` on the kernel.
std::optional<Shape> annotatedShape(clang::ASTContext &ac,
                                    const clang::FunctionDecl *kernel);

/// `__launch_bounds__(N)`: at most N threads per block.
std::optional<int64_t> launchBound(clang::ASTContext &ac,
                                   const clang::FunctionDecl *kernel);

} // namespace warplint

#endif
