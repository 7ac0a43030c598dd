#include "frontend/project/Config.h"

#include "rules/RuleSet.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace {
/// One dimension of BlockDim.
struct Dim {
  int64_t v = 0;
};
/// The document as written; validated into a warplint::Config afterwards.
struct RawConfig {
  std::optional<std::string> Rules, Arch, DataMasks, DataAddresses,
      HeaderFilter;
  std::optional<std::vector<Dim>> BlockDim;
  std::map<std::string, int64_t> Params;
  std::map<std::string, double> Thresholds, CheckOptions;
  std::optional<bool> DataDependentBranches, InheritParentConfig;
};
} // namespace

LLVM_YAML_IS_FLOW_SEQUENCE_VECTOR(Dim)
LLVM_YAML_IS_STRING_MAP(int64_t)
LLVM_YAML_IS_STRING_MAP(double)

namespace llvm {
namespace yaml {
template <> struct ScalarTraits<Dim> {
  static void output(const Dim &d, void *, raw_ostream &os) { os << d.v; }
  static StringRef input(StringRef s, void *, Dim &d) {
    if (s.getAsInteger(0, d.v))
      return "BlockDim wants integers";
    return StringRef();
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};
template <> struct MappingTraits<RawConfig> {
  static void mapping(IO &io, RawConfig &c) {
    io.mapOptional("Rules", c.Rules);
    io.mapOptional("BlockDim", c.BlockDim);
    io.mapOptional("Arch", c.Arch);
    io.mapOptional("Params", c.Params, std::map<std::string, int64_t>{});
    io.mapOptional("Thresholds", c.Thresholds, std::map<std::string, double>{});
    io.mapOptional("CheckOptions", c.CheckOptions,
                   std::map<std::string, double>{});
    io.mapOptional("DataMasks", c.DataMasks);
    io.mapOptional("DataAddresses", c.DataAddresses);
    io.mapOptional("DataDependentBranches", c.DataDependentBranches);
    io.mapOptional("HeaderFilter", c.HeaderFilter);
    io.mapOptional("InheritParentConfig", c.InheritParentConfig);
  }
};
} // namespace yaml
} // namespace llvm

namespace warplint {

const std::vector<std::string> &thresholdRules() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> out;
    for (const RuleDef *r : allRules())
      if (r->option("Threshold"))
        out.push_back(r->id());
    return out;
  }();
  return ids;
}

void Config::overlay(const Config &inner) {
  if (inner.rules)
    rules = inner.rules;
  if (inner.blockDim)
    blockDim = inner.blockDim;
  if (inner.arch)
    arch = inner.arch;
  for (const auto &[k, v] : inner.params)
    params[k] = v;
  for (const auto &[k, v] : inner.thresholds)
    thresholds[k] = v;
  for (const auto &[k, v] : inner.checkOptions)
    checkOptions[k] = v;
  if (inner.dataMasks)
    dataMasks = inner.dataMasks;
  if (inner.dataAddresses)
    dataAddresses = inner.dataAddresses;
  if (inner.dataDependentBranches)
    dataDependentBranches = inner.dataDependentBranches;
  if (inner.headerFilter)
    headerFilter = inner.headerFilter;
  inheritParentConfig = inner.inheritParentConfig;
  sources.insert(sources.begin(), inner.sources.begin(), inner.sources.end());
}

namespace {
struct DiagSink {
  std::string first;
};
void onDiag(const llvm::SMDiagnostic &d, void *ctx) {
  auto *sink = static_cast<DiagSink *>(ctx);
  if (!sink->first.empty())
    return;
  sink->first = (d.getFilename() + ":" + llvm::Twine(d.getLineNo()) + ":" +
                 llvm::Twine(d.getColumnNo() + 1) + ": " + d.getMessage())
                    .str();
}
} // namespace

