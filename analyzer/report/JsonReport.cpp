// The JSON document (docs/json-format.md). Keys are snake_case; numbers that
// the model could not determine are null, never a guess. Each record's keys
// are listed once, in a map() that the writer and the reader both run: the
// writer puts each field in the object, the reader takes it back out.
#include "report/JsonReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>

namespace warplint {

using llvm::StringRef;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::ObjectKey;
using llvm::json::Value;

// --- reading fields
// -----------------------------------------------------------

const Value *JsonReader::get(const Object &o, StringRef key) {
  const Value *v = o.get(key);
  if (!v)
    fail(key);
  return v;
}

std::string JsonReader::str(const Object &o, StringRef key) {
  const Value *v = get(o, key);
  auto s = v ? v->getAsString() : std::nullopt;
  if (!s)
    fail(key);
  return s ? s->str() : "";
}

double JsonReader::num(const Object &o, StringRef key) {
  const Value *v = get(o, key);
  auto d = v ? v->getAsNumber() : std::nullopt;
  if (!d)
    fail(key);
  return d ? *d : 0;
}

int64_t JsonReader::integer(const Object &o, StringRef key) {
  const Value *v = get(o, key);
  auto d = v ? v->getAsInteger() : std::nullopt;
  if (!d)
    fail(key);
  return d ? *d : 0;
}

bool JsonReader::boolean(const Object &o, StringRef key) {
  const Value *v = get(o, key);
  auto d = v ? v->getAsBoolean() : std::nullopt;
  if (!d)
    fail(key);
  return d ? *d : false;
}

std::optional<double> JsonReader::optNum(const Object &o, StringRef key) {
  const Value *v = get(o, key);
  if (!v || v->kind() == Value::Null)
    return std::nullopt;
  return num(o, key);
}

std::vector<std::string> JsonReader::strings(const Object &o, StringRef key) {
  std::vector<std::string> out;
  const Value *v = get(o, key);
  const Array *a = v ? v->getAsArray() : nullptr;
  if (!a) {
    fail(key);
    return out;
  }
  for (const Value &e : *a)
    if (auto s = e.getAsString())
      out.push_back(s->str());
    else
      fail(key);
  return out;
}

const Array &JsonReader::array(const Object &o, StringRef key) {
  static const Array empty;
  const Value *v = get(o, key);
  const Array *a = v ? v->getAsArray() : nullptr;
  if (!a)
    fail(key);
  return a ? *a : empty;
}

const Object &JsonReader::object(const Value &v, StringRef what) {
  static const Object empty;
  const Object *o = v.getAsObject();
  if (!o)
    fail(what);
  return o ? *o : empty;
}

void JsonReader::range(const Object &o, StringRef key, size_t out[2]) {
  const Array &a = array(o, key);
  if (a.size() != 2 || !a[0].getAsInteger() || !a[1].getAsInteger() ||
      *a[0].getAsInteger() < 0 || *a[1].getAsInteger() < *a[0].getAsInteger()) {
    fail(key);
    out[0] = out[1] = 0;
    return;
  }
  out[0] = size_t(*a[0].getAsInteger());
  out[1] = size_t(*a[1].getAsInteger());
}

namespace {

// --- the two directions
// -------------------------------------------------------

/// Puts fields into an object.
struct Writer {
  static constexpr bool Reading = false;
  Object o;

