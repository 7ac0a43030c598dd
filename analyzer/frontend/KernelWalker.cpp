#include "KernelWalker.h"

#include "Walker.h"

namespace warplint {

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
  return m;
}

} // namespace warplint
