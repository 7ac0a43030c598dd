//===- ControlFlow.h - branches, barriers, hazards, launches ----*- C++ -*-===//
//
// The rules about control flow and warp synchronisation, run over what the
// kernel walker recorded: each branch's split of the warp, who reaches each
// barrier and warp collective, shared values passed between lanes with no
// barrier between, and launches of partial warps.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_CONTROLFLOW_H
#define WARPLINT_FRONTEND_CONTROLFLOW_H

#include "Analysis.h"
#include "LaunchShapes.h"

namespace warplint {

void analyzeControlFlow(clang::ASTContext &ac, const clang::FunctionDecl *kernel,
                        const KernelModel &m, const ShapeChoice &choice,
                        const ToolOptions &opts, Report &report,
                        Reporter &reporter);

/// The kernel's work estimate for one launch configuration (model/Issue.h):
/// each piece of work issued by the warps that reach it, an if-body nvcc
/// predicates (lighter than branchMinWeight) by those that reach the if.
KernelRecord::Issue estimateKernelIssue(const clang::FunctionDecl *kernel,
                                        const KernelModel &m,
                                        const ShapeChoice &choice,
                                        const LaunchSites &sites,
                                        const ToolOptions &opts);

void analyzeLaunches(clang::ASTContext &ac, const LaunchSites &sites,
                     const ToolOptions &opts, Reporter &reporter);

} // namespace warplint

#endif
