// warplint: predicts, per warp, how CUDA kernels touch memory.
// Usage: warplint [options] <file.cu>... [-- <compiler args>]
#include "driver/Driver.h"
#include "lsp/Server.h"

#include "llvm/Support/InitLLVM.h"

int main(int argc, const char **argv) {
  // LLVM's signal handlers: a crash outside a file's analysis (which
  // recovers on its own) still prints a stack trace, never dies silently.
  llvm::InitLLVM initLLVM(argc, argv);
  warplint::Invocation inv;
  if (std::optional<int> done = warplint::parseInvocation(argc, argv, inv))
    return *done;
  if (inv.merge)
    return warplint::mergeMain(argv[0]);
  if (inv.dumpConfig || inv.verifyConfig)
    return warplint::checkConfiguration(inv);
  // Each file's options: the run's, with its configuration applied (the
  // command line's over the file's own).
  auto finder = std::make_shared<warplint::ConfigFinder>();
  inv.opts.configure = [finder, &inv](const std::string &file,
                                      warplint::ToolOptions &own) {
    return warplint::configureFile(inv, *finder, file, own);
  };
  if (inv.lsp)
    return warplint::runLanguageServer(inv.opts,
                                       warplint::docDirectory(argv[0]));
  return warplint::runAnalysis(inv, argv[0]);
}
