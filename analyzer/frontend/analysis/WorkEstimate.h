//===- WorkEstimate.h - the warp instructions a kernel issues ---*- C++ -*-===//
#ifndef WARPLINT_FRONTEND_ANALYSIS_WORKESTIMATE_H
#define WARPLINT_FRONTEND_ANALYSIS_WORKESTIMATE_H

#include "frontend/launches/LaunchShapes.h"
#include "frontend/walker/KernelWalker.h"
#include "report/Report.h"

#include <optional>
#include <vector>

namespace warplint {

/// The kernel's work estimate for one launch configuration (model/Issue.h):
/// each piece of work issued by the warps that reach it, an if-body nvcc
/// predicates (lighter than MinBranchWeight) by those that reach the if.
class KernelIssue {
public:
  KernelIssue(const clang::FunctionDecl *kernel, const KernelModel &m,
              const ShapeChoice &choice, const LaunchSites &sites);
  /// The figure as reported (JSON kernels: issue).
  const KernelRecord::Issue &record() const { return Record; }
  /// The share of the kernel's warp instructions that the idle lanes of the
  /// work sites [begin, end) waste (issued minus lane instructions / 32),
  /// none when the range is empty or the kernel issues nothing.
  std::optional<double> wasteShare(size_t begin, size_t end) const;

private:
  KernelRecord::Issue Record;
  /// Per work site of the model: its piece of the estimate's work item (the
  /// item, and the site's share of the item's weight).
  std::vector<std::pair<size_t, double>> SiteItem;
  std::vector<double> Issued, Lanes;
};

} // namespace warplint

#endif
