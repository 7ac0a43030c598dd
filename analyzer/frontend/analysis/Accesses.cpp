// One access site of a kernel configuration: the model's judgement of it
// (model/Site.h), its record, the facts the access rules judge, and its
// remark (--remarks) and drawing (--explain).
#include "frontend/analysis/KernelAnalysis.h"

#include "model/Divergence.h"
#include "model/Explain.h"
#include "model/Sampling.h"
#include "report/Drawing.h"
#include "rules/DataFindings.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace clang;

namespace warplint {
namespace {

/// What taking the figure where the lanes of a warp agree on an address's
/// data assumes (said by --remarks and --explain).
const char *agreeAssumption(const AccessResult &r) {
  return r.dataSteps   ? "the lanes of a warp step it equally often"
         : r.dataTrips ? "the lanes of a warp run the loop equally often"
                       : "neighbouring lanes' data close together";
}

/// Does the address read gridDim (through its loops too)?
bool readsGridDim(const LaneExpr &e, const Context &ctx) {
  bool found = false;
  visitWithLoops(e, ctx, [&](const Node &n) {
    found |= n.op == Op::GridDim;
    return !found;
  });
  return found;
}

/// The block shape an access's figures are for: the choice's first, or
/// the alternative the model took where no lane runs it under the first.
const Shape &figureShape(const ShapeChoice &choice, const AccessResult &r) {
  return choice.shapes[std::min(r.shape, choice.shapes.size() - 1)];
}

/// The array an access indexes per dimension, with every use of it in the
/// kernel (a layout change must not make any of them worse).
std::optional<ArrayInfo> arrayInfo(AccessScope &as, const AccessSite &site) {
  if (!site.array)
    return std::nullopt;
  const KernelScope &s = as.kernel;
  ArrayInfo a;
  const VarDecl *v = site.array->var;
  a.name = v->getNameAsString();
  QualType t = v->getType();
  while (const auto *at = s.ac.getAsArrayType(t))
    t = at->getElementType();
  a.elementType = t.getUnqualifiedType().getAsString(s.ac.getPrintingPolicy());
  a.elementBytes = int(s.ac.getTypeSizeInChars(t).getQuantity());
  a.dims = site.array->dims;
  a.subscripts = site.array->subscripts;
  for (const Expr *e : site.array->subscriptExprs)
    a.subscriptText.push_back(s.resolver.text(e->getSourceRange()));
  auto &uses = as.arrayUses[{v, a.dims.size()}];
  if (!uses) {
    auto all = std::make_shared<std::vector<ArrayUse>>();
    for (const AccessSite &other : s.m.accesses)
      if (other.array && other.array->var == v &&
          other.array->subscripts.size() == a.dims.size())
        all->push_back({other.array->subscripts, other.access.mask,
                        other.access.elementBytes});
    uses = std::move(all);
  }
  a.uses = uses;
  return a;
}

/// --remarks: the model's view of the access.
std::string remarkText(const AccessRecord &ar, const AccessResult &r,
                       bool shapeAssumed) {
  std::string msg = (ar.intrinsic.empty() ? "" : ar.intrinsic + " ") +
                    ar.space + " " + ar.op + ": ";
  if (!r.evaluated) {
    msg += "not evaluated: " + r.unknownReason;
    if (r.dataEstimated) {
      std::string unit = ar.space == "global" ? " sector" : " wavefront";
      auto about = formatEstimate;
      msg += "; with the data drawn at random, " + about(r.randomActual) +
             unit + (about(r.randomActual) == "1" ? "" : "s") +
             " per request (ideal " + about(r.randomIdeal) + "), " +
             about(r.agreeActual) + " where the lanes of a warp agree on it";
      if (r.maskDrawnFromBits)
        msg += " (the lanes that take it drawn with the data's low bits, "
               "each value of them equally likely)";
      if (ar.dataEstimate)
        msg += ar.dataEstimate->expectsRandom
                   ? "; the figure taken is the random one (a kind of data "
                     "address whose lanes land apart)"
                   : std::string("; the figure taken is the one where "
                                 "they agree (assumed: ") +
                         agreeAssumption(r) + ")";
    }
  } else if (r.tableBytes) {
    std::string unit = ar.space == "global" ? " sector" : " wavefront";
    // Shared: exactly one wavefront per phase; global: a bound.
    msg += (ar.space == "global" ? "at most " : "") + formatFigure(r.actual) +
           unit + (formatFigure(r.actual) == "1" ? "" : "s") +
           " per request, its ideal (the address depends on data, within a " +
           std::to_string(r.tableBytes) + "-byte table), " +
           formatFigure(r.activeLanes) + " active lanes";
  } else if (r.dataRowBytes) {
    msg += formatFigure(r.actual) + " wavefront" +
           (formatFigure(r.actual) == "1" ? "" : "s") +
           " per request, its ideal (data picks whole " +
           std::to_string(r.dataRowBytes) +
           "-byte rows; each lane keeps its own bank), " +
           formatFigure(r.activeLanes) + " active lanes";
  } else {
    if (r.exact)
      msg += formatFigure(r.actual);
    else
      msg += formatRange(r.minActual, r.maxActual);
    std::string unit = ar.space == "global"   ? " sector"
                       : ar.space == "shared" ? " wavefront"
                                              : " address";
    if (!r.exact || formatFigure(r.actual) != "1")
      unit += ar.space == "constant" ? "es" : "s";
    msg += unit + " per request (ideal " + formatFigure(r.ideal) + ")";
    if (r.laneStride)
      msg += ", lanes " + std::to_string(*r.laneStride) + " B apart";
    msg += ", " + formatFigure(r.activeLanes) + " active lanes";
    if (!r.exact && (!ar.dependsOn.empty() || shapeAssumed)) {
      msg += "; depends on";
      for (size_t i = 0; i < ar.dependsOn.size(); ++i)
        msg += std::string(i ? ", '" : " '") + ar.dependsOn[i] + "'";
      if (shapeAssumed)
        msg +=
            ar.dependsOn.empty() ? " the block shape" : " and the block shape";
    } else if (!r.exact) {
      // No unknown: the range is over the warps, blocks and loop iterations
      // the model sampled (lanes leaving a loop, a block's last warp).
      msg += "; over the warps, blocks and iterations sampled";
    }
    if (r.maskDataDependent)
      msg += "; active lanes depend on data";
    else if (r.maskDrawnFromBits)
      msg += "; active lanes depend on data's low bits, drawn with it";
    else if (r.tailGuard)
      msg += "; only lanes past a bound run it";
  }
  return msg;
}

/// --explain: one warp's request for the access, drawn lane by lane.
Message explain(KernelScope &s, const AccessSite &site, const AccessRecord &ar,
                const AccessResult &r) {
  const Shape &shape = figureShape(s.choice, r);
  // Where iterations differ (an unrolled network, a butterfly's strides),
  // the worst one: the one a finding about them names.
  const AccessResult::Iteration *worst = worstIterationToDraw(r);
  WarpRequest req = firstRequest(site.access.offset, site.access.mask, s.m.ctx,
                                 shape, false, worst ? &worst->at : nullptr);
  if (worst && req.active == 0) {
    // Block 0 does not run it (its figures come from other blocks).
    worst = nullptr;
    req = firstRequest(site.access.offset, site.access.mask, s.m.ctx, shape);
  }
  std::string unit = ar.space == "global"   ? "sectors"
                     : ar.space == "shared" ? "wavefronts"
                                            : "addresses";
  std::string drawn;
  llvm::raw_string_ostream os(drawn);
  [&] {
    os << s.resolver.shown(ar.pos.file) << ":" << ar.pos.line << ":"
       << ar.pos.column << ": explain: " << ar.space << " " << ar.op << " '" << ar.expr
       << "' in " << ar.signature << ", block " << shapeText(shape) << " ("
       << s.choice.source << ")\n";
    if (!r.evaluated || req.active == 0) {
      os << "  not drawn: "
         << (r.evaluated ? "no warp issues it" : r.unknownReason) << "\n";
      if (const auto &d = ar.dataEstimate) {
        const bool random = d->expectsRandom;
        os << "  figure taken: "
           << formatEstimate(random ? d->randomCost : d->agreeCost) << " "
           << unit << " per request, ideal "
           << formatEstimate(random ? d->randomIdeal : d->agreeIdeal)
           << (random ? ", with each lane's data drawn at random\n"
                      : std::string(", with the lanes of a warp agreeing "
                                    "on the data (assumed: ") +
                            agreeAssumption(r) + ")\n");
      }
      return;
    }
    // Past a bound, the figure is a whole warp's (an upper bound): the
    // drawing is of the warp where the index crosses the bound, as the GPU
    // runs it.
    std::optional<Crossing> crossing;
    if (r.tailGuard && !r.maskDataDependent)
      crossing = crossingWarp(site.access.mask, -1, s.m.ctx, shape);
    if (crossing) {
      WarpEval ev(s.m.ctx, shape, crossing->env, crossing->warp);
      if (LaneMask m = ev.mask(site.access.mask)) {
        req.active = m;
        req.addr = ev.value(site.access.offset);
        req.warp = crossing->warp;
      } else {
        crossing.reset();
      }
    }
    if (crossing) {
      os << "  warp " << req.warp << ", blockIdx "
         << blockText(crossing->env.blockIdx)
         << (crossing->moved
                 ? ", with " + crossing->values +
                       " so that the bound of a guard falls inside it (at "
                       "run time the value decides which warp it falls in)"
                 : ", where the index crosses the bound of a guard, the "
                   "conditions as written" +
                       (crossing->values.empty()
                            ? std::string()
                            : " (at " + crossing->values + ")"))
         << ": " << __builtin_popcount(req.active) << " of its lanes "
         << (__builtin_popcount(req.active) == 1 ? "runs" : "run") << " it\n"
         << "  the figure, " << formatFigure(r.actual) << " " << unit
         << " per request on average (ideal " << formatFigure(r.ideal)
         << "), is a whole warp's, an upper bound\n";
    } else if (worst) {
      const bool unrolled = !r.iterations.empty();
      const std::string &var = unrolled ? r.unrolledVar : r.loopVar;
      const size_t n = unrolled ? r.iterations.size() : r.loopIterations.size();
      os << "  warp " << req.warp << " (first to issue it), blockIdx 0, at '"
         << var << "' = " << worst->value << ", the worst of its " << n
         << (unrolled ? " unrolled" : "") << " iterations ("
         << formatFigure(worst->actual) << " " << unit << " per request, ideal "
         << formatFigure(worst->ideal) << "); " << formatFigure(r.actual)
         << " on average over the iterations, ideal " << formatFigure(r.ideal)
         << "\n";
    } else {
      os << "  warp " << req.warp << " (first to issue it), blockIdx 0, first "
         << "iteration: " << formatFigure(r.actual) << " " << unit
         << " per request on average, ideal " << formatFigure(r.ideal) << "\n";
    }
    // The drawing is the figure's: where that is an upper bound, say whose
    // lanes the GPU runs instead.
    if (r.maskDataDependent) {
      os << "  drawn with every lane taking it, the upper bound: which lanes "
            "do depends on data loaded at run time";
      if (r.sparseIdeal > 0)
        os << "; with " << SparseMaskLanes << " of them (at random) "
           << formatEstimate(r.sparseActual) << " " << unit
           << " per request, ideal " << formatEstimate(r.sparseIdeal);
      os << "\n";
    } else if (r.tailGuard && !crossing) {
      os << "  drawn as if a whole warp ran it, the upper bound: only the "
            "lanes past the bound of a guard run it, in the warp where the "
            "index crosses the bound\n";
    }
    if (site.space == Space::Shared)
      os << drawSharedRequest(req.addr, req.active, site.access.elementBytes);
    else if (site.space == Space::Constant)
      os << drawConstantRequest(req.addr, req.active);
    else
      os << drawGlobalRequest(req.addr, req.active, site.access.elementBytes);
  }();
  return KernelScope::explanation(ar.pos, os.str());
}

/// What the access's figures rest on, as the report says it.
void addAssumptions(const AccessScope &as, const AccessSite &site,
                    const AccessResult &r, bool splitByConflict,
                    const std::string &shapeFrom, AccessRecord &ar) {
  const KernelScope &s = as.kernel;
  const Context &ctx = s.m.ctx;
  if (site.space == Space::Global)
    ar.assumptions.push_back("allocation base 256-byte aligned");
  const Shape &shape = figureShape(s.choice, r);
  if (s.choice.assumed)
    ar.assumptions.push_back("block shape " + shapeText(shape) + " assumed (" +
                             s.choice.source + ")");
  if (!shapeFrom.empty())
    ar.assumptions.push_back(shapeFrom);
  if (r.guardAssumed)
    ar.assumptions.push_back("bounds guards hold for whole warps");
  if (r.tailGuard)
    ar.assumptions.push_back(
        "only the lanes past a bounds guard's bound run it, in the warp where "
        "the index crosses it: figures for a whole warp, an upper bound");
  for (int a : r.dependsOn)
    if (!ctx.atoms[a].related.empty())
      ar.assumptions.push_back(ctx.atoms[a].related);
  if (!r.figureValues.empty() && r.figureValues.size() == r.dependsOn.size()) {
    std::string at;
    for (size_t i = 0; i < r.dependsOn.size(); ++i)
      at += std::string(i ? ", '" : "'") + ctx.atoms[r.dependsOn[i]].name +
            "' = " + std::to_string(r.figureValues[i]);
    ar.assumptions.push_back("no lane runs it at the unknowns' "
                             "representative values; figures at " +
                             at);
  }
  if (!r.openGuardValues.empty()) {
    std::string at;
    for (const auto &[atom, value] : r.openGuardValues)
      at += std::string(at.empty() ? "'" : ", '") + ctx.atoms[atom].name +
            "' = " + std::to_string(value);
    ar.assumptions.push_back(
        "figures at " + at +
        ": the representative values leave lanes idle under a guard on "
        "them that larger values keep active");
  }
  if (!as.gridSource.empty() && (readsGridDim(site.access.offset, ctx) ||
                                 readsGridDim(site.access.mask, ctx)))
    ar.assumptions.push_back(as.gridSource);
  for (int a : r.dependsOn)
    if (std::count(as.warpUniformData.begin(), as.warpUniformData.end(), a))
      ar.assumptions.push_back("'" + ctx.atoms[a].name +
                               "' is one value per warp: each warp's lanes "
                               "load it from one address");
  if (splitByConflict)
    ar.assumptions.push_back(
        "the shared destination's bank conflict splits the 16-byte copy's "
        "global read into one request a lane");
  if (r.maskDataDependent)
    ar.assumptions.push_back("active lanes depend on data; all assumed active");
  if (r.maskDrawnFromBits)
    ar.assumptions.push_back("active lanes depend on data's low bits; each "
                             "value of them equally likely");
}

} // namespace

SiteResult judgeAccessSite(const KernelScope &s, const AccessSite &site) {
  const KernelModel &m = s.m;
  SiteInput input(site.access);
  input.space = site.space;
  input.atomic = site.atomic;
  input.unknown = site.unknown;
  if (auto *vd = dyn_cast_or_null<VarDecl>(site.base))
    if (s.ac.getAsConstantArrayType(vd->getType()))
      input.tableBytes = s.ac.getTypeSizeInChars(vd->getType()).getQuantity();
  if (site.splitByPeer >= 0 && size_t(site.splitByPeer) < m.accesses.size())
    input.splitPeer = &m.accesses[site.splitByPeer].access;
  return analyzeSite(input, m.ctx, s.choice.shapes);
}

AccessOutput analyzeAccessSite(AccessScope &as, const AccessSite &site,
                               const SiteResult &judged) {
  KernelScope &s = as.kernel;
  const KernelModel &m = s.m;
  const ShapeChoice &choice = s.choice;
  const AccessResult &r = judged.result;

  SourceLocation loc =
      site.reportAt.isValid() ? site.reportAt : site.expr->getBeginLoc();
  AccessRecord ar;
  ar.kernel = kernelName(s.kernel);
  ar.signature = kernelSignature(s.kernel);
  ar.pos = s.resolver.pos(loc);
  ar.space = spaceName(site.space);
  ar.op = site.atomic ? "atomic" : site.store ? "store" : "load";
  ar.expr = s.resolver.text(site.expr->getSourceRange());
  ar.elementBytes = site.access.elementBytes;
  ar.intrinsic = site.intrinsic;
  ar.evaluated = r.evaluated;
  ar.unknownReason = r.unknownReason;
  ar.activeLanes = r.activeLanes;
  if (r.evaluated) {
    ar.cost = r.actual;
    ar.idealCost = r.ideal;
    ar.minCost = r.minActual;
    ar.maxCost = r.maxActual;
    ar.exact = r.exact;
    ar.strideBytes = r.laneStride;
    ar.worstRatio = r.worstRatio;
    ar.tableBytes = r.tableBytes;
    ar.dataRowBytes = r.dataRowBytes;
    ar.unrolledVar = r.unrolledVar;
    if (r.maskDataDependent && r.sparseIdeal > 0)
      ar.sparseMask = AccessRecord::SparseMask{SparseMaskLanes, r.sparseActual,
                                               r.sparseIdeal};
    for (const AccessResult::Iteration &it : r.iterations)
      ar.iterations.push_back({it.value, it.actual, it.ideal});
  }
  if (r.dataEstimated) {
    AccessRecord::DataEstimate d{
        r.randomActual,     r.randomIdeal, r.agreeActual, r.agreeIdeal, {},
        r.dataElementOffset};
    for (int a : r.dataAtoms)
      d.data.push_back(m.ctx.atoms[a].name);
    ar.dataEstimate = std::move(d);
  }
  std::optional<ArrayInfo> array = arrayInfo(as, site);
  if (site.base) {
    ar.array = site.base->getNameAsString();
    if (array)
      ar.arrayShape = array->dims;
  }
  for (int a : r.dependsOn)
    ar.dependsOn.push_back(m.ctx.atoms[a].name);
  const Shape &shape = figureShape(choice, r);
  const std::string shapeFrom =
      choice.assuming.empty() ? "" : shapeFromText(shape, choice.assuming);
  addAssumptions(as, site, r, judged.splitByConflict, shapeFrom, ar);
  if (site.atomic && r.evaluated) {
    WarpRequest req =
        firstRequest(site.access.offset, site.access.mask, m.ctx, shape);
    ar.sameAddressLanes = sameAddressLanes(req.addr, req.active);
  }
  AccessFacts facts(site.access, r, m.ctx);
  facts.shape = shape;
  facts.shapeAssumed = choice.assumed;
  facts.space = site.space;
  facts.store = site.store;
  facts.structMember = site.structMember;
  facts.elementStride = site.elementStride;
  facts.array = array ? &*array : nullptr;
  facts.splitOf = site.splitOf;
  facts.intrinsic = site.intrinsic;
  facts.alternatives = site.alternatives.empty() ? nullptr : &site.alternatives;
  facts.atomic = site.atomic;
  facts.vectorIfAligned = site.vectorIfAligned;
  facts.shapeFrom = shapeFrom;
  facts.atAtomicAddress =
      r.dataEstimated && !site.atomic &&
      as.atomicAddresses.count({site.base, site.access.offset.get()});
  if (ar.dataEstimate)
    ar.dataEstimate->expectsRandom =
        expectsRandomData(facts, s.opts.rules.shared());
  AccessOutput out;
  if (s.opts.remarks)
    out.messages.push_back(s.resolver.plain(
        loc, /*remark=*/true, remarkText(ar, r, choice.assumed), false));
  if (s.explaining(ar.pos))
    out.messages.push_back(explain(s, site, ar, r));
  if (s.opts.accessRecords) {
    out.record = s.out.accesses.size();
    s.out.accesses.push_back(std::move(ar));
  } else {
    s.out.accessesNotKept.add(ar);
  }

  // Inline PTX is reported where its statement ends (its operand is
  // elsewhere): that place is the finding's whole range.
  SourceRange siteRange = !site.intrinsic.empty() && site.reportAt.isValid()
                              ? SourceRange(loc)
                              : site.expr->getSourceRange();
  const VarDecl *declared = site.array ? site.array->var : nullptr;
  const FindingSite at = s.site(loc, siteRange, site.calls, declared);
  s.opts.rules.run(facts, [&](const char *rule, Finding f) {
    if (judged.splitByConflict && site.space == Space::Global)
      f.message += " (the copy's shared destination has a bank conflict, "
                   "which splits its global read into one request a lane)";
    out.findings.push_back(
        {rule, std::move(f), at, r.ideal > 0 ? r.actual / r.ideal : 1, shape});
  });
  return out;
}

} // namespace warplint
