#include "lsp/Protocol.h"

#include "llvm/ADT/StringExtras.h"

namespace warplint::lsp {

// --- transport
// -----------------------------------------------------------------

Transport::Read Transport::read(std::string &body, std::string &error) {
  // The header block: lines up to an empty one. Only Content-Length matters
  // (Content-Type is always utf-8 JSON). A line that has the header after
  // stray bytes (the body of a message that had no length) still counts, so
  // that the stream finds its way back to the next message.
  std::optional<uint64_t> length;
  bool badLength = false, sawLine = false;
  std::string line;
  for (;;) {
    int c = std::fgetc(In);
    if (c == EOF)
      return Read::End;
    if (c != '\n') {
      line += char(c);
      continue;
    }
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty()) {
      if (sawLine)
        break;
      continue; // blank lines between messages
    }
    sawLine = true;
    llvm::StringRef l(line);
    size_t at = l.lower().find("content-length:");
    if (at != std::string::npos) {
      llvm::StringRef v = l.drop_front(at + strlen("content-length:")).trim();
      uint64_t n = 0;
      if (v.getAsInteger(10, n)) {
        badLength = true;
        error = "invalid Content-Length header '" + v.str() + "'";
      } else {
        length = n;
        badLength = false;
      }
    }
    line.clear();
  }
  if (!length) {
    if (!badLength)
      error = "message header without Content-Length";
    return Read::Malformed;
  }
  if (*length > MaxBody) {
    for (uint64_t i = 0; i < *length; ++i)
      if (std::fgetc(In) == EOF)
        return Read::End;
    error = "message of " + std::to_string(*length) +
            " bytes is longer than the limit of " + std::to_string(MaxBody);
    return Read::Malformed;
  }
  body.resize(*length);
  size_t got = *length ? std::fread(body.data(), 1, *length, In) : 0;
  if (got != *length)
    return Read::End;
  return Read::Message;
}

void Transport::send(const llvm::json::Value &message) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << message;
  os.flush();
  std::lock_guard<std::mutex> lock(WriteLock);
  std::fprintf(Out, "Content-Length: %zu\r\n\r\n", text.size());
  std::fwrite(text.data(), 1, text.size(), Out);
  std::fflush(Out);
}

// --- positions
// -----------------------------------------------------------------

llvm::StringRef encodingName(Encoding e) {
  switch (e) {
  case Encoding::UTF8:
    return "utf-8";
  case Encoding::UTF32:
    return "utf-32";
  case Encoding::UTF16:
    break;
  }
  return "utf-16";
}

Encoding negotiateEncoding(const llvm::json::Array *offered) {
  if (!offered)
    return Encoding::UTF16;
  bool utf32 = false;
  for (const llvm::json::Value &v : *offered) {
    std::optional<llvm::StringRef> s = v.getAsString();
    if (s && *s == "utf-8")
      return Encoding::UTF8;
    utf32 |= s && *s == "utf-32";
  }
  return utf32 ? Encoding::UTF32 : Encoding::UTF16;
}

namespace {

/// The byte length of the UTF-8 sequence at text[i] and its code point;
/// an invalid or truncated sequence is one byte, taken as U+FFFD.
size_t sequence(llvm::StringRef text, size_t i, uint32_t &cp) {
  unsigned char b = text[i];
  size_t n = b < 0x80           ? 1
             : (b >> 5) == 0x6  ? 2
             : (b >> 4) == 0xE  ? 3
             : (b >> 3) == 0x1E ? 4
                                : 0;
  if (n == 0 || i + n > text.size()) {
    cp = 0xFFFD;
    return 1;
  }
  cp = n == 1 ? b : n == 2 ? b & 0x1F : n == 3 ? b & 0x0F : b & 0x07;
  for (size_t k = 1; k < n; ++k) {
    unsigned char c = text[i + k];
    if ((c >> 6) != 0x2) {
      cp = 0xFFFD;
      return 1;
    }
    cp = (cp << 6) | (c & 0x3F);
  }
  return n;
}

size_t units(uint32_t cp, size_t bytes, Encoding e) {
  switch (e) {
  case Encoding::UTF8:
    return bytes;
  case Encoding::UTF32:
    return 1;
  case Encoding::UTF16:
    break;
  }
  return cp >= 0x10000 ? 2 : 1;
}

} // namespace

