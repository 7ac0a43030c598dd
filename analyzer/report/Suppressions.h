//===- Suppressions.h - NOLINT comments, as clang-tidy reads them -*- C++ -*-===//
//
// `// NOLINT`, `// NOLINTNEXTLINE` and `// NOLINTBEGIN` ... `// NOLINTEND`,
// each optionally followed directly by a parenthesised list of rule globs:
// `NOLINT(uncoalesced-*, smem-bank-conflict)`. White space before "(" makes it
// a plain NOLINT that suppresses every rule. Plain text, no Clang.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_SUPPRESSIONS_H
#define WARPLINT_FRONTEND_SUPPRESSIONS_H

#include <string>
#include <string_view>
#include <vector>

namespace warplint {

/// A file's lines, split once, with the few that carry a NOLINTBEGIN or
/// NOLINTEND marker listed: each question is then one or two lines and
/// those markers, not a scan of the whole file (a file with thousands of
/// diagnostics asks thousands of times). Views into the buffer, which must
/// outlive it.
class SuppressionIndex {
public:
  explicit SuppressionIndex(std::string_view buffer);
  /// Is `rule` suppressed on 1-based `line`?
  bool suppressed(unsigned line, const std::string &rule) const;

private:
  std::vector<std::string_view> Lines;
  std::vector<unsigned> Ranges; // 0-based lines with a BEGIN or END marker
};

/// Is `rule` suppressed on 1-based `line` of a file whose text is `buffer`?
bool isSuppressed(std::string_view buffer, unsigned line,
                  const std::string &rule);

/// Glob match with '*' only, as NOLINT lists use.
bool globMatch(std::string_view pattern, std::string_view text);

} // namespace warplint

#endif
