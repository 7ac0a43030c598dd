//===- JsonReport.h - the report as JSON, and back --------------*- C++ -*-===//
//
// The JSON document (docs/json-format.md) is written by --format=json and
// read back by `warplint merge` (Shards.h). Each record's keys are listed
// once, in a mapping that both directions run (JsonReport.cpp), as LLVM's
// YAML I/O does: a key cannot be written one way and read another.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_REPORT_JSONREPORT_H
#define WARPLINT_REPORT_JSONREPORT_H

#include "report/Report.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// Writes the JSON document of a report (toJson's) to `j`, with the
/// top-level keys of `extra` beside its own. Records are built and written
/// one at a time: the document is never held whole.
void writeJson(llvm::json::OStream &j, const Report &r,
               llvm::json::Object extra = {});

/// Reads the fields of a JSON document, remembering the first that is
/// missing or of the wrong type.
class JsonReader {
public:
  /// The first field missing or of the wrong type ("": none so far).
  std::string bad;

  const llvm::json::Value *get(const llvm::json::Object &o,
                               llvm::StringRef key);
  std::string str(const llvm::json::Object &o, llvm::StringRef key);
  double num(const llvm::json::Object &o, llvm::StringRef key);
  int64_t integer(const llvm::json::Object &o, llvm::StringRef key);
  bool boolean(const llvm::json::Object &o, llvm::StringRef key);
  /// A number or null.
  std::optional<double> optNum(const llvm::json::Object &o,
                               llvm::StringRef key);
  std::vector<std::string> strings(const llvm::json::Object &o,
                                   llvm::StringRef key);
  const llvm::json::Array &array(const llvm::json::Object &o,
                                 llvm::StringRef key);
  const llvm::json::Object &object(const llvm::json::Value &v,
                                   llvm::StringRef what);
  /// A [begin, end) pair of indices.
  void range(const llvm::json::Object &o, llvm::StringRef key, size_t out[2]);

private:
  void fail(llvm::StringRef key) {
    if (bad.empty())
      bad = key.str();
  }
};

/// Reads toJson's document back into `r`, with `reader` noting the first
/// field missing or of the wrong type.
void fromJson(const llvm::json::Object &doc, Report &r, JsonReader &reader);

} // namespace warplint

#endif
