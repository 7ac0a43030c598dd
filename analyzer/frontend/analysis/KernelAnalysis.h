//===- KernelAnalysis.h - one kernel, from AST to findings ------*- C++ -*-===//
//
// A kernel is walked once into its model, then judged under each launch
// configuration its launch sites, annotation or options give: every access
// (the model's figures, the access rules), every branch, barrier, collective
// and hazard (the control-flow rules), and its work estimate. Where the
// configurations disagree about an access, the worst is the finding, naming
// its block shape. What comes out is Clang-free: records and resolved
// findings, for the run's pipeline (report/Pipeline.h) to commit.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_ANALYSIS_KERNELANALYSIS_H
#define WARPLINT_FRONTEND_ANALYSIS_KERNELANALYSIS_H

#include "frontend/analysis/KernelScope.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warplint {

/// What analyzing a kernel needs besides the kernel.
struct KernelJob {
  clang::ASTContext &ac;
  const ToolOptions &opts;
  const LaunchSites &sites;
  Resolver &resolver;
  /// Claims a configuration for this analysis: false where the run (or,
  /// ahead of the file's turn, the file) has analyzed it already.
  std::function<bool(const std::string &)> claim;
  /// --timeout: whether the file has used its time.
  std::function<bool()> outOfTime;
};

struct KernelAnalysis {
  KernelOutput out;
  /// Set when --timeout stopped the analysis: the kernel's signature and
  /// how far it got ("k(int) (12 of 40 accesses)").
  std::optional<std::string> stopped;
};

KernelAnalysis analyzeKernel(const clang::FunctionDecl *kernel,
                             const KernelJob &job);

/// A finding of one access under one configuration, held until the
/// configurations (and an intrinsic call's instructions) are compared.
struct AccessFinding {
  DiagnosticRecord record;
  double ratio = 1; // actual over ideal
  Shape shape;
  /// The configuration it was found in (KernelOutput::variants' label).
  std::string variant;
};

/// What the accesses of one kernel configuration share.
struct AccessScope {
  KernelScope &kernel;
  /// "gridDim 256x1x1 (the launch at main.cu:52)" where the configuration's
  /// launches give the grid, else empty.
  std::string gridSource;
  /// Data atoms each warp loads from one address (markWarpUniformData()).
  std::vector<int> warpUniformData;
  /// The allocations and offsets the kernel's atomics update
  /// (AccessFacts::atAtomicAddress).
  std::set<std::pair<const clang::ValueDecl *, const Node *>> atomicAddresses;
  /// The uses of each array of the kernel (arrayInfo), built on first use.
  std::map<std::pair<const clang::VarDecl *, size_t>,
           std::shared_ptr<const std::vector<ArrayUse>>>
      arrayUses;
};

/// The model's figures for one access site under the configuration's
/// block shapes (Accesses.cpp).
SiteResult judgeAccessSite(const KernelScope &scope, const AccessSite &site);

/// A rule's finding on an access, kept until the kernel's every access is
/// judged and the access's weight in it is known (RuleSet::weigh).
struct PendingFinding {
  const char *rule = nullptr;
  Finding finding;
  FindingSite at;
  double ratio = 1; // actual over ideal
  Shape shape;
};

/// What one judged access gives its kernel's output besides its record, in
/// the order it is shown: its remark and drawing (--remarks, --explain),
/// then the rules' findings, not yet weighed.
struct AccessOutput {
  /// Its record's index in KernelOutput::accesses; NoRecord where the
  /// record was counted, not kept (ToolOptions::accessRecords).
  size_t record = NoRecord;
  static constexpr size_t NoRecord = ~size_t(0);
  std::vector<Message> messages;
  std::vector<PendingFinding> findings;
};

/// Reports one judged access site (Accesses.cpp): its record goes into the
/// kernel's output at once, its messages and findings are returned, to be
/// added once the kernel's accesses are all judged. Nothing it returns
/// refers to `judged`, which can go.
AccessOutput analyzeAccessSite(AccessScope &scope, const AccessSite &site,
                               const SiteResult &judged);

} // namespace warplint

#endif
