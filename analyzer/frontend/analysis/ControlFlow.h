//===- ControlFlow.h - branches, barriers, hazards, launches ----*- C++ -*-===//
//
// The facts the control-flow and warp-synchronisation rules judge, built
// from what the kernel walker recorded: each branch's split of the warp, who
// reaches each barrier and warp collective, shared values passed between
// lanes with no barrier between, and launches of partial warps.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_ANALYSIS_CONTROLFLOW_H
#define WARPLINT_FRONTEND_ANALYSIS_CONTROLFLOW_H

#include "frontend/analysis/KernelScope.h"

namespace warplint {

/// Branch records and the findings of the rules on branches, barriers,
/// collectives and hazards, for one kernel configuration.
void analyzeControlFlow(KernelScope &scope);

/// The findings of the rules on the translation unit's launch sites.
std::vector<Message> analyzeLaunches(clang::ASTContext &ac,
                                     const LaunchSites &sites,
                                     const ToolOptions &opts,
                                     Resolver &resolver);

} // namespace warplint

#endif
