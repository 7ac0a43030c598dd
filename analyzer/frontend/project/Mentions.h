//===- Mentions.h - how a file's text names an identifier ---------*- C++ -*-===//
//
// Which files of a project are parsed for a kernel's launches or a
// function's callers and definitions is decided from their text first: a
// parse costs seconds, a text search nothing. Clang-free.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_PROJECT_MENTIONS_H
#define WARPLINT_FRONTEND_PROJECT_MENTIONS_H

#include "llvm/ADT/StringRef.h"

namespace warplint {

/// How a text must name an identifier: as a whole word anywhere in a text
/// that launches a kernel (`<<<`: a kernel's launches), or as a call or a
/// definition, `name(` or `name<...>(`, not a member's `.name(` or
/// `->name(` nor in a line comment (a function's callers and definitions):
/// a launcher named with a common word (`run`) then has the files parsed
/// that call a function so named, not every file that uses the word.
enum class Mention { Launch, Call };

bool mentions(llvm::StringRef text, llvm::StringRef ident, Mention how);

} // namespace warplint

#endif
