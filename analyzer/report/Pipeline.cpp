#include "report/Pipeline.h"

#include "report/CiReports.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <cstdlib>

namespace warplint {

namespace {

/// The note the front end gives each call that led to a finding in a
/// called function (frontend/analysis/Resolve.cpp).
const char *const CallNote = "in the call from here";

/// "a.cu:12": a place as a note names it.
std::string placeText(const SourcePos &p) {
  return llvm::sys::path::filename(p.file).str() + ":" +
         std::to_string(p.line);
}

/// "blockSize = 32..512" for labels of one integer template parameter each
/// (`values` alone: "32, 64"), else the labels in turn.
std::string describe(const std::vector<std::string> &labels, bool values) {
  std::string name;
  std::vector<long long> numbers;
  for (const std::string &l : labels) {
    size_t eq = l.find(" = ");
    if (eq == std::string::npos || (!name.empty() && l.substr(0, eq) != name) ||
        l.find(", ") != std::string::npos) {
      numbers.clear();
      break;
    }
    name = l.substr(0, eq);
    char *end = nullptr;
    std::string v = l.substr(eq + 3);
    long long n = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end) {
      numbers.clear();
      break;
    }
    numbers.push_back(n);
  }
  std::string out;
  if (numbers.size() != labels.size() || numbers.empty()) {
    for (const std::string &l : labels)
      out += (out.empty() ? "" : "; ") + l;
    return out;
  }
  std::sort(numbers.begin(), numbers.end());
  if (numbers.size() > 2 && !values)
    return name + " = " + std::to_string(numbers.front()) + ".." +
           std::to_string(numbers.back());
  for (long long n : numbers)
    out += (out.empty() ? "" : ", ") + std::to_string(n);
  return values ? out : name + " = " + out;
}

} // namespace

/// The findings at one place and rule since the last flush.
struct RunLedger::Group {
  PlaceKey key;
  struct Record {
    size_t index; // in the report's diagnostics
    double weight;
    std::vector<std::string> chain;
  };
  std::vector<Record> records;
  /// Per kernel, the configurations it holds for.
  std::map<std::string, std::set<std::string>> variants;
  /// The calls that led to it (innermost first), each chain once.
  std::vector<std::vector<std::string>> calls;
};

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
    Queue.push_back({true, Plain.size()});
    Plain.push_back(std::move(m));
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
  // One group per place and rule: every configuration and call that finds
  // it, shown once when the translation unit is flushed.
  PlaceKey key{d.pos.file, d.pos.line, d.pos.column, d.rule};
  auto [slot, added] = GroupOf.try_emplace(key, Groups.size());
  if (added) {
    Groups.emplace_back();
    Groups.back().key = key;
    Queue.push_back({false, slot->second});
  }
  Group &g = Groups[slot->second];
  if (!m.family.empty())
    for (const std::string &v : m.variants)
      g.variants[m.family].insert(v);
  std::vector<std::string> chain; // "a.cu:12", innermost first
  for (const NoteRecord &n : d.notes)
    if (n.message == CallNote)
      chain.push_back(placeText(n.pos));
  if (!chain.empty() &&
      std::find(g.calls.begin(), g.calls.end(), chain) == g.calls.end())
    g.calls.push_back(chain);
  // JSON: once per instantiation, line and message.
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
  g.records.push_back({report.diagnostics.size(), m.weight, chain});
  report.diagnostics.push_back(std::move(d)); // the message is done with
}

