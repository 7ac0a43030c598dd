//===- WorkEstimate.h - the warp instructions a kernel issues ---*- C++ -*-===//
#ifndef WARPLINT_FRONTEND_ANALYSIS_WORKESTIMATE_H
#define WARPLINT_FRONTEND_ANALYSIS_WORKESTIMATE_H

#include "frontend/launches/LaunchShapes.h"
#include "frontend/walker/KernelWalker.h"
#include "report/Report.h"

namespace warplint {

/// The kernel's work estimate for one launch configuration (model/Issue.h):
/// each piece of work issued by the warps that reach it, an if-body nvcc
/// predicates (lighter than MinBranchWeight) by those that reach the if.
KernelRecord::Issue estimateKernelIssue(const clang::FunctionDecl *kernel,
                                        const KernelModel &m,
                                        const ShapeChoice &choice,
                                        const LaunchSites &sites);

} // namespace warplint

#endif
