// --shard and `warplint merge` (Shards.h, docs/ci.md).
#include "report/Shards.h"

#include "report/CiReports.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace warplint {

using llvm::StringRef;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

bool parseShardSpec(const std::string &text, ShardSpec &out,
                    std::string &error) {
  StringRef s(text), i, n;
  std::tie(i, n) = s.split('/');
  unsigned index = 0, count = 0;
  if (!s.contains('/') || i.getAsInteger(10, index) ||
      n.getAsInteger(10, count)) {
    error = "--shard wants I/N (shard I of N, counted from 1), not '" + text +
            "'";
    return false;
  }
  if (count == 0 || index == 0 || index > count) {
    error = "--shard=" + text + ": I must be between 1 and N (shards are " +
            "counted from 1), and N at least 1";
    return false;
  }
  out = {index, count};
  return true;
}

std::vector<unsigned> assignShards(const std::vector<std::string> &files,
                                   const std::vector<uint64_t> &bytes,
                                   unsigned count) {
  std::vector<size_t> order(files.size());
  std::iota(order.begin(), order.end(), 0);
  auto weight = [&](size_t i) { return bytes[i] + ShardFileOverhead; };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (weight(a) != weight(b))
      return weight(a) > weight(b);
    if (files[a] != files[b])
      return files[a] < files[b];
    return a < b;
  });
  std::vector<uint64_t> load(count, 0);
  std::vector<unsigned> out(files.size(), 0);
  for (size_t i : order) {
    unsigned best = 0;
    for (unsigned s = 1; s < count; ++s)
      if (load[s] < load[best])
        best = s;
    out[i] = best;
    load[best] += weight(i);
  }
  return out;
}

namespace {

std::string shapeText(const Shape &s) {
  return std::to_string(s.x) + "x" + std::to_string(s.y) + "x" +
         std::to_string(s.z);
}

/// Does RunState's key of a kernel configuration (place, signature, launch
/// values " pN=v,...", shape source, shapes) belong to this kernel record?
bool keyMatches(StringRef key, const KernelRecord &k) {
  std::string prefix = k.pos.file + ":" + std::to_string(k.pos.line) + ":" +
                       std::to_string(k.pos.column) + " " + k.signature;
  if (!key.consume_front(prefix))
    return false;
  while (key.size() > 2 && key[0] == ' ' && key[1] == 'p' &&
         llvm::isDigit(key[2])) {
    size_t eq = key.find('=');
    if (eq == StringRef::npos ||
        !llvm::all_of(key.slice(2, eq), llvm::isDigit))
      break;
    key = key.drop_front(eq + 1).ltrim("-0123456789,");
  }
  if (!key.consume_front(" " + k.blockSource + " " + shapeText(k.block)))
    return false;
  return key.empty() || key.starts_with(" ");
}

Array range(const size_t r[2]) { return Array{int64_t(r[0]), int64_t(r[1])}; }

/// A file's kernel records as units of the merge: a configuration's key and
/// the accesses and branches analyzed with it. False when the records
/// could not all be told apart (the merge then keeps the file's records
/// whole).
bool fileUnits(const Report &r, const FileSpan &sp, Array &units) {
  bool exact = true;
  std::vector<bool> used(sp.kernelKeys.size(), false);
  size_t a = sp.accesses[0], b = sp.branches[0];
  size_t k = sp.kernels[0];
  while (k < sp.kernels[1]) {
    // Configurations of one kernel in a row: its branches are the same
    // number for each (one record per branch of the kernel).
    size_t g = k;
    while (g < sp.kernels[1] &&
           r.kernels[g].signature == r.kernels[k].signature)
      ++g;
    size_t nb = 0;
    while (b + nb < sp.branches[1] &&
           r.branches[b + nb].signature == r.kernels[k].signature)
      ++nb;
    size_t each = nb / (g - k);
    if (nb % (g - k))
      exact = false;
    for (; k < g; ++k) {
      const KernelRecord &kr = r.kernels[k];
      std::string key;
      for (size_t i = 0; i < sp.kernelKeys.size(); ++i)
        if (!used[i] && keyMatches(sp.kernelKeys[i], kr)) {
          used[i] = true;
          key = sp.kernelKeys[i];
          break;
        }
      if (key.empty())
        exact = false;
      size_t ae = std::min(a + size_t(std::max(kr.accesses, 0)),
                           sp.accesses[1]);
      size_t be = std::min(b + each, sp.branches[1]);
      units.push_back(Object{{"key", key},
                             {"accesses", Array{int64_t(a), int64_t(ae)}},
                             {"branches", Array{int64_t(b), int64_t(be)}}});
      a = ae;
      b = be;
    }
  }
  return exact && a == sp.accesses[1] && b == sp.branches[1];
}

Array places(
    const std::vector<std::tuple<std::string, unsigned, std::string>> &v) {
  Array out;
  for (const auto &[file, line, rule] : v)
    out.push_back(Array{file, int64_t(line), rule});
  return out;
}

} // namespace