void RunLedger::commit(KernelOutput &&out, bool keep,
                       const NolintTables &nolint, const PipelineOptions &opts,
                       Report &report, MessagePrinter &printer) {
  if (keep) {
    Analyzed.insert(out.configurations.begin(), out.configurations.end());
    for (Variant &v : out.variants) {
      std::vector<Variant> &known = Families[v.family];
      if (std::none_of(known.begin(), known.end(),
                       [&](const Variant &k) { return k.label == v.label; }))
        known.push_back(std::move(v));
    }
    // The kernel's records become the report's: taken whole where the
    // report has none yet, else moved over and their old storage freed at
    // once (a kernel of 20,000 accesses held two copies of its records).
    auto append = [](auto &to, auto &from) {
      if (to.empty())
        to = std::move(from);
      else
        to.insert(to.end(), std::make_move_iterator(from.begin()),
                  std::make_move_iterator(from.end()));
      from = std::decay_t<decltype(from)>(); // its storage, freed now
    };
    append(report.kernels, out.kernels);
    append(report.accesses, out.accesses);
    report.accessesNotKept += out.accessesNotKept;
    append(report.branches, out.branches);
    // Room for its findings at once (an output not kept adds none).
    reserveMore(report.diagnostics, out.messages.size());
    reserveMore(Queue, out.messages.size());
    reserveMore(Groups, out.messages.size());
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

void RunLedger::flush(Report &report, MessagePrinter &printer) {
  for (Entry &e : Queue) {
    if (e.plain) {
      const Message &m = Plain[e.index];
      if (m.explanation)
        printer.explanation(m.record);
      else
        printer.plain(m.record);
      continue;
    }
    Group &g = Groups[e.index];
    if (g.records.empty())
      continue;
    // An earlier translation unit showed this place and rule already.
    const bool shown = !Shown.insert(g.key).second;
    size_t worst = 0;
    for (size_t i = 1; i < g.records.size(); ++i)
      if (g.records[i].weight > g.records[worst].weight)
        worst = i;
    for (size_t i = 0; i < g.records.size(); ++i)
      report.diagnostics[g.records[i].index].repeat = shown || i != worst;
    // The notes are the same whether or not the place was shown: a shard
    // that did not see the earlier file writes the record a single run
    // does, and the merge marks it a repeat (Shards.cpp).
    DiagnosticRecord &d = report.diagnostics[g.records[worst].index];
    const size_t notesBefore = d.notes.size();
    auto note = [&](std::string text) {
      d.notes.push_back({d.pos, std::move(text), d.at, d.range});
    };
    // The configurations of its kernel it holds for, and those it does not.
    if (g.variants.size() == 1) {
      const auto &[family, flagged] = *g.variants.begin();
      const std::vector<Variant> &all = Families[family];
      if (all.size() > 1) {
        std::vector<std::string> in, clean;
        for (const Variant &v : all)
          (flagged.count(v.label) ? in : clean).push_back(v.label);
        const std::string noun = all.front().noun;
        if (clean.empty())
          note("in all " + std::to_string(all.size()) + " " + noun + " (" +
               describe(in, false) + ")");
        else
          note("in " + std::to_string(in.size()) + " of " +
               std::to_string(all.size()) + " " + noun + " (" +
               describe(in, false) + "); clean for " + describe(clean, true));
      }
    }
    // Every call of a helper that finds it: the shown one's notes name its
    // own; the calls of the same function are named where they differ.
    if (g.calls.size() > 1) {
      std::set<std::string> innermost;
      for (const auto &c : g.calls)
        innermost.insert(c.front());
      const bool inner = innermost.size() == g.calls.size();
      std::string others;
      std::set<std::string> named;
      for (const auto &c : g.calls) {
        if (c == g.records[worst].chain)
          continue;
        std::string at = inner ? c.front() : c.back();
        if (named.insert(at).second)
          others += (others.empty() ? "" : ", ") + at;
      }
      if (!others.empty())
        note(std::string(named.size() == 1 ? "also from the call at "
                                           : "also from the calls at ") +
             others);
    }
    // Otherwise, what the others said (two launches of a launcher, the
    // load and the store of a compound assignment).
    if (d.notes.size() == notesBefore) {
      std::set<std::string> said{d.message};
      for (const Group::Record &r : g.records) {
        const std::string &m = report.diagnostics[r.index].message;
        if (said.insert(m).second && said.size() <= 4)
          note("also here: " + m);
      }
    }
    if (!shown)
      printer.finding(d);
  }
  Queue.clear();
  Plain.clear();
  Groups.clear();
  GroupOf.clear();
  Families.clear();
}

} // namespace warplint
