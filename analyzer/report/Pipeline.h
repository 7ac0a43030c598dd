//===- Pipeline.h - a run's findings, from the analysis to output -*- C++
//-*-===//
//
// The front end hands over what it found in each kernel, file by file in the
// run's order (with -j, a file's kernels wait for the files before it). The
// pipeline decides, once for every output format: which kernel
// configurations are new to the run (a kernel of a header that several files
// include is reported once per configuration), which findings a NOLINT
// comment or --header-filter leaves out, which repeat one already reported
// (another instantiation or configuration saying the same), each finding's
// fingerprint, and which findings a --baseline knows. Records go into the
// run's Report, which the JSON, SARIF, GitHub and rdjson writers read; each
// message is handed to the printer of the run (text output, the language
// server, clang-tidy) as it is committed. No Clang.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_REPORT_PIPELINE_H
#define WARPLINT_REPORT_PIPELINE_H

#include "report/Report.h"
#include "report/Suppressions.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace warplint {

class FingerprintState;

/// Makes room in `v` for `extra` more elements at once, where they would
/// outgrow it: a vector doubled one element at a time holds up to twice
/// what it needs, and both copies while it moves them. The capacity at
/// least doubles, so that a room made per kernel stays linear.
template <class Vector> void reserveMore(Vector &v, size_t extra) {
  const size_t need = v.size() + extra;
  if (need > v.capacity())
    v.reserve(std::max(need, 2 * v.capacity()));
}

/// One message of an analysis, in the order it was found.
struct Message {
  /// A rule's finding, or with `plain`, a remark or warning of the analysis
  /// itself (the model's view under --remarks, a limit it reached): rule
  /// "", shown but never recorded, counted or fingerprinted.
  DiagnosticRecord record;
  bool plain = false;
  /// Plain: shown even where an earlier file of the run analyzed the
  /// kernel's configurations (a limit of this kernel's model).
  bool always = false;
  /// Plain: a drawing for --explain (`record.message`, of the place at
  /// `record.pos`), not a diagnostic.
  bool explanation = false;
  /// A finding: the kernel it was found in (its place and name: the
  /// instantiations of a template share it), the configurations of that
  /// kernel it holds for (KernelOutput::variants' labels), and how bad it
  /// is (of the findings at one place and rule, the worst is shown).
  std::string family = {};
  std::vector<std::string> variants = {};
  double weight = 0;
};

/// One configuration of a kernel the analysis judged: the kernel (its place
/// and name), how a note names the configuration ("blockSize = 64",
/// "128x1x1 blocks") and what the kernel's configurations are called
/// ("instantiations", "launch configurations").
struct Variant {
  std::string family, label, noun;
};

/// What one kernel's analysis found, for the run to commit.
struct KernelOutput {
  /// The configurations analyzed (place, instantiation, launch values,
  /// block shapes), as RunLedger::claim() keys them.
  std::vector<std::string> configurations;
  /// The same configurations, as a note about a finding names them.
  std::vector<Variant> variants;
  std::vector<KernelRecord> kernels;
  std::vector<AccessRecord> accesses;
  /// Accesses whose records were not kept (ToolOptions::accessRecords).
  AccessTally accessesNotKept;
  std::vector<BranchRecord> branches;
  std::vector<Message> messages;
};

/// Where what the pipeline lets through is shown as it is committed.
class MessagePrinter {
public:
  virtual ~MessagePrinter() = default;
  /// A finding, recorded in the report and new to the run's output: one
  /// per place (file, line, column) and rule, however many instantiations,
  /// launch configurations or calls found it; the worst of them, with a
  /// note saying where else it holds.
  virtual void finding(const DiagnosticRecord &d) = 0;
  /// A message of the analysis itself (`d.severity`: "remark" or
  /// "warning").
  virtual void plain(const DiagnosticRecord &d) = 0;
  /// A drawing for --explain of the place at `d.pos` (`d.message`).
  virtual void explanation(const DiagnosticRecord &d) = 0;
};

/// The NOLINT comments of the files a translation unit's findings are in,
/// by DiagnosticRecord::physicalFile (views into the parse's buffers).
using NolintTables = std::map<std::string, SuppressionIndex>;

/// What a file's configuration asks of the pipeline.
struct PipelineOptions {
  /// --header-filter: a finding in a header is shown only when the
  /// header's path matches (unset: all are).
  std::optional<std::string> headerFilter;
  /// --project-root: paths in fingerprints are relative to it.
  std::string projectRoot;
  /// --baseline: fingerprints of findings not to report.
  std::shared_ptr<const std::set<std::string>> baseline;
};

/// Places (file, line, rule) findings were left out at.
using Places = std::set<std::tuple<std::string, unsigned, std::string>>;

/// What a run has committed: the kernel configurations analyzed, the
/// findings recorded and shown, their fingerprints and the places left out.
class RunLedger {
public:
  RunLedger();
  ~RunLedger();
  RunLedger(RunLedger &&);

  /// Claims a configuration for the caller: false when the run (this
  /// ledger) has analyzed it already.
  bool claim(const std::string &configuration);
  /// How many of `configurations` the run has analyzed.
  size_t claimed(const std::vector<std::string> &configurations) const;
  const std::set<std::string> &configurations() const { return Analyzed; }

  /// Commits a kernel's output: with `keep`, its records and messages; else
  /// (an earlier file analyzed the same configurations) only the plain
  /// messages that are always shown.
  void commit(KernelOutput &&out, bool keep, const NolintTables &nolint,
              const PipelineOptions &opts, Report &report,
              MessagePrinter &printer);
  /// Commits messages found outside a kernel's analysis (launch sites).
  void commit(std::vector<Message> &&messages, const NolintTables &nolint,
              const PipelineOptions &opts, Report &report,
              MessagePrinter &printer);
  /// Shows what was committed since the last flush (a translation unit's
  /// messages, in order): the findings at one place and rule as one, the
  /// worst configuration's, with a note naming the configurations and calls
  /// it holds for (the others are marked `repeat` in the report). Called
  /// while the parse the records point into lives.
  void flush(Report &report, MessagePrinter &printer);

  /// The places NOLINT comments and --header-filter left findings out at.
  const Places &suppressed() const { return Suppressed; }
  const Places &headerHidden() const { return HeaderHidden; }

private:
  void commit(Message &m, const NolintTables &nolint,
              const PipelineOptions &opts, Report &report,
              MessagePrinter &printer);
  bool hiddenByHeaderFilter(const DiagnosticRecord &d,
                            const PipelineOptions &opts);

  std::set<std::string> Analyzed;
  std::set<std::tuple<std::string, std::string, unsigned, std::string>>
      Recorded;
  using PlaceKey = std::tuple<std::string, unsigned, unsigned, std::string>;
  std::set<PlaceKey> Shown;
  /// Since the last flush: messages in order, plain ones or a place's
  /// findings (at its first), and each family's configurations. An entry
  /// names its message in Plain or its group in Groups (a kernel of
  /// thousands of findings queues one small entry each).
  struct Group;
  struct Entry {
    bool plain = false;
    size_t index = 0;
  };
  std::vector<Entry> Queue;
  std::vector<Message> Plain;
  std::vector<Group> Groups;
  std::map<PlaceKey, size_t> GroupOf;
  std::map<std::string, std::vector<Variant>> Families;
  std::unique_ptr<FingerprintState> Prints;
  Places Suppressed, HeaderHidden;
  struct Filter;
  std::unique_ptr<Filter> HeaderFilter;
};

} // namespace warplint

#endif
