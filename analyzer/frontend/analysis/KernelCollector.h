//===- KernelCollector.h - the kernels of a translation unit ----*- C++ -*-===//
#ifndef WARPLINT_FRONTEND_ANALYSIS_KERNELCOLLECTOR_H
#define WARPLINT_FRONTEND_ANALYSIS_KERNELCOLLECTOR_H

#include "clang/AST/ASTContext.h"
#include "llvm/Support/FileSystem.h"

#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// The kernels a translation unit defines, instantiations included, each
/// once; the kernel templates of the main file it instantiates nowhere; and
/// the kernels of library headers it instantiates with its own types.
struct TranslationUnitKernels {
  std::vector<const clang::FunctionDecl *> kernels;
  std::vector<std::string> uninstantiated;
  /// "cub::DeviceReduceKernel (with MyOp)": not analyzed, and said so.
  std::vector<std::string> library;
};

/// `only`: the kernels defined in that file alone (a header analyzed in the
/// context of a file that includes it).
TranslationUnitKernels
collectKernels(clang::ASTContext &ac,
               std::optional<llvm::sys::fs::UniqueID> only);

} // namespace warplint

#endif