size_t measure(llvm::StringRef text, Encoding e) {
  if (e == Encoding::UTF8)
    return text.size();
  size_t n = 0;
  for (size_t i = 0; i < text.size();) {
    uint32_t cp;
    size_t len = sequence(text, i, cp);
    n += units(cp, len, e);
    i += len;
  }
  return n;
}

size_t offsetAt(llvm::StringRef text, unsigned line, unsigned character,
                Encoding e) {
  size_t start = 0;
  for (unsigned l = 0; l < line; ++l) {
    size_t nl = text.find('\n', start);
    if (nl == llvm::StringRef::npos)
      return text.size();
    start = nl + 1;
  }
  size_t end = text.find('\n', start);
  if (end == llvm::StringRef::npos)
    end = text.size();
  if (end > start && text[end - 1] == '\r')
    --end;
  size_t used = 0, i = start;
  while (i < end && used < character) {
    uint32_t cp;
    size_t len = sequence(text, i, cp);
    size_t u = units(cp, len, e);
    if (used + u > character)
      break; // inside a surrogate pair: the code point's start
    used += u;
    i += len;
  }
  return i;
}

unsigned characterAt(llvm::StringRef lineText, unsigned column, Encoding e) {
  return unsigned(measure(lineText.take_front(column), e));
}

bool applyChange(std::string &text, const llvm::json::Object &change,
                 Encoding e, std::string &error) {
  std::optional<llvm::StringRef> newText = change.getString("text");
  if (!newText) {
    error = "content change without 'text'";
    return false;
  }
  const llvm::json::Object *range = change.getObject("range");
  if (!range) {
    text = newText->str();
    return true;
  }
  auto position = [&](const char *key, size_t &offset) {
    const llvm::json::Object *p = range->getObject(key);
    std::optional<int64_t> line = p ? p->getInteger("line") : std::nullopt;
    std::optional<int64_t> ch = p ? p->getInteger("character") : std::nullopt;
    if (!line || !ch || *line < 0 || *ch < 0 || *line > UINT32_MAX ||
        *ch > UINT32_MAX) {
      error = std::string("content change with an invalid range ") + key;
      return false;
    }
    offset = offsetAt(text, unsigned(*line), unsigned(*ch), e);
    return true;
  };
  size_t from = 0, to = 0;
  if (!position("start", from) || !position("end", to))
    return false;
  if (to < from) {
    error = "content change whose range ends before it starts";
    return false;
  }
  text.replace(from, to - from, newText->str());
  return true;
}

// --- URIs
// ----------------------------------------------------------------------

std::optional<std::string> uriToPath(llvm::StringRef uri) {
  if (!uri.consume_front_insensitive("file://"))
    return std::nullopt;
  // An authority: empty or localhost for a local file.
  size_t slash = uri.find('/');
  if (slash == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef host = uri.take_front(slash);
  if (!host.empty() && !host.equals_insensitive("localhost"))
    return std::nullopt;
  uri = uri.drop_front(slash);
  // Query and fragment are no part of a path.
  uri = uri.take_until([](char c) { return c == '?' || c == '#'; });
  std::string path;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      path += uri[i];
      continue;
    }
    if (i + 2 >= uri.size() || !llvm::isHexDigit(uri[i + 1]) ||
        !llvm::isHexDigit(uri[i + 2]))
      return std::nullopt;
    path += char(llvm::hexFromNibbles(uri[i + 1], uri[i + 2]));
    i += 2;
  }
  if (path.empty() || path.find('\0') != std::string::npos)
    return std::nullopt;
  return path;
}

} // namespace warplint::lsp
