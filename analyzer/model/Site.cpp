#include "model/Site.h"

namespace warplint {

const char *spaceName(Space s) {
  switch (s) {
  case Space::Global:
    return "global";
  case Space::Shared:
    return "shared";
  case Space::Constant:
    return "constant";
  case Space::Local:
    return "local";
  }
  return "?";
}

SiteResult analyzeSite(const SiteInput &site, const Context &ctx,
                       const std::vector<Shape> &shapes) {
  CostModel cost = site.space == Space::Shared     ? sharedWavefronts
                   : site.space == Space::Constant ? constantAddresses
                                                   : globalSectors;
  // An atomic is counted as a load or store of its space is: sectors (or
  // wavefronts) as its lanes touch them, against the distinct elements
  // they ask for (measured: a scattered REDG.ADD is 21 sectors per request
  // against an ideal of 4, one address is 1 against 1). Serialization on
  // equal addresses is reported on its own.
  SiteResult out;
  AccessResult &r = out.result;
  if (site.unknown.empty())
    r = analyzeAccess(site.access, ctx, shapes, cost);
  else
    r.unknownReason = site.unknown;
  const bool memory =
      site.space == Space::Shared || site.space == Space::Global;
  // An address that depends on data, into a small fixed-size table: its
  // figure holds whatever the data (not for an atomic, whose lanes on one
  // address serialize).
  if (!r.evaluated && site.unknown.empty() && !site.atomic && memory &&
      site.tableBytes)
    if (auto t =
            analyzeWithinTable(site.access, ctx, shapes[0],
                               site.space == Space::Shared, *site.tableBytes))
      r = std::move(*t);
  // Shared rows picked by data (`deq[(w >> 6) & 63][lane]`): each lane's
  // bank is fixed by the rest of the address.
  if (!r.evaluated && site.unknown.empty() && !site.atomic &&
      site.space == Space::Shared)
    if (auto t = analyzeDataRows(site.access, ctx, shapes))
      r = std::move(*t);
  // Any other address that depends on data: estimated with the data drawn
  // at random and with the lanes agreeing on it, and reported as depending
  // on data (not evaluated).
  if (!r.evaluated && site.unknown.empty() && memory) {
    std::string whyNot;
    if (auto d = analyzeDataAddress(site.access, ctx, shapes[0], cost, &whyNot))
      r = std::move(*d);
    else if (!whyNot.empty())
      r.unknownReason = whyNot;
  }
  // A 16-byte copy that bypasses L1 whose shared destination has a bank
  // conflict: the GPU reads its global side one sector request a lane
  // (measured at destination strides of 32 to 256 bytes; 4- and 8-byte
  // copies keep their sectors).
  if (r.evaluated && site.splitPeer) {
    AccessResult dst =
        analyzeAccess(*site.splitPeer, ctx, shapes, sharedWavefronts);
    if (dst.evaluated && dst.actual > dst.ideal + 1e-9 &&
        r.activeLanes > r.actual) {
      out.splitByConflict = true;
      double by = r.activeLanes / r.actual;
      r.actual = r.activeLanes;
      for (double *x : {&r.minActual, &r.maxActual, &r.minActualRealistic,
                        &r.maxActualRealistic, &r.minRatio, &r.maxRatio,
                        &r.minRatioRealistic, &r.maxRatioRealistic,
                        &r.minVerdictRealistic, &r.worstRatio,
                        &r.minWorstIterationRealistic, &r.worstKnownVerdict})
        *x *= by;
      for (auto &it : r.iterations)
        it.actual *= by;
      for (auto &sample : r.samples) {
        sample.actual *= by;
        sample.ratio *= by;
        sample.verdict *= by;
        sample.worstIteration *= by;
      }
    }
  }
  return out;
}

} // namespace warplint
