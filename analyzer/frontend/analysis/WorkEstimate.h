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
  /// The counter or flag of the first test that holds once per grid (the
  /// last block to arrive) under which some work site of [begin, end) is
  /// counted in one block of the launch; empty where none is.
  std::string oncePerGridIn(size_t begin, size_t end) const;
  /// The share of the block's estimated warp instructions issued by the
  /// work sites [begin, end) (a loop's body).
  double issuedShare(size_t begin, size_t end) const;
  /// How many times per block a warp instruction under a mask is issued
  /// (loop iterations and warps that reach it), in the estimate's block and
  /// environment (0 where none of its warps reaches it); and the same with
  /// the loops nvcc unrolls fully counted once: how often each of the
  /// instructions nvcc makes of it runs.
  struct Runs {
    double all = 0, perInstruction = 0;
  };
  std::vector<Runs> runsPerBlock(const std::vector<LaneExpr> &masks) const;
  /// Whether the estimate's counts rest on values the program shows only:
  /// no unknown at a representative value, no condition on data taken as
  /// true, no loop at the cap or not followed (a switch's every case
  /// counted only makes its bodies look busier).
  bool firm() const { return Firm; }

private:
  const Context &Ctx;
  Shape Block;
  Env Base;
  bool Firm = true;
  KernelRecord::Issue Record;
  /// Per work site of the model: its piece of the estimate's work item (the
  /// item, and the site's share of the item's weight).
  std::vector<std::pair<size_t, double>> SiteItem;
  std::vector<double> Issued, Lanes;
  /// Per work item, the name of its once-per-grid test (empty: none).
  std::vector<std::string> OnceName;
};

} // namespace warplint

#endif
