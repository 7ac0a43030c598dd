#include "rules/BranchCost.h"

#include <cmath>

namespace warplint {

const RuleOption MinKernelShare{
    "MinKernelShare", 2.0,
    "warn where the body's idle lanes waste at least this percentage of the "
    "kernel's estimated warp instructions; a remark below it",
    0.0};

void weighBody(const BranchFacts &f, const RuleContext &opts, Finding &out) {
  if (!f.wasteShare)
    return;
  double percent = 100 * *f.wasteShare;
  // Whole percents from 10 on, one decimal below.
  std::string figure =
      percent < 0.1  ? "<0.1"
      : percent < 10 ? "~" + formatFigure(std::round(percent * 10) / 10)
                     : "~" + formatFigure(std::round(percent));
  out.message += "; its idle lanes waste " + figure +
                 "% of the kernel's issue slots";
  if (percent < opts[MinKernelShare]) {
    out.remark = true;
    out.notes.push_back(
        {-1, "under " + formatFigure(opts[MinKernelShare]) +
                 "% (MinKernelShare): a remark, not a warning"});
  }
}

} // namespace warplint
