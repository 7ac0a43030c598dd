//===- Preamble.h - a document's precompiled preamble -------------*- C++ -*-===//
//
// The language server parses a document again after every pause in typing.
// Most of that parse is the document's preamble: its #includes, whatever
// else comes before its first declaration, and the headers Clang's CUDA mode
// includes implicitly (the runtime wrapper), which a document with no
// #include of its own has too. As clangd
// does, the server precompiles that part once, in memory, and each later
// parse of the document reads it back instead of parsing the headers again,
// for as long as the preamble's text, the compile command and every header it
// read are unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_LSP_PREAMBLE_H
#define WARPLINT_LSP_PREAMBLE_H

#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PCHContainerOperations.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <optional>
#include <string>

namespace warplint {

/// How the compiler's messages of a preamble's build are collected: the
/// consumer is given them, `compiler` is told the build's compiler instance
/// before the build parses (null after), and `clean` says afterwards whether
/// the build may be used (no error that fails the file).
struct PreambleBuildHooks {
  clang::DiagnosticConsumer &diagnostics;
  llvm::function_ref<void(const clang::CompilerInstance *)> compiler;
  llvm::function_ref<bool()> clean;
};

/// The precompiled preamble of one open document (worker thread only).
class DocumentPreamble {
public:
  /// What prepare() did, for the server's log.
  struct Outcome {
    bool used = false;  // the parse reads the preamble
    bool built = false; // it was built for this parse
    double buildSeconds = 0;
    std::string why; // why none is used, or why one was built
  };

  /// Sets up `invocation` and `vfs` so that the parse of `mainText` (the
  /// document's text, under the invocation's main file name) reads the
  /// preamble, building it first when there is none that fits this text's
  /// preamble, the `command` and the headers on disk. `mainBuffer` is the
  /// main file's buffer the parse must use; after a successful parse the
  /// caller releases it (the compiler owns it). A preamble whose build
  /// failed, or was not clean, is not built again for the same preamble
  /// text and command until retry() or forget().
  Outcome prepare(clang::CompilerInvocation &invocation,
                  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &vfs,
                  std::shared_ptr<clang::PCHContainerOperations> pch,
                  const std::string &command,
                  const std::unique_ptr<llvm::MemoryBuffer> &mainBuffer,
                  const PreambleBuildHooks &hooks);

  /// Drops the preamble and the memory of a failed build (after a crash).
  void forget() {
    Built.reset();
    Failed.clear();
  }

  /// Forgets a failed build, so that the next parse tries again (a saved
  /// file: a missing header may be there now).
  void retry() { Failed.clear(); }

  /// The preamble's size in bytes (0 without one).
  size_t size() const { return Built ? Built->getSize() : 0; }

private:
  std::optional<clang::PrecompiledPreamble> Built;
  std::string Command; // Built's compile command
  std::string Failed;  // the command and preamble text of a failed build
};

} // namespace warplint

#endif
