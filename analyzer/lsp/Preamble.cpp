//===- Preamble.cpp - a document's precompiled preamble ------------------===//
#include "lsp/Preamble.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"

#include <chrono>

using namespace clang;

namespace warplint {

namespace {

/// Tells the hooks which compiler builds the preamble.
class Callbacks : public PreambleCallbacks {
public:
  explicit Callbacks(const PreambleBuildHooks &h) : H(h) {}
  void BeforeExecute(CompilerInstance &ci) override { H.compiler(&ci); }

private:
  const PreambleBuildHooks &H;
};

} // namespace

DocumentPreamble::Outcome DocumentPreamble::prepare(
    CompilerInvocation &invocation,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &vfs,
    std::shared_ptr<PCHContainerOperations> pch, const std::string &command,
    const std::unique_ptr<llvm::MemoryBuffer> &mainBuffer,
    const PreambleBuildHooks &hooks) {
  Outcome out;
  PreambleBounds bounds =
      ComputePreambleBounds(invocation.getLangOpts(), *mainBuffer, 0);
  std::string key =
      command + '\0' + mainBuffer->getBuffer().take_front(bounds.Size).str();
  bool fits = Built && Command == command &&
              Built->CanReuse(invocation, *mainBuffer, bounds, *vfs);
  if (!fits) {
    if (key == Failed) {
      out.why = "its preamble did not build cleanly";
      return out;
    }
    out.why = !Built ? "first parse" : Command != command
                                           ? "the compile command changed"
                                           : "the preamble or a header changed";
    Built.reset();
    auto start = std::chrono::steady_clock::now();
    IntrusiveRefCntPtr<DiagnosticsEngine> diagnostics =
        CompilerInstance::createDiagnostics(*vfs, invocation.getDiagnosticOpts(),
                                            &hooks.diagnostics,
                                            /*ShouldOwnClient=*/false);
    Callbacks callbacks(hooks);
    llvm::ErrorOr<PrecompiledPreamble> built = PrecompiledPreamble::Build(
        invocation, mainBuffer.get(), bounds, diagnostics, vfs, pch,
        /*StoreInMemory=*/true, /*StoragePath=*/"", callbacks);
    hooks.compiler(nullptr);
    out.buildSeconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
    if (!built || !hooks.clean()) {
      Failed = key;
      out.why = !built ? "its preamble could not be built: " +
                             built.getError().message()
                       : "its preamble did not build cleanly";
      return out;
    }
    Built.emplace(std::move(*built));
    Command = command;
    Failed.clear();
    out.built = true;
  }
  Built->AddImplicitPreamble(invocation, vfs, mainBuffer.get());
  out.used = true;
  return out;
}

} // namespace warplint
