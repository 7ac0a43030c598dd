//===- Report.h - what one run of warplint found ----------------*- C++ -*-===//
//
// Plain data shared by the front end, the rules and the output formats. No
// Clang types: a rule or a writer can be tested without parsing anything.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_REPORT_REPORT_H
#define WARPLINT_REPORT_REPORT_H

#include "model/Eval.h"

#include <cstdint>
#include <optional>
#include <tuple>
#include <string>
#include <vector>

namespace warplint {

struct SourcePos {
  std::string file;
  unsigned line = 0, column = 0;
};

/// A place in the parse that produced a record, as the clang SourceLocation
/// it was (its raw encoding): the consumers that draw a finding through that
/// parse's source manager while it lives (the text printer, the language
/// server, clang-tidy) take its snippet, macro expansions and ranges from
/// it. 0: none (and always so in a record read back from JSON).
using SourceHandle = uint64_t;
/// A clang token range (`begin` to the start of its last token), or with
/// `chars`, a character range (up to, not including, `end`).
struct RangeHandle {
  SourceHandle begin = 0, end = 0;
  bool chars = false;
};

/// Where one file's records lie in the report's lists ([begin, end) each),
/// and the kernel configurations it was the first of the run to analyze
/// (RunState's keys): what merging the reports of shards needs
/// (Shards.h). Not part of the JSON document of a plain run.
struct FileSpan {
  size_t kernels[2] = {0, 0}, accesses[2] = {0, 0}, branches[2] = {0, 0},
         diagnostics[2] = {0, 0};
  std::vector<std::string> kernelKeys;
};

struct FileRecord {
  std::string path;
  bool ok = true;
  std::string error; // first error, when !ok
  /// The first error Clang gave in host-only code, with its place ("" when
  /// none): warplint checks device code, so it does not fail the file.
  std::string hostNotChecked;
  /// Device code nvcc accepts and Clang rejects, left unchecked (each with
  /// its place): a __shared__ object with a constructor, an asm `%` escape.
  std::vector<std::string> nvccAccepted;
  FileSpan span;
};

struct KernelRecord {
  std::string name;      // unqualified, no template arguments
  std::string signature; // qualified, with template arguments
  SourcePos pos;
  Shape block;
  std::string blockSource; // "launch site", "annotation", "option", ...
  int accesses = 0;
  /// Accesses past warplint's per-kernel limit, not modelled.
  int accessesLeftOut = 0;
  /// Calls deeper than warplint follows (8): what they touch is missing.
  int callsNotFollowed = 0;
  /// The work estimate (model/Issue.h): warp instructions issued per block, and
  /// per launch where the launch sites give the grid; what it assumes.
  struct Issue {
    bool estimated = false;
    double perBlock = 0, activeLanes = 0;
    std::optional<double> perLaunch;
    Shape grid{0, 0, 0}; // zeros: not known
    std::string gridSource;
    std::vector<std::string> assumptions;
  } issue;
};

struct AccessRecord {
  std::string kernel;
  std::string signature; // of the kernel instantiation
  SourcePos pos;
  std::string space; // "global", "shared", "constant"
  std::string op;    // "load", "store"
  std::string expr;  // source text of the access
  /// The intrinsic that makes it ("ldmatrix.x4", "cp.async.cg",
  /// "wmma::load_matrix_sync"); empty for an lvalue.
  std::string intrinsic;
  int elementBytes = 0;
  bool evaluated = false;
  std::string unknownReason;
  double activeLanes = 0;
  // Per request: sectors (global), wavefronts (shared) or distinct addresses
  // (constant), and the ideal.
  std::optional<double> cost, idealCost;
  double minCost = 0, maxCost = 0;
  std::string array; // shared/constant: the variable
  std::vector<int64_t> arrayShape;
  bool exact = true;
  std::optional<int64_t> strideBytes;
  std::vector<std::string> dependsOn;
  std::vector<std::string> assumptions;
  /// Atomics: the most lanes of the first warp request on one address (the
  /// serialization of a same-address atomic); 0 otherwise.
  int sameAddressLanes = 0;
  /// Worst actual/ideal of one block and loop iteration (the mean is
  /// cost / idealCost).
  std::optional<double> worstRatio;
  /// The address depends on data within a table of this many bytes, small
  /// enough that the figure holds whatever the data (0: not so).
  int64_t tableBytes = 0;
  /// The address depends on data only in whole rows of this many bytes,
  /// which leave every lane's bank alone (0: not so).
  int64_t dataRowBytes = 0;
  /// An address that depends on data (not evaluated): its per-request
  /// figures with each lane's data drawn at random and with the lanes of a
  /// warp agreeing on it, and the data it depends on.
  struct DataEstimate {
    double randomCost = 0, randomIdeal = 0, agreeCost = 0, agreeIdeal = 0;
    std::vector<std::string> data;
    /// The data only shifts lanes that agree on it by element offsets.
    bool elementOffset = false;
    /// The figure warplint takes for the access: the random one (true) or
    /// the one with the lanes agreeing (rules' expectsRandomData).
    bool expectsRandom = false;
  };
  std::optional<DataEstimate> dataEstimate;
  /// Under a condition on data loaded per lane: the per-request figures
  /// with only a few random lanes of each warp taking it
  /// (AccessResult::minSparseVerdict), beside the all-lanes upper bound.
  struct SparseMask {
    int lanes = 0; // taking it, per warp
    double cost = 0, idealCost = 0;
  };
  std::optional<SparseMask> sparseMask;
  /// What the access weighs in its kernel (AccessFacts::Weight): its extra
  /// sectors (wavefronts) over the kernel's estimated total of its space,
  /// and its runs over those of the kernel's busiest access of that space.
  std::optional<double> kernelShare, relativeRuns;
  /// An access in loops nvcc unrolls fully, one instruction per iteration:
  /// the innermost loop's variable, and per iteration its value and the
  /// per-request figures (model/Memory.h, AccessResult::iterations).
  struct Iteration {
    int64_t value = 0;
    double cost = 0, idealCost = 0;
  };
  std::string unrolledVar;
  std::vector<Iteration> iterations;
};

/// What a run's summary line says of its accesses, counted as each record
/// is made: a run whose output lists no access (every format but JSON)
/// keeps these counts instead of the records.
struct AccessTally {
  size_t accesses = 0;
  size_t notEvaluated = 0;
  /// Evaluated, with a figure that depends on unknown values.
  size_t ranged = 0;
  /// Not evaluated: an intrinsic whose lane layout is not modelled.
  size_t intrinsics = 0;
  void add(const AccessRecord &a) {
    ++accesses;
    notEvaluated += !a.evaluated;
    ranged += a.evaluated && !a.exact;
    intrinsics += !a.evaluated && !a.intrinsic.empty() &&
                  a.unknownReason.rfind("unknown: ", 0) == 0;
  }
  AccessTally &operator+=(const AccessTally &o) {
    accesses += o.accesses;
    notEvaluated += o.notEvaluated;
    ranged += o.ranged;
    intrinsics += o.intrinsics;
    return *this;
  }
};

struct BranchRecord {
  std::string kernel, signature;
  SourcePos pos;
  std::string kind; // "if", "loop", "ternary", "switch"
  bool evaluated = false; // false: depends on data loaded per lane
  bool divergent = false, maybeDivergent = false;
  int warp = -1, iteration = -1;
  int64_t block[3] = {0, 0, 0}; // the example warp's blockIdx
  std::string takenLanes, skippedLanes;
  double divergentShare = 0;
  /// The body's (an early exit's: the rest's) mean lanes per warp
  /// instruction, warp instructions over the fewest its lanes would need
  /// packed into full warps, both as the GPU runs it (`predicated`: every
  /// warp that reaches a small body issues it), and `spread`: warps with a
  /// lane on the path over that fewest; 0: not known.
  double activeLanes = 0, issueRatio = 0, spread = 0;
  bool predicated = false;
  unsigned bodyFirst = 0, bodyLast = 0; // the body's lines; 0: none
  int weight = 0;
  std::vector<std::string> dependsOn;
  /// For a divergent branch: the share of the kernel's estimated warp
  /// instructions that its body's idle lanes waste (KernelIssue::wasteShare).
  std::optional<double> wasteShare;
};

struct NoteRecord {
  SourcePos pos; // file empty: no location
  std::string message;
  SourceHandle at = 0;
  RangeHandle range;
};

/// A verified fix as a text edit: replace the text from `begin` up to (not
/// including) `end` with `replacement` (begin == end: an insertion).
struct FixRecord {
  std::string description;
  SourcePos begin, end;
  std::string replacement;
  RangeHandle edit; // the text replaced, a character range
};

struct DiagnosticRecord {
  std::string rule;
  std::string severity = "warning";
  SourcePos pos;
  std::string kernel;
  std::string signature; // of the kernel instantiation
  std::string message;
  std::vector<NoteRecord> notes;
  std::vector<FixRecord> fixes;
  /// A key that survives moving the code (CiReports.h, FingerprintState).
  std::string fingerprint;
  /// Another configuration (instantiation, launch configuration, call of a
  /// helper) of a finding reported at the same place and rule by an earlier
  /// record: kept for JSON's consumers, never shown or counted again (the
  /// shown one's notes say where else it holds).
  bool repeat = false;

