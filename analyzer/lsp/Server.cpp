//===- Server.cpp - warplint as a language server ------------------------===//
//
// One thread reads and answers the client's messages; one worker analyzes
// the open documents, newest text first, and publishes their diagnostics.
// Edits only mark a document for analysis: at once after a quiet spell, else
// after a pause in typing as long as its last analysis took, 50 to 500 ms; a
// run whose document changed while it ran is dropped, never published. Each
// document keeps its precompiled preamble (Preamble.h), so that an edit below
// its #includes re-parses only the rest.
// The protocol's stdout is kept to the protocol: whatever else writes to
// file descriptor 1 goes to stderr.
//
//===----------------------------------------------------------------------===//
#include "lsp/Server.h"
#include "lsp/Preamble.h"
#include "lsp/Protocol.h"

#include "frontend/analysis/Action.h"
#include "frontend/analysis/Analysis.h"
#include "frontend/analysis/Leniency.h"
#include "frontend/project/CommandLine.h"
#include "frontend/project/ProjectDatabase.h"
#include "frontend/project/ProjectLaunches.h"
#include "report/CiReports.h"
#include "rules/Rule.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <unistd.h>

using namespace clang;
using namespace clang::tooling;
namespace json = llvm::json;

namespace warplint {
namespace {

using lsp::Encoding;
using Clock = std::chrono::steady_clock;

/// One line on stderr (the editor's log of the server), from either thread.
void log(const llvm::Twine &message) {
  static std::mutex lock;
  std::lock_guard<std::mutex> hold(lock);
  llvm::errs() << "warplint --lsp: " << message << "\n";
}

json::Object position(unsigned line, unsigned character) {
  return json::Object{{"line", line}, {"character", character}};
}

/// An LSP range: start and end (line, character).
struct Range {
  unsigned line = 0, character = 0, endLine = 0, endCharacter = 0;
  json::Object toJson() const {
    return json::Object{{"start", position(line, character)},
                        {"end", position(endLine, endCharacter)}};
  }
  bool contains(unsigned l) const { return line <= l && l <= endLine; }
};

/// What a hover on a flagged line shows: the finding, and the lines it
/// spans; and the code actions of its verified fixes (each without its
/// `diagnostics`, which is `diagnostic`).
struct Flag {
  Range range;
  std::string rule, message;
  json::Array actions;
  json::Value diagnostic = nullptr;
};

/// The outcome of one analysis of a document's text.
struct Results {
  json::Array diagnostics;
  std::vector<Flag> flags;
  /// The --explain pictures of the accesses, branches and loops, by 0-based
  /// line.
  std::map<unsigned, std::vector<std::string>> explanations;
  /// The part of the analysis spent building the document's preamble.
  Clock::duration preambleBuild{};
};

struct Document {
  std::string path, text;
  int64_t version = 0;
  /// Counts every change of the text (versions are the client's and need
  /// not change on save).
  uint64_t generation = 0;
  std::optional<Results> results;
  /// How long its last analysis took: the pause in typing before the next.
  Clock::duration lastAnalysis = std::chrono::milliseconds(200);
  /// When the text last changed (didChange).
  Clock::time_point lastEdit{};
};

/// A document's precompiled preamble, and the compiler's messages while it
/// was built (a parse that reads it does not see its text again, so they are
/// shown with each such parse).
struct PreambleEntry {
  DocumentPreamble preamble;
  json::Array diagnostics;
};

json::Object errorDiagnostic(const std::string &message, Range at = Range()) {
  return json::Object{{"range", at.toJson()},
                      {"severity", 1},
                      {"source", "warplint"},
                      {"message", message}};
}

/// `name` as a file's absolute path: a relative name is relative to the
/// parse's directory `dir`.
std::string resolvePath(llvm::StringRef name, llvm::StringRef dir) {
  llvm::SmallString<256> p(name);
  if (!llvm::sys::path::is_absolute(p)) {
    llvm::SmallString<256> d(dir);
    llvm::sys::path::append(d, p);
    p = d;
  }
  return absolutePath(std::string(p));
}

/// Clang source locations as LSP places in the negotiated encoding. The
/// document is the main file, or the header set by setDocument (a header
/// analyzed in the context of a file that includes it).
class Places {
public:
  Places(const SourceManager &sm, const LangOptions &lo, Encoding e,
         std::string docUri, std::string dir)
      : SM(sm), LO(lo), Enc(e), DocUri(std::move(docUri)), Dir(std::move(dir)) {
  }

  void setDocument(const FileEntry *doc) { Doc = doc; }

  struct Place {
    FileID file;
    unsigned line = 0, character = 0;
  };

  std::optional<Place> place(SourceLocation loc) const {
    if (loc.isInvalid())
      return std::nullopt;
    loc = SM.getExpansionLoc(loc);
    auto [fid, offset] = SM.getDecomposedLoc(loc);
    bool invalid = false;
    llvm::StringRef buf = SM.getBufferData(fid, &invalid);
    if (invalid || offset > buf.size())
      return std::nullopt;
    size_t lineStart = buf.take_front(offset).rfind('\n');
    lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
    Place p;
    p.file = fid;
    p.line = SM.getLineNumber(fid, offset) - 1;
    p.character =
        lsp::characterAt(buf.substr(lineStart), offset - lineStart, Enc);
    return p;
  }

  /// The range of `r` (its last token included), or of the token at `loc`
  /// when `r` is not valid; nullopt when neither has a place.
  std::optional<std::pair<FileID, Range>> range(SourceRange r,
                                                SourceLocation loc) const {
    if (r.isInvalid())
      r = SourceRange(loc, loc);
    std::optional<Place> b = place(r.getBegin());
    if (!b)
      return std::nullopt;
    SourceLocation endTok = SM.getExpansionRange(r.getEnd()).getEnd();
    SourceLocation end = Lexer::getLocForEndOfToken(endTok, 0, SM, LO);
    std::optional<Place> e = place(end);
    Range out{b->line, b->character, b->line, b->character};
    if (e && e->file == b->file &&
        (e->line > b->line ||
         (e->line == b->line && e->character >= b->character))) {
      out.endLine = e->line;
      out.endCharacter = e->character;
    }
    return std::make_pair(b->file, out);
  }

