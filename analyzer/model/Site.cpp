#include "model/Site.h"
#include "model/MemoryDetail.h"

#include <unordered_map>

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

namespace {
// A site's figures, kept for the next site that asks the same question (in
// the same thread: the nodes are the thread's). The key names the address,
// mask and peer nodes without their origins (pointer equality of
// hash-consed nodes is structural equality), everything else the site
// says, the shapes and grid, and every fact of the context the analysis
// may read; `hold` keeps the named nodes alive, so that no address is
// reused while the entry lives. A language server's worker thread keeps
// it between runs: the figures of a kernel an edit left alone are not
// computed again.
using SiteKey = memory_detail::KeyWords;
using SiteKeyHash = memory_detail::KeyWordsHash;
struct CachedSite {
  std::vector<LaneExpr> hold;
  SiteResult result;
};
thread_local std::unordered_map<SiteKey, CachedSite, SiteKeyHash> SiteCache;
constexpr size_t SiteCacheLimit = 1 << 13;

bool siteKey(const SiteInput &site, const Context &ctx,
             const std::vector<Shape> &shapes, SiteKey &key,
             std::vector<LaneExpr> &hold) {
  OriginFreeMemo memo;
  auto node = [&](const LaneExpr &e) -> uint64_t {
    if (!e)
      return 0;
    LaneExpr n = withoutOrigins(e, memo);
    hold.push_back(n);
    return uint64_t(uintptr_t(n.get()));
  };
  std::vector<uint64_t> &w = key.words;
  const Access &a = site.access;
  w = {uint64_t(site.space), uint64_t(site.atomic),
       memory_detail::stringHash(site.unknown),
       uint64_t(site.tableBytes.has_value()),
       uint64_t(site.tableBytes.value_or(0)), node(a.offset), node(a.mask),
       uint64_t(a.elementBytes), uint64_t(site.splitPeer != nullptr)};
  std::vector<LaneExpr> roots{a.offset, a.mask};
  if (const Access *p = site.splitPeer) {
    w.insert(w.end(), {node(p->offset), node(p->mask), uint64_t(p->elementBytes)});
    roots.insert(roots.end(), {p->offset, p->mask});
  }
  w.insert(w.end(), {uint64_t(ctx.grid[0]), uint64_t(ctx.grid[1]),
                     uint64_t(ctx.grid[2]), shapes.size()});
  for (const Shape &sh : shapes)
    w.insert(w.end(), {uint64_t(sh.x), uint64_t(sh.y), uint64_t(sh.z)});
  return memory_detail::appendContextWords(ctx, roots, node, w,
                                           /*followData=*/true);
}

CostModel costOf(Space space) {
  return space == Space::Shared     ? sharedWavefronts
         : space == Space::Constant ? constantAddresses
                                    : globalSectors;
}

SiteResult analyzeSiteRest(const SiteInput &site, const Context &ctx,
                           const std::vector<Shape> &shapes,
                           AccessResult first);
} // namespace

SiteResult analyzeSite(const SiteInput &site, const Context &ctx,
                       const std::vector<Shape> &shapes) {
  // An atomic is counted as a load or store of its space is: sectors (or
  // wavefronts) as its lanes touch them, against the distinct elements
  // they ask for (measured: a scattered REDG.ADD is 21 sectors per request
  // against an ideal of 4, one address is 1 against 1). Serialization on
  // equal addresses is reported on its own.
  AccessResult first;
  if (site.unknown.empty()) {
    Access acc = site.access;
    if (site.space == Space::Shared)
      acc.capacityBytes = SharedCapacityBytes;
    first = analyzeAccess(acc, ctx, shapes, costOf(site.space));
  } else
    first.unknownReason = site.unknown;
  // What analyzeAccess keeps (most sites) needs no key of its own.
  if ((first.evaluated && !site.splitPeer) || !site.unknown.empty()) {
    SiteResult out;
    out.result = std::move(first);
    return out;
  }
  std::vector<LaneExpr> hold;
  SiteKey key;
  if (!siteKey(site, ctx, shapes, key, hold))
    return analyzeSiteRest(site, ctx, shapes, std::move(first));
  if (auto it = SiteCache.find(key); it != SiteCache.end())
    return it->second.result;
  SiteResult r = analyzeSiteRest(site, ctx, shapes, std::move(first));
  if (SiteCache.size() + 1 > SiteCacheLimit)
    SiteCache.clear();
  SiteCache.emplace(std::move(key), CachedSite{std::move(hold), r});
  return r;
}

namespace {
SiteResult analyzeSiteRest(const SiteInput &site, const Context &ctx,
                           const std::vector<Shape> &shapes,
                           AccessResult first) {
  const CostModel cost = costOf(site.space);
  SiteResult out;
  AccessResult &r = out.result;
  r = std::move(first);
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
      for (auto *its : {&r.iterations, &r.loopIterations})
        for (auto &it : *its)
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
} // namespace

} // namespace warplint