bool parseConfig(const std::string &text, const std::string &name,
                 Config &out, std::string &error) {
  RawConfig raw;
  DiagSink sink;
  {
    llvm::yaml::Input in(llvm::MemoryBufferRef(text, name), nullptr, onDiag,
                         &sink);
    // An empty file is an empty configuration.
    if (llvm::StringRef(text).trim().empty()) {
      out = Config{};
      out.sources.push_back(name);
      return true;
    }
    in >> raw;
    if (in.error()) {
      error = sink.first.empty() ? name + ": not a warplint configuration"
                                 : sink.first;
      return false;
    }
  }
  // Every error of the file, one a line (--verify-config lists them all).
  std::vector<std::string> errors;
  auto bad = [&](const std::string &what) {
    errors.push_back(name + ": " + what);
    return false;
  };
  Config c;
  c.rules = raw.Rules;
  if (raw.BlockDim) {
    const auto &d = *raw.BlockDim;
    Shape s{1, 1, 1};
    bool ok = true;
    if (d.empty() || d.size() > 3)
      ok = bad("BlockDim wants 1 to 3 dimensions, like [32, 4]");
    for (size_t i = 0; ok && i < d.size(); ++i) {
      if (d[i].v < 1 || d[i].v > 1024)
        ok = bad("BlockDim: each dimension is 1..1024");
      else
        (i == 0 ? s.x : i == 1 ? s.y : s.z) = int(d[i].v);
    }
    if (ok && int64_t(s.x) * s.y * s.z > 1024)
      ok = bad("BlockDim: a block has at most 1024 threads");
    if (ok)
      c.blockDim = s;
  }
  if (raw.Arch) {
    llvm::StringRef a(*raw.Arch);
    unsigned n;
    if (!a.consume_front("sm_") || a.getAsInteger(10, n))
      bad("Arch wants sm_NN, like sm_90, not '" + *raw.Arch + "'");
    c.arch = raw.Arch;
  }
  c.params = raw.Params;
  for (const auto &[rule, t] : raw.Thresholds) {
    const auto &ids = thresholdRules();
    if (std::find(ids.begin(), ids.end(), rule) == ids.end()) {
      std::string with;
      for (const std::string &id : ids)
        with += (with.empty() ? "" : ", ") + id;
      bad("Thresholds: no threshold for '" + rule + "' (rules with one: " +
          with + ")");
      continue;
    }
    if (!(t > findRule(rule)->option("Threshold")->mustExceed) ||
        !std::isfinite(t))
      bad("Thresholds: " + rule + " must be a number greater than 1");
    c.thresholds[rule] = t;
  }
  for (const auto &[key, v] : raw.CheckOptions) {
    auto [rule, name] = llvm::StringRef(key).rsplit('.');
    const RuleDef *def = findRule(rule);
    const RuleOption *o = def ? def->option(name) : nullptr;
    if (!o) {
      std::string known;
      for (const RuleDef *r : allRules())
        for (const RuleOption *ro : r->options())
          known += (known.empty() ? "" : ", ") + std::string(r->id()) + "." +
                   ro->name;
      bad("CheckOptions: no option '" + key + "' (options: " + known + ")");
      continue;
    }
    if (!(v > o->mustExceed) || !std::isfinite(v))
      bad("CheckOptions: " + key + " must be a number greater than " +
          formatFigure(o->mustExceed));
    c.checkOptions[key] = v;
  }
  // (Each its own default level: auto for masks, narrow for addresses.)
  for (auto [key, value, special] :
       {std::tuple{"DataMasks", &raw.DataMasks, "auto"},
        std::tuple{"DataAddresses", &raw.DataAddresses, "narrow"}})
    if (*value && **value != special && **value != "remark" &&
        **value != "warning" && **value != "off")
      bad(std::string(key) + " wants " + special +
          ", remark, warning or off, not '" + **value + "'");
  c.dataMasks = raw.DataMasks;
  c.dataAddresses = raw.DataAddresses;
  c.dataDependentBranches = raw.DataDependentBranches;
  c.headerFilter = raw.HeaderFilter;
  c.inheritParentConfig = raw.InheritParentConfig.value_or(false);
  c.sources.push_back(name);
  if (!errors.empty()) {
    error.clear();
    for (const std::string &e : errors)
      error += (error.empty() ? "" : "\n") + e;
    return false;
  }
  out = std::move(c);
  return true;
}

std::string dumpConfig(const Config &c) {
  RawConfig raw;
  raw.Rules = c.rules;
  if (c.blockDim)
    raw.BlockDim = std::vector<Dim>{{c.blockDim->x}, {c.blockDim->y},
                                    {c.blockDim->z}};
  raw.Arch = c.arch;
  raw.Params = c.params;
  raw.Thresholds = c.thresholds;
  raw.CheckOptions = c.checkOptions;
  raw.DataMasks = c.dataMasks;
  raw.DataAddresses = c.dataAddresses;
  raw.DataDependentBranches = c.dataDependentBranches;
  raw.HeaderFilter = c.headerFilter;
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::yaml::Output yout(os);
  yout << raw;
  return os.str();
}

struct ConfigFinder::Impl {
  /// By directory: its own file's configuration, if it has one.
  std::map<std::string, std::optional<Config>> own;
};

ConfigFinder::ConfigFinder() : impl(std::make_unique<Impl>()) {}
ConfigFinder::~ConfigFinder() = default;

bool ConfigFinder::forFile(const std::string &file, Config &out,
                           std::string &error) {
  llvm::SmallString<256> dir(file);
  llvm::sys::fs::make_absolute(dir);
  llvm::sys::path::remove_dots(dir, true);
  llvm::sys::path::remove_filename(dir);
  // Closest first, until one does not inherit from its parent.
  std::vector<Config> chain;
  for (std::string d = std::string(dir); !d.empty();
       d = std::string(llvm::sys::path::parent_path(d))) {
    auto it = impl->own.find(d);
    if (it == impl->own.end()) {
      std::optional<Config> c;
      llvm::SmallString<256> path(d);
      llvm::sys::path::append(path, ".warplint.yaml");
      if (llvm::sys::fs::exists(path)) {
        auto buf = llvm::MemoryBuffer::getFile(path);
        if (!buf) {
          error = std::string(path) + ": cannot read: " +
                  buf.getError().message();
          return false;
        }
        Config parsed;
        if (!parseConfig((*buf)->getBuffer().str(), std::string(path), parsed,
                         error))
          return false;
        c = std::move(parsed);
      }
      it = impl->own.emplace(d, std::move(c)).first;
    }
    if (it->second) {
      chain.push_back(*it->second);
      if (!it->second->inheritParentConfig)
        break;
    }
    if (llvm::sys::path::parent_path(d) == d)
      break;
  }
  Config merged;
  for (auto c = chain.rbegin(); c != chain.rend(); ++c)
    merged.overlay(*c);
  out = std::move(merged);
  return true;
}

} // namespace warplint
