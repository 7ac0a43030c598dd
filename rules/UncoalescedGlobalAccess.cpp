#include "rules/DataFindings.h"
#include "rules/KernelShare.h"
#include "rules/KnownValues.h"
#include "rules/UnrolledFindings.h"

#include "model/Explain.h"

namespace warplint {

static const RuleOption Threshold{
    "Threshold", 2.0,
    "warn when a warp moves at least this many times the ideal sectors", 1.0};

static std::string bytes(int64_t n) {
  return std::to_string(n < 0 ? -n : n) + (n == 1 || n == -1 ? " byte" : " bytes");
}
static std::string byteAdjective(int64_t n) {
  return std::to_string(n < 0 ? -n : n) + "-byte";
}

/// The note for an index that threadIdx.y makes contiguous in a square
/// block (`out[x * n + y]` for a tile's element (x, y), a GEMM epilogue
/// that gives threadIdx.x the rows): what the same access would cost with
/// threadIdx.x and threadIdx.y exchanged, offered only where that is a
/// coalesced request. Empty where it does not apply: a block that is not
/// square (the exchange would cover another tile), an index through a
/// loop's variable, data or a lane's rank (their values are not exchanged
/// with it), or an exchange that does not help.
static std::string swappedThreadsNote(const AccessFacts &f,
                                      const AccessResult &r) {
  if (f.structMember || f.shape.x != f.shape.y || f.shape.x < 2 ||
      f.shape.z != 1 || r.actual <= r.ideal)
    return "";
  bool usesX = false, usesY = false, opaque = false;
  auto scan = [&](const Node &n) {
    switch (n.op) {
    case Op::ThreadIdx:
      (n.value == 0 ? usesX : n.value == 1 ? usesY : opaque) = true;
      break;
    case Op::LoopVar: case Op::LoopActive: case Op::LoopFinal:
    case Op::Data: case Op::LaneRank: case Op::Assumed: case Op::TooDeep:
      opaque = true;
      break;
    default:
      break;
    }
    return !opaque;
  };
  visitNodes(f.access.offset, scan);
  if (f.access.mask)
    visitNodes(f.access.mask, scan);
  if (opaque || !usesX || !usesY)
    return "";
  OriginFreeMemo memo;
  Access swapped{swapThreadXY(f.access.offset, memo),
                 f.access.mask ? swapThreadXY(f.access.mask, memo) : nullptr,
                 f.access.elementBytes};
  AccessResult alt = analyzeAccess(swapped, f.ctx, {f.shape}, globalSectors);
  if (!alt.evaluated || alt.actual > alt.ideal + 1e-9)
    return "";
  const char *verb = f.store ? "write" : "read";
  return std::string("with threadIdx.x and threadIdx.y exchanged in this "
                     "index, adjacent lanes would ") +
         verb + " adjacent elements: " + formatFigure(alt.actual) +
         " sectors per request; each thread then handles another element, "
         "so exchange them where its value is " +
         (f.store ? "computed" : "used") +
         " too, or pass the values through shared memory";
}

static std::optional<Finding>
findUncoalescedGlobalAccess(const AccessFacts &f, const RuleContext &opts) {
  const AccessResult &r = f.result;
  if (f.space != Space::Global)
    return std::nullopt;
  if (!r.evaluated)
    return dataAddressFinding(f, opts.shared(), opts[Threshold], "sector");
  // Warn only when every candidate block shape and every sampled value of
  // the unknowns within their realistic range (sizes >= 32, ...) is over the
  // threshold; the message says which assumption that rests on.
  if (r.minVerdictRealistic < opts[Threshold]) {
    if (auto known =
            knownValuesFinding(f, opts.shared(), opts[Threshold], "sector"))
      return known;
    if (auto unrolled =
            unrolledFinding(f, opts.shared(), opts[Threshold], "sector"))
      return unrolled;
    return loopIterationFinding(f, opts.shared(), opts[Threshold], "sector");
  }
  Dependence dep = describeDependence(r, f.ctx);

  Finding out;
  const char *op = accessOp(f);
  // A wide element read whole, lanes side by side: every byte is used, but
  // nvcc moves it in several instructions and each counts its own sectors.
  if (f.splitOf && r.laneStride &&
      (*r.laneStride == f.splitOf || *r.laneStride == -f.splitOf)) {
    int pieces = f.splitOf / f.access.elementBytes;
    std::string size = byteAdjective(f.splitOf);
    bool vowel = size[0] == '8' || size.rfind("11-", 0) == 0 ||
                 size.rfind("18-", 0) == 0;
    out.message = "global " + std::string(op) + (vowel ? " of an " : " of a ") +
                  size + " element is split into " +
                  std::to_string(pieces) + " " +
                  byteAdjective(f.access.elementBytes) + " " + op +
                  "s, each touching " + formatFigure(r.actual) +
                  " sectors per request where " + formatFigure(r.ideal) +
                  " would do";
    int padded = 1;
    while (padded < f.splitOf)
      padded *= 2;
    out.notes.push_back(
        {-1, "the pieces together use every byte they fetch: the extra "
             "sectors are repeated requests, mostly served by L1, not extra "
             "DRAM traffic"});
    bool underAligned = padded == f.splitOf;
    out.notes.push_back(
        {-1, underAligned
                 ? "give the type " + byteAdjective(padded) +
                       " alignment (struct __align__(" +
                       std::to_string(padded) +
                       "), or a vector type) so that each lane's element is "
                       "one request"
             : padded <= 16
                 ? "pad the element to " + bytes(padded) + " with " +
                       bytes(padded) + " alignment (float4 for float3) so "
                       "that each lane's element is one request"
                 : "keep at most 16 bytes per lane per access (for example "
                   "two arrays of 16-byte elements) so that each request is "
                   "used whole"});
    if (!qualifyDataMask(out, r, opts.shared(), opts[Threshold], "sector"))
      return std::nullopt;
    return out;
  }
  const int bytesPerLane = f.access.elementBytes;
  bool inactive = r.activeLanes < WarpSize - 0.5;
  std::string why;
  std::string depends;
  for (int a : r.dependsOn)
    depends += (depends.empty() ? "'" : ", '") + f.ctx.atoms[a].name + "'";
  // A distance that is one constant everywhere, where only the offset the
  // lanes start from depends on the unknowns (their alignment), is given
  // as such: "the distance depends on 'OC'" would send the user after the
  // wrong term.
  const bool strideFixed = r.laneStride && *r.laneStride != bytesPerLane;
  // The lanes that run it, where a condition leaves every other (every
  // 4th, ...) lane: "the 8 active lanes (every 4th lane) are 16 bytes
  // apart", not the distance per lane index, which no two of them have.
  auto lanesApart = [&](int64_t stride) {
    const int g = r.activeSpacing;
    if (g <= 1)
      return "adjacent lanes are " + bytes(stride) + " apart";
    std::string nth = g == 2 ? "other" : std::to_string(g) + (g == 3 ? "rd" : "th");
    return "the " + formatFigure(r.activeLanes) + " active lanes (every " +
           nth + " lane) are " + bytes(stride * g) + " apart";
  };
  if (!r.exact && !dep.stride.empty())
    why = "adjacent lanes are " + dep.stride + " apart";
  else if (!r.exact && !depends.empty() && strideFixed)
    why = lanesApart(*r.laneStride) + ", from an offset that depends on " +
          depends;
  else if (!r.exact && !depends.empty())
    why = "the distance between adjacent lanes depends on " + depends;
  else if (r.laneStride && *r.laneStride != bytesPerLane)
    why = lanesApart(*r.laneStride);
  else if (inactive)
    why = "only " + formatFigure(r.activeLanes) +
          " of 32 lanes are active but their sectors are fetched whole";
  else if (r.commonStride != 0 && r.commonStride != bytesPerLane)
    why = "most adjacent lanes are " + bytes(r.commonStride) + " apart";
  else
    why = "the warp's lanes are scattered";
  std::string figure =
      r.exact || r.minActualRealistic == r.maxActualRealistic
          ? formatFigure(r.actual)
          : formatRange(r.minActualRealistic, r.maxActualRealistic);
  out.message = accessKind(f, "global", op) + " is uncoalesced: " + why + "; " +
                figure + " sectors per request where " +
                formatFigure(r.ideal) + " would do";
  // "for cols >= 8" says from where the one figure quoted holds; a range
  // of figures (over block shapes) has no such point.
  if (!r.exact && !dep.condition.empty() &&
      r.minActualRealistic == r.maxActualRealistic)
    out.message += " " + dep.condition;
  if (!dep.assumption.empty() && (!r.exact || dep.known))
    out.message += " (" + dep.assumption + ")";

  LaneExpr term = spreadingTerm(f.access.offset, f.ctx, f.shape);
  if (f.structMember) {
    out.notes.push_back(
        {-1, "each lane uses " + bytes(bytesPerLane) + " of a " +
                 byteAdjective(f.elementStride) +
                 " element (array of structures): store this member in its "
                 "own array (structure of arrays) so adjacent lanes read "
                 "adjacent elements"});
  } else if (term && term->origin >= 0) {
    int64_t d = adjacentDistance(term, f.ctx, f.shape);
    std::string what = d ? "makes adjacent lanes " +
                               std::to_string(d < 0 ? -d : d) +
                               (d == 1 || d == -1 ? " element" : " elements") +
                               " apart"
                         : "spreads the lanes of a warp apart";
    out.notes.push_back({term->origin, what});
  }
  // Each lane's neighbouring elements, accessed one by one: nvcc would
  // make them one vector access if it knew the pointer 16-byte aligned.
  const bool vectorFix = !f.structMember && f.vectorIfAligned &&
                         r.laneStride && *r.laneStride == f.vectorIfAligned;
  if (vectorFix) {
    const int n = f.vectorIfAligned / bytesPerLane;
    // The CUDA vector type of the element's size: float4 for floats,
    // int4 for ints (the model keeps bytes, not the element's type).
    const std::string example =
        bytesPerLane == 4 ? (n == 4 ? "float4, int4" : "float2, int2")
        : bytesPerLane == 8 && n == 2 ? "double2, longlong2"
        : bytesPerLane == 2 && n <= 4 ? (n == 4 ? "short4" : "short2")
                                       : "";
    out.notes.push_back(
        {-1, "each lane " + std::string(f.store ? "writes" : "reads") + " " +
                 std::to_string(n) + " adjacent " +
                 byteAdjective(bytesPerLane) + " elements one by one: " +
                 (f.store ? "write" : "read") + " them as one " +
                 byteAdjective(f.vectorIfAligned) + " vector" +
                 (example.empty() ? "" : " (" + example + ")") +
                 " through a pointer nvcc knows is " +
                 byteAdjective(f.vectorIfAligned) +
                 " aligned (reinterpret_cast to the vector type), so that "
                 "the warp's bytes are one contiguous request"});
  } else if (std::string swapped = swappedThreadsNote(f, r); !swapped.empty()) {
    out.notes.push_back({-1, swapped});
  } else if (!f.structMember) {
    if ((r.laneStride && *r.laneStride != bytesPerLane) ||
        (!r.laneStride && r.commonStride != 0 &&
         r.commonStride != bytesPerLane))
      out.notes.push_back(
          {-1, "let adjacent threads access adjacent elements: make "
               "threadIdx.x the fastest-varying term of the index (for 2D "
               "data, index the contiguous dimension with threadIdx.x), or "
               "stage the data through shared memory"});
    else if (inactive)
      out.notes.push_back({-1, "assign work so that the active lanes of a "
                               "warp are contiguous (for example index by "
                               "threadIdx.x / 2 instead of masking odd lanes)"});
  }
  if (!f.shapeFrom.empty())
    out.notes.push_back({-1, f.shapeFrom});
  if (f.shapeAssumed)
    out.notes.push_back(
        {-1, assumedShapeText(f) +
                 "; no file of the run or its compile database launches the "
                 "kernel with a constant block: annotate it or pass "
                 "--block-dim"});
  if (!qualifyDataMask(out, r, opts.shared(), opts[Threshold], "sector"))
    return std::nullopt;
  return out;
}

/// The finding's weight in its kernel (KernelShare.h).
static void weighUncoalesced(const AccessWeight &w, Space space,
                             const RuleContext &opts, Finding &out) {
  weighAccess(w, space, opts, "sectors", out);
}

const RuleDef &uncoalescedGlobalAccessRule() {
  static const RuleDef rule(
      "uncoalesced-global-access",
      "Flags global loads and stores whose warp pulls in at least twice the "
      "32-byte sectors its active lanes need.",
      findUncoalescedGlobalAccess, weighUncoalesced,
      {&Threshold, &MinTrafficShare});
  return rule;
}

} // namespace warplint
