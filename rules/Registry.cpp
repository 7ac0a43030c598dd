// The one list of rules. A rule listed here must have fixtures under
// test/fixtures/<id>/ and a page docs/rules/<id>.md (test/rule_docs checks).
#include "rules/Rule.h"
#include "rules/ConstantNonuniformAccess.h"
#include "rules/DivergentBranch.h"
#include "rules/SmemBankConflict.h"
#include "rules/SyncRules.h"
#include "rules/UncoalescedGlobalAccess.h"

#include <cmath>
#include <cstdio>

namespace warplint {

const std::vector<RuleInfo> &allRules() {
  static const std::vector<RuleInfo> rules = {
      {"uncoalesced-global-access",
       "Flags global loads and stores whose warp pulls in at least twice the "
       "32-byte sectors its active lanes need.",
       checkUncoalescedGlobalAccess},
      {"smem-bank-conflict",
       "Flags shared-memory loads and stores whose warp needs at least twice "
       "the wavefronts it would without bank conflicts.",
       checkSmemBankConflict},
      {"constant-nonuniform-access",
       "Flags __constant__ loads whose lanes read different addresses, which "
       "the constant cache serves one after another.",
       checkConstantNonuniformAccess},
      {"divergent-branch",
       "Flags branches whose condition splits the active lanes of a warp "
       "around work large enough to stay a real branch.",
       nullptr, checkDivergentBranch},
      {"divergent-syncthreads",
       "Flags __syncthreads() and block-wide syncs that only some threads of "
       "a block reach.",
       nullptr, nullptr, checkDivergentSyncthreads},
      {"legacy-warp-intrinsic",
       "Flags __shfl, __any, __all and __ballot, the warp intrinsics without "
       "a mask that assume a converged warp.",
       nullptr, nullptr, checkLegacyWarpIntrinsic},
      {"full-mask-in-divergent-code",
       "Flags *_sync intrinsics and __syncwarp() that name all 32 lanes in "
       "code only some lanes of the warp reach.",
       nullptr, nullptr, checkFullMaskInDivergentCode},
      {"activemask-as-convergence-mask",
       "Flags __activemask() used as the mask of a warp collective under a "
       "lane-dependent condition or loop.",
       nullptr, nullptr, checkActivemaskAsConvergenceMask},
      {"missing-syncwarp",
       "Flags shared-memory values passed between lanes of one warp with no "
       "__syncwarp() between the store and the load.",
       nullptr, nullptr, nullptr, checkMissingSyncwarp},
      {"idle-lanes",
       "Flags branch and loop bodies that run with most lanes of their warps "
       "idle, at several times the warp instructions of a layout with the "
       "active lanes packed into full warps.",
       nullptr, checkIdleLanes},
      {"partial-warp-block",
       "Flags launches whose block is not a whole number of warps.",
       nullptr, nullptr, nullptr, nullptr, checkPartialWarpBlock},
  };
  return rules;
}

static bool glob(const char *p, const char *t) {
  if (!*p)
    return !*t;
  if (*p == '*')
    return glob(p + 1, t) || (*t && glob(p, t + 1));
  return *t == *p && glob(p + 1, t + 1);
}

bool ruleEnabled(const std::string &enabled, const std::string &id) {
  bool on = false;
  size_t start = 0;
  while (start <= enabled.size()) {
    size_t comma = enabled.find(',', start);
    std::string item = enabled.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!item.empty() && item.front() == ' ')
      item.erase(item.begin());
    while (!item.empty() && item.back() == ' ')
      item.pop_back();
    bool negative = !item.empty() && item[0] == '-';
    if (negative)
      item.erase(item.begin());
    if (!item.empty() && glob(item.c_str(), id.c_str()))
      on = !negative;
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return on;
}

const char *spaceName(Space s) {
  switch (s) {
  case Space::Global: return "global";
  case Space::Shared: return "shared";
  case Space::Constant: return "constant";
  case Space::Local: return "local";
  }
  return "?";
}

std::string formatFigure(double v) {
  char buf[32];
  if (std::fabs(v - std::round(v)) < 1e-9)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (std::fabs(v * 10 - std::round(v * 10)) < 1e-9)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else
    std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string formatEstimate(double v) {
  // A mean of random draws: one decimal says what it can.
  return formatFigure(std::round(v * 10) / 10);
}

} // namespace warplint

namespace warplint {

bool qualifyDataMask(Finding &f, const AccessResult &r,
                     const RuleOptions &opts) {
  if (!r.maskDataDependent)
    return true;
  if (opts.dataMasks == RuleOptions::DataMasks::Off)
    return false;
  f.message += " if every lane takes it; which lanes take it depends on data "
               "loaded at run time, so this is an upper bound";
  f.remark = opts.dataMasks == RuleOptions::DataMasks::Remark;
  return true;
}

static std::string quoted(const std::vector<int> &atoms, const Context &ctx) {
  std::string out;
  const size_t shown = std::min<size_t>(atoms.size(), 2);
  for (size_t i = 0; i < shown; ++i) {
    std::string n = ctx.atoms[atoms[i]].name;
    if (n.size() > 40)
      n = n.substr(0, 37) + "...";
    out += (i == 0 ? "'" : i + 1 == shown && atoms.size() == 2 ? " and '" : ", '") +
           n + "'";
  }
  if (atoms.size() > shown)
    out += " and " + std::to_string(atoms.size() - shown) + " more";
  return out;
}

// Single bytes or halves in global memory, each lane at its own place: a
// string per thread, or a byte table indexed by data.
static bool narrowData(const AccessFacts &f) {
  return f.space != Space::Shared && f.access.elementBytes <= 2;
}

// Each lane walking a segment of its own in global memory (`p[start[i] +
// k]` up to `start[i + 1]`), or a record picked by a key: lanes a segment
// apart.
static bool segmentData(const AccessFacts &f) {
  return f.space != Space::Shared &&
         (f.result.dataSegment || f.result.dataRecord);
}

bool expectsRandomData(const AccessFacts &f, const RuleOptions &opts) {
  const AccessResult &r = f.result;
  // Data that only shifts runs of lanes (`out[offset[bucket] + lane]`)
  // costs what one unaligned run costs, not what the random figure says.
  if (!r.dataEstimated || r.dataElementOffset)
    return false;
  if (opts.dataAddresses == RuleOptions::DataMasks::Warning ||
      opts.dataAddresses == RuleOptions::DataMasks::Remark)
    return true;
  const bool shared = f.space == Space::Shared;
  // A global atomic at an address built from data read as bits: a
  // scatter-add or a histogram by key, whose lanes land where their keys
  // send them (a particle's cell computed in floating point is shared by
  // its neighbours more often than not); and the plain read a
  // compare-and-swap loop makes first, which lands where the atomic does.
  const bool scatter =
      !shared && (f.atomic || f.atAtomicAddress) && !r.dataFromFloat;
  // Those, segments, and fields of data's bits (`table[w & 0xff]`), are
  // the kinds whose estimate the GPU bears out (RuleOptions::dataAddresses).
  return narrowData(f) || segmentData(f) || r.dataDigest || scatter;
}

std::optional<Finding> dataAddressFinding(const AccessFacts &f,
                                          const RuleOptions &opts,
                                          double threshold, const char *unit) {
  const AccessResult &r = f.result;
  if (r.evaluated || !r.dataEstimated || r.randomIdeal <= 0 ||
      opts.dataAddresses == RuleOptions::DataMasks::Off)
    return std::nullopt;
  if (r.randomActual < threshold * r.randomIdeal - 1e-9)
    return std::nullopt;
  const bool shared = std::string(unit) == "wavefront";
  // By default only the kinds whose estimate the GPU bears out.
  if (opts.dataAddresses == RuleOptions::DataMasks::Narrow &&
      !expectsRandomData(f, opts))
    return std::nullopt;
  // Data that only shifts runs of lanes, coalesced where they agree on it
  // (`out[offset[bucket] + lane]`): a partitioned scatter, whose lanes
  // mostly share a bucket. Random values would say otherwise; no finding.
  if (!shared && r.dataElementOffset &&
      r.agreeActual < threshold * r.agreeIdeal - 1e-9)
    return std::nullopt;
  const bool narrow = narrowData(f);
  const bool segment = segmentData(f);
  auto about = formatEstimate;
  auto units = [&](double v) {
    std::string n = about(v);
    return n + " " + unit + (n == "1" ? "" : "s");
  };
  const std::string data = quoted(r.dataAtoms, f.ctx);
  const bool one = r.dataAtoms.size() == 1;
  Finding out;
  out.message = accessKind(f, shared ? "shared" : "global", accessOp(f)) +
                " depends on data: if " + data + (one ? " differs" : " differ") +
                " at random between lanes, " + units(r.randomActual) +
                " per request where " + about(r.randomIdeal) + " would do";
  if (shared)
    out.message += " (about " + about(r.randomActual / r.randomIdeal) +
                   "-way bank conflict)";
  // An atomic's lanes on one address serialize: agreeing is no better.
  if (f.atomic)
    out.message += "; lanes that agree on " + std::string(one ? "it" : "them") +
                   " serialize on one address";
  else
    out.message += "; " + units(r.agreeActual) +
                   " where the lanes of a warp agree on " + (one ? "it" : "them");
  out.notes.push_back(
      {-1, "an estimate: the address is built from data loaded at run time; "
           "lanes whose values are close together (sorted keys, consecutive "
           "indices) " +
               std::string(shared ? "conflict less" : "share sectors") +
               ", so group or sort the work by that value where the data "
               "allows"});
  if (narrow)
    out.notes.push_back(
        {-1, "each lane reads " + std::to_string(f.access.elementBytes) +
                 (f.access.elementBytes == 1 ? " byte" : " bytes") +
                 " from its own place: where each thread walks its own "
                 "string or record, let the lanes of a warp read one "
                 "together (or store the records interleaved); where they "
                 "look up a small table, keep it in shared memory"});
  else if (segment)
    out.notes.push_back(
        {-1, "each lane walks a segment of its own (a row or a record per "
             "thread), so consecutive lanes are a segment apart: let the "
             "lanes of a warp walk one segment together, reading "
             "consecutive elements (a warp per row)"});
  else if (f.atAtomicAddress)
    out.notes.push_back(
        {-1, "an atomic of this kernel updates the same element (a "
             "compare-and-swap loop): the read lands where the keys send "
             "the atomic"});
  else if (r.dataDigest)
    out.notes.push_back(
        {-1, "the index is a field of the data's bits (a byte, a digit, a "
             "hash): lanes with different data land on unrelated elements "
             "of its range, so expect the random figure" +
                 std::string(shared ? ""
                                    : "; a lookup table it indexes is best "
                                      "kept in shared memory")});
  out.remark = opts.dataAddresses == RuleOptions::DataMasks::Remark;
  return out;
}

} // namespace warplint
