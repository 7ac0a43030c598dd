#include "rules/DataFindings.h"

#include <algorithm>

namespace warplint {

bool qualifyDataMask(Finding &f, const AccessResult &r,
                     const SharedOptions &opts, double threshold,
                     const char *unit) {
  if (r.tailGuard && !r.maskDataDependent) {
    // Only the warps where the index crosses a bound run it, with their
    // lanes past the bound (a tail after a vectorized body): how many is
    // the sizes', and such a warp is one of the range's.
    f.message += " if a whole warp ran it; only lanes past the bound of a "
                 "guard run it (in the warp where the index crosses it), so "
                 "this is an upper bound";
    f.remark = true;
    return true;
  }
  if (!r.maskDataDependent)
    return true;
  if (opts.dataMasks == DataLevel::Off)
    return false;
  f.message += " if every lane takes it; which lanes take it depends on data "
               "loaded at run time";
  const bool sparseToo = threshold > 0 && r.sparseIdeal > 0 &&
                         r.minSparseVerdict >= threshold - 1e-9;
  if (opts.dataMasks == DataLevel::Auto && sparseToo) {
    // Each lane its own sector or bank: the excess stays whichever lanes
    // the data picks (down to a few), so it is the warning's figure.
    std::string n = formatEstimate(r.sparseActual);
    f.message += ", and with only " + std::to_string(SparseMaskLanes) +
                 " lanes of a warp taking it (at random) it is still " + n +
                 " " + unit + (n == "1" ? "" : "s") + " where " +
                 formatEstimate(r.sparseIdeal) + " would do";
    f.remark = false;
    return true;
  }
  f.message += ", so this is an upper bound";
  f.remark = opts.dataMasks != DataLevel::Warning;
  return true;
}

// The atoms with a name of their own: each name once (two loops on one
// variable give two trip counts of one name).
static std::vector<int> named(const std::vector<int> &ids, const Context &ctx) {
  std::vector<int> atoms;
  for (int a : ids)
    if (std::none_of(atoms.begin(), atoms.end(), [&](int b) {
          return ctx.atoms[b].name == ctx.atoms[a].name;
        }))
      atoms.push_back(a);
  return atoms;
}

static std::string quoted(const std::vector<int> &ids, const Context &ctx) {
  const std::vector<int> atoms = named(ids, ctx);
  std::string out;
  const size_t shown = std::min<size_t>(atoms.size(), 2);
  for (size_t i = 0; i < shown; ++i) {
    std::string n = ctx.atoms[atoms[i]].name;
    if (n.size() > 40)
      n = n.substr(0, 37) + "...";
    out += (i == 0                                ? "'"
            : i + 1 == shown && atoms.size() == 2 ? " and '"
                                                  : ", '") +
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

bool expectsRandomData(const AccessFacts &f, const SharedOptions &opts) {
  const AccessResult &r = f.result;
  // Data that only shifts runs of lanes (`out[offset[bucket] + lane]`)
  // costs what one unaligned run costs, not what the random figure says.
  if (!r.dataEstimated || r.dataElementOffset)
    return false;
  if (opts.dataAddresses == DataLevel::Warning ||
      opts.dataAddresses == DataLevel::Remark)
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
  // the kinds whose estimate the GPU bears out (SharedOptions::dataAddresses).
  return narrowData(f) || segmentData(f) || r.dataDigest || scatter;
}

// An estimate with its unit ("28.5 sectors", "1 wavefront").
static std::string counted(double v, const char *unit) {
  std::string n = formatEstimate(v);
  return n + " " + unit + (n == "1" ? "" : "s");
}

// An address that moves by how many times each lane ran a loop, bad
// whatever the counts (dataAddressFinding()).
static Finding tripCountFinding(const AccessFacts &f, const SharedOptions &opts,
                                const char *unit, bool shared) {
  const AccessResult &r = f.result;
  auto units = [&](double v) { return counted(v, unit); };
  Finding out;
  // The count's name is '<var>-loop trips' or '<var>-loop steps'
  // (Atom::tripCount, Atom::stepCount).
  std::string var = f.ctx.atoms[r.dataAtoms[0]].name;
  var = var.substr(0, var.rfind(r.dataSteps ? "-loop steps" : "-loop trips"));
  const std::string kind =
      accessKind(f, shared ? "shared" : "global", accessOp(f));
  const std::string figures =
      units(r.agreeActual) + " per request where " +
      formatEstimate(r.agreeIdeal) + " would do if the lanes of a warp " +
      (r.dataSteps ? "step it" : "run it") + " equally often, " +
      units(r.randomActual) + " if their counts differ at random";
  out.message =
      r.dataSteps ? kind + " depends on how many times each lane stepped '" +
                        var + "' on a condition of its own: " + figures
                  : kind + " depends on the trip count of the loop on '" + var +
                        "', which each lane ends on its own: " + figures;
  if (shared)
    out.message += " (about " + formatEstimate(r.agreeActual / r.agreeIdeal) +
                   "-way bank conflict)";
  const std::string fix =
      r.dataSteps
          ? "each lane fills a row of its own (a list per thread, at a "
            "count it keeps), so consecutive lanes are a row apart however "
            "often they step '" +
                var +
                "': let the lanes of a warp fill one row together (slots "
                "handed out with a ballot and a population count), or store "
                "the rows interleaved (slot k of every row together)"
          : "each lane walks a record of its own (its pointer advanced once "
            "per iteration), so consecutive lanes are a record apart however "
            "often they run the loop: let the lanes of a warp walk one "
            "record together, reading consecutive elements, or store the "
            "records interleaved (element k of every record together)";
  out.notes.push_back(
      {-1, fix + (shared ? "; in shared memory, a " +
                               std::string(r.dataSteps ? "row" : "record") +
                               " padded by one word starts each lane's in a "
                               "bank of its own"
                         : "")});
  out.remark = opts.dataAddresses == DataLevel::Remark;
  return out;
}

std::optional<Finding> dataAddressFinding(const AccessFacts &f,
                                          const SharedOptions &opts,
                                          double threshold, const char *unit) {
  const AccessResult &r = f.result;
  if (r.evaluated || !r.dataEstimated || r.randomIdeal <= 0 ||
      opts.dataAddresses == DataLevel::Off)
    return std::nullopt;
  if (r.randomActual < threshold * r.randomIdeal - 1e-9)
    return std::nullopt;
  const bool shared = std::string(unit) == "wavefront";
  // An address that only moves by how many times each lane ran a loop (a
  // pointer each thread walks along a record of its own), bad where the
  // lanes ran it equally often as well as where their counts differ, is bad
  // whatever the counts: a warning at the default level too (a remark
  // under Remark), with the figure where they agree.
  if (r.dataTrips && r.agreeIdeal > 0 &&
      r.agreeActual >= threshold * r.agreeIdeal - 1e-9)
    return tripCountFinding(f, opts, unit, shared);
  // By default only the kinds whose estimate the GPU bears out.
  if (opts.dataAddresses == DataLevel::Narrow && !expectsRandomData(f, opts))
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
  auto units = [&](double v) { return counted(v, unit); };
  const std::string data = quoted(r.dataAtoms, f.ctx);
  const bool one = named(r.dataAtoms, f.ctx).size() == 1;
  Finding out;
  out.message = accessKind(f, shared ? "shared" : "global", accessOp(f)) +
                " depends on data: if " + data +
                (one ? " differs" : " differ") + " at random between lanes, " +
                units(r.randomActual) + " per request where " +
                about(r.randomIdeal) + " would do";
  if (shared)
    out.message += " (about " + about(r.randomActual / r.randomIdeal) +
                   "-way bank conflict)";
  // An atomic's lanes on one address serialize: agreeing is no better.
  if (f.atomic)
    out.message += "; lanes that agree on " + std::string(one ? "it" : "them") +
                   " serialize on one address";
  else
    out.message += "; " + units(r.agreeActual) +
                   " where the lanes of a warp agree on " +
                   (one ? "it" : "them");
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
  out.remark = opts.dataAddresses == DataLevel::Remark;
  return out;
}

} // namespace warplint
