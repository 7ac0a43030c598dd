// Reports for CI systems: SARIF 2.1.0 (GitHub code scanning and other SARIF
// consumers) and GitHub Actions workflow commands (docs/ci.md). Both take
// the findings from the Report after the analysis; neither includes a Clang
// header.
#include "report/CiReports.h"

#include "report/JsonReport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <map>

namespace warplint {

namespace {
SourceTextLookup Lookup = nullptr;
} // namespace

void setSourceTextLookup(SourceTextLookup lookup) { Lookup = lookup; }

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

std::string fileUri(llvm::StringRef path) {
  std::string out = "file://";
  for (char c : path) {
    unsigned char u = static_cast<unsigned char>(c);
    if (llvm::isAlnum(c) || llvm::StringRef("/-._~").contains(c))
      out += c;
    else
      out += "%" + llvm::utohexstr(u, /*LowerCase=*/false, 2);
  }
  return out;
}

std::string docPageUri(const std::string &docs, const std::string &page) {
  llvm::StringRef base(docs);
  if (base.starts_with("https://") || base.starts_with("http://")) {
    base = base.rtrim('/');
    return base.str() + "/" + page;
  }
  return fileUri(docs + "/" + page);
}

std::string ruleHelpUri(const std::string &docs, const std::string &rule) {
  return docPageUri(docs, "rules/" + rule + ".md");
}

namespace {

/// `path` relative to `root` with '/' separators when it lies under it;
/// empty otherwise.
std::string relativeTo(const std::string &path, const std::string &root) {
  if (root.empty())
    return "";
  llvm::StringRef p(path), r(root);
  r.consume_back("/");
  if (!p.starts_with(r) || p.size() <= r.size() || p[r.size()] != '/')
    return "";
  return llvm::sys::path::convert_to_slash(p.drop_front(r.size() + 1));
}

/// A relative URI reference: the path with unsafe characters encoded.
std::string relativeUri(llvm::StringRef path) {
  std::string uri = fileUri(path);
  return uri.substr(std::string("file://").size());
}

/// The text of `file`: what the front end read of an input that is not a
/// regular file (a FIFO or stdin, which a second read would wait on
/// forever), else the file on disk.
static std::unique_ptr<llvm::MemoryBuffer> sourceText(const std::string &file) {
  if (Lookup) {
    llvm::SmallString<256> abs(file);
    llvm::sys::fs::make_absolute(abs);
    if (const std::string *text = Lookup(std::string(abs)))
      return llvm::MemoryBuffer::getMemBuffer(*text, file, false);
  }
  if (auto buf = llvm::MemoryBuffer::getFile(file))
    return std::move(*buf);
  return nullptr;
}

/// Source lines of the files findings point at, read once each.
class SourceLines {
public:
  llvm::StringRef line(const std::string &file, unsigned n) {
    auto it = files.find(file);
    if (it == files.end()) {
      std::vector<std::string> lines;
      if (auto buf = sourceText(file)) {
        llvm::SmallVector<llvm::StringRef, 0> parts;
        buf->getBuffer().split(parts, '\n');
        for (llvm::StringRef l : parts)
          lines.push_back(l.rtrim("\r").str());
      }
      it = files.emplace(file, std::move(lines)).first;
    }
    return n >= 1 && n <= it->second.size() ? llvm::StringRef(it->second[n - 1])
                                             : llvm::StringRef();
  }

private:
  std::map<std::string, std::vector<std::string>> files;
};

/// The message with the numbers that move with the code left out: a
/// location quoted in it (`main.cu:52`) keeps its file, not its line.
std::string stableMessage(llvm::StringRef m) {
  std::string out;
  for (size_t i = 0; i < m.size(); ++i) {
    out += m[i];
    if (m[i] == ':' && i > 0 && i + 1 < m.size() && llvm::isDigit(m[i + 1]) &&
        (llvm::isAlnum(m[i - 1]) || m[i - 1] == '_')) {
      while (i + 1 < m.size() && (llvm::isDigit(m[i + 1]) || m[i + 1] == ':'))
        ++i;
    }
  }
  return out;
}

} // namespace

struct FingerprintState::Impl {
  SourceLines src;
  std::map<std::string, int> seen;
};

FingerprintState::FingerprintState(std::string root)
    : root(std::move(root)), impl(std::make_unique<Impl>()) {}
FingerprintState::~FingerprintState() = default;

std::string FingerprintState::next(const DiagnosticRecord &d) {
  std::string rel = relativeTo(d.pos.file, root);
  std::string key = d.rule + '\0' + (rel.empty() ? d.pos.file : rel) + '\0' +
                    d.signature + '\0' +
                    impl->src.line(d.pos.file, d.pos.line).trim().str() +
                    '\0' + stableMessage(d.message);
  uint64_t h = llvm::xxh3_64bits(llvm::StringRef(key));
  // Findings alike in all of that (a repeated line) are told apart by order.
  int n = ++impl->seen[key];
  return llvm::utohexstr(h, true, 16) + ":" + std::to_string(n);
}

std::optional<Value> readJsonFile(const std::string &path,
                                  std::string &error) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf) {
    error = "cannot read '" + path + "': " + buf.getError().message();
    return std::nullopt;
  }
  llvm::Expected<Value> doc = llvm::json::parse((*buf)->getBuffer());
  if (!doc) {
    error = "'" + path + "' is not JSON: " + llvm::toString(doc.takeError());
    return std::nullopt;
  }
  return std::move(*doc);
}

