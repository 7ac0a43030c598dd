#include "frontend/project/Mentions.h"

namespace warplint {

static bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

static bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool mentions(llvm::StringRef t, llvm::StringRef ident, Mention how) {
  if (ident.empty() ||
      (how == Mention::Launch && !t.contains("<<<")))
    return false;
  for (size_t at = t.find(ident); at != llvm::StringRef::npos;
       at = t.find(ident, at + 1)) {
    size_t end = at + ident.size();
    if ((at > 0 && isIdentChar(t[at - 1])) ||
        (end < t.size() && isIdentChar(t[end])))
      continue;
    if (how == Mention::Launch)
      return true;
    // A call or a definition: `(` or template arguments after the name...
    size_t next = end;
    while (next < t.size() && isSpace(t[next]))
      ++next;
    if (next >= t.size() || (t[next] != '(' && t[next] != '<'))
      continue;
    // ... no member access before it...
    size_t prev = at;
    while (prev > 0 && isSpace(t[prev - 1]))
      --prev;
    if (prev > 0 && (t[prev - 1] == '.' ||
                     (prev > 1 && t[prev - 1] == '>' && t[prev - 2] == '-')))
      continue;
    // ... and not in a line comment.
    size_t lineStart = t.rfind('\n', at);
    lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
    if (t.slice(lineStart, at).contains("//"))
      continue;
    return true;
  }
  return false;
}

} // namespace warplint
