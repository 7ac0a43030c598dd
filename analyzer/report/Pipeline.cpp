#include "report/Pipeline.h"

#include "report/CiReports.h"

#include "llvm/Support/Regex.h"

namespace warplint {

/// --header-filter, compiled once for the expression it was built from.
struct RunLedger::Filter {
  std::string source;
  llvm::Regex regex;
};

RunLedger::RunLedger() = default;
RunLedger::~RunLedger() = default;
RunLedger::RunLedger(RunLedger &&) = default;

bool RunLedger::claim(const std::string &configuration) {
  return Analyzed.insert(configuration).second;
}

size_t
RunLedger::claimed(const std::vector<std::string> &configurations) const {
  size_t n = 0;
  for (const std::string &c : configurations)
    n += Analyzed.count(c);
  return n;
}

bool RunLedger::hiddenByHeaderFilter(const DiagnosticRecord &d,
                                     const PipelineOptions &opts) {
  if (!opts.headerFilter || d.inMainFile)
    return false;
  if (!HeaderFilter || HeaderFilter->source != *opts.headerFilter)
    HeaderFilter.reset(
        new Filter{*opts.headerFilter, llvm::Regex(*opts.headerFilter)});
  return !HeaderFilter->regex.match(d.physicalFile);
}

void RunLedger::commit(Message &m, const NolintTables &nolint,
                       const PipelineOptions &opts, Report &report,
                       MessagePrinter &printer) {
  if (m.plain) {
    if (m.explanation)
      printer.explanation(m.record);
    else
      printer.plain(m.record);
    return;
  }
  DiagnosticRecord &d = m.record;
  // NOLINT: counted once per place and rule, however many instantiations
  // or launch configurations found it.
  auto table = nolint.find(d.physicalFile);
  if (table != nolint.end() &&
      table->second.suppressed(d.physicalLine, d.rule)) {
    if (!d.physicalFile.empty())
      Suppressed.insert({d.physicalFile, d.physicalLine, d.rule});
    return;
  }
  // --header-filter: a finding in a header (not the file being analyzed) is
  // shown only when the header's path matches; the others are counted.
  if (hiddenByHeaderFilter(d, opts)) {
    HeaderHidden.insert({d.physicalFile, d.physicalLine, d.rule});
    return;
  }
  // JSON: once per instantiation, line and message. Text: once per line
  // and message (`v[i].x * v[i].x + ...` is one problem, and every
  // instantiation of a template says the same).
  const std::string text = d.message + " [" + d.rule + "]";
  if (!Recorded.insert({d.signature, d.pos.file, d.pos.line, text}).second)
    return;
  if (!Prints)
    Prints = std::make_unique<FingerprintState>(opts.projectRoot);
  d.fingerprint = Prints->next(d);
  if (opts.baseline && opts.baseline->count(d.fingerprint)) {
    ++report.baselined; // known: neither printed nor recorded
    return;
  }
  report.diagnostics.push_back(d);
  if (!Shown.insert({d.pos.file, d.pos.line, text}).second)
    return;
  printer.finding(d);
}

void RunLedger::commit(KernelOutput &&out, bool keep,
                       const NolintTables &nolint, const PipelineOptions &opts,
                       Report &report, MessagePrinter &printer) {
  if (keep) {
    Analyzed.insert(out.configurations.begin(), out.configurations.end());
    auto append = [](auto &to, auto &from) {
      to.insert(to.end(), std::make_move_iterator(from.begin()),
                std::make_move_iterator(from.end()));
    };
    append(report.kernels, out.kernels);
    append(report.accesses, out.accesses);
    append(report.branches, out.branches);
  }
  for (Message &m : out.messages)
    if (keep || (m.plain && m.always))
      commit(m, nolint, opts, report, printer);
}

void RunLedger::commit(std::vector<Message> &&messages,
                       const NolintTables &nolint, const PipelineOptions &opts,
                       Report &report, MessagePrinter &printer) {
  for (Message &m : messages)
    commit(m, nolint, opts, report, printer);
}

} // namespace warplint
