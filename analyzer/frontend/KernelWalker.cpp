#include "KernelWalker.h"

#include "Walker.h"

namespace warplint {

KernelModel walkKernel(clang::ASTContext &ac, const clang::FunctionDecl *kernel,
                       const std::map<std::string, int64_t> &params) {
  KernelModel m;
  detail::Walker w(ac, m, params);
  detail::Walker::weightMemo().clear();
  w.walkFunction(kernel);
  return m;
}

} // namespace warplint