  /// Not in the JSON document: what the run's pipeline and the printers
  /// need of the parse (report/Pipeline.h).
  /// Where it is reported, and the source it underlines (none: a place
  /// only, as for a struct copied on another line).
  SourceHandle at = 0;
  RangeHandle range;
  /// The file and line its NOLINT comments and --header-filter are read
  /// at: the file that holds it after macro expansion, by the name the
  /// parse opened it with, whatever #line directives say (`pos` follows
  /// them), and whether that is the file analyzed or a header.
  std::string physicalFile;
  unsigned physicalLine = 0;
  bool inMainFile = true;
};

struct Report {
  std::vector<FileRecord> files;
  std::vector<KernelRecord> kernels;
  std::vector<AccessRecord> accesses;
  /// The accesses analyzed without a record kept (ToolOptions::
  /// accessRecords): the summary counts them with `accesses`.
  AccessTally accessesNotKept;
  std::vector<BranchRecord> branches;
  std::vector<DiagnosticRecord> diagnostics;
  /// Findings left out because --baseline lists their fingerprints.
  size_t baselined = 0;
  /// Findings NOLINT comments suppressed (per place and rule).
  size_t suppressed = 0;
  /// Findings in headers --header-filter left out (per place and rule).
  size_t headerHidden = 0;
  /// A file's analysis crashed and was recovered: the process state is not
  /// to be trusted past writing the results.
  bool crashed = false;
  bool baselineUsed = false;
  /// The places behind `suppressed` and `headerHidden` (file, line, rule):
  /// shards' counts are merged as the union of these.
  std::vector<std::tuple<std::string, unsigned, std::string>>
      suppressedPlaces, headerHiddenPlaces;
};

/// Version of the JSON document (docs/json-format.md).
constexpr int JsonFormatVersion = 1;
std::string toJson(const Report &report);

} // namespace warplint

#endif