bool readBaseline(const std::string &path, std::set<std::string> &out,
                  std::string &error) {
  std::optional<Value> doc = readJsonFile(path, error);
  if (!doc)
    return false;
  const Object *o = doc->getAsObject();
  const Array *findings = o ? o->getArray("findings") : nullptr;
  if (!o || o->getInteger("warplint_baseline") != 1 || !findings) {
    error = "'" + path + "' is not a warplint baseline (version 1) written "
            "by --write-baseline";
    return false;
  }
  for (const Value &f : *findings) {
    const Object *fo = f.getAsObject();
    auto fp = fo ? fo->getString("fingerprint") : std::nullopt;
    if (!fp) {
      error = "'" + path + "': a finding without a fingerprint";
      return false;
    }
    out.insert(fp->str());
  }
  return true;
}

std::string toBaseline(const Report &r, const std::string &root) {
  FingerprintState prints(root);
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream j(os, 2);
  // Keys in llvm::json's order (sorted), as a Value prints them; each
  // finding written as it is built (see writeJson).
  j.object([&] {
    j.attributeArray("findings", [&] {
      for (const DiagnosticRecord &d : r.diagnostics) {
        std::string rel = relativeTo(d.pos.file, root);
        j.value(Object{{"fingerprint",
                        d.fingerprint.empty() ? prints.next(d) : d.fingerprint},
                       {"rule", d.rule},
                       {"file", rel.empty() ? d.pos.file : rel},
                       {"line", int64_t(d.pos.line)},
                       {"message", d.message}});
      }
    });
    j.attribute("warplint_baseline", 1);
  });
  return os.str();
}

