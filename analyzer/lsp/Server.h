//===- Server.h - warplint as a language server -----------------*- C++ -*-===//
//
// `warplint --lsp`: the Language Server Protocol over stdin and stdout
// (docs/editors.md). Open documents are analyzed in the background from the
// editor's text, as the command line would parse them, and their findings
// published as diagnostics; a hover on a flagged line draws the warp's
// request as --explain does.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_LSP_SERVER_H
#define WARPLINT_LSP_SERVER_H

#include <string>

namespace warplint {

struct ToolOptions;

/// Serves until the client's `exit` (or the end of stdin); returns the
/// process's exit code: 0 after shutdown, 1 otherwise. `opts` are the command
/// line's (its configuration lookup, -p, the CUDA setup); `docDir` holds the
/// rule pages that diagnostics link to.
int runLanguageServer(const ToolOptions &opts, const std::string &docDir);

} // namespace warplint

#endif
