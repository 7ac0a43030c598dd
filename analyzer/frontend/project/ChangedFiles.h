//===- ChangedFiles.h - --changed-since: files a change touches -*- C++ -*-===//
#ifndef WARPLINT_FRONTEND_CHANGEDFILES_H
#define WARPLINT_FRONTEND_CHANGEDFILES_H

#include "frontend/analysis/Action.h"

#include <string>
#include <vector>

namespace warplint {

struct ChangedSince {
  /// For each file: its source or a header it includes changed (or its
  /// headers could not be listed, which counts as changed).
  std::vector<bool> changed;
  /// Files whose headers a preprocessor pass listed, and how long the
  /// passes took.
  size_t scanned = 0;
  double scanSeconds = 0;
};

/// --changed-since=REV: which of `files` changed since the git revision
/// `rev` (`git diff --name-only REV` and the untracked files, in the
/// repository that holds the first file), a file counting as changed when
/// it or any header it includes (a preprocessor pass with its own compile
/// command, as analyzeFiles builds it) did. False with `error` when there
/// is no git, no repository or no such revision, or the compile database
/// cannot be loaded.
bool changedSince(const std::string &rev, const ToolOptions &opts,
                  const std::vector<std::string> &files, ChangedSince &out,
                  std::string &error);

/// Every file of the compile database in `buildPath`, sorted, each once;
/// false with `error` when it cannot be loaded.
bool databaseFiles(const std::string &buildPath,
                   std::vector<std::string> &files, std::string &error);

} // namespace warplint

#endif
