#include "rules/DataFindings.h"
#include "rules/KernelShare.h"
#include "rules/KnownValues.h"
#include "rules/UnrolledFindings.h"

#include "model/Explain.h"

#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <tuple>
#include <vector>

namespace warplint {

static const RuleOption Threshold{
    "Threshold", 2.0,
    "warn when a warp needs at least this many times the ideal wavefronts",
    1.0};

namespace {

/// Wavefronts over ideal of an access at `offset`, in the facts' block shape.
/// Every conflicting access of an array weighs the same candidate layouts
/// against every use of it: the figures are kept for the kernel's context
/// (its serial and generation), the last one asked about on this thread.
double ratioAt(const AccessFacts &f, const LaneExpr &offset,
               const LaneExpr &mask, int bytes) {
  using Key =
      std::tuple<const Node *, const Node *, int, int64_t, int64_t, int64_t>;
  struct Memo {
    uint64_t serial = 0, generation = 0;
    std::map<Key, double> ratios;
    std::vector<LaneExpr> held; // the keys' nodes, kept alive
  };
  thread_local Memo memo;
  if (memo.serial != f.ctx.serial || memo.generation != f.ctx.generation) {
    memo = Memo();
    memo.serial = f.ctx.serial;
    memo.generation = f.ctx.generation;
  }
  const Key key{offset.get(), mask.get(), bytes,
                f.shape.x,    f.shape.y,  f.shape.z};
  if (auto it = memo.ratios.find(key); it != memo.ratios.end())
    return it->second;
  Access a{offset, mask, bytes};
  AccessResult r = analyzeAccess(a, f.ctx, {f.shape}, sharedWavefronts);
  const double ratio = r.evaluated && r.ideal > 0 ? r.actual / r.ideal : 1e9;
  memo.held.push_back(offset);
  memo.held.push_back(mask);
  memo.ratios.emplace(key, ratio);
  return ratio;
}

/// Byte offset of `subs` in an array of `dims` (row-major).
LaneExpr layout(const std::vector<LaneExpr> &subs,
                const std::vector<int64_t> &dims, int elementBytes) {
  LaneExpr off = cst(0);
  int64_t stride = elementBytes;
  for (size_t k = subs.size(); k-- > 0;) {
    off = bin(Op::Add, off, bin(Op::Mul, subs[k], cst(stride)));
    stride *= dims[k];
  }
  return off;
}

std::string declaration(const ArrayInfo &a, const std::vector<int64_t> &dims) {
  std::string s = a.elementType + " " + a.name;
  for (int64_t d : dims)
    s += "[" + std::to_string(d) + "]";
  return s;
}

std::string use(const ArrayInfo &a, const std::vector<std::string> &subs) {
  std::string s = a.name;
  for (const std::string &x : subs)
    s += "[" + x + "]";
  return s;
}

std::string wavefronts(double r, double ideal) {
  double w = r * ideal;
  return formatFigure(w) + (w == 1 ? " wavefront" : " wavefronts");
}

/// Fix hints for an array indexed per dimension, each re-evaluated by the
/// model: pad the inner dimension, swap the two indices of a square tile, or
/// swizzle the inner index with the outer one. A candidate is offered only if
/// it lowers the cost, with the cost it would have.
std::vector<RuleNote> verifiedLayoutFixes(const AccessFacts &f,
                                          std::vector<FixEdit> &edits) {
  std::vector<RuleNote> notes;
  const ArrayInfo *a = f.array;
  if (!a || a->dims.size() < 2 || a->subscripts.size() != a->dims.size())
    return notes;
  const double now = f.result.actual / f.result.ideal, ideal = f.result.ideal;
  size_t n = a->dims.size();
  auto offer = [&](double ratio, const std::string &text) {
    if (ratio < now)
      notes.push_back({-1, std::string(notes.empty() ? "" : "or ") + text +
                               " (" + wavefronts(ratio, ideal) +
                               " per request)"});
  };
  // A layout change applies to every access of the array: its figure for
  // this access, or "no better" if it makes another access worse.
  using Relayout = std::function<LaneExpr(const std::vector<LaneExpr> &)>;
  // (ratioAt keeps each figure: the declared layout's is computed once.)
  auto ratioUnder = [&](const Relayout &relayout) {
    for (const ArrayUse &u : *a->uses) {
      double before = ratioAt(f, layout(u.subscripts, a->dims, a->elementBytes),
                              u.mask, u.bytes);
      double after = ratioAt(f, relayout(u.subscripts), u.mask, u.bytes);
      if (after > std::max(before, 1.0))
        return now;
    }
    return ratioAt(f, relayout(a->subscripts), f.access.mask,
                   f.access.elementBytes);
  };
  // Padding: the smallest of 1, 2, 4, 8, 16 extra elements that does best.
  std::vector<int64_t> bestPad;
  double bestRatio = now;
  for (int64_t extra : {1, 2, 4, 8, 16}) {
    std::vector<int64_t> padded = a->dims;
    padded[n - 1] += extra;
    double ratio = ratioUnder([&](const std::vector<LaneExpr> &s) {
      return layout(s, padded, a->elementBytes);
    });
    if (ratio < bestRatio - 1e-9) {
      bestRatio = ratio;
      bestPad = padded;
    }
  }
  if (!bestPad.empty()) {
    std::string text = "pad the inner dimension: declare it as '" +
                       declaration(*a, bestPad) + "'";
    offer(bestRatio, text);
    edits.push_back({FixEdit::Kind::InnerExtent, bestPad[n - 1], text});
  }
  if (a->dims[n - 1] == a->dims[n - 2]) {
    std::vector<std::string> text = a->subscriptText;
    std::swap(text[n - 1], text[n - 2]);
    offer(ratioUnder([&](std::vector<LaneExpr> s) {
            std::swap(s[n - 1], s[n - 2]);
            return layout(s, a->dims, a->elementBytes);
          }),
          "swap the index order of every access of '" + a->name + "': '" +
              use(*a, text) + "'");
  }
  std::vector<std::string> text = a->subscriptText;
  text[n - 1] = "(" + text[n - 1] + ") ^ (" + text[n - 2] + ")";
  offer(ratioUnder([&](std::vector<LaneExpr> s) {
          s[n - 1] = bin(Op::Xor, s[n - 1], s[n - 2]);
          return layout(s, a->dims, a->elementBytes);
        }),
        "swizzle the inner index with XOR in every access of '" + a->name +
            "': '" + use(*a, text) + "'");
  if (notes.empty())
    notes.push_back({-1, "padding the inner dimension (by 1 to 16 elements) "
                         "does not remove this conflict"});
  return notes;
}

} // namespace

static std::optional<Finding> findSmemBankConflict(const AccessFacts &f,
                                                    const RuleContext &opts) {
  const AccessResult &r = f.result;
  if (f.space != Space::Shared)
    return std::nullopt;
  if (!r.evaluated)
    return dataAddressFinding(f, opts.shared(), opts[Threshold], "wavefront");
  if (r.minVerdictRealistic < opts[Threshold]) {
    if (auto known =
            knownValuesFinding(f, opts.shared(), opts[Threshold], "wavefront"))
      return known;
    if (auto unrolled =
            unrolledFinding(f, opts.shared(), opts[Threshold], "wavefront"))
      return unrolled;
    return loopIterationFinding(f, opts.shared(), opts[Threshold], "wavefront");
  }
  Dependence dep = describeDependence(r, f.ctx);
  const int bytes = f.access.elementBytes;
  // Decided on the whole warps (boundary warps pull the mean down): the
  // message describes one of those.
  const bool whole = r.minVerdictRealistic > r.minRatioRealistic + 1e-9;
  WarpRequest req =
      firstRequest(f.access.offset, f.access.mask, f.ctx, f.shape, whole);
  // The worst bank of the first phase that has active lanes.
  int per = bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8;
  BankConflict worst;
  for (int p = 0; p < WarpSize / per && req.active; ++p) {
    LaneMask phase = per == 32 ? AllLanes : ((1u << per) - 1) << (p * per);
    BankConflict c = worstBank(req.addr, req.active & phase, bytes);
    if (c.degree > worst.degree)
      worst = c;
  }
  Finding out;
  const char *op = accessOp(f);
  // "lanes 0..31 read words 32 apart (bank 0 each)" when every lane is in the
  // worst bank, else "...; lanes 0, 16 share bank 0".
  // (Between the lanes listed: with every other lane active, twice the
  // distance per lane index.)
  int64_t stride = r.laneStride ? *r.laneStride * std::max(r.activeSpacing, 1)
                                : r.commonStride;
  std::string verb = f.store ? "write" : "read";
  std::string where =
      worst.lanes == req.active
          ? " (bank " + std::to_string(worst.bank) + " each)"
          : "; lanes " + laneList(worst.lanes) + " share bank " +
                std::to_string(worst.bank);
  std::string desc;
  if (worst.degree <= 1)
    // (The first request need not conflict: a down-sweep's first step has
    // one lane.)
    desc = (__builtin_popcount(req.active) == 1
                ? "only lane " + laneList(req.active) + " " + verb + "s"
                : "lanes " + laneList(req.active) + " " + verb) +
           ", without a conflict";
  else if (stride != 0 && stride % 4 == 0)
    desc = "lanes " + laneList(req.active) + " " + verb + " words " +
           std::to_string(stride < 0 ? -stride / 4 : stride / 4) + " apart" +
           (r.laneStride ? "" : " (most of them)") + where;
  else
    desc = "lanes " + laneList(worst.lanes) + " " + verb + " " +
           std::to_string(worst.degree) + " distinct words of bank " +
           std::to_string(worst.bank);
  // The drawing of one request (warp 0, first iteration) names the lanes; the
  // figure is the average over warps, blocks and iterations. When they
  // differ (a loop that changes the stride) the message says both.
  double ways = r.ideal > 0 ? r.actual / r.ideal : 1;
  if (std::abs(ways - worst.degree) < 0.01)
    out.message = accessKind(f, "shared", op) + " has a " +
                  std::to_string(std::max(worst.degree, 2)) +
                  "-way bank conflict: " + desc + "; " +
                  formatFigure(r.actual) + " wavefronts where " +
                  formatFigure(r.ideal) + " would do";
  else
    out.message = accessKind(f, "shared", op) + " has bank conflicts: " +
                  formatFigure(r.actual) + " wavefronts per request where " +
                  formatFigure(r.ideal) + " would do, on average over " +
                  "iterations and warps; in the first" +
                  (whole ? " whole warp" : "") + ", " + desc +
                  (r.worstRatio > ways + 0.01
                       ? "; the worst iteration takes " +
                             formatFigure(r.worstRatio * r.ideal)
                       : "");

  if (!dep.assumption.empty() && (!r.exact || dep.known))
    out.message += (dep.condition.empty() ? "" : " " + dep.condition) + " (" +
                   dep.assumption + ")";

  LaneExpr term = spreadingTerm(f.access.offset, f.ctx, f.shape);
  if (term && term->origin >= 0) {
    int64_t d = adjacentDistance(term, f.ctx, f.shape);
    if (d)
      out.notes.push_back({term->origin,
                           "makes adjacent lanes " +
                               std::to_string(d < 0 ? -d : d) +
                               (d == 1 || d == -1 ? " element" : " elements") +
                               " apart"});
  }
  bool multiDim = f.array && f.array->dims.size() >= 2;
  std::vector<RuleNote> fixes = verifiedLayoutFixes(f, out.fixes);
  out.notes.insert(out.notes.end(), fixes.begin(), fixes.end());
  // A layout the source could choose instead (a wmma tile's leading
  // dimension): offered when the model finds it conflict-free.
  if (f.alternatives)
    for (const auto &[offset, change] : *f.alternatives) {
      Access a{offset, f.access.mask, bytes};
      AccessResult alt = analyzeAccess(a, f.ctx, {f.shape}, sharedWavefronts);
      if (alt.evaluated && alt.ideal > 0 && alt.actual <= alt.ideal + 1e-9) {
        out.notes.push_back({-1, change + ": " + formatFigure(alt.actual) +
                                     (alt.actual == 1 ? " wavefront" : " wavefronts") +
                                     " per request"});
        break;
      }
    }
  int64_t words = stride / 4;
  if (words < 0)
    words = -words;
  bool evenStride = r.laneStride && bytes == 4 && words > 1 &&
                    std::gcd(words, int64_t(32)) > 1;
  // An odd number of 4-byte words between lanes puts 32 lanes in 32 banks.
  if (evenStride && !multiDim)
    out.notes.push_back(
        {-1, "an odd distance between adjacent lanes is conflict-free: pad "
             "each lane's " + std::to_string(words) + " words to " +
                 std::to_string(words + 1)});
  if (evenStride && (words == 2 || words == 4))
    out.notes.push_back(
        {-1, "if each lane uses its " + std::to_string(words) +
                 " consecutive words, read them as one float" +
                 std::to_string(words) +
                 ": 8- and 16-byte accesses are served in phases with no "
                 "conflict"});
  if (!f.shapeFrom.empty())
    out.notes.push_back({-1, f.shapeFrom});
  if (f.shapeAssumed)
    out.notes.push_back({-1, assumedShapeText(f)});
  if (!qualifyDataMask(out, r, opts.shared(), opts[Threshold], "wavefront"))
    return std::nullopt;
  return out;
}

/// The finding's weight in its kernel (KernelShare.h).
static void weighBankConflict(const AccessWeight &w, Space space,
                              const RuleContext &opts, Finding &out) {
  weighAccess(w, space, opts, "wavefronts", out);
}

const RuleDef &smemBankConflictRule() {
  static const RuleDef rule(
      "smem-bank-conflict",
      "Flags shared-memory loads and stores whose warp needs at least twice "
      "the wavefronts it would without bank conflicts.",
      findSmemBankConflict, weighBankConflict, {&Threshold, &MinTrafficShare});
  return rule;
}

} // namespace warplint
