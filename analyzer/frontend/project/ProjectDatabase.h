//===- ProjectDatabase.h - the user's compile database, nvcc-aware -*- C++ -*-===//
//
// `-p build/`: the compile commands of the files in compile_commands.json as
// written, and for a file not in it (a header, a new file) a command inferred
// from the nearest entry, as clangd does. Clang infers by parsing the
// neighbour's command with its own option table, which does not know nvcc's:
// `--options-file includes_CUDA.rsp` (CMake's Makefiles generator) would lose
// its file as if it were an input. So the neighbours' nvcc commands are
// rewritten into Clang spellings (options files read) before inferring.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_PROJECTDATABASE_H
#define WARPLINT_FRONTEND_PROJECTDATABASE_H

#include "clang/Tooling/CompilationDatabase.h"

#include <memory>
#include <string>

namespace warplint {

/// The database in `buildPath` (compile_commands.json, or whatever Clang's
/// loaders find there), or null with `error` set.
std::unique_ptr<clang::tooling::CompilationDatabase>
loadProjectDatabase(const std::string &buildPath, std::string &error);

/// A command's `@file` argument whose file is not text stands as this
/// prefix and the file's path (Clang would expand a binary into thousands of
/// arguments): the file's command is an error.
inline constexpr const char *BinaryResponseFile =
    "-warplint-binary-response-file=";

} // namespace warplint

#endif
