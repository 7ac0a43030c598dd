//===- Inputs.h - inputs that are not regular files, read once --*- C++ -*-===//
//
// A run's inputs are usually regular files, which the parse reads itself.
// Anything else is read here, once, and at most --max-file-size: `-` (the
// source on stdin, as clang takes it, named by --stdin-filename for the
// diagnostics and the compile database), a FIFO or /dev/stdin (a second read
// would wait for a writer that never comes), a device (/dev/zero never
// ends). Every parse of the run then reads the text kept here (the file
// system of a parse, ownFileSystem() in analysis/Action.h, lays it over the
// disk). No Clang headers.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_INPUTS_H
#define WARPLINT_FRONTEND_INPUTS_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace warplint {

/// What an input that is not a regular file held: its text, or why it has
/// none (an error for that file: too large, unreadable).
struct InputText {
  std::string text;
  std::string error;
};

/// The name `-` takes without --stdin-filename.
constexpr const char *StdinName = "<stdin>";

/// Reads, once each, every input of `files` that is `-` or exists and is not
/// a regular file or a directory, at most `maxBytes` (one byte more tells
/// that it is larger), and keeps the text under the file's absolute path.
/// `-` becomes `stdinName` in `files` (StdinName when empty). Returns a usage
/// error ("" when none): `-` given twice, --stdin-filename without `-`.
std::string readSpecialInputs(std::vector<std::string> &files,
                              const std::string &stdinName, uint64_t maxBytes);

/// The text read for the file at absolute path `abs`, or null when it is
/// read from the disk as usual. Valid for the rest of the process.
const InputText *inputText(const std::string &abs);

/// Every input read, as (absolute path, text), the ones with an error left
/// out.
std::vector<std::pair<std::string, const std::string *>> inputTexts();

} // namespace warplint

#endif