std::string toSarif(const Report &r, const std::vector<RuleDoc> &rules,
                    const SarifOptions &opts) {
  std::map<std::string, size_t> ruleIndex;
  Array ruleArray;
  for (const RuleDoc &rd : rules) {
    ruleIndex[rd.id] = ruleArray.size();
    std::string helpUri = ruleHelpUri(opts.docDir, rd.id);
    ruleArray.push_back(Object{
        {"id", rd.id},
        {"name", rd.id},
        {"shortDescription", Object{{"text", rd.summary}}},
        {"fullDescription", Object{{"text", rd.summary}}},
        {"help", Object{{"text", rd.summary + " See " + helpUri + "."},
                        {"markdown", rd.summary + " See [the rule's page](" +
                                         helpUri + ")."}}},
        {"helpUri", helpUri},
        {"defaultConfiguration", Object{{"level", "warning"}}},
        {"properties", Object{{"tags", Array{"performance", "cuda"}}}}});
  }
  auto artifactOf = [&](const std::string &file) {
    Object artifact;
    std::string rel = relativeTo(file, opts.root);
    if (!rel.empty()) {
      artifact["uri"] = relativeUri(rel);
      artifact["uriBaseId"] = "%SRCROOT%";
    } else {
      artifact["uri"] = fileUri(file);
    }
    return artifact;
  };
  auto location = [&](const SourcePos &p) {
    Object region{{"startLine", int64_t(p.line)}};
    if (p.column)
      region["startColumn"] = int64_t(p.column);
    return Object{{"physicalLocation",
                   Object{{"artifactLocation", artifactOf(p.file)},
                          {"region", std::move(region)}}}};
  };
  FingerprintState prints(opts.root);
  auto results = [&](llvm::json::OStream &j) {
    for (const DiagnosticRecord &d : r.diagnostics) {
      if (d.repeat) // shown once, where its notes say where else it holds
        continue;
      std::string text = d.message;
      Array related;
      for (const NoteRecord &n : d.notes) {
        if (n.pos.file.empty() || !n.pos.line) {
          text +=
              "\n" + n.message; // a note without a place belongs to the text
          continue;
        }
        Object rl = location(n.pos);
        rl["id"] = int64_t(related.size());
        rl["message"] = Object{{"text", n.message}};
        related.push_back(std::move(rl));
      }
      Object res{
          {"ruleId", d.rule},
          {"level", d.severity == "remark" ? "note" : "warning"},
          {"message", Object{{"text", text}}},
          {"locations", Array{location(d.pos)}},
          {"partialFingerprints",
           Object{{"warplint/v1",
                   d.fingerprint.empty() ? prints.next(d) : d.fingerprint}}}};
      if (r.baselineUsed)
        res["baselineState"] = "new";
      if (auto it = ruleIndex.find(d.rule); it != ruleIndex.end())
        res["ruleIndex"] = int64_t(it->second);
      if (!related.empty())
        res["relatedLocations"] = std::move(related);
      // Verified fixes: each one replacement in one file.
      Array fixes;
      for (const FixRecord &f : d.fixes) {
        Object deleted{{"startLine", int64_t(f.begin.line)},
                       {"startColumn", int64_t(f.begin.column)},
                       {"endLine", int64_t(f.end.line)},
                       {"endColumn", int64_t(f.end.column)}};
        fixes.push_back(
            Object{{"description", Object{{"text", f.description}}},
                   {"artifactChanges",
                    Array{Object{
                        {"artifactLocation", artifactOf(f.begin.file)},
                        {"replacements",
                         Array{Object{{"deletedRegion", std::move(deleted)},
                                      {"insertedContent",
                                       Object{{"text", f.replacement}}}}}}}}}});
      }
      if (!fixes.empty())
        res["fixes"] = std::move(fixes);
      if (!d.signature.empty())
        res["properties"] = Object{{"kernel", d.signature}};
      j.value(std::move(res));
    }
  };
  // Files that could not be analyzed fail the run: a consumer must not read
  // an empty result list as "all clear".
  Array notifications;
  bool ok = true;
  for (const FileRecord &f : r.files) {
    if (f.ok)
      continue;
    ok = false;
    notifications.push_back(Object{
        {"level", "error"},
        {"message", Object{{"text", f.path + " could not be analyzed: " +
                                        f.error}}},
        {"locations", Array{location(SourcePos{f.path, 1, 0})}}});
  }
  // Host code Clang rejected and nvcc takes: the file's results stand, the
  // run says what it did not check.
  for (const FileRecord &f : r.files)
    if (f.ok && !f.hostNotChecked.empty())
      notifications.push_back(Object{
          {"level", "note"},
          {"message", Object{{"text", f.path + ": host code not checked: " +
                                          f.hostNotChecked}}},
          {"locations", Array{location(SourcePos{f.path, 1, 0})}}});
  Object invocation{{"executionSuccessful", ok}};
  if (!notifications.empty())
    invocation["toolExecutionNotifications"] = std::move(notifications);
  // Written as it is built, each result on its own (see writeJson), keys in
  // llvm::json's order (sorted) as a Value prints them.
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attribute("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    j.attributeArray("runs", [&] {
      j.object([&] {
        j.attribute("invocations", Array{std::move(invocation)});
        if (!opts.root.empty()) {
          std::string base = fileUri(opts.root);
          if (!llvm::StringRef(base).ends_with("/"))
            base += "/";
          j.attribute("originalUriBaseIds",
                      Object{{"%SRCROOT%", Object{{"uri", base}}}});
        }
        if (opts.shard)
          j.attributeObject("properties", [&] {
            j.attributeBegin("warplintShardReport");
            Object shard = *opts.shard;
            writeJson(j, r, Object{{"shard", std::move(shard)}});
            j.attributeEnd();
          });
        j.attributeArray("results", [&] { results(j); });
        j.attribute(
            "tool",
            Object{{"driver", Object{{"name", "warplint"},
                                     {"version", opts.version},
                                     {"semanticVersion", opts.version},
                                     {"informationUri",
                                      docPageUri(opts.docDir, "user-guide.md")},
                                     {"rules", std::move(ruleArray)}}}});
      });
    });
    j.attribute("version", "2.1.0");
  });
  return os.str();
}