  bool isMain(FileID f) const { return f == SM.getMainFileID(); }

  bool isDocument(FileID f) const {
    if (!Doc)
      return isMain(f);
    auto fe = SM.getFileEntryRefForID(f);
    return fe && &fe->getFileEntry() == Doc;
  }

  std::string uri(FileID f) const {
    if (isDocument(f))
      return DocUri;
    auto fe = SM.getFileEntryRefForID(f);
    return fe ? fileUri(resolvePath(fe->getName(), Dir)) : "";
  }

  std::string name(FileID f) const {
    auto fe = SM.getFileEntryRefForID(f);
    return fe ? fe->getName().str() : "<unknown>";
  }

  /// Where the main file includes (directly or not) the file of `loc`.
  SourceLocation includeInMain(SourceLocation loc) const {
    FileID f = SM.getFileID(SM.getExpansionLoc(loc));
    for (int depth = 0; depth < 256 && f.isValid() && !isMain(f); ++depth) {
      SourceLocation inc = SM.getIncludeLoc(f);
      if (inc.isInvalid())
        return SourceLocation();
      if (isMain(SM.getFileID(inc)))
        return inc;
      f = SM.getFileID(inc);
    }
    return SourceLocation();
  }

private:
  const SourceManager &SM;
  const LangOptions &LO;
  Encoding Enc;
  std::string DocUri, Dir;
  const FileEntry *Doc = nullptr;
};

/// The compiler's errors (and, when asked, warnings) of the document, as
/// diagnostics on it: an error in an included file is shown where the
/// document includes it, one without a place on the first line. An error
/// that does not fail the file on the command line (host-only code, device
/// code nvcc accepts: Leniency.h) is information, and says it was not
/// checked.
class CompilerDiagnostics : public DiagnosticConsumer {
public:
  CompilerDiagnostics(Encoding e, std::string uri, std::string dir,
                      bool warnings)
      : Enc(e), Uri(std::move(uri)), Dir(std::move(dir)), Warnings(warnings) {}
  json::Array diagnostics;
  unsigned errors = 0;
  static constexpr unsigned MaxShown = 20;
  /// The parse's compiler while it runs (where an error is decides whether
  /// it fails the file).
  const CompilerInstance *CI = nullptr;

  void BeginSourceFile(const LangOptions &lo, const Preprocessor *) override {
    LO = &lo;
  }
  void EndSourceFile() override { CI = nullptr; }
  void HandleDiagnostic(DiagnosticsEngine::Level level,
                        const Diagnostic &info) override {
    Leniency lenience = CI ? lenient(level, info, *CI) : Leniency::None;
    // A not-failing error is not counted: the parse succeeds.
    if (lenience == Leniency::None)
      DiagnosticConsumer::HandleDiagnostic(level, info);
    bool error = level >= DiagnosticsEngine::Error;
    if (!error && !(Warnings && level == DiagnosticsEngine::Warning))
      return;
    if (lenience != Leniency::None ? ++notFailing > MaxShown
                                   : error && ++errors > MaxShown)
      return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    std::string message = text.str().str();
    if (lenience != Leniency::None)
      message = std::string(leniencyLabel(lenience)) + ": " + message;
    Range at;
    if (info.hasSourceManager() && info.getLocation().isValid() && LO) {
      const SourceManager &sm = info.getSourceManager();
      Places places(sm, *LO, Enc, Uri, Dir);
      SourceLocation loc = info.getLocation();
      auto placed = places.range(SourceRange(), loc);
      if (placed && places.isMain(placed->first)) {
        at = placed->second;
      } else if (placed) {
        std::optional<Places::Place> p = places.place(loc);
        message = "in included file " + places.name(placed->first) + ":" +
                  std::to_string(p ? p->line + 1 : 0) + ": " + message;
        if (auto inc = places.range(SourceRange(), places.includeInMain(loc)))
          at = inc->second;
      }
    }
    int severity = lenience != Leniency::None ? 3 : error ? 1 : 2;
    json::Object d{{"range", at.toJson()},
                   {"severity", severity},
                   {"source", "warplint"},
                   {"message", message}};
    diagnostics.push_back(std::move(d));
  }

private:
  Encoding Enc;
  std::string Uri, Dir;
  bool Warnings;
  unsigned notFailing = 0;
  const LangOptions *LO = nullptr;
};

/// One compile command: the document's.
class OneCommand : public CompilationDatabase {
public:
  explicit OneCommand(CompileCommand c) : Command(std::move(c)) {}
  std::vector<CompileCommand>
  getCompileCommands(llvm::StringRef file) const override {
    if (file == Command.Filename)
      return {Command};
    return {};
  }

private:
  CompileCommand Command;
};

/// What one parse for a document needs: the document, the options, where
/// findings go and the run's state.
struct Job {
  const ToolOptions &opts;
  Encoding enc;
  std::string uri;    // the document's
  std::string docDir; // the rule pages'
  std::string dir;    // the parse's working directory
  /// Empty: the document is the main file. Else the document's path, a
  /// header analyzed as the main file (one that includes it) instantiates
  /// its kernel templates.
  std::string onlyPath;
  RunState &run;
  Results &out;
  /// Where the document's own compiler messages go (none for a file that
  /// includes it): told the compiler while it parses.
  CompilerDiagnostics *compiler = nullptr;
};

/// Parses the document or a file including it (the document's text mapped
/// over its file) and analyzes it, turning the findings in the document into
/// diagnostics while the AST is alive.
class AnalyzeAction : public ASTFrontendAction {
public:
  explicit AnalyzeAction(const Job &job) : J(job) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci,
                                                 llvm::StringRef) override {
    // As the command line: a missing header is an error, not the end of the
    // parse, so that the kernels that parsed are still analyzed.
    ci.getDiagnostics().setFatalsAsError(true);
    ci.getDiagnostics().setErrorLimit(0);
    if (J.compiler)
      J.compiler->CI = &ci;
    struct Consumer : ASTConsumer {
      AnalyzeAction &A;
      explicit Consumer(AnalyzeAction &a) : A(a) {}
      void HandleTranslationUnit(ASTContext &ac) override { A.analyze(ac); }
    };
    return std::make_unique<Consumer>(*this);
  }

private:
  const Job &J;

