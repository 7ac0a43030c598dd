//===- Protocol.h - the language server's transport and positions -*- C++
//-*-===//
//
// What `warplint --lsp` needs that has nothing to do with Clang: JSON-RPC
// messages framed with Content-Length headers over a pair of file
// descriptors, positions in the encoding the client negotiated (UTF-16 by
// default, UTF-8 or UTF-32 on request) converted to and from byte offsets,
// edits of a document's text, and file URIs turned back into paths.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_LSP_PROTOCOL_H
#define WARPLINT_LSP_PROTOCOL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdio>
#include <mutex>
#include <optional>
#include <string>

namespace warplint::lsp {

/// Reads and writes framed messages: `Content-Length: N\r\n\r\n` then N bytes
/// of JSON. Writes are serialized, so any thread may send.
class Transport {
public:
  Transport(std::FILE *in, std::FILE *out) : In(in), Out(out) {}

  enum class Read { Message, Malformed, End };
  /// The next message's body in `body`; Malformed (with `error` set) for a
  /// header block without a usable Content-Length, whose body is skipped
  /// when its length is known; End at end of input.
  Read read(std::string &body, std::string &error);

  void send(const llvm::json::Value &message);

  /// The largest body read (64 MiB): a longer one is skipped, not buffered.
  static constexpr size_t MaxBody = 64u << 20;

private:
  std::FILE *In, *Out;
  std::mutex WriteLock;
};

/// How `character` in an LSP position counts: UTF-16 code units (the
/// protocol's default), bytes, or code points.
enum class Encoding { UTF16, UTF8, UTF32 };
llvm::StringRef encodingName(Encoding e);

/// The encoding to use given the client's `general.positionEncodings`
/// (null or absent: UTF-16): UTF-8 if it offers it, then UTF-32, else UTF-16.
Encoding negotiateEncoding(const llvm::json::Array *offered);

/// The length of `text` (UTF-8; invalid bytes count as one unit each) in
/// units of `e`.
size_t measure(llvm::StringRef text, Encoding e);

/// A byte offset into `text` for an LSP position; a character past the end of
/// its line clamps to the line's end, a line past the end to the text's end
/// (as the protocol asks).
size_t offsetAt(llvm::StringRef text, unsigned line, unsigned character,
                Encoding e);

/// The LSP character of byte `column` (0-based) of `lineText`.
unsigned characterAt(llvm::StringRef lineText, unsigned column, Encoding e);

/// Applies one textDocument/didChange content change to `text`: a range
/// replacement, or the whole text when `change` has no range. False (text
/// unchanged, `error` set) when the change is not one.
bool applyChange(std::string &text, const llvm::json::Object &change,
                 Encoding e, std::string &error);

/// The local path of a `file:` URI (percent-decoded), or nullopt for
/// another scheme or a malformed one.
std::optional<std::string> uriToPath(llvm::StringRef uri);

/// JSON-RPC error codes the server answers with.
enum ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestCancelled = -32800,
};

} // namespace warplint::lsp

#endif
