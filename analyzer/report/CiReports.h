//===- CiReports.h - SARIF and GitHub Actions output ------------*- C++ -*-===//
//
// Writers for CI systems over the findings of a Report (docs/ci.md). No Clang
// types.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_REPORT_CIREPORTS_H
#define WARPLINT_REPORT_CIREPORTS_H

#include "report/Report.h"

#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warplint {

/// What a SARIF consumer shows about a rule.
struct RuleDoc {
  std::string id;
  std::string summary; // the first sentence of its doc page
};

struct SarifOptions {
  /// Findings under this directory get URIs relative to it (`%SRCROOT%`,
  /// the repository root for code scanning); others absolute file URIs.
  std::string root;
  /// Where the doc pages are: the base URL of the project's published
  /// documentation (--docs-url), or a directory (docs/, the installed doc
  /// directory). Each rule's helpUri is its page there.
  std::string docDir;
  std::string version;
  /// A shard's run (--shard with --format=sarif): the `shard` object of its
  /// JSON document (shardObject()). The document, the report's with it, is
  /// kept in the run's property bag as `warplintShardReport`, which
  /// `warplint merge` reads.
  std::optional<llvm::json::Object> shard;
};

/// A file URI for an absolute path, percent-encoding what RFC 3986 does
/// not allow in a path segment.
std::string fileUri(llvm::StringRef path);

/// The URI of a doc page ("user-guide.md") under `docs`: a base URL
/// (https://...) or a directory, as a file URI.
std::string docPageUri(const std::string &docs, const std::string &page);

/// The URI of a rule's doc page under `docDir` (SARIF's helpUri, rdjson's code
/// url, the language server's codeDescription).
std::string ruleHelpUri(const std::string &docDir, const std::string &rule);

/// SARIF 2.1.0: every rule in tool.driver.rules, one result per finding
/// (remarks as level "note"), notes as related locations, stable partial
/// fingerprints, and files that could not be analyzed as error
/// notifications of an unsuccessful invocation.
std::string toSarif(const Report &r, const std::vector<RuleDoc> &rules,
                    const SarifOptions &opts);

/// GitHub Actions workflow commands: one `::warning` (a remark: `::notice`)
/// per finding with its notes in the message, one `::error` per file that
/// could not be analyzed, then a summary line.
std::string toGithub(const Report &r, const std::string &root);

/// reviewdog's Diagnostic Format (rdjson): one DiagnosticResult with a
/// diagnostic per finding (remarks at severity INFO), paths relative to
/// `root`, 1-based lines and UTF-8 byte columns, the rule as `code` with its
/// page as `url`, notes as related locations.
std::string toRdjson(const Report &r, const std::string &root,
                     const std::string &docDir);

/// Where the reports read a source file's text first: the front end's copy
/// of an input that is not a regular file (read once; a FIFO read again
/// would wait forever), or null to read the disk. Takes an absolute path.
using SourceTextLookup = const std::string *(*)(const std::string &absPath);
void setSourceTextLookup(SourceTextLookup lookup);

/// Fingerprints of findings in the order they are found: a key that
/// survives moving the code, a hash of the rule, the file (relative to
/// `root`), the kernel, the text of the flagged line and the message without
/// line numbers, then `:n` for the n-th finding alike in all of those.
class FingerprintState {
public:
  explicit FingerprintState(std::string root = "");
  ~FingerprintState();
  std::string next(const DiagnosticRecord &d);

private:
  struct Impl;
  std::string root;
  std::unique_ptr<Impl> impl;
};

/// A --baseline file: the fingerprints of the findings it records.
/// Returns false with `error` set when the file is unreadable or not one.
/// The JSON document in `path`, or nullopt with `error` set (unreadable, or
/// not JSON), as the readers of baselines and shard reports need it.
std::optional<llvm::json::Value> readJsonFile(const std::string &path,
                                              std::string &error);

bool readBaseline(const std::string &path, std::set<std::string> &out,
                  std::string &error);
/// The --write-baseline document for the findings of `r`.
std::string toBaseline(const Report &r, const std::string &root);

} // namespace warplint

#endif
