//===- Shards.h - split a run into shards, merge their reports --*- C++ -*-===//
//
// CI scales warplint with its own job matrix: `--shard=I/N` analyzes one
// part of the run's files, and `warplint merge` puts the shards' JSON
// reports together into the report a single run over every file gives
// (docs/ci.md). A single run analyzes a kernel configuration and records a
// finding once for the whole run, and numbers fingerprints in the order
// findings are found; a shard's JSON report carries, in its `shard` object,
// where each file's records lie and which kernel configurations they belong
// to, so that the merge repeats that deduplication in the single run's order.
// No Clang types.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_REPORT_SHARDS_H
#define WARPLINT_REPORT_SHARDS_H

#include "report/JsonReport.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace warplint {

/// `--shard=I/N`, I 1-based.
struct ShardSpec {
  unsigned index = 0, count = 0;
};
/// Parses "I/N" (1 <= I <= N); false with `error` saying what is wrong.
bool parseShardSpec(const std::string &text, ShardSpec &out,
                    std::string &error);

/// The fixed cost counted for each file on top of its bytes (its parse of
/// the CUDA headers), so that many small files are not piled onto one shard.
constexpr uint64_t ShardFileOverhead = 32 * 1024;

/// The 0-based shard of each file: greedy, heaviest first (bytes plus
/// ShardFileOverhead; ties by path, then position) into the lightest shard
/// (ties: the lowest). Deterministic: every shard of a CI matrix computes
/// the same split.
std::vector<unsigned> assignShards(const std::vector<std::string> &files,
                                   const std::vector<uint64_t> &bytes,
                                   unsigned count);

/// The JSON document of a shard's report: toJson's, with a `shard` object.
/// `runFiles` are the run's files before sharding, `positions` the place in
/// it of each of the report's files.
std::string toShardJson(const Report &r, const ShardSpec &spec,
                        const std::vector<std::string> &runFiles,
                        const std::vector<size_t> &positions);

/// The document's `shard` object (SARIF keeps the document in its property
/// bag: SarifOptions::shard).
llvm::json::Object shardObject(const Report &r, const ShardSpec &spec,
                               const std::vector<std::string> &runFiles,
                               const std::vector<size_t> &positions);

struct MergeOptions {
  /// --baseline for the merged findings (the shards are run without one).
  const std::set<std::string> *baseline = nullptr;
  /// Rules that check launches, not kernels: their findings belong to the
  /// file's launch sites, whatever configurations were left out.
  std::set<std::string> launchRules;
};

/// Reads the shards' JSON reports (`paths`; or their SARIF, which carries
/// the JSON report in its run's property bag) and merges them into `out` as a
/// single run over the run's files would report; false with `error` when an
/// input is unreadable, not a shard's report, or the shards do not fit
/// together (another run, a shard missing or given twice). `warnings` get
/// what the merge could not make exact.
bool mergeShardReports(const std::vector<std::string> &paths,
                       const MergeOptions &opts, Report &out,
                       std::string &error, std::vector<std::string> &warnings);

} // namespace warplint

#endif