  /// A message of the analysis as an LSP diagnostic of the document (none
  /// for one in a header the document includes: it belongs to that header).
  void publish(const DiagnosticRecord &f, Places &places) {
    auto at = places.range(rangeOf(f.range).getAsRange(), locationOf(f.at));
    // Findings in the headers the document includes belong to them.
    if (!at || !places.isDocument(at->first))
      return;
    json::Object d{{"range", at->second.toJson()},
                   {"severity", f.severity == "remark" ? 3 : 2},
                   {"source", "warplint"},
                   {"message", f.message}};
    if (!f.rule.empty()) {
      d["code"] = f.rule;
      d["codeDescription"] =
          json::Object{{"href", ruleHelpUri(J.docDir, f.rule)}};
    }
    json::Array related;
    for (const NoteRecord &note : f.notes) {
      SourceLocation loc = locationOf(note.at);
      const std::string &message = note.message;
      auto n = places.range(rangeOf(note.range).getAsRange(),
                            loc.isValid() ? loc : locationOf(f.at));
      if (!n)
        n = at;
      related.push_back(json::Object{
          {"location", json::Object{{"uri", places.uri(n->first)},
                                    {"range", n->second.toJson()}}},
          {"message", message}});
    }
    if (!related.empty())
      d["relatedInformation"] = std::move(related);
    // Verified fixes as quick fixes: each a workspace edit, which may
    // change another file (the header declaring a padded array).
    json::Array actions;
    for (const FixRecord &fix : f.fixes) {
      const std::string &title = fix.description;
      const std::vector<FixItHint> hints{fixItOf(fix)};
      json::Object changes;
      bool placed = !hints.empty();
      for (const FixItHint &h : hints) {
        auto b = places.place(h.RemoveRange.getBegin());
        auto e = places.place(h.RemoveRange.getEnd());
        if (!b || !e || b->file != e->file) {
          placed = false;
          break;
        }
        std::string u = places.uri(b->file);
        if (!changes.getArray(u))
          changes[u] = json::Array();
        changes.getArray(u)->push_back(json::Object{
            {"range",
             Range{b->line, b->character, e->line, e->character}.toJson()},
            {"newText", h.CodeToInsert}});
      }
      if (placed)
        actions.push_back(json::Object{
            {"title", title},
            {"kind", "quickfix"},
            {"edit", json::Object{{"changes", std::move(changes)}}}});
    }
    json::Value diagnostic = json::Object(d);
    J.out.diagnostics.push_back(std::move(d));
    J.out.flags.push_back({at->second, f.rule, f.message, std::move(actions),
                           std::move(diagnostic)});
  }

  void analyze(ASTContext &ac) {
    const SourceManager &sm = ac.getSourceManager();
    Places places(sm, ac.getLangOpts(), J.enc, J.uri, J.dir);
    if (!J.onlyPath.empty()) {
      auto doc = sm.getFileManager().getOptionalFileRef(J.onlyPath);
      if (!doc)
        return;
      places.setDocument(&doc->getFileEntry());
      J.run.onlyFile = doc->getUniqueID();
    }
    /// Each message the pipeline lets through, turned into an LSP
    /// diagnostic while the AST is alive.
    struct Printer : MessagePrinter {
      AnalyzeAction &A;
      Places &P;
      Printer(AnalyzeAction &a, Places &p) : A(a), P(p) {}
      void finding(const DiagnosticRecord &d) override { A.publish(d, P); }
      void plain(const DiagnosticRecord &d) override { A.publish(d, P); }
      void explanation(const DiagnosticRecord &d) override {
        explained(A.J.opts, d.pos, d.message);
      }
    } printer(*this, places);
    analyzeParsed(ac, J.opts, printer, &J.run);
    J.run.onlyFile.reset();
  }
};

/// The picture's place in the document: the explanation's first line names
/// it ("FILE:LINE:COL: explain: ..."); the file's name is left out.
std::string withoutPlace(const std::string &text) {
  size_t at = text.find(": explain: ");
  size_t nl = text.find('\n');
  if (at == std::string::npos || (nl != std::string::npos && at > nl))
    return text;
  return text.substr(at + 2);
}

class Server {
public:
  Server(lsp::Transport &t, const ToolOptions &opts, std::string docDir)
      : T(t), Base(opts), DocDir(std::move(docDir)) {
    Base.files.clear();
    Base.textDiagnostics = false;
    Base.remarks = false;
    Base.explainLine = 0;
  }

  int run() {
    startWorker();
    int code = 1; // the end of input without `exit`
    for (;;) {
      std::string body, error;
      lsp::Transport::Read r = T.read(body, error);
      if (r == lsp::Transport::Read::End) {
        log("end of input");
        code = ShutDown ? 0 : 1;
        break;
      }
      if (r == lsp::Transport::Read::Malformed) {
        log("malformed message: " + error);
        replyError(nullptr, lsp::ParseError, error);
        continue;
      }
      llvm::Expected<json::Value> v = json::parse(body);
      if (!v) {
        std::string why = llvm::toString(v.takeError());
        log("message is not JSON: " + why);
        replyError(nullptr, lsp::ParseError, "message is not JSON: " + why);
        continue;
      }
      if (std::optional<int> exit = handle(*v)) {
        code = *exit;
        break;
      }
    }
    stop();
    return code;
  }

private:
  lsp::Transport &T;
  ToolOptions Base;
  std::string DocDir;
  Encoding Enc = Encoding::UTF16;
  bool Markdown = false;
  bool Initialized = false, ShutDown = false;

  std::mutex Lock;
  std::condition_variable Wake;
  std::map<std::string, Document> Docs;         // by URI
  std::map<std::string, Clock::time_point> Due; // documents to analyze
  bool Stopping = false, Busy = false;
  /// Parses and analyzes the documents, one at a time, on a large stack
  /// (deep recursion in a parse or an analysis is a crash recovered, not
  /// the end of the server). One thread for every run, so that what the
  /// model keeps per thread (its hash-consed expressions, the figures of
  /// every access it analyzed) carries over from one edit to the next: the
  /// kernels an edit left alone are not evaluated again. After a crash that
  /// state is not trusted: a new worker takes over with none.
  llvm::thread Worker;
  static constexpr unsigned WorkerStack = 64u << 20;
  /// Set by parse() on the worker when a run crashed (and was recovered).
  static thread_local bool Crashed;