  void field(ObjectKey k, const std::string &v) { o[std::move(k)] = v; }
  void field(ObjectKey k, const int &v) { o[std::move(k)] = v; }
  void field(ObjectKey k, const unsigned &v) { o[std::move(k)] = int64_t(v); }
  void field(ObjectKey k, const int64_t &v) { o[std::move(k)] = v; }
  void field(ObjectKey k, const size_t &v) { o[std::move(k)] = int64_t(v); }
  void field(ObjectKey k, const double &v) { o[std::move(k)] = v; }
  void field(ObjectKey k, const bool &v) { o[std::move(k)] = v; }
  void field(ObjectKey k, const std::vector<std::string> &v) {
    Array a;
    for (const std::string &s : v)
      a.push_back(s);
    o[std::move(k)] = std::move(a);
  }
  /// A number, null where it is not known.
  void field(ObjectKey k, const std::optional<double> &v) {
    o[std::move(k)] = v ? Value(*v) : Value(nullptr);
  }
  /// `v` where `known`, else null.
  template <class T> void nullUnless(ObjectKey k, bool known, const T &v) {
    if (known)
      field(std::move(k), v);
    else
      o[std::move(k)] = nullptr;
  }
  /// A figure that is 0 where not known: null then.
  void zeroAsNull(ObjectKey k, const double &v) {
    o[std::move(k)] = v > 0 ? Value(v) : Value(nullptr);
  }
  /// `v`, a key present only where `present`.
  template <class T> void optional(ObjectKey k, bool present, const T &v) {
    if (present)
      field(std::move(k), v);
  }
  /// A nested object (mapped by `map(io, v)`), present where `present`.
  template <class T, class Map>
  void object(ObjectKey k, bool present, const T &v, Map map) {
    if (!present)
      return;
    Writer w;
    map(w, v);
    o[std::move(k)] = std::move(w.o);
  }
  /// A nested object, a key present only where `v` holds one.
  template <class T, class Map>
  void optionalObject(ObjectKey k, const std::optional<T> &v, Map map) {
    if (v)
      object(std::move(k), true, *v, map);
  }
  /// A nested object, null where not `present`.
  template <class T, class Map>
  void objectOrNull(ObjectKey k, bool present, const T &v, Map map) {
    if (present)
      object(std::move(k), true, v, map);
    else
      o[std::move(k)] = nullptr;
  }
  template <class T, class Map>
  void list(ObjectKey k, const std::vector<T> &v, Map map) {
    Array a;
    for (const T &e : v) {
      Writer w;
      map(w, e);
      a.push_back(std::move(w.o));
    }
    o[std::move(k)] = std::move(a);
  }
  /// Integers, as many as `n` (a block's three dimensions, a line range).
  template <class... T> void ints(ObjectKey k, const T &...v) {
    o[std::move(k)] = Array{int64_t(v)...};
  }
  template <class... T>
  void intsOrNull(ObjectKey k, bool present, const T &...v) {
    if (present)
      ints(std::move(k), v...);
    else
      o[std::move(k)] = nullptr;
  }
};

/// Takes them back out.
struct Reader {
  static constexpr bool Reading = true;
  const Object &o;
  JsonReader &rd;

