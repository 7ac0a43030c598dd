// The language server's transport, positions, edits and URIs, without Clang.
#include "lsp/Protocol.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace warplint::lsp {
namespace {

/// A Transport over a temporary file holding `input`; `out` receives what is
/// sent.
struct Pipe {
  std::FILE *in = std::tmpfile(), *out = std::tmpfile();
  Transport t{in, out};
  explicit Pipe(const std::string &input) {
    std::fwrite(input.data(), 1, input.size(), in);
    std::rewind(in);
  }
  ~Pipe() {
    std::fclose(in);
    std::fclose(out);
  }
  std::string written() {
    std::fflush(out);
    std::rewind(out);
    std::string s;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, out)) > 0)
      s.append(buf, n);
    return s;
  }
};

std::string framed(const std::string &body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

TEST(LspTransport, ReadsFramedMessagesInOrder) {
  Pipe p(framed(R"({"a":1})") +
         "Content-Type: application/vscode-jsonrpc; "
         "charset=utf-8\r\n" +
         framed(R"({"b":"é"})"));
  std::string body, error;
  ASSERT_EQ(p.t.read(body, error), Transport::Read::Message);
  EXPECT_EQ(body, R"({"a":1})");
  ASSERT_EQ(p.t.read(body, error), Transport::Read::Message);
  EXPECT_EQ(body, R"({"b":"é"})"); // the length counts bytes
  EXPECT_EQ(p.t.read(body, error), Transport::Read::End);
}

TEST(LspTransport, HeaderNameIsCaseInsensitive) {
  Pipe p("content-length: 2\r\n\r\n{}");
  std::string body, error;
  ASSERT_EQ(p.t.read(body, error), Transport::Read::Message);
  EXPECT_EQ(body, "{}");
}

TEST(LspTransport, MissingLengthIsMalformedAndTheNextMessageStillReads) {
  // A header block without Content-Length, its body glued to the next
  // message's header: the next message is still found.
  Pipe p("X-Nonsense: 1\r\n\r\n{\"lost\":true}" + framed(R"({"next":2})"));
  std::string body, error;
  EXPECT_EQ(p.t.read(body, error), Transport::Read::Malformed);
  EXPECT_NE(error.find("Content-Length"), std::string::npos) << error;
  ASSERT_EQ(p.t.read(body, error), Transport::Read::Message);
  EXPECT_EQ(body, R"({"next":2})");
}

TEST(LspTransport, BadLengthIsMalformed) {
  Pipe p("Content-Length: twelve\r\n\r\n");
  std::string body, error;
  EXPECT_EQ(p.t.read(body, error), Transport::Read::Malformed);
  EXPECT_NE(error.find("twelve"), std::string::npos) << error;
}

TEST(LspTransport, TruncatedBodyIsTheEnd) {
  Pipe p("Content-Length: 100\r\n\r\n{\"short\":1}");
  std::string body, error;
  EXPECT_EQ(p.t.read(body, error), Transport::Read::End);
}

TEST(LspTransport, SendFramesWithTheByteLength) {
  Pipe p("");
  p.t.send(llvm::json::Object{{"m", "π"}});
  EXPECT_EQ(p.written(), "Content-Length: 10\r\n\r\n{\"m\":\"π\"}");
}

TEST(LspPositions, NegotiatesUtf8OnlyWhenOffered) {
  llvm::json::Array both{"utf-16", "utf-8"}, only16{"utf-16"}, with32{"utf-32"};
  EXPECT_EQ(negotiateEncoding(nullptr), Encoding::UTF16);
  EXPECT_EQ(negotiateEncoding(&both), Encoding::UTF8);
  EXPECT_EQ(negotiateEncoding(&only16), Encoding::UTF16);
  EXPECT_EQ(negotiateEncoding(&with32), Encoding::UTF32);
  EXPECT_EQ(encodingName(Encoding::UTF8), "utf-8");
  EXPECT_EQ(encodingName(Encoding::UTF16), "utf-16");
}

TEST(LspPositions, MeasuresInEachEncoding) {
  // 'a', 'é' (2 bytes), '€' (3 bytes), '😀' (4 bytes, a surrogate pair).
  std::string s = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  EXPECT_EQ(measure(s, Encoding::UTF8), 10u);
  EXPECT_EQ(measure(s, Encoding::UTF16), 5u);
  EXPECT_EQ(measure(s, Encoding::UTF32), 4u);
  // Invalid bytes count one each.
  EXPECT_EQ(measure("\xFF\xFE", Encoding::UTF16), 2u);
}

TEST(LspPositions, CharacterOfAByteColumn) {
  std::string line = "/* \xF0\x9F\x98\x80 */ a[i] = 0;";
  size_t at = line.find("a[i]");
  EXPECT_EQ(characterAt(line, unsigned(at), Encoding::UTF8), at);
  EXPECT_EQ(characterAt(line, unsigned(at), Encoding::UTF16), at - 2);
  EXPECT_EQ(characterAt(line, unsigned(at), Encoding::UTF32), at - 3);
}

TEST(LspPositions, OffsetOfAPosition) {
  std::string text = "int x;\r\n// \xC3\xA9t\xC3\xA9\nlast";
  // Line 1, after "// é": 4 UTF-16 units, 5 bytes.
  size_t o = offsetAt(text, 1, 4, Encoding::UTF16);
  EXPECT_EQ(text.substr(o, 2), "t\xC3");
  EXPECT_EQ(offsetAt(text, 1, 5, Encoding::UTF8), o);
  // Past the end of a line: its end, before "\r\n".
  EXPECT_EQ(offsetAt(text, 0, 99, Encoding::UTF16), 6u);
  // Past the last line: the end of the text.
  EXPECT_EQ(offsetAt(text, 9, 0, Encoding::UTF16), text.size());
  EXPECT_EQ(offsetAt(text, 2, 2, Encoding::UTF16), text.size() - 2);
}

TEST(LspPositions, InsideASurrogatePairIsTheCodePointStart) {
  std::string text = "\xF0\x9F\x98\x80x";
  EXPECT_EQ(offsetAt(text, 0, 1, Encoding::UTF16), 0u);
  EXPECT_EQ(offsetAt(text, 0, 2, Encoding::UTF16), 4u);
}

llvm::json::Object change(unsigned l0, unsigned c0, unsigned l1, unsigned c1,
                          const char *text) {
  auto pos = [](unsigned l, unsigned c) {
    return llvm::json::Object{{"line", l}, {"character", c}};
  };
  return llvm::json::Object{{"range", llvm::json::Object{{"start", pos(l0, c0)},
                                                         {"end", pos(l1, c1)}}},
                            {"text", text}};
}

TEST(LspEdits, AppliesRangesAndWholeText) {
  std::string text = "a \xF0\x9F\x98\x80 b\nsecond\n";
  std::string error;
  // Replace "b" (after the emoji: UTF-16 column 5) with "c".
  ASSERT_TRUE(
      applyChange(text, change(0, 5, 0, 6, "c"), Encoding::UTF16, error))
      << error;
  EXPECT_EQ(text, "a \xF0\x9F\x98\x80 c\nsecond\n");
  // Join the lines.
  ASSERT_TRUE(
      applyChange(text, change(0, 6, 1, 0, " "), Encoding::UTF16, error));
  EXPECT_EQ(text, "a \xF0\x9F\x98\x80 c second\n");
  // The same edit in UTF-8 columns.
  ASSERT_TRUE(
      applyChange(text, change(0, 0, 0, 1, "A"), Encoding::UTF8, error));
  EXPECT_EQ(text.substr(0, 2), "A ");
  ASSERT_TRUE(applyChange(text, llvm::json::Object{{"text", "new"}},
                          Encoding::UTF16, error));
  EXPECT_EQ(text, "new");
}

TEST(LspEdits, RefusesBrokenChanges) {
  std::string text = "abc", error;
  EXPECT_FALSE(
      applyChange(text, change(0, 2, 0, 1, "x"), Encoding::UTF16, error));
  EXPECT_NE(error.find("ends before"), std::string::npos);
  EXPECT_FALSE(applyChange(text, llvm::json::Object{{"range", 3}},
                           Encoding::UTF16, error));
  llvm::json::Object noLine{
      {"range", llvm::json::Object{{"start", llvm::json::Object{}},
                                   {"end", llvm::json::Object{}}}},
      {"text", ""}};
  EXPECT_FALSE(applyChange(text, noLine, Encoding::UTF16, error));
  EXPECT_EQ(text, "abc");
}

TEST(LspUris, FileUrisToPaths) {
  EXPECT_EQ(uriToPath("file:///home/a/k.cu"), "/home/a/k.cu");
  EXPECT_EQ(uriToPath("file:///tmp/a%20b/%C3%A9.cu"), "/tmp/a b/\xC3\xA9.cu");
  EXPECT_EQ(uriToPath("file://localhost/x.cu"), "/x.cu");
  EXPECT_EQ(uriToPath("FILE:///x.cu"), "/x.cu");
  EXPECT_EQ(uriToPath("untitled:Untitled-1"), std::nullopt);
  EXPECT_EQ(uriToPath("file://server/share/x.cu"), std::nullopt);
  EXPECT_EQ(uriToPath("file:///bad%2"), std::nullopt);
  EXPECT_EQ(uriToPath("file:///bad%zz"), std::nullopt);
  EXPECT_EQ(uriToPath("file:///nul%00"), std::nullopt);
}

} // namespace
} // namespace warplint::lsp
