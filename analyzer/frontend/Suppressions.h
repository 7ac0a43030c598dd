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

namespace warplint {

/// Is `rule` suppressed on 1-based `line` of a file whose text is `buffer`?
bool isSuppressed(std::string_view buffer, unsigned line,
                  const std::string &rule);

/// Glob match with '*' only, as NOLINT lists use.
bool globMatch(std::string_view pattern, std::string_view text);

} // namespace warplint

#endif
