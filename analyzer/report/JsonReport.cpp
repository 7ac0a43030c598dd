// The JSON document (docs/json-format.md). Keys are snake_case; numbers that
// the model could not determine are null, never a guess.
#include "Report.h"
#include "Shards.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace warplint {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

static Value optNumber(const std::optional<double> &v) {
  return v ? Value(*v) : Value(nullptr);
}

static Object position(const SourcePos &p) {
  return Object{{"file", p.file}, {"line", int64_t(p.line)},
                {"column", int64_t(p.column)}};
}

static Array strings(const std::vector<std::string> &v) {
  Array a;
  for (const std::string &s : v)
    a.push_back(s);
  return a;
}

Object jsonObject(const Report &r) {
  Array files, kernels, accesses, diagnostics;
  for (const FileRecord &f : r.files) {
    Object o{{"path", f.path}, {"status", f.ok ? "ok" : "error"}};
    if (!f.ok)
      o["error"] = f.error;
    files.push_back(std::move(o));
  }
  for (const KernelRecord &k : r.kernels) {
    Object o = position(k.pos);
    o["name"] = k.name;
    o["signature"] = k.signature;
    o["block_dim"] = Array{k.block.x, k.block.y, k.block.z};
    o["block_dim_source"] = k.blockSource;
    o["accesses"] = k.accesses;
    o["accesses_left_out"] = k.accessesLeftOut;
    o["calls_not_followed"] = k.callsNotFollowed;
    if (k.issue.estimated) {
      const KernelRecord::Issue &w = k.issue;
      Object issue{{"warp_instructions_per_block", w.perBlock},
                   {"active_lanes", w.activeLanes},
                   {"assumptions", Array(w.assumptions)}};
      issue["warp_instructions_per_launch"] =
          w.perLaunch ? Value(*w.perLaunch) : Value(nullptr);
      issue["grid_dim"] = w.grid.x > 0
                              ? Value(Array{w.grid.x, w.grid.y, w.grid.z})
                              : Value(nullptr);
      issue["grid_dim_source"] = w.gridSource;
      o["issue"] = std::move(issue);
    } else {
      o["issue"] = nullptr;
    }
    kernels.push_back(std::move(o));
  }
  for (const AccessRecord &a : r.accesses) {
    Object o = position(a.pos);
    o["kernel"] = a.kernel;
    o["kernel_signature"] = a.signature;
    o["space"] = a.space;
    o["op"] = a.op;
    o["expr"] = a.expr;
    if (!a.intrinsic.empty())
      o["intrinsic"] = a.intrinsic;
    o["element_bytes"] = a.elementBytes;
    o["evaluated"] = a.evaluated;
    o["worst_excess"] = optNumber(a.worstRatio);
    if (a.tableBytes)
      o["within_table_bytes"] = a.tableBytes;
    if (a.dataRowBytes)
      o["data_row_bytes"] = a.dataRowBytes;
    if (a.op == "atomic")
      o["same_address_lanes"] =
          a.evaluated ? Value(int64_t(a.sameAddressLanes)) : Value(nullptr);
    if (!a.evaluated)
      o["unknown_reason"] = a.unknownReason;
    o["active_lanes"] = a.evaluated ? Value(a.activeLanes) : Value(nullptr);
    // The figure's name says what is counted in this space.
    std::string unit = a.space == "global"   ? "sectors"
                       : a.space == "shared" ? "wavefronts"
                                             : "addresses";
    o[unit + "_per_request"] = optNumber(a.cost);
    o["ideal_" + unit + "_per_request"] = optNumber(a.idealCost);
    o["exact"] = a.evaluated && a.exact;
    if (a.evaluated && !a.exact)
      o[unit + "_per_request_range"] = Array{a.minCost, a.maxCost};
    if (!a.array.empty()) {
      o["array"] = a.array;
      Array shape;
      for (int64_t d : a.arrayShape)
        shape.push_back(d);
      o["array_shape"] = std::move(shape);
    }
    o["stride_bytes"] = a.strideBytes ? Value(*a.strideBytes) : Value(nullptr);
    o["depends_on"] = strings(a.dependsOn);
    o["assumptions"] = strings(a.assumptions);
    if (a.dataEstimate) {
      const AccessRecord::DataEstimate &d = *a.dataEstimate;
      o["data_estimate"] = Object{
          {"random", Object{{unit + "_per_request", d.randomCost},
                            {"ideal_" + unit + "_per_request", d.randomIdeal}}},
          {"agree", Object{{unit + "_per_request", d.agreeCost},
                           {"ideal_" + unit + "_per_request", d.agreeIdeal}}},
          {"data", strings(d.data)},
          {"element_offset", d.elementOffset},
          {"expected", d.expectsRandom ? "random" : "agree"}};
    }
    accesses.push_back(std::move(o));
  }
  Array branches;
  for (const BranchRecord &b : r.branches) {
    Object o = position(b.pos);
    o["kernel"] = b.kernel;
    o["kernel_signature"] = b.signature;
    o["kind"] = b.kind;
    // null: the condition depends on data loaded per lane.
    o["divergent"] = b.evaluated ? Value(b.divergent) : Value(nullptr);
    o["data_dependent"] = !b.evaluated;
    o["maybe_divergent"] = b.maybeDivergent;
    if (b.warp >= 0) {
      Object split{{"warp", b.warp},
                   {"taken_lanes", b.takenLanes},
                   {"skipped_lanes", b.skippedLanes}};
      if (b.iteration >= 0)
        split["iteration"] = b.iteration;
      o["split"] = std::move(split);
    }
    o["divergent_share"] = b.divergentShare;
    o["active_lanes"] = b.issueRatio > 0 ? Value(b.activeLanes) : Value(nullptr);
    o["issue_ratio"] = b.issueRatio > 0 ? Value(b.issueRatio) : Value(nullptr);
    o["lane_spread"] = b.spread > 0 ? Value(b.spread) : Value(nullptr);
    o["predicated"] = b.predicated;
    o["body_lines"] = b.bodyFirst ? Value(Array{int64_t(b.bodyFirst),
                                                 int64_t(b.bodyLast)})
                                  : Value(nullptr);
    o["weight"] = b.weight;
    o["depends_on"] = strings(b.dependsOn);
    branches.push_back(std::move(o));
  }
  for (const DiagnosticRecord &d : r.diagnostics) {
    Object o = position(d.pos);
    o["rule"] = d.rule;
    o["severity"] = d.severity;
    o["kernel"] = d.kernel;
    o["kernel_signature"] = d.signature;
    o["message"] = d.message;
    if (!d.fingerprint.empty())
      o["fingerprint"] = d.fingerprint;
    Array notes;
    for (const NoteRecord &n : d.notes) {
      Object no = position(n.pos);
      no["message"] = n.message;
      notes.push_back(std::move(no));
    }
    o["notes"] = std::move(notes);
    Array fixes;
    for (const FixRecord &f : d.fixes) {
      Object fo = position(f.begin);
      fo["end_line"] = int64_t(f.end.line);
      fo["end_column"] = int64_t(f.end.column);
      fo["replacement"] = f.replacement;
      fo["description"] = f.description;
      fixes.push_back(std::move(fo));
    }
    o["fixes"] = std::move(fixes);
    diagnostics.push_back(std::move(o));
  }
  Object doc{{"tool", "warplint"},
             {"format_version", JsonFormatVersion},
             {"files", std::move(files)},
             {"kernels", std::move(kernels)},
             {"accesses", std::move(accesses)},
             {"branches", std::move(branches)},
             {"diagnostics", std::move(diagnostics)}};
  doc["suppressed"] = int64_t(r.suppressed);
  doc["hidden_in_headers"] = int64_t(r.headerHidden);
  if (r.baselineUsed)
    doc["baselined"] = int64_t(r.baselined);
  return doc;
}

std::string toJson(const Report &r) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", Value(jsonObject(r)));
  return os.str();
}

} // namespace warplint