std::string toRdjson(const Report &r, const std::string &root,
                     const std::string &docDir) {
  auto location = [&](const SourcePos &p) {
    std::string rel = relativeTo(p.file, root);
    Object start{{"line", int64_t(p.line)}};
    if (p.column)
      start["column"] = int64_t(p.column);
    return Object{{"path", rel.empty() ? p.file : rel},
                  {"range", Object{{"start", std::move(start)}}}};
  };
  auto diagnostics = [&](llvm::json::OStream &j) {
    for (const DiagnosticRecord &d : r.diagnostics) {
      if (d.repeat) // shown once, where its notes say where else it holds
        continue;
      Array related;
      for (const NoteRecord &n : d.notes)
        if (!n.pos.file.empty() && n.pos.line)
          related.push_back(
              Object{{"message", n.message}, {"location", location(n.pos)}});
      Object o{{"message", d.message},
               {"location", location(d.pos)},
               {"severity", d.severity == "remark" ? "INFO" : "WARNING"},
               {"code", Object{{"value", d.rule},
                               {"url", ruleHelpUri(docDir, d.rule)}}}};
      if (!related.empty())
        o["related_locations"] = std::move(related);
      j.value(std::move(o));
    }
    // A file that could not be analyzed is an error diagnostic on it: the
    // review shows it rather than an empty "all clear".
    for (const FileRecord &f : r.files)
      if (!f.ok)
        j.value(Object{
            {"message", "warplint could not analyze this file: " + f.error},
            {"location", location(SourcePos{f.path, 1, 0})},
            {"severity", "ERROR"}});
  };
  // Written as it is built (see writeJson), keys sorted as a Value prints.
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attributeArray("diagnostics", [&] { diagnostics(j); });
    j.attribute("source", Object{{"name", "warplint"},
                                 {"url", docPageUri(docDir, "user-guide.md")}});
  });
  return os.str();
}

namespace {

/// Workflow-command escaping: the message (data) and a property value.
std::string escapeData(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out += c;
  }
  return out;
}

std::string escapeProperty(llvm::StringRef s) {
  std::string out;
  for (char c : escapeData(s)) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

} // namespace

std::string toGithub(const Report &r, const std::string &root) {
  std::string out;
  auto file = [&](const std::string &path) {
    std::string rel = relativeTo(path, root);
    return escapeProperty(rel.empty() ? path : rel);
  };
  size_t warnings = 0, notes = 0;
  for (const DiagnosticRecord &d : r.diagnostics) {
    if (d.repeat) // shown once, where its notes say where else it holds
      continue;
    bool remark = d.severity == "remark";
    (remark ? notes : warnings) += 1;
    std::string text = d.message;
    for (const NoteRecord &n : d.notes) {
      text += "\n";
      if (!n.pos.file.empty() && n.pos.line) {
        std::string rel = relativeTo(n.pos.file, root);
        text += (rel.empty() ? n.pos.file : rel) + ":" +
                std::to_string(n.pos.line) + ": ";
      }
      text += "note: " + n.message;
    }
    out += std::string("::") + (remark ? "notice" : "warning") +
           " file=" + file(d.pos.file) +
           ",line=" + std::to_string(d.pos.line) +
           (d.pos.column ? ",col=" + std::to_string(d.pos.column) : "") +
           ",title=" + escapeProperty("warplint " + d.rule) +
           "::" + escapeData(text) + "\n";
  }
  size_t failed = 0;
  for (const FileRecord &f : r.files) {
    if (f.ok)
      continue;
    ++failed;
    out += "::error file=" + file(f.path) +
           ",title=" + escapeProperty("warplint could not analyze the file") +
           "::" + escapeData(f.error) + "\n";
  }
  out += "warplint: " + std::to_string(warnings) + " warning" +
         (warnings == 1 ? "" : "s");
  if (notes)
    out += ", " + std::to_string(notes) + " remark" +
           (notes == 1 ? "" : "s");
  out += " in " + std::to_string(r.files.size()) + " file" +
         (r.files.size() == 1 ? "" : "s");
  if (failed)
    out += "; " + std::to_string(failed) + " could not be analyzed";
  if (r.suppressed)
    out += "; " + std::to_string(r.suppressed) + " suppressed by NOLINT";
  if (r.headerHidden)
    out += "; " + std::to_string(r.headerHidden) +
           " in headers --header-filter leaves out";
  if (r.baselined)
    out += "; " + std::to_string(r.baselined) + " in the baseline not shown";
  out += "\n";
  return out;
}

} // namespace warplint