  void field(StringRef k, std::string &v) { v = rd.str(o, k); }
  void field(StringRef k, int &v) { v = int(rd.integer(o, k)); }
  void field(StringRef k, unsigned &v) { v = unsigned(rd.integer(o, k)); }
  void field(StringRef k, int64_t &v) { v = rd.integer(o, k); }
  void field(StringRef k, size_t &v) { v = size_t(rd.integer(o, k)); }
  void field(StringRef k, double &v) { v = rd.num(o, k); }
  void field(StringRef k, bool &v) { v = rd.boolean(o, k); }
  void field(StringRef k, std::vector<std::string> &v) { v = rd.strings(o, k); }
  void field(StringRef k, std::optional<double> &v) { v = rd.optNum(o, k); }
  template <class T> void nullUnless(StringRef k, bool known, T &v) {
    if (known)
      field(k, v);
  }
  void zeroAsNull(StringRef k, double &v) { v = rd.optNum(o, k).value_or(0); }
  template <class T> void optional(StringRef k, bool, T &v) {
    if (o.get(k))
      field(k, v);
  }
  template <class T, class Map> void object(StringRef k, bool, T &v, Map map) {
    if (const Value *x = o.get(k)) {
      Reader r{rd.object(*x, k), rd};
      map(r, v);
    }
  }
  template <class T, class Map>
  void optionalObject(StringRef k, std::optional<T> &v, Map map) {
    if (o.get(k))
      object(k, true, v.emplace(), map);
  }
  template <class T, class Map>
  void objectOrNull(StringRef k, bool, T &v, Map map) {
    if (const Value *x = rd.get(o, k); x && x->getAsObject()) {
      Reader r{*x->getAsObject(), rd};
      map(r, v);
    }
  }
  template <class T, class Map>
  void list(StringRef k, std::vector<T> &v, Map map) {
    for (const Value &e : rd.array(o, k)) {
      Reader r{rd.object(e, k), rd};
      T t;
      map(r, t);
      v.push_back(std::move(t));
    }
  }
  template <class... T> void ints(StringRef k, T &...v) {
    const Array &a = rd.array(o, k);
    if (a.size() != sizeof...(T))
      return;
    size_t i = 0;
    ((v = T(a[i++].getAsInteger().value_or(0))), ...);
  }
  template <class... T> void intsOrNull(StringRef k, bool, T &...v) {
    const Value *x = rd.get(o, k);
    if (x && x->kind() != Value::Null)
      ints(k, v...);
  }
};

// --- the records
// --------------------------------------------------------------

/// `const R` when writing, `R` when reading.
template <class IO, class R>
using Rec = std::conditional_t<IO::Reading, R, const R>;

template <class IO> void map(IO &io, Rec<IO, SourcePos> &p) {
  io.field("file", p.file);
  io.field("line", p.line);
  io.field("column", p.column);
}

template <class IO> void map(IO &io, Rec<IO, FileRecord> &f) {
  io.field("path", f.path);
  std::string status = f.ok ? "ok" : "error";
  io.field("status", status);
  if constexpr (IO::Reading)
    f.ok = status == "ok";
  io.optional("error", !f.ok, f.error);
  io.optional("host_code_not_checked", !f.hostNotChecked.empty(),
              f.hostNotChecked);
  io.optional("not_checked_nvcc_accepts", !f.nvccAccepted.empty(),
              f.nvccAccepted);
}

template <class IO> void map(IO &io, Rec<IO, KernelRecord::Issue> &w) {
  if constexpr (IO::Reading)
    w.estimated = true;
  io.field("warp_instructions_per_block", w.perBlock);
  io.field("active_lanes", w.activeLanes);
  io.field("assumptions", w.assumptions);
  io.field("warp_instructions_per_launch", w.perLaunch);
  io.intsOrNull("grid_dim", w.grid.x > 0, w.grid.x, w.grid.y, w.grid.z);
  io.field("grid_dim_source", w.gridSource);
}

template <class IO> void map(IO &io, Rec<IO, KernelRecord> &k) {
  map<IO>(io, k.pos);
  io.field("name", k.name);
  io.field("signature", k.signature);
  io.ints("block_dim", k.block.x, k.block.y, k.block.z);
  io.field("block_dim_source", k.blockSource);
  io.field("accesses", k.accesses);
  io.field("accesses_left_out", k.accessesLeftOut);
  io.field("calls_not_followed", k.callsNotFollowed);
  io.objectOrNull("issue", k.issue.estimated, k.issue,
                  [](IO &i, auto &w) { map<IO>(i, w); });
}

/// What an access's figures count in its space: "sectors" (global),
/// "wavefronts" (shared) or "addresses" (constant).
std::string unitOf(const std::string &space) {
  return space == "global"   ? "sectors"
         : space == "shared" ? "wavefronts"
                             : "addresses";
}

template <class IO>
void map(IO &io, Rec<IO, AccessRecord::DataEstimate> &d,
         const std::string &unit) {
  io.object("random", true, d, [&](IO &r, auto &e) {
    r.field(unit + "_per_request", e.randomCost);
    r.field("ideal_" + unit + "_per_request", e.randomIdeal);
  });
  io.object("agree", true, d, [&](IO &a, auto &e) {
    a.field(unit + "_per_request", e.agreeCost);
    a.field("ideal_" + unit + "_per_request", e.agreeIdeal);
  });
  io.field("data", d.data);
  io.field("element_offset", d.elementOffset);
  std::string expected = d.expectsRandom ? "random" : "agree";
  io.field("expected", expected);
  if constexpr (IO::Reading)
    d.expectsRandom = expected == "random";
}

template <class IO> void map(IO &io, Rec<IO, AccessRecord> &a) {
  map<IO>(io, a.pos);
  io.field("kernel", a.kernel);
  io.field("kernel_signature", a.signature);
  io.field("space", a.space);
  io.field("op", a.op);
  io.field("expr", a.expr);
  io.optional("intrinsic", !a.intrinsic.empty(), a.intrinsic);
  io.field("element_bytes", a.elementBytes);
  io.field("evaluated", a.evaluated);
  io.field("worst_excess", a.worstRatio);
  io.field("kernel_share", a.kernelShare);
  io.field("relative_runs", a.relativeRuns);
  // Present only for lookups into small tables, and rows picked by data.
  io.optional("within_table_bytes", a.tableBytes != 0, a.tableBytes);
  io.optional("data_row_bytes", a.dataRowBytes != 0, a.dataRowBytes);
  if (a.op == "atomic")
    io.nullUnless("same_address_lanes", a.evaluated, a.sameAddressLanes);
  if (!a.evaluated)
    io.field("unknown_reason", a.unknownReason);
  io.nullUnless("active_lanes", a.evaluated, a.activeLanes);
  // The figure's name says what is counted in this space.
  const std::string unit = unitOf(a.space);
  io.field(unit + "_per_request", a.cost);
  io.field("ideal_" + unit + "_per_request", a.idealCost);
  bool exact = a.evaluated && a.exact;
  io.field("exact", exact);
  if constexpr (IO::Reading)
    a.exact = exact;
  if (a.evaluated && !a.exact) {
    if constexpr (IO::Reading) {
      const Array &m = io.rd.array(io.o, unit + "_per_request_range");
      if (m.size() == 2) {
        a.minCost = m[0].getAsNumber().value_or(0);
        a.maxCost = m[1].getAsNumber().value_or(0);
      }
    } else {
      io.o[unit + "_per_request_range"] = Array{a.minCost, a.maxCost};
    }
  }
  if (!a.array.empty() || (IO::Reading && io.o.get("array"))) {
    io.field("array", a.array);
    if constexpr (IO::Reading) {
      for (const Value &e : io.rd.array(io.o, "array_shape"))
        a.arrayShape.push_back(e.getAsInteger().value_or(0));
    } else {
      Array shape;
      for (int64_t d : a.arrayShape)
        shape.push_back(d);
      io.o["array_shape"] = std::move(shape);
    }
  }
  if constexpr (IO::Reading) {
    if (io.rd.optNum(io.o, "stride_bytes"))
      a.strideBytes = io.rd.integer(io.o, "stride_bytes");
  } else {
    io.o["stride_bytes"] =
        a.strideBytes ? Value(*a.strideBytes) : Value(nullptr);
  }
  io.field("depends_on", a.dependsOn);
  io.field("assumptions", a.assumptions);
  io.optionalObject("data_estimate", a.dataEstimate,
                    [&](IO &e, auto &d) { map<IO>(e, d, unit); });
  // Under a condition on data: the figures with a few random lanes taking
  // it, beside the all-lanes upper bound.
  io.optionalObject("sparse_mask", a.sparseMask, [&](IO &m, auto &x) {
    m.field("lanes", x.lanes);
    m.field(unit + "_per_request", x.cost);
    m.field("ideal_" + unit + "_per_request", x.idealCost);
  });
  // An access in loops nvcc unrolls: one instruction per iteration.
  io.object("unrolled", !a.iterations.empty(), a, [&](IO &u, auto &x) {
    u.field("variable", x.unrolledVar);
    u.list("iterations", x.iterations, [&](IO &i, auto &it) {
      i.field("value", it.value);
      i.field(unit + "_per_request", it.cost);
      i.field("ideal_" + unit + "_per_request", it.idealCost);
    });
  });
}

template <class IO> void map(IO &io, Rec<IO, BranchRecord> &b) {
  map<IO>(io, b.pos);
  io.field("kernel", b.kernel);
  io.field("kernel_signature", b.signature);
  io.field("kind", b.kind);
  // null: the condition depends on data loaded per lane.
  if constexpr (IO::Reading) {
    const Value *div = io.rd.get(io.o, "divergent");
    b.evaluated = div && div->kind() != Value::Null;
  } else {
    io.o["data_dependent"] = !b.evaluated;
  }
  io.nullUnless("divergent", b.evaluated, b.divergent);
  io.field("maybe_divergent", b.maybeDivergent);
  io.object("split", b.warp >= 0, b, [](IO &s, auto &x) {
    s.field("warp", x.warp);
    s.ints("block", x.block[0], x.block[1], x.block[2]);
    s.field("taken_lanes", x.takenLanes);
    s.field("skipped_lanes", x.skippedLanes);
    s.optional("iteration", x.iteration >= 0, x.iteration);
  });
  io.field("divergent_share", b.divergentShare);
  // A body's lanes and issue figures are given where the issue ratio is.
  if constexpr (IO::Reading)
    b.activeLanes = io.rd.optNum(io.o, "active_lanes").value_or(0);
  else
    io.nullUnless("active_lanes", b.issueRatio > 0, b.activeLanes);
  io.zeroAsNull("issue_ratio", b.issueRatio);
  io.zeroAsNull("lane_spread", b.spread);
  io.field("predicated", b.predicated);
  io.intsOrNull("body_lines", b.bodyFirst != 0, b.bodyFirst, b.bodyLast);
  io.field("weight", b.weight);
  io.field("depends_on", b.dependsOn);
  io.field("waste_share", b.wasteShare);
}

template <class IO> void map(IO &io, Rec<IO, NoteRecord> &n) {
  map<IO>(io, n.pos);
  io.field("message", n.message);
}

template <class IO> void map(IO &io, Rec<IO, FixRecord> &f) {
  map<IO>(io, f.begin);
  if constexpr (IO::Reading)
    f.end.file = f.begin.file;
  io.field("end_line", f.end.line);
  io.field("end_column", f.end.column);
  io.field("replacement", f.replacement);
  io.field("description", f.description);
}

template <class IO> void map(IO &io, Rec<IO, DiagnosticRecord> &d) {
  map<IO>(io, d.pos);
  io.field("rule", d.rule);
  io.field("severity", d.severity);
  io.field("kernel", d.kernel);
  io.field("kernel_signature", d.signature);
  io.field("message", d.message);
  io.optional("fingerprint", !d.fingerprint.empty(), d.fingerprint);
  io.optional("repeat", d.repeat, d.repeat);
  io.list("notes", d.notes, [](IO &i, auto &n) { map<IO>(i, n); });
  io.list("fixes", d.fixes, [](IO &i, auto &f) { map<IO>(i, f); });
}

template <class IO> void map(IO &io, Rec<IO, Report> &r) {
  // Generic in its writer: Streamer maps each element with a Writer of its
  // own.
  auto each = [](auto &i, auto &x) { map<std::decay_t<decltype(i)>>(i, x); };
  io.list("files", r.files, each);
  io.list("kernels", r.kernels, each);
  io.list("accesses", r.accesses, each);
  io.list("branches", r.branches, each);
  io.list("diagnostics", r.diagnostics, each);
  io.field("suppressed", r.suppressed);
  io.field("hidden_in_headers", r.headerHidden);
  io.optional("baselined", r.baselineUsed, r.baselined);
  // The files with host code not checked, counted from `files` (read back
  // from them).
  size_t hostNotChecked = 0;
  for (const FileRecord &f : r.files)
    hostNotChecked += !f.hostNotChecked.empty();
  io.optional("host_code_not_checked", true, hostNotChecked);
  if constexpr (IO::Reading)
    r.baselineUsed = io.o.get("baselined") != nullptr;
}

/// The report's own fields, its lists kept aside to be written element by
/// element: a json::Object reserves 64 entries (4 KiB) however few it
/// holds, so a whole report built as one tree took 120 KiB of memory for
/// each SARIF result. Each element is built, written and freed in turn.
struct Streamer : Writer {
  std::map<std::string, std::function<void(llvm::json::OStream &)>> lists;
  template <class T, class Map>
  void list(ObjectKey k, const std::vector<T> &v, Map map) {
    lists[StringRef(k).str()] = [&v, map](llvm::json::OStream &j) {
      j.array([&] {
        for (const T &e : v) {
          Writer w;
          map(w, e);
          j.value(Value(std::move(w.o)));
        }
      });
    };
  }
};

} // namespace

void writeJson(llvm::json::OStream &j, const Report &r, Object extra) {
  Streamer s;
  s.o["tool"] = "warplint";
  s.o["format_version"] = JsonFormatVersion;
  map<Streamer>(s, r);
  for (auto &kv : extra)
    s.o[kv.first] = std::move(kv.second);
  // In llvm::json's order (an object's keys sorted), as a Value prints.
  std::vector<std::string> keys;
  for (const auto &kv : s.o)
    keys.push_back(StringRef(kv.first).str());
  for (const auto &kv : s.lists)
    keys.push_back(kv.first);
  llvm::sort(keys);
  j.object([&] {
    for (const std::string &k : keys) {
      if (auto it = s.lists.find(k); it == s.lists.end()) {
        j.attribute(k, *s.o.get(k));
      } else {
        j.attributeBegin(k);
        it->second(j);
        j.attributeEnd();
      }
    }
  });
}

void fromJson(const Object &doc, Report &r, JsonReader &reader) {
  Reader rd{doc, reader};
  map<Reader>(rd, r);
}

std::string toJson(const Report &r) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::json::OStream j(os, 2);
  writeJson(j, r);
  return os.str();
}

} // namespace warplint