std::string toShardJson(const Report &r, const ShardSpec &spec,
                        const std::vector<std::string> &runFiles,
                        const std::vector<size_t> &positions) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream j(os, 2);
  writeJson(j, r, Object{{"shard", shardObject(r, spec, runFiles, positions)}});
  return os.str();
}

Object shardObject(const Report &r, const ShardSpec &spec,
                   const std::vector<std::string> &runFiles,
                   const std::vector<size_t> &positions) {
  Array files;
  for (size_t i = 0; i < r.files.size(); ++i) {
    const FileSpan &sp = r.files[i].span;
    Array units;
    bool exact = fileUnits(r, sp, units);
    files.push_back(Object{{"run_index", int64_t(positions[i])},
                           {"kernels", range(sp.kernels)},
                           {"accesses", range(sp.accesses)},
                           {"branches", range(sp.branches)},
                           {"diagnostics", range(sp.diagnostics)},
                           {"units", std::move(units)},
                           {"exact", exact}});
  }
  Array run;
  for (const std::string &f : runFiles)
    run.push_back(f);
  return Object{{"index", int64_t(spec.index)},
                {"count", int64_t(spec.count)},
                {"run_files", std::move(run)},
                {"files", std::move(files)},
                {"suppressed_places", places(r.suppressedPlaces)},
                {"hidden_in_headers_places", places(r.headerHiddenPlaces)}};
}

// --- reading a report back ----------------------------------------------------

namespace {

/// The places (file, line, rule) of the shard object's list `key`.
void placesOf(JsonReader &rd, const Object &o, StringRef key,
              std::set<std::tuple<std::string, unsigned, std::string>> &out) {
  for (const Value &v : rd.array(o, key)) {
    const Array *a = v.getAsArray();
    if (!a || a->size() != 3 || !(*a)[0].getAsString() ||
        !(*a)[1].getAsInteger() || !(*a)[2].getAsString()) {
      if (rd.bad.empty())
        rd.bad = key.str();
      continue;
    }
    out.insert({(*a)[0].getAsString()->str(),
                unsigned(*(*a)[1].getAsInteger()),
                (*a)[2].getAsString()->str()});
  }
}

struct ShardFile {
  size_t runIndex = 0;
  FileSpan span;
  std::vector<std::string> unitKeys;
  std::vector<std::pair<size_t, size_t>> unitAccesses, unitBranches;
  bool exact = true;
};

struct Shard {
  std::string path;
  Report report;
  ShardSpec spec;
  std::vector<std::string> runFiles;
  std::vector<ShardFile> files;
  std::set<std::tuple<std::string, unsigned, std::string>> suppressed,
      headerHidden;
};

bool readShard(const std::string &path, Shard &s, std::string &error) {
  s.path = path;
  std::optional<Value> doc = readJsonFile(path, error);
  if (!doc)
    return false;
  const Object *d = doc->getAsObject();
  // SARIF from a --shard run: the shard's JSON report is in the run's
  // property bag.
  if (d && d->getString("version") == StringRef("2.1.0") && d->get("runs")) {
    const Array *runs = d->getArray("runs");
    const Object *run = runs && runs->size() == 1 ? (*runs)[0].getAsObject()
                                                  : nullptr;
    const Object *props = run ? run->getObject("properties") : nullptr;
    d = props ? props->getObject("warplintShardReport") : nullptr;
    if (!d) {
      error = "'" + path + "' is SARIF from a run without --shard (or not "
              "warplint's): merge reads the JSON or SARIF reports of "
              "--shard=I/N runs";
      return false;
    }
  }
  if (!d || d->getString("tool") != StringRef("warplint") ||
      !d->getInteger("format_version")) {
    error = "'" + path + "' is not a warplint JSON report (--format=json)";
    return false;
  }
  if (*d->getInteger("format_version") != JsonFormatVersion) {
    error = "'" + path + "' is a JSON report of format version " +
            std::to_string(*d->getInteger("format_version")) +
            "; this warplint reads version " +
            std::to_string(JsonFormatVersion);
    return false;
  }
  const Object *sh = d->getObject("shard");
  if (!sh) {
    error = "'" + path + "' is the report of a run without --shard: merge "
            "reads the JSON reports of --shard=I/N runs";
    return false;
  }
  if (d->get("baselined")) {
    error = "'" + path + "' was written with --baseline: run the shards "
            "without it and give --baseline to merge (fingerprints are "
            "numbered over the whole run)";
    return false;
  }
  JsonReader rd;
  fromJson(*d, s.report, rd);
  s.spec.index = unsigned(rd.integer(*sh, "index"));
  s.spec.count = unsigned(rd.integer(*sh, "count"));
  s.runFiles = rd.strings(*sh, "run_files");
  const Array &files = rd.array(*sh, "files");
  for (const Value &v : files) {
    const Object &o = rd.object(v, "shard.files");
    ShardFile f;
    f.runIndex = size_t(rd.integer(o, "run_index"));
    rd.range(o, "kernels", f.span.kernels);
    rd.range(o, "accesses", f.span.accesses);
    rd.range(o, "branches", f.span.branches);
    rd.range(o, "diagnostics", f.span.diagnostics);
    f.exact = rd.boolean(o, "exact");
    for (const Value &u : rd.array(o, "units")) {
      const Object &uo = rd.object(u, "units");
      size_t a[2], b[2];
      f.unitKeys.push_back(rd.str(uo, "key"));
      rd.range(uo, "accesses", a);
      rd.range(uo, "branches", b);
      f.unitAccesses.push_back({a[0], a[1]});
      f.unitBranches.push_back({b[0], b[1]});
    }
    s.files.push_back(std::move(f));
  }
  placesOf(rd, *sh, "suppressed_places", s.suppressed);
  placesOf(rd, *sh, "hidden_in_headers_places", s.headerHidden);
  if (!rd.bad.empty()) {
    error = "'" + path + "' is not a complete warplint shard report: field '" +
            rd.bad + "' is missing or of the wrong type";
    return false;
  }
  // The spans must lie inside the report's lists, one per file.
  const Report &r = s.report;
  bool ok = s.files.size() == r.files.size() && s.spec.count > 0 &&
            s.spec.index >= 1 && s.spec.index <= s.spec.count;
  for (const ShardFile &f : s.files) {
    ok &= f.runIndex < s.runFiles.size() &&
          f.span.kernels[1] <= r.kernels.size() &&
          f.span.accesses[1] <= r.accesses.size() &&
          f.span.branches[1] <= r.branches.size() &&
          f.span.diagnostics[1] <= r.diagnostics.size() &&
          f.unitKeys.size() == f.span.kernels[1] - f.span.kernels[0];
    for (size_t u = 0; ok && u < f.unitKeys.size(); ++u)
      ok &= f.unitAccesses[u].second <= r.accesses.size() &&
            f.unitBranches[u].second <= r.branches.size();
    ok &= ok && s.runFiles[f.runIndex] == r.files[&f - &s.files[0]].path;
  }
  if (!ok) {
    error = "'" + path + "': its shard object does not fit its report "
            "(edited, or written by another version of warplint)";
    return false;
  }
  return true;
}

} // namespace

