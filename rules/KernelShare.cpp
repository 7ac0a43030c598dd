#include "rules/KernelShare.h"

#include <cmath>

namespace warplint {

const RuleOption MinKernelShare{
    "MinKernelShare", 2.0,
    "warn where the body's idle lanes waste at least this percentage of the "
    "kernel's estimated warp instructions; a remark below it",
    0.0};

const RuleOption MinTrafficShare{
    "MinTrafficShare", 2.0,
    "warn where the access's extra traffic is at least this percentage of "
    "the kernel's estimated traffic in its memory space, or where it runs "
    "at least 1/8 as often as the kernel's busiest access there; a remark "
    "below it",
    0.0};

namespace {
/// "~9", "~0.4", "<0.1": a percentage as the messages give it (whole
/// percents from 10 on, one decimal below).
std::string percentText(double percent) {
  return percent < 0.1   ? "<0.1"
         : percent < 10 ? "~" + formatFigure(std::round(percent * 10) / 10)
                        : "~" + formatFigure(std::round(percent));
}
} // namespace

void weighBody(const BranchFacts &f, const RuleContext &opts, Finding &out) {
  if (!f.wasteShare)
    return;
  double percent = 100 * *f.wasteShare;
  // Outside a loop the estimate counts once, the share is an upper bound;
  // it stands where it stays over the bar with the loop run RepeatedTrips
  // times (a search halving a representative range), and is a remark where
  // it does not (a climb that holds the kernel's work).
  const double repeated =
      f.wasteShareRepeated ? 100 * *f.wasteShareRepeated : percent;
  const bool atMost = f.countedOnceLine != 0;
  out.message += "; its idle lanes waste " +
                 std::string(atMost ? "at most " : "") + percentText(percent) +
                 "% of the kernel's issue slots";
  if (!f.oncePerGrid.empty())
    out.notes.push_back(
        {-1, "the work under the test on '" + f.oncePerGrid +
                 "' runs only in the last block to arrive at the counter: "
                 "counted once per launch, not once per block"});
  if (percent < opts[MinKernelShare]) {
    out.remark = true;
    out.notes.push_back(
        {-1, "under " + formatFigure(opts[MinKernelShare]) +
                 "% (MinKernelShare): a remark, not a warning"});
    return;
  }
  if (!atMost)
    return;
  // The kernel's loop that runs an unknown number of times (a search or a
  // climb until nothing changes) holds work the estimate counts once.
  const bool under = repeated < opts[MinKernelShare];
  out.remark |= under;
  out.notes.push_back(
      {-1, "the loop at line " + std::to_string(f.countedOnceLine) +
               " runs an unknown number of times and is counted once, so "
               "this share is an upper bound; were it to run " +
               std::to_string(RepeatedTrips) + " times, the share would be " +
               percentText(repeated) + "%" +
               (under ? ": a remark, not a warning" : "")});
}

void weighAccess(const AccessWeight &w, Space in, const RuleContext &opts,
                 const char *unit, Finding &out) {
  const double percent = 100 * w.share;
  const char *space = in == Space::Shared ? "shared-memory" : "global";
  // A note, not the message: a finding's message is what its launch
  // configurations and instantiations are compared by.
  std::string share = "its extra " + std::string(unit) + " are " +
                      percentText(percent) + "% of the kernel's estimated " +
                      space + " " + unit;
  if (!(percent < opts[MinTrafficShare] && w.runs < RareRuns)) {
    out.notes.push_back({-1, share});
  } else {
    out.remark = true;
    const double every = w.runs > 0 ? 1 / w.runs : 0;
    out.notes.push_back(
        {-1, share + ", under " + formatFigure(opts[MinTrafficShare]) +
                 "% (MinTrafficShare), on an access that runs " +
                 (every >= 1000 ? "less than 1/1000"
                                : "1/" + formatFigure(std::round(every))) +
                 " as often as the kernel's busiest " + space +
                 " access: a remark, not a warning" +
                 (w.assumes.empty()
                      ? ""
                      : " (the kernel's estimate takes " + w.assumes + ")")});
  }
}

} // namespace warplint
