#include "Suppressions.h"

#include <vector>

namespace warplint {

bool globMatch(std::string_view p, std::string_view t) {
  if (p.empty())
    return t.empty();
  if (p[0] == '*')
    return globMatch(p.substr(1), t) || (!t.empty() && globMatch(p, t.substr(1)));
  return !t.empty() && p[0] == t[0] && globMatch(p.substr(1), t.substr(1));
}

static std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

// Does `line` carry marker `kind` (exactly: NOLINT must not match
// NOLINTNEXTLINE) that covers `rule`?
static bool marks(std::string_view line, std::string_view kind,
                  const std::string &rule) {
  size_t pos = 0;
  while ((pos = line.find(kind, pos)) != std::string_view::npos) {
    size_t end = pos + kind.size();
    pos = end;
    if (end < line.size() && (isalnum((unsigned char)line[end]) ||
                              line[end] == '_'))
      continue; // a longer marker
    if (end >= line.size() || line[end] != '(')
      return true; // plain marker: every rule
    size_t close = line.find(')', end);
    if (close == std::string_view::npos)
      return true;
    std::string_view list = line.substr(end + 1, close - end - 1);
    while (!list.empty()) {
      size_t comma = list.find(',');
      std::string_view item = trim(list.substr(0, comma));
      if (globMatch(item, rule))
        return true;
      if (comma == std::string_view::npos)
        break;
      list.remove_prefix(comma + 1);
    }
  }
  return false;
}

bool isSuppressed(std::string_view buffer, unsigned line,
                  const std::string &rule) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= buffer.size()) {
    size_t nl = buffer.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back(buffer.substr(start));
      break;
    }
    lines.push_back(buffer.substr(start, nl - start));
    start = nl + 1;
  }
  if (line == 0 || line > lines.size())
    return false;
  if (marks(lines[line - 1], "NOLINT", rule))
    return true;
  if (line >= 2 && marks(lines[line - 2], "NOLINTNEXTLINE", rule))
    return true;
  int depth = 0;
  for (unsigned i = 0; i < line; ++i) {
    if (marks(lines[i], "NOLINTBEGIN", rule))
      ++depth;
    if (marks(lines[i], "NOLINTEND", rule) && depth > 0)
      --depth;
  }
  return depth > 0;
}

} // namespace warplint