  void startWorker() {
    Worker = llvm::thread(std::optional<unsigned>(WorkerStack), [this] {
      withSignalStack([this] {
        if (work())
          for (;;) // parked: its state is not touched again, not even freed
            std::this_thread::sleep_for(std::chrono::hours(24));
      });
    });
  }

  /// The compile databases found so far (worker thread only), by the
  /// directory holding compile_commands.json, with its modification time.
  struct LoadedDatabase {
    std::unique_ptr<CompilationDatabase> db;
    std::string error;
    llvm::sys::TimePoint<> modified;
  };
  std::map<std::string, LoadedDatabase> Databases;
  /// The launches of each project's other files (worker thread only), by
  /// compile database directory ("" without one: the open documents), kept
  /// between runs and dropped when a document is opened or saved.
  std::map<std::string, std::unique_ptr<ProjectLaunches>> Projects;
  bool ProjectsStale = false; // under Lock

  /// Each open document's preamble (worker thread only), by URI.
  std::map<std::string, PreambleEntry> Preambles;

  /// The pause in typing before a changed document is analyzed again: as
  /// long as its last analysis took (clangd's rule), 50 to 500 ms.
  static Clock::duration typingPause(const Document &d) {
    return std::clamp<Clock::duration>(d.lastAnalysis,
                                       std::chrono::milliseconds(50),
                                       std::chrono::milliseconds(500));
  }

  // --- messages
  // ----------------------------------------------------------------

