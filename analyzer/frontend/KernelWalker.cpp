#include "KernelWalker.h"

#include "Walker.h"

#include "model/Vectorize.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace warplint {

/// The conjuncts of a mask built by land(): a load whose mask has all the
/// conjuncts of an earlier one's runs only where the earlier one ran.
static void conjuncts(const LaneExpr &m, std::set<const Node *> &out) {
  if (!m)
    return;
  if (m->op == Op::LAnd) {
    conjuncts(m->a, out);
    conjuncts(m->b, out);
    return;
  }
  out.insert(m.get());
}

/// The accesses' indices in program order (their seq; the pieces of a split
/// element share their first piece's).
static std::vector<size_t> programOrder(const KernelModel &m) {
  std::vector<size_t> order(m.accesses.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return m.accesses[x].seq < m.accesses[y].seq;
  });
  return order;
}

/// nvcc loads an element once when the same address was loaded before on
/// every path to the later load, with no store to that memory and no barrier
/// in between: `if (m[k] != 0) t += m[k] * x[j]` reads m[k] once, on the
/// condition's line. The later load joins the earlier one (as a merge does).
/// Offsets are hash-consed, so "the same address" is one node once the
/// source origins (which differ between two copies of `m[k]`) are cleared.
static void dropRepeatedLoads(KernelModel &m,
                              const std::vector<size_t> &order) {
  using Key = std::tuple<const Node *, const clang::ValueDecl *, int, int,
                         int>;
  // Per address, the loads that may stand for a later one, with their
  // masks' conjuncts.
  std::map<Key, std::vector<std::pair<size_t, std::set<const Node *>>>> seen;
  OriginFreeMemo memo;
  auto plainConjuncts = [&](const LaneExpr &mask) {
    std::set<const Node *> out;
    conjuncts(withoutOrigins(mask, memo), out);
    return out;
  };
  for (size_t i : order) {
    AccessSite &s = m.accesses[i];
    if (s.space == Space::Local || !s.base)
      continue;
    if (s.store || s.atomic || s.isVolatile) {
      // A store may alias any global load before it; shared arrays are
      // distinct variables.
      for (auto it = seen.begin(); it != seen.end();)
        if (std::get<3>(it->first) == int(s.space) &&
            (s.space == Space::Global || std::get<1>(it->first) == s.base))
          it = seen.erase(it);
        else
          ++it;
      continue;
    }
    Key key{withoutOrigins(s.access.offset, memo).get(), s.base,
            s.access.elementBytes, int(s.space), s.epoch};
    auto &earlier = seen[key];
    std::set<const Node *> mine = plainConjuncts(s.access.mask);
    bool joined = false;
    for (const auto &[e, theirs] : earlier)
      if (std::includes(mine.begin(), mine.end(), theirs.begin(),
                        theirs.end())) {
        s.mergedInto = int(e);
        joined = true;
        break;
      }
    if (!joined)
      earlier.emplace_back(i, std::move(mine));
  }
}

/// What nvcc merges (Vectorize.h): accesses of one statement to one
/// allocation, loads with loads and stores with stores, and loads only where
/// no store to that memory comes between them (it may alias).
static void mergeVectorAccesses(KernelModel &m,
                                const std::vector<size_t> &order) {
  std::map<std::tuple<int, int, const clang::ValueDecl *, int, bool, int>, int>
      groups;
  // Stores and atomics to each space walked before each access.
  std::vector<int> storesBefore(m.accesses.size());
  std::map<int, int> stores;
  for (size_t i : order) {
    const AccessSite &s = m.accesses[i];
    storesBefore[i] = stores[int(s.space)];
    if (s.store || s.atomic)
      ++stores[int(s.space)];
  }
  std::vector<MergeInput> in;
  std::vector<size_t> site;
  for (size_t i = 0; i < m.accesses.size(); ++i) {
    const AccessSite &s = m.accesses[i];
    if (s.space == Space::Local || s.isVolatile || !s.base || s.atomic ||
        s.mergedInto >= 0)
      continue;
    // Barriers end a region too (their epoch differs).
    auto key = std::make_tuple(s.stmt, s.epoch, s.base, int(s.space), s.store,
                               s.store ? 0 : storesBefore[i]);
    int g = groups.emplace(key, int(groups.size())).first->second;
    in.push_back({s.access, g, s.align ? s.align : s.access.elementBytes});
    site.push_back(i);
  }
  if (in.size() < 2)
    return;
  for (const MergedAccess &ma : mergeAdjacent(in, m.ctx, Shape{})) {
    // nvcc issues a merged load where the first member is read and a merged
    // store where the last member is written (measured: a float4 written
    // member by member is one STS.128 on the `.w` line).
    size_t carrier = site[ma.members[0]];
    for (size_t k : ma.members) {
      const AccessSite &s = m.accesses[site[k]];
      if (s.store ? s.seq > m.accesses[carrier].seq
                  : s.seq < m.accesses[carrier].seq)
        carrier = site[k];
    }
    const AccessSite &lowest = m.accesses[site[ma.first]];
    AccessSite &c = m.accesses[carrier];
    c.access.offset = lowest.access.offset;
    c.array = lowest.array;
    c.access.elementBytes = ma.bytes;
    if (c.elementStride <= ma.bytes)
      c.structMember = false;
    for (size_t k : ma.members)
      if (site[k] != carrier)
        m.accesses[site[k]].mergedInto = int(carrier);
  }
}

KernelModel walkKernel(clang::ASTContext &ac, const clang::FunctionDecl *kernel,
                       const std::map<std::string, int64_t> &params,
                       const ParamBindings &bindings) {
  KernelModel m;
  detail::Walker w(ac, m, params, bindings);
  detail::Walker::weightMemo().clear();
  w.walkFunction(kernel);
  std::vector<LaneExpr> exprs;
  for (const AccessSite &s : m.accesses)
    exprs.insert(exprs.end(), {s.access.offset, s.access.mask});
  for (const BranchSite &b : m.branches)
    exprs.insert(exprs.end(), {b.cond, b.mask});
  for (const SyncSite &s : m.syncs)
    exprs.insert(exprs.end(), {s.mask, s.maskArg});
  classifyAtoms(m.ctx, exprs);
  std::vector<size_t> order = programOrder(m);
  dropRepeatedLoads(m, order);
  mergeVectorAccesses(m, order);
  return m;
}

} // namespace warplint
