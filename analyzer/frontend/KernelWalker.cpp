#include "KernelWalker.h"

#include "Walker.h"

#include "model/Vectorize.h"

#include <map>
#include <tuple>

namespace warplint {

/// What nvcc merges (Vectorize.h): accesses of one statement to one
/// allocation, loads with loads and stores with stores.
static void mergeVectorAccesses(KernelModel &m) {
  std::map<std::tuple<int, int, const clang::ValueDecl *, int, bool>, int>
      groups;
  std::vector<MergeInput> in;
  std::vector<size_t> site;
  for (size_t i = 0; i < m.accesses.size(); ++i) {
    const AccessSite &s = m.accesses[i];
    if (s.space == Space::Local || s.isVolatile || !s.base || s.atomic)
      continue;
    // Barriers end a region too (their epoch differs).
    auto key =
        std::make_tuple(s.stmt, s.epoch, s.base, int(s.space), s.store);
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
  mergeVectorAccesses(m);
  return m;
}

} // namespace warplint
