//===- Config.h - .warplint.yaml project configuration ----------*- C++ -*-===//
//
// A project says once what warplint cannot see, like .clang-tidy does: which
// rules, thresholds, the default block shape, the GPU architecture and the
// values of kernel parameters. The closest `.warplint.yaml` above a file
// applies to it (and its parents' too with `InheritParentConfig: true`);
// command-line options override it. Read with LLVM's YAML library; an
// unknown key or a bad value is an error naming the file, line and column.
// No Clang headers.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_CONFIG_H
#define WARPLINT_FRONTEND_CONFIG_H

#include "model/Eval.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// What one configuration says; an unset field says nothing (an outer file
/// or the built-in default decides).
struct Config {
  std::optional<std::string> rules;   // clang-tidy style globs
  std::optional<Shape> blockDim;      // default block shape
  std::optional<std::string> arch;    // sm_NN
  std::map<std::string, int64_t> params;     // kernel parameter values
  std::map<std::string, double> thresholds;  // by rule id
  /// Any rule's own options, clang-tidy style: "<rule>.<Option>" -> value.
  std::map<std::string, double> checkOptions;
  std::optional<std::string> dataMasks;      // remark, warning or off
  std::optional<std::string> dataAddresses;  // remark, warning or off
  std::optional<bool> dataDependentBranches;
  std::optional<std::string> headerFilter; // regular expression
  bool inheritParentConfig = false;
  /// The files this configuration was read from, closest first.
  std::vector<std::string> sources;

  /// `inner` over this one: what `inner` sets wins, maps are merged.
  void overlay(const Config &inner);
  /// Whether it sets anything at all (the files it was read from aside).
  bool setsAnything() const {
    return rules || blockDim || arch || !params.empty() ||
           !thresholds.empty() || !checkOptions.empty() || dataMasks ||
           dataAddresses || dataDependentBranches || headerFilter;
  }
};

/// Rules whose threshold a configuration may set.
const std::vector<std::string> &thresholdRules();

/// Parses one configuration document; `name` is used in error messages
/// ("name:LINE:COL: ..."). Returns false with `error` set on a syntax error,
/// an unknown key or a value out of range.
bool parseConfig(const std::string &text, const std::string &name,
                 Config &out, std::string &error);

/// YAML for a configuration (--dump-config): every field it sets.
std::string dumpConfig(const Config &c);

/// Finds and reads the configuration of each file: the closest
/// `.warplint.yaml` in its directory or a parent, with the parents' under
/// it while `InheritParentConfig` says so. Directories are read once.
class ConfigFinder {
public:
  ConfigFinder();
  ~ConfigFinder();
  /// The configuration for `file` (empty: none found); false with `error`
  /// when a configuration file on the way cannot be read or parsed.
  bool forFile(const std::string &file, Config &out, std::string &error);

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace warplint

#endif
