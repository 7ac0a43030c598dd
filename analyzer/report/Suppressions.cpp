#include "report/Suppressions.h"

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

SuppressionIndex::SuppressionIndex(std::string_view buffer) {
  size_t start = 0;
  while (start <= buffer.size()) {
    size_t nl = buffer.find('\n', start);
    std::string_view l = nl == std::string_view::npos
                             ? buffer.substr(start)
                             : buffer.substr(start, nl - start);
    if (l.find("NOLINTBEGIN") != std::string_view::npos ||
        l.find("NOLINTEND") != std::string_view::npos)
      Ranges.push_back(unsigned(Lines.size()));
    Lines.push_back(l);
    if (nl == std::string_view::npos)
      break;
    start = nl + 1;
  }
}

bool SuppressionIndex::suppressed(unsigned line,
                                  const std::string &rule) const {
  if (line == 0 || line > Lines.size())
    return false;
  if (marks(Lines[line - 1], "NOLINT", rule))
    return true;
  if (line >= 2 && marks(Lines[line - 2], "NOLINTNEXTLINE", rule))
    return true;
  int depth = 0;
  for (unsigned i : Ranges) {
    if (i >= line)
      break;
    if (marks(Lines[i], "NOLINTBEGIN", rule))
      ++depth;
    if (marks(Lines[i], "NOLINTEND", rule) && depth > 0)
      --depth;
  }
  return depth > 0;
}

bool isSuppressed(std::string_view buffer, unsigned line,
                  const std::string &rule) {
  return SuppressionIndex(buffer).suppressed(line, rule);
}

} // namespace warplint