  void reply(const json::Value &id, json::Value result) {
    T.send(json::Object{
        {"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
  }
  void replyError(const json::Value &id, int code, const std::string &message) {
    T.send(json::Object{
        {"jsonrpc", "2.0"},
        {"id", id},
        {"error", json::Object{{"code", code}, {"message", message}}}});
  }
  void notify(llvm::StringRef method, json::Value params) {
    T.send(json::Object{
        {"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
  }
  void showError(const std::string &message) {
    log(message);
    notify("window/logMessage",
           json::Object{{"type", 1}, {"message", "warplint: " + message}});
  }

  /// Handles one message; the exit code once the client said `exit`.
  std::optional<int> handle(const json::Value &v) {
    const json::Object *msg = v.getAsObject();
    if (!msg) {
      replyError(nullptr, lsp::InvalidRequest,
                 "a message must be a JSON object");
      return std::nullopt;
    }
    const json::Value *id = msg->get("id");
    if (id && id->kind() != json::Value::Number &&
        id->kind() != json::Value::String) {
      replyError(nullptr, lsp::InvalidRequest,
                 "a request's id must be a number or a string");
      return std::nullopt;
    }
    std::optional<llvm::StringRef> method = msg->getString("method");
    if (!method) {
      if (id && (msg->get("result") || msg->get("error")))
        return std::nullopt; // a response: the server sends no requests
      replyError(id ? *id : json::Value(nullptr), lsp::InvalidRequest,
                 "a request needs a 'method' string");
      return std::nullopt;
    }
    const json::Value *params = msg->get("params");
    if (*method == "exit")
      return ShutDown ? 0 : 1;
    if (!Initialized && *method != "initialize") {
      if (id)
        replyError(*id, lsp::ServerNotInitialized,
                   "the server is not initialized yet");
      return std::nullopt;
    }
    if (id)
      request(*id, *method, params);
    else
      notification(*method, params);
    return std::nullopt;
  }

  void request(const json::Value &id, llvm::StringRef method,
               const json::Value *params) {
    if (ShutDown) {
      replyError(id, lsp::InvalidRequest, "the server is shutting down");
      return;
    }
    const json::Object *p = params ? params->getAsObject() : nullptr;
    if (method == "initialize") {
      if (Initialized) {
        replyError(id, lsp::InvalidRequest, "initialize was already called");
        return;
      }
      initialize(id, p);
    } else if (method == "shutdown") {
      ShutDown = true;
      reply(id, nullptr);
    } else if (method == "textDocument/hover") {
      hover(id, p);
    } else if (method == "textDocument/codeAction") {
      codeAction(id, p);
    } else {
      replyError(id, lsp::MethodNotFound,
                 "warplint does not handle '" + method.str() + "'");
    }
  }

  void notification(llvm::StringRef method, const json::Value *params) {
    const json::Object *p = params ? params->getAsObject() : nullptr;
    if (method == "textDocument/didOpen")
      didOpen(p);
    else if (method == "textDocument/didChange")
      didChange(p);
    else if (method == "textDocument/didSave")
      didSave(p);
    else if (method == "textDocument/didClose")
      didClose(p);
    else if (method == "workspace/didChangeWatchedFiles" ||
             method == "workspace/didChangeConfiguration")
      reanalyzeAll();
    // initialized, $/cancelRequest (every answer is immediate), $/setTrace
    // and the rest need nothing.
  }

  void initialize(const json::Value &id, const json::Object *p) {
    const json::Object *caps = p ? p->getObject("capabilities") : nullptr;
    const json::Object *general = caps ? caps->getObject("general") : nullptr;
    Enc = lsp::negotiateEncoding(
        general ? general->getArray("positionEncodings") : nullptr);
    const json::Object *td = caps ? caps->getObject("textDocument") : nullptr;
    const json::Object *hov = td ? td->getObject("hover") : nullptr;
    if (const json::Array *formats =
            hov ? hov->getArray("contentFormat") : nullptr)
      for (const json::Value &f : *formats)
        if (std::optional<llvm::StringRef> s = f.getAsString())
          Markdown |= *s == "markdown";
    Initialized = true;
    reply(
        id,
        json::Object{
            {"capabilities",
             json::Object{
                 {"positionEncoding", lsp::encodingName(Enc)},
                 {"textDocumentSync",
                  json::Object{{"openClose", true},
                               {"change", 2}, // incremental
                               {"save", json::Object{{"includeText", true}}}}},
                 {"hoverProvider", true},
                 {"codeActionProvider",
                  json::Object{{"codeActionKinds", json::Array{"quickfix"}}}}}},
            {"serverInfo", json::Object{{"name", "warplint"},
                                        {"version", WARPLINT_VERSION}}}});
  }

  /// The document a notification or request names, or null (logged).
  const json::Object *textDocument(const json::Object *p, const char *what) {
    const json::Object *td = p ? p->getObject("textDocument") : nullptr;
    if (!td || !td->getString("uri")) {
      showError(std::string(what) + " without a textDocument.uri");
      return nullptr;
    }
    return td;
  }

  void didOpen(const json::Object *p) {
    const json::Object *td = textDocument(p, "textDocument/didOpen");
    if (!td)
      return;
    std::string uri = td->getString("uri")->str();
    std::optional<llvm::StringRef> text = td->getString("text");
    std::optional<std::string> path = lsp::uriToPath(uri);
    if (!text) {
      showError("textDocument/didOpen of " + uri + " without its text");
      return;
    }
    std::lock_guard<std::mutex> lock(Lock);
    Document &d = Docs[uri];
    d.text = text->str();
    d.version = td->getInteger("version").value_or(0);
    ++d.generation;
    d.results.reset();
    if (!path) {
      // Not a local file (an unsaved buffer): nothing to parse it as.
      d.path.clear();
      publish(uri, d.version,
              json::Array{json::Object{
                  {"range", Range().toJson()},
                  {"severity", 3},
                  {"source", "warplint"},
                  {"message", "warplint analyzes files on disk: save this "
                              "document to have it analyzed"}}});
      return;
    }
    d.path = absolutePath(*path);
    ProjectsStale = true; // one more file whose launches count
    schedule(uri, Clock::duration::zero());
  }

  void didChange(const json::Object *p) {
    const json::Object *td = textDocument(p, "textDocument/didChange");
    if (!td)
      return;
    std::string uri = td->getString("uri")->str();
    const json::Array *changes = p->getArray("contentChanges");
    std::lock_guard<std::mutex> lock(Lock);
    auto it = Docs.find(uri);
    if (it == Docs.end()) {
      showError("textDocument/didChange of " + uri + ", which is not open");
      return;
    }
    Document &d = it->second;
    if (changes)
      for (const json::Value &c : *changes) {
        std::string error;
        const json::Object *change = c.getAsObject();
        if (!change)
          error = "a content change must be an object";
        else
          lsp::applyChange(d.text, *change, Enc, error);
        if (!error.empty())
          showError("textDocument/didChange of " + uri + ": " + error);
      }
    if (std::optional<int64_t> v = td->getInteger("version"))
      d.version = *v;
    ++d.generation;
    // An edit after a quiet spell (no other in the last two pauses) is
    // analyzed at once: one change, a paste, a fix, is answered in the time
    // of a run. Edits in quick succession wait the pause, so that typing is
    // analyzed once it stops, not keystroke by keystroke: a burst costs one
    // run more than the pause alone would (its first keystroke's).
    const Clock::time_point now = Clock::now();
    const bool quiet = now - d.lastEdit > 2 * typingPause(d);
    d.lastEdit = now;
    if (!d.path.empty())
      schedule(uri, quiet ? Clock::duration::zero() : typingPause(d));
  }

  void didSave(const json::Object *p) {
    const json::Object *td = textDocument(p, "textDocument/didSave");
    if (!td)
      return;
    std::string uri = td->getString("uri")->str();
    std::lock_guard<std::mutex> lock(Lock);
    auto it = Docs.find(uri);
    if (it == Docs.end())
      return;
    if (std::optional<llvm::StringRef> text = p->getString("text")) {
      it->second.text = text->str();
      ++it->second.generation;
    }
    // The configuration, the headers or the launches in the saved file may
    // have changed.
    ProjectsStale = true;
    if (!it->second.path.empty())
      schedule(uri, Clock::duration::zero());
  }

  void didClose(const json::Object *p) {
    const json::Object *td = textDocument(p, "textDocument/didClose");
    if (!td)
      return;
    std::string uri = td->getString("uri")->str();
    std::lock_guard<std::mutex> lock(Lock);
    Docs.erase(uri);
    Due.erase(uri);
    publish(uri, std::nullopt, json::Array());
  }

  void reanalyzeAll() {
    std::lock_guard<std::mutex> lock(Lock);
    ProjectsStale = true;
    for (auto &[uri, d] : Docs)
      if (!d.path.empty())
        schedule(uri, Clock::duration::zero());
  }

  /// The quick fixes of the findings on the lines of the request's range:
  /// the verified fixes (a padded array extent), preferred first.
  void codeAction(const json::Value &id, const json::Object *p) {
    const json::Object *td = p ? p->getObject("textDocument") : nullptr;
    const json::Object *range = p ? p->getObject("range") : nullptr;
    const json::Object *start = range ? range->getObject("start") : nullptr;
    const json::Object *end = range ? range->getObject("end") : nullptr;
    std::optional<llvm::StringRef> uri =
        td ? td->getString("uri") : std::nullopt;
    // (-1: missing or not an integer.)
    const int64_t first =
        (start ? start->getInteger("line") : std::nullopt).value_or(-1);
    const int64_t last =
        (end ? end->getInteger("line") : std::nullopt).value_or(-1);
    if (!uri || first < 0 || last < first) {
      replyError(id, lsp::InvalidParams,
                 "textDocument/codeAction wants textDocument.uri and a range");
      return;
    }
    const unsigned from = unsigned(first), to = unsigned(last);
    std::lock_guard<std::mutex> lock(Lock);
    json::Array out;
    auto it = Docs.find(uri->str());
    if (it != Docs.end() && it->second.results)
      for (const Flag &f : it->second.results->flags) {
        if (f.range.endLine < from || f.range.line > to)
          continue;
        for (const json::Value &a : f.actions) {
          json::Object action = *a.getAsObject();
          action["diagnostics"] = json::Array{f.diagnostic};
          action["isPreferred"] = out.empty();
          out.push_back(std::move(action));
        }
      }
    reply(id, std::move(out));
  }

  void hover(const json::Value &id, const json::Object *p) {
    const json::Object *td = p ? p->getObject("textDocument") : nullptr;
    const json::Object *pos = p ? p->getObject("position") : nullptr;
    std::optional<llvm::StringRef> uri =
        td ? td->getString("uri") : std::nullopt;
    std::optional<int64_t> line = pos ? pos->getInteger("line") : std::nullopt;
    if (!uri || !line || *line < 0) {
      replyError(id, lsp::InvalidParams,
                 "textDocument/hover wants textDocument.uri and position.line");
      return;
    }
    std::lock_guard<std::mutex> lock(Lock);
    auto it = Docs.find(uri->str());
    if (it == Docs.end() || !it->second.results) {
      reply(id, nullptr);
      return;
    }
    const Results &r = *it->second.results;
    unsigned l = unsigned(*line);
    std::string text;
    std::optional<Range> range;
    std::set<unsigned> lines;
    for (const Flag &f : r.flags) {
      if (!f.range.contains(l))
        continue;
      if (!range)
        range = f.range;
      lines.insert(f.range.line);
      std::string rule = f.rule.empty() ? "warplint" : f.rule;
      text += Markdown ? "**" + rule + "**: " + f.message + "\n\n"
                       : rule + ": " + f.message + "\n\n";
    }
    if (!range) {
      reply(id, nullptr);
      return;
    }
    std::set<std::string> shown;
    for (unsigned fl : lines) {
      auto e = r.explanations.find(fl);
      if (e == r.explanations.end())
        continue;
      for (const std::string &picture : e->second)
        if (shown.insert(picture).second)
          text += Markdown ? "```text\n" + picture + "```\n\n" : picture + "\n";
    }
    reply(id, json::Object{
                  {"contents",
                   json::Object{{"kind", Markdown ? "markdown" : "plaintext"},
                                {"value", text}}},
                  {"range", range->toJson()}});
  }

  // --- analysis
  // ------------------------------------------------------------------

  /// Marks a document for analysis after `pause` (under Lock).
  void schedule(const std::string &uri, Clock::duration pause) {
    Due[uri] = Clock::now() + pause;
    Wake.notify_all();
  }

  /// Publishes diagnostics (under Lock, so that a closed document's empty
  /// list is the last word on it).
  void publish(const std::string &uri, std::optional<int64_t> version,
               json::Array diagnostics) {
    json::Object params{{"uri", uri}, {"diagnostics", std::move(diagnostics)}};
    if (version)
      params["version"] = *version;
    notify("textDocument/publishDiagnostics", std::move(params));
  }

  /// The worker's loop; true when it ended because its run crashed and a
  /// new worker took over.
  bool work() {
    std::unique_lock<std::mutex> lock(Lock);
    while (!Stopping) {
      if (Crashed) {
        log("a run crashed: the analyses continue on a new worker thread");
        Worker.detach();
        startWorker();
        return true;
      }
      // The preambles of closed documents go (Preambles is the worker's).
      for (auto p = Preambles.begin(); p != Preambles.end();)
        p = Docs.count(p->first) ? std::next(p) : Preambles.erase(p);
      if (Due.empty()) {
        Wake.wait(lock);
        continue;
      }
      auto next = Due.begin();
      for (auto i = Due.begin(); i != Due.end(); ++i)
        if (i->second < next->second)
          next = i;
      if (next->second > Clock::now()) {
        Wake.wait_until(lock, next->second);
        continue;
      }
      std::string uri = next->first;
      Due.erase(next);
      auto it = Docs.find(uri);
      if (it == Docs.end())
        continue;
      std::string path = it->second.path, text = it->second.text;
      uint64_t generation = it->second.generation;
      int64_t version = it->second.version;
      Encoding enc = Enc;
      std::vector<std::string> open;
      for (const auto &[u, d] : Docs)
        if (!d.path.empty())
          open.push_back(d.path);
      bool stale = ProjectsStale;
      ProjectsStale = false;
      Busy = true;
      lock.unlock();
      if (stale) {
        Projects.clear();
        // A header may have been added or mended since a preamble failed.
        for (auto &[u, p] : Preambles)
          p.preamble.retry();
      }
      log("analyzing " + path + " version " + std::to_string(version));
      auto start = Clock::now();
      Results results = analyze(uri, path, text, enc, open);
      double seconds =
          std::chrono::duration<double>(Clock::now() - start).count();
      lock.lock();
      Busy = false;
      it = Docs.find(uri);
      if (it != Docs.end())
        it->second.lastAnalysis = Clock::now() - start - results.preambleBuild;
      if (it == Docs.end() || it->second.generation != generation) {
        log("dropped the results for " + uri + " version " +
            std::to_string(version) + ": the text changed while it was " +
            "analyzed");
        continue;
      }
      log("analyzed " + path + " version " + std::to_string(version) + " in " +
          std::to_string(int(seconds * 1000)) + " ms: " +
          std::to_string(results.diagnostics.size()) + " diagnostics");
      json::Array diagnostics = results.diagnostics;
      it->second.results = std::move(results);
      publish(uri, version, std::move(diagnostics));
    }
    return false;
  }

  /// The compile database for `path`, found as clangd finds it: -p if
  /// given, else compile_commands.json in the file's directory or one above
  /// it, or in their build/ subdirectory; `dir` is set to the directory it is
  /// in. Null when there is none; `error` says why one found could not be
  /// loaded.
  const CompilationDatabase *database(const std::string &path,
                                      std::string &error, std::string &dir) {
    if (!Base.buildPath.empty()) {
      dir = Base.buildPath;
    } else {
      for (llvm::StringRef d = llvm::sys::path::parent_path(path); !d.empty();
           d = llvm::sys::path::parent_path(d)) {
        llvm::SmallString<256> here(d), build(d);
        llvm::sys::path::append(here, "compile_commands.json");
        llvm::sys::path::append(build, "build", "compile_commands.json");
        if (llvm::sys::fs::exists(here)) {
          dir = d.str();
          break;
        }
        if (llvm::sys::fs::exists(build)) {
          dir = llvm::sys::path::parent_path(build).str();
          break;
        }
        if (d == llvm::sys::path::root_path(d))
          break;
      }
    }
    if (dir.empty())
      return nullptr;
    llvm::SmallString<256> json(dir);
    llvm::sys::path::append(json, "compile_commands.json");
    llvm::sys::fs::file_status st;
    llvm::sys::TimePoint<> modified;
    if (!llvm::sys::fs::status(json, st))
      modified = st.getLastModificationTime();
    auto found = Databases.find(dir);
    if (found == Databases.end() || found->second.modified != modified) {
      LoadedDatabase l;
      l.modified = modified;
      l.db = loadProjectDatabase(dir, l.error);
      Projects.erase(dir); // its launches came from the old commands
      if (l.db)
        log("compile commands from " + dir);
      found = Databases.insert_or_assign(dir, std::move(l)).first;
    }
    if (!found->second.db)
      error = "cannot load compile_commands.json from '" + dir +
              "': " + found->second.error +
              "; parsing with the default command";
    return found->second.db.get();
  }

  /// The launches of the other files of the project `key` (see Projects),
  /// over `files` (projectFiles).
  ProjectLaunches *project(const std::string &key,
                           const CompilationDatabase *db,
                           const std::vector<std::string> &files) {
    std::unique_ptr<ProjectLaunches> &p = Projects[key];
    if (!p) {
      ToolOptions opts = Base;
      p = std::make_unique<ProjectLaunches>(files,
                                            [opts, db](const std::string &f) {
                                              return launchFacts(f, opts, db);
                                            });
    }
    return p.get();
  }

  Results analyze(const std::string &uri, const std::string &path,
                  const std::string &text, Encoding enc,
                  const std::vector<std::string> &open) {
    Results out;
    ToolOptions opts = Base;
    if (opts.configure) {
      auto configure = opts.configure;
      if (std::string e = configure(path, opts); !e.empty()) {
        out.diagnostics.push_back(
            errorDiagnostic("warplint configuration: " + e));
        return out;
      }
    }
    if (text.size() > opts.maxFileBytes) {
      out.diagnostics.push_back(errorDiagnostic(
          "file is too large to analyze (" + std::to_string(text.size() >> 20) +
          " MiB; the limit is " + std::to_string(opts.maxFileBytes >> 20) +
          " MiB, see --max-file-size)"));
      return out;
    }
    if (llvm::StringRef(text).take_front(65536).contains('\0')) {
      out.diagnostics.push_back(
          errorDiagnostic("binary file, not CUDA source"));
      return out;
    }
    std::string dbError, dbDir;
    const CompilationDatabase *db = database(path, dbError, dbDir);
    if (!dbError.empty())
      out.diagnostics.push_back(json::Object{{"range", Range().toJson()},
                                             {"severity", 2},
                                             {"source", "warplint"},
                                             {"message", dbError}});
    ParseCommand pc = parseCommand(path, opts, db);
    for (const std::string &e : pc.errors)
      out.diagnostics.push_back(errorDiagnostic("warplint: " + e));

    // Every picture in the document, by line, for the hovers.
    std::string parseDir = pc.dir;
    opts.explainAll = true;
    opts.explainSink = [&](const SourcePos &at, const std::string &picture) {
      if (at.line == 0 || resolvePath(at.file, parseDir) != pc.file)
        return;
      std::vector<std::string> &pics = out.explanations[at.line - 1];
      std::string p = withoutPlace(picture);
      if (pics.size() < 4 &&
          std::find(pics.begin(), pics.end(), p) == pics.end())
        pics.push_back(p);
    };

    std::vector<std::string> files = projectFiles(db, open);
    RunState run;
    run.project = project(db ? dbDir : "", db, files);
    CompilerDiagnostics compiler(enc, uri, pc.dir, opts.compilerWarnings);
    int rc = 1;
    Job job{opts, enc, uri, DocDir, pc.dir, "", run, out, &compiler};
    PreambleEntry &preamble = Preambles[uri];
    DocumentPreamble::Outcome how;
    if (!parse(job, pc, text, compiler, rc, &preamble, &how)) {
      preamble.preamble.forget();
      out.diagnostics.push_back(errorDiagnostic(
          "warplint crashed while analyzing this file; please report it with "
          "the file"));
      return out;
    }
    out.preambleBuild = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(how.buildSeconds));
    if (how.built)
      log("built the preamble of " + path + " (" +
          std::to_string(preamble.preamble.size() >> 10) + " KiB) in " +
          std::to_string(int(how.buildSeconds * 1000)) + " ms: " + how.why);
    else if (!how.used)
      log("parsed " + path + " without a preamble: " + how.why);
    if (how.used)
      for (const json::Value &d : preamble.diagnostics)
        out.diagnostics.push_back(d);
    for (json::Value &d : compiler.diagnostics)
      out.diagnostics.push_back(std::move(d));
    if (compiler.errors > CompilerDiagnostics::MaxShown)
      out.diagnostics.push_back(errorDiagnostic(
          std::to_string(compiler.errors) + " compiler errors, the first " +
          std::to_string(CompilerDiagnostics::MaxShown) +
          " shown; warplint's results for this file are partial"));
    else if (rc != 0 && compiler.errors == 0)
      out.diagnostics.push_back(
          errorDiagnostic("the file could not be parsed"));
    else if (rc == 0 && !run.uninstantiated.empty())
      inContext(job, pc, text, db, files, parseDir);
    return out;
  }

  /// The files whose launches count for a document: the compile database's
  /// and the open documents.
  static std::vector<std::string>
  projectFiles(const CompilationDatabase *db,
               const std::vector<std::string> &open) {
    std::vector<std::string> files = open;
    if (db)
      for (const std::string &f : db->getAllFiles())
        files.push_back(absolutePath(f));
    return files;
  }

  /// Runs AnalyzeAction on the compiler invocation the driver made of the
  /// command; with a document's preamble (the document is the main file), it
  /// reads the preamble, built first when none fits.
  class PreambledAction : public ToolAction {
  public:
    PreambledAction(const Job &j, const std::string &text,
                    PreambleEntry *preamble, std::string command)
        : J(j), Text(text), P(preamble), Command(std::move(command)) {}
    DocumentPreamble::Outcome outcome;

    bool runInvocation(std::shared_ptr<CompilerInvocation> invocation,
                       FileManager *files,
                       std::shared_ptr<PCHContainerOperations> pch,
                       DiagnosticConsumer *diagnostics) override {
      IntrusiveRefCntPtr<llvm::vfs::FileSystem> vfs =
          files->getVirtualFileSystemPtr();
      std::unique_ptr<llvm::MemoryBuffer> main;
      if (P && !invocation->getFrontendOpts().Inputs.empty()) {
        main = llvm::MemoryBuffer::getMemBufferCopy(
            Text, invocation->getFrontendOpts().Inputs[0].getFile());
        CompilerDiagnostics built(J.enc, J.uri, J.dir,
                                  J.opts.compilerWarnings);
        outcome = P->preamble.prepare(
            *invocation, vfs, pch, Command, main,
            {built, [&](const CompilerInstance *ci) { built.CI = ci; },
             [&] { return built.errors == 0; }});
        if (outcome.built)
          P->diagnostics = std::move(built.diagnostics);
        if (!outcome.used)
          main.reset();
      }
      CompilerInstance compiler(std::move(invocation), std::move(pch));
      compiler.setVirtualFileSystem(vfs);
      compiler.createFileManager();
      compiler.createDiagnostics(diagnostics, /*ShouldOwnClient=*/false);
      if (!compiler.hasDiagnostics())
        return false;
      compiler.createSourceManager();
      AnalyzeAction action(J);
      bool ok = compiler.ExecuteAction(action);
      // The compiler's source manager owns the remapped main file now.
      (void)main.release();
      return ok;
    }

  private:
    const Job &J;
    const std::string &Text;
    PreambleEntry *P;
    std::string Command;
  };

  /// Parses and analyzes `pc`'s file with the document's `text` mapped over
  /// the document's file, reading `preamble` when given (the document is the
  /// main file: see PreambledAction); false when it crashed (recovered).
  static bool parse(const Job &job, const ParseCommand &pc,
                    const std::string &text, DiagnosticConsumer &diagnostics,
                    int &rc, PreambleEntry *preamble = nullptr,
                    DocumentPreamble::Outcome *how = nullptr) {
    OneCommand command(CompileCommand(pc.dir, pc.file, pc.argv, ""));
    ClangTool tool(command, {pc.file}, std::make_shared<PCHContainerOperations>(),
                 ownFileSystem());
    tool.mapVirtualFile(job.onlyPath.empty() ? pc.file : job.onlyPath, text);
    tool.setDiagnosticConsumer(&diagnostics);
    tool.setPrintErrorMessage(false);
    std::string key = pc.dir + '\n' + pc.file;
    for (const std::string &a : pc.argv)
      key += '\n' + a;
    PreambledAction action(job, text, job.onlyPath.empty() ? preamble : nullptr,
                           key);
    llvm::CrashRecoveryContext crc;
    bool ok = crc.RunSafely([&] { rc = tool.run(&action); });
    Crashed |= !ok;
    if (how)
      *how = action.outcome;
    return ok;
  }

  /// A header whose kernel templates it does not instantiate: as on the
  /// command line, they are analyzed as the files of the project that
  /// include it instantiate them (the first four), and only the header's
  /// kernels are reported. The header's text is the editor's.
  void inContext(const Job &main, const ParseCommand &pc,
                 const std::string &text, const CompilationDatabase *db,
                 const std::vector<std::string> &files, std::string &parseDir) {
    constexpr size_t MaxContexts = 4;
    std::vector<std::string> templates = main.run.uninstantiated;
    std::string names;
    for (size_t i = 0; i < templates.size() && i < 3; ++i)
      names += (i ? ", '" : "'") + templates[i] + "'";
    if (templates.size() > 3)
      names += " and " + std::to_string(templates.size() - 3) + " more";
    std::string what = "kernel template" +
                       std::string(templates.size() == 1 ? " " : "s ") + names;
    std::vector<std::string> includers =
        filesIncluding(pc.file, files, *main.run.project);
    size_t used = 0;
    for (const std::string &inc : includers) {
      if (used == MaxContexts)
        break;
      ParseCommand ic = parseCommand(inc, main.opts, db);
      if (!ic.errors.empty())
        continue;
      Job job{main.opts, main.enc, main.uri, main.docDir,
              ic.dir,    pc.file,  main.run, main.out, nullptr};
      parseDir = ic.dir;
      IgnoringDiagConsumer quiet; // the including file's errors are its own
      int rc = 1;
      if (parse(job, ic, text, quiet, rc))
        ++used;
    }
    log(what + ": analyzed as instantiated in " + std::to_string(used) +
        " of the " + std::to_string(includers.size()) + " files that include " +
        pc.file);
    if (used)
      return;
    main.out.diagnostics.push_back(json::Object{
        {"range", Range().toJson()},
        {"severity", 3},
        {"source", "warplint"},
        {"message",
         what + " not instantiated here, and " +
             (includers.empty()
                  ? std::string("no file of the compile database or open "
                                "document includes this one")
                  : "none of the files that include this one could be "
                    "parsed") +
             ": nothing to analyze for " +
             (templates.size() == 1 ? "it" : "them")}});
  }

  void stop() {
    std::unique_lock<std::mutex> lock(Lock);
    Stopping = true;
    Wake.notify_all();
    if (Busy) {
      // A parse in progress is abandoned, not awaited: leave now.
      lock.unlock();
      std::fflush(nullptr);
      llvm::errs().flush();
      std::_Exit(ShutDown ? 0 : 1);
    }
    lock.unlock();
    Worker.join();
  }
};

thread_local bool Server::Crashed = false;

} // namespace

int runLanguageServer(const ToolOptions &opts, const std::string &docDir) {
  // The protocol owns stdout: it writes to a copy of the descriptor, and
  // anything else written to descriptor 1 goes to stderr.
  llvm::outs().flush();
  std::fflush(stdout);
  int protocolFd = dup(1);
  std::FILE *out = protocolFd >= 0 ? fdopen(protocolFd, "wb") : nullptr;
  if (!out || dup2(2, 1) < 0) {
    llvm::errs() << "warplint: error: --lsp: cannot set up stdout\n";
    return 2;
  }
  // Crashes recovered, on the worker's own signal stack (a stack overflow
  // included), as on the command line.
  enableCrashRecovery();
  lsp::Transport transport(stdin, out);
  Server server(transport, opts, docDir);
  int code = server.run();
  std::fflush(out);
  return code;
}

} // namespace warplint