bool mergeShardReports(const std::vector<std::string> &paths,
                       const MergeOptions &opts, Report &out,
                       std::string &error, std::vector<std::string> &warnings) {
  if (paths.empty()) {
    error = "no reports to merge (usage: warplint merge [options] "
            "SHARD.json...)";
    return false;
  }
  std::vector<Shard> shards(paths.size());
  for (size_t i = 0; i < paths.size(); ++i)
    if (!readShard(paths[i], shards[i], error))
      return false;
  const Shard &first = shards[0];
  std::vector<const Shard *> byIndex(first.spec.count, nullptr);
  for (const Shard &s : shards) {
    if (s.spec.count != first.spec.count || s.runFiles != first.runFiles) {
      error = "'" + s.path + "' and '" + first.path +
              "' are shards of different runs (" +
              (s.spec.count != first.spec.count
                   ? "--shard=" + std::to_string(s.spec.index) + "/" +
                         std::to_string(s.spec.count) + " and --shard=" +
                         std::to_string(first.spec.index) + "/" +
                         std::to_string(first.spec.count)
                   : std::string("other files")) +
              ")";
      return false;
    }
    if (byIndex[s.spec.index - 1]) {
      error = "shard " + std::to_string(s.spec.index) + "/" +
              std::to_string(s.spec.count) + " is given twice ('" +
              byIndex[s.spec.index - 1]->path + "' and '" + s.path + "')";
      return false;
    }
    byIndex[s.spec.index - 1] = &s;
  }
  std::string missing;
  for (unsigned i = 0; i < first.spec.count; ++i)
    if (!byIndex[i])
      missing += (missing.empty() ? "" : ", ") + std::to_string(i + 1);
  if (!missing.empty()) {
    error = "shard" + std::string(missing.find(',') == std::string::npos
                                      ? " "
                                      : "s ") +
            missing + " of " + std::to_string(first.spec.count) +
            " missing: a merge of some shards would read as an all clear "
            "for the files of the others";
    return false;
  }
  // Every file of the run in exactly one shard.
  std::vector<std::pair<const Shard *, const ShardFile *>> at(
      first.runFiles.size(), {nullptr, nullptr});
  for (const Shard &s : shards)
    for (const ShardFile &f : s.files) {
      if (at[f.runIndex].first) {
        error = first.runFiles[f.runIndex] + " is in two shards ('" +
                at[f.runIndex].first->path + "' and '" + s.path + "')";
        return false;
      }
      at[f.runIndex] = {&s, &f};
    }
  for (size_t i = 0; i < at.size(); ++i)
    if (!at[i].first) {
      error = first.runFiles[i] + " is in none of the shards";
      return false;
    }

  // The single run's order: file by file, each kernel configuration the
  // first time it is analyzed, each finding the first time it is recorded.
  std::set<std::string> configurations;
  std::set<std::tuple<std::string, std::string, unsigned, std::string,
                      std::string>>
      recorded;
  std::set<std::tuple<std::string, unsigned, unsigned, std::string>>
      shownPlaces;
  std::map<std::string, int> printed;
  std::set<std::tuple<std::string, unsigned, std::string>> suppressed, hidden;
  for (const Shard &s : shards) {
    suppressed.insert(s.suppressed.begin(), s.suppressed.end());
    hidden.insert(s.headerHidden.begin(), s.headerHidden.end());
    out.crashed |= s.report.crashed;
  }
  for (const auto &[s, f] : at) {
    const Report &r = s->report;
    out.files.push_back(r.files[f - &s->files[0]]);
    if (!f->exact)
      warnings.push_back(first.runFiles[f->runIndex] +
                         ": its records could not all be told apart by "
                         "kernel configuration; kept whole");
    // A kernel configuration an earlier file analyzed is left out with its
    // accesses, branches and findings (which may differ in the launch they
    // name), as the single run never analyzes it again.
    std::map<std::string, std::pair<int, int>> units; // signature: kept, not
    for (size_t u = 0; u < f->unitKeys.size(); ++u) {
      const std::string &key = f->unitKeys[u];
      const KernelRecord &kr = r.kernels[f->span.kernels[0] + u];
      if (f->exact && !key.empty() && !configurations.insert(key).second) {
        ++units[kr.signature].second;
        continue;
      }
      ++units[kr.signature].first;
      out.kernels.push_back(kr);
      for (size_t i = f->unitAccesses[u].first; i < f->unitAccesses[u].second;
           ++i)
        out.accesses.push_back(r.accesses[i]);
      for (size_t i = f->unitBranches[u].first; i < f->unitBranches[u].second;
           ++i)
        out.branches.push_back(r.branches[i]);
    }
    for (const auto &[sig, n] : units)
      if (n.first && n.second)
        warnings.push_back(
            first.runFiles[f->runIndex] + ": kernel " + sig + ": " +
            std::to_string(n.second) + " of its " +
            std::to_string(n.first + n.second) +
            " configurations were analyzed by an earlier file; its findings "
            "are kept whole, where a single run reports only the others'");
    for (size_t i = f->span.diagnostics[0]; i < f->span.diagnostics[1]; ++i) {
      DiagnosticRecord d = r.diagnostics[i];
      auto it = units.find(d.signature);
      if (it != units.end() && !it->second.first &&
          !opts.launchRules.count(d.rule))
        continue;
      if (!recorded
               .insert({d.signature, d.pos.file, d.pos.line, d.message, d.rule})
               .second)
        continue;
      // Fingerprints are numbered over the whole run: the n-th finding
      // alike in rule, file, kernel, line text and message.
      if (!d.fingerprint.empty()) {
        std::string hash = StringRef(d.fingerprint).rsplit(':').first.str();
        d.fingerprint = hash + ":" + std::to_string(++printed[hash]);
      }
      if (opts.baseline && opts.baseline->count(d.fingerprint)) {
        ++out.baselined;
        continue;
      }
      // One shown per place and rule over the whole run, as a single run
      // shows it: a place an earlier file (of another shard) showed is a
      // repeat here.
      if (!d.repeat &&
          !shownPlaces.insert({d.pos.file, d.pos.line, d.pos.column, d.rule})
               .second)
        d.repeat = true;
      out.diagnostics.push_back(std::move(d));
    }
  }
  out.suppressed = suppressed.size();
  out.headerHidden = hidden.size();
  out.suppressedPlaces.assign(suppressed.begin(), suppressed.end());
  out.headerHiddenPlaces.assign(hidden.begin(), hidden.end());
  out.baselineUsed = opts.baseline != nullptr;
  return true;
}

} // namespace warplint
