// warplint: predicts, per warp, how CUDA kernels touch memory.
// Usage: warplint [options] <file.cu>... [-- <compiler args>]
#include "driver/Driver.h"
#include "lsp/Server.h"

#include "llvm/Support/InitLLVM.h"

#include <csignal>

#include <unistd.h>

namespace {
/// SIGINT, SIGTERM: the run ends, and says so, with the shell's code for
/// the signal (130, 143). Only what is safe in a signal handler.
extern "C" void onInterrupt(int sig) {
  static const char msg[] = "warplint: interrupted\n";
  ssize_t written = write(STDERR_FILENO, msg, sizeof msg - 1);
  (void)written;
  _exit(128 + sig);
}

/// Which of SIGINT and SIGTERM whoever started warplint ignores (nohup, a
/// background job of a script): they stay ignored.
struct Interrupts {
  bool ignored[2] = {false, false};
};
constexpr int InterruptSignals[2] = {SIGINT, SIGTERM};

Interrupts ignoredInterrupts() {
  Interrupts in;
  for (int i = 0; i < 2; ++i) {
    struct sigaction old;
    in.ignored[i] = sigaction(InterruptSignals[i], nullptr, &old) == 0 &&
                    old.sa_handler == SIG_IGN;
  }
  return in;
}

void handleInterrupts(const Interrupts &in) {
  for (int i = 0; i < 2; ++i) {
    if (in.ignored[i])
      continue;
    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(InterruptSignals[i], &sa, nullptr);
  }
}
} // namespace

int main(int argc, const char **argv) {
  const Interrupts interrupts = ignoredInterrupts();
  // LLVM's signal handlers: a crash outside a file's analysis (which
  // recovers on its own) still prints a stack trace, never dies silently.
  llvm::InitLLVM initLLVM(argc, argv);
  // Over LLVM's for SIGINT and SIGTERM, which end the run without a word.
  handleInterrupts(interrupts);
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
