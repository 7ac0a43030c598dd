#include "frontend/analysis/KernelAnalysis.h"

#include "frontend/analysis/ControlFlow.h"
#include "frontend/analysis/WorkEstimate.h"
#include "frontend/project/ForeignDefinitions.h"
#include "model/Memory.h"
#include "model/Sampling.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace clang;

namespace warplint {
namespace {

/// Which threadIdx/blockDim dimensions a kernel's accesses use (bit d).
int dimsUsed(const KernelModel &m) {
  int dims = 0;
  auto walk = [&](const LaneExpr &e) {
    visitNodes(e, [&](const Node &n) {
      if ((n.op == Op::ThreadIdx || n.op == Op::BlockDim) && n.value > 0)
        dims |= 1 << n.value;
      return true;
    });
  };
  for (const AccessSite &s : m.accesses) {
    walk(s.access.offset);
    walk(s.access.mask);
  }
  for (const BranchSite &b : m.branches) {
    walk(b.cond);
    walk(b.mask);
  }
  for (const SyncSite &s : m.syncs)
    walk(s.mask);
  for (const Loop &l : m.ctx.loops) {
    walk(l.init);
    walk(l.next);
    walk(l.cond);
  }
  return dims;
}

/// One access's figure per request for its weight: what it moves and the
/// least it could (the random-data figure for an address that depends on
/// data; a full warp's ideal, as a floor, where there is no figure).
std::pair<double, double> perRequest(const AccessSite &site,
                                     const AccessResult &r) {
  if (r.evaluated)
    return {r.actual, r.ideal};
  if (r.dataEstimated)
    return {r.randomActual, r.randomIdeal};
  const double ideal = site.space == Space::Global
                           ? std::max(1, site.access.elementBytes)
                           : std::max(1, site.access.elementBytes / 4);
  return {ideal, ideal};
}

/// Does the condition pick blocks by their index (`blockIdx.x == 0`,
/// `blockIdx.z == gridDim.z - 1`)? An access under it runs as often as the
/// sampled blocks say, which is not how often a grid of other extents runs
/// it. A bounds guard on a global index (`i < n`) picks none.
bool picksBlocks(const LaneExpr &mask, const Context &ctx) {
  bool picks = false;
  visitNodes(mask, [&](const Node &n) {
    if (n.op == Op::Eq || n.op == Op::Ne)
      picks |= props(n.a, ctx).usesBlockIdx || props(n.b, ctx).usesBlockIdx;
    picks |= n.op == Op::GridDim;
    return !picks;
  });
  return picks;
}

/// What each judged access weighs in its kernel (AccessWeight), from the
/// times per block the work estimate runs it: its extra sectors
/// (wavefronts) over the kernel's total of that space, and its runs over
/// those of the space's busiest access. `costs` are the judged accesses'
/// perRequest() figures. None where the estimate does not reach it or that
/// only blocks picked by their index run (picksBlocks), and none in a
/// kernel whose estimate is not firm (KernelIssue::firm).
std::vector<std::optional<AccessWeight>>
accessWeights(const KernelModel &m, const std::vector<size_t> &sites,
              const std::vector<std::pair<double, double>> &costs,
              const std::vector<KernelIssue::Runs> &runs,
              const KernelIssue &issue) {
  std::vector<std::optional<AccessWeight>> out(costs.size());
  // Counts that rest on a representative value (a size the program does
  // not show, a condition on data) can be off by orders of magnitude
  // between nested loops: such a kernel's accesses are not weighed.
  if (!issue.firm())
    return out;
  // How often each instruction runs: an access in loops nvcc unrolls fully
  // is one instruction per iteration.
  auto perInstruction = [&](size_t j) { return runs[j].perInstruction; };
  std::string assumes;
  for (const std::string &a : issue.record().assumptions)
    assumes += (assumes.empty() ? "" : "; ") + a;
  for (Space space : {Space::Global, Space::Shared}) {
    double total = 0, busiest = 0;
    for (size_t j = 0; j < costs.size(); ++j) {
      const AccessSite &site = m.accesses[sites[j]];
      if (site.space != space)
        continue;
      total += runs[j].all * costs[j].first;
      busiest = std::max(busiest, perInstruction(j));
    }
    if (total <= 0)
      continue;
    for (size_t j = 0; j < costs.size(); ++j) {
      const AccessSite &site = m.accesses[sites[j]];
      if (site.space != space || runs[j].all <= 0 ||
          picksBlocks(site.access.mask, m.ctx))
        continue;
      auto [actual, ideal] = costs[j];
      out[j] = AccessWeight{runs[j].all * std::max(0.0, actual - ideal) / total,
                            perInstruction(j) / busiest, assumes};
    }
  }
  return out;
}

/// The kernel's place, instantiation and launch values: a kernel in a header
/// that several files of the run include is analyzed once per
/// configuration (this, its shape source and its block shapes).
std::string configurationContext(const FunctionDecl *k, Resolver &resolver,
                                 const ParamBindings &bindings,
                                 const ParamRelations &relations) {
  SourcePos at = resolver.pos(k->getLocation());
  std::string context = at.file + ":" + std::to_string(at.line) + ":" +
                        std::to_string(at.column) + " " + kernelSignature(k);
  for (const auto &[index, values] : bindings) {
    context += " p" + std::to_string(index) + "=";
    for (int64_t v : values.first)
      context += std::to_string(v) + ",";
  }
  for (const auto &[index, r] : relations)
    context += " p" + std::to_string(index) + "=p" + std::to_string(r.base) +
               "+" + std::to_string(r.offset);
  return context;
}

/// The accesses the kernel model records for the intrinsic call `site`
/// belongs to (one per instruction).
size_t instructionsOf(const KernelModel &m, const AccessSite &site) {
  size_t n = 0;
  for (const AccessSite &s : m.accesses)
    n += s.expr == site.expr && s.intrinsic == site.intrinsic &&
         s.space == site.space && s.store == site.store &&
         s.calls == site.calls && s.mergedInto < 0;
  return n;
}

/// The findings of one intrinsic call's instructions (of one side: a copy
/// has a global and a shared one), per rule, in order: reported as the
/// call's worst instruction, naming how many there are.
class CallGroups {
public:
  void add(const AccessSite &site, size_t instructions, AccessFinding f) {
    Key key{site.expr, site.space, site.store, site.calls, f.record.rule};
    auto [it, added] = Groups.try_emplace(key);
    if (added)
      Order.push_back(key);
    it->second.instructions = instructions;
    it->second.findings.push_back(std::move(f));
  }
  template <class Report> void flush(Report report) {
    for (const Key &key : Order) {
      Group &g = Groups[key];
      size_t worst = 0;
      for (size_t i = 1; i < g.findings.size(); ++i)
        if (g.findings[i].ratio > g.findings[worst].ratio)
          worst = i;
      AccessFinding p = std::move(g.findings[worst]);
      // The message's figures are that instruction's, per request.
      p.record.message += " (the worst of the " +
                          std::to_string(g.instructions) +
                          " instructions nvcc makes of this call; " +
                          std::to_string(g.findings.size()) + " of them " +
                          (g.findings.size() == 1 ? "is" : "are") + " flagged)";
      report(std::move(p));
    }
    Groups.clear();
    Order.clear();
  }

private:
  using Key = std::tuple<const Expr *, Space, bool,
                         std::vector<const CallExpr *>, std::string>;
  struct Group {
    size_t instructions = 0;
    std::vector<AccessFinding> findings;
  };
  std::map<Key, Group> Groups;
  std::vector<Key> Order;
};

/// Per line and rule: one finding when every configuration says the same,
/// else the worst one, with its block shape named.
void reportWorst(std::vector<AccessFinding> &pending, size_t configurations,
                 KernelOutput &out) {
  // A helper's access reached through different calls is a finding per
  // call (the run's pipeline names them all).
  using Key = std::tuple<SourceHandle, std::string, std::vector<SourceHandle>>;
  std::map<Key, std::vector<AccessFinding *>> groups;
  std::vector<Key> order;
  for (AccessFinding &p : pending) {
    std::vector<SourceHandle> calls;
    for (const NoteRecord &n : p.record.notes)
      if (n.message == "in the call from here")
        calls.push_back(n.at);
    Key key{p.record.at, p.record.rule, std::move(calls)};
    if (!groups.count(key))
      order.push_back(key);
    groups[key].push_back(&p);
  }
  for (const auto &key : order) {
    std::vector<AccessFinding *> &g = groups[key];
    AccessFinding *worst = g[0];
    bool differ = false;
    std::vector<std::string> variants;
    for (AccessFinding *p : g) {
      if (std::find(variants.begin(), variants.end(), p->variant) ==
          variants.end())
        variants.push_back(p->variant);
      differ |= p->record.message != g[0]->record.message;
      if (p->ratio > worst->ratio)
        worst = p;
    }
    DiagnosticRecord d = worst->record;
    if (differ)
      d.message += " (with " + shapeText(worst->shape) +
                   " blocks, the worst of the kernel's " +
                   std::to_string(configurations) + " launch configurations)";
    Message m{std::move(d)};
    m.variants = std::move(variants);
    m.weight = worst->ratio;
    out.messages.push_back(std::move(m));
  }
}

/// "blockSize = 64" ("T = float, N = 4"): a kernel template's instantiation
/// as a note names it; "" for a kernel that is no template's.
std::string instantiationLabel(const FunctionDecl *k) {
  const TemplateArgumentList *args = k->getTemplateSpecializationArgs();
  const FunctionTemplateDecl *primary = k->getPrimaryTemplate();
  if (!args || !primary)
    return "";
  const TemplateParameterList *params = primary->getTemplateParameters();
  PrintingPolicy policy(k->getASTContext().getLangOpts());
  policy.SuppressTagKeyword = true;
  std::string label;
  for (unsigned i = 0; i < args->size() && i < params->size(); ++i) {
    std::string value;
    llvm::raw_string_ostream os(value);
    args->get(i).print(policy, os, /*IncludeType=*/false);
    std::string name = params->getParam(i)->getName().str();
    label += (label.empty() ? "" : ", ") +
             (name.empty() ? "#" + std::to_string(i) : name) + " = " + value;
  }
  return label;
}

/// The gridDim a configuration's launches give (per dimension), set in the
/// model, and how the report says so; "" where they give none.
std::string bindGrid(const KernelJob &job, const FunctionDecl *k,
                     const ShapeChoice &choice, KernelModel &m) {
  m.ctx.grid = {0, 0, 0};
  ++m.ctx.generation;
  if (choice.assumed)
    return "";
  // A dimension the launches give as a constant when others are not
  // (`dim3 grid((n + 7) / 8, (m + 7) / 8, 2)`) holds on its own.
  auto grid = launchGridDims(job.sites, k, choice.shapes[0]);
  if (!grid)
    return "";
  const Shape &g = grid->first;
  m.ctx.grid = {g.x, g.y, g.z};
  ++m.ctx.generation;
  std::string dims;
  if (g.x > 0 && g.y > 0 && g.z > 0) {
    dims = "gridDim " + shapeText(g);
  } else {
    const int64_t v[3] = {g.x, g.y, g.z};
    for (int d = 0; d < 3; ++d)
      if (v[d] > 0)
        dims += std::string(dims.empty() ? "gridDim." : ", gridDim.") +
                "xyz"[d] + " = " + std::to_string(v[d]);
  }
  return dims + " (the launch at " + grid->second + ")";
}

/// The analysis's own messages about what the kernel's model left out.
void reportLimits(const FunctionDecl *k, const KernelModel &m,
                  Resolver &resolver, KernelOutput &out) {
  SourceLocation at = k->getLocation();
  if (m.accessesLeftOut)
    out.messages.push_back(resolver.plain(
        at, /*remark=*/false,
        "warplint modelled the first " + std::to_string(m.accesses.size()) +
            " memory accesses of this kernel and left " +
            std::to_string(m.accessesLeftOut) +
            " out (its per-kernel limit); their findings are missing",
        /*always=*/true));
  if (m.callsElsewhere) {
    std::string msg =
        std::to_string(m.callsElsewhere) +
        (m.callsElsewhere == 1 ? " call" : " calls") + " (of '" +
        m.firstElsewhere + (m.callsElsewhere == 1 ? "')" : "', and others)") +
        " to a function this file declares but does not define "
        "(separately compiled device code) " +
        (m.callsElsewhere == 1 ? "was" : "were") +
        " not followed, and the memory accesses in " +
        (m.callsElsewhere == 1 ? "it are" : "them are") + " missing";
    if (std::string why = whyNotDefined(m.firstElsewhere); !why.empty())
      msg += " ('" + m.firstElsewhere + "': " + why + ")";
    out.messages.push_back(resolver.plain(at, true, msg, true));
  }
  if (!m.varyingNotApplied.empty()) {
    std::string names;
    for (const std::string &n : m.varyingNotApplied)
      names += (names.empty() ? "'" : ", '") + n + "'";
    const bool one = m.varyingNotApplied.size() == 1;
    out.messages.push_back(resolver.plain(
        at, true,
        "warplint walks a kernel again for loop variables that each lane "
        "sets on its own, " +
            std::to_string(MaxVaryingWalks) +
            " times at most; this kernel needs more: " + names +
            (one ? " is" : " are") +
            " taken as one value for the warp, and the figures of the "
            "accesses that depend on " +
            (one ? "it" : "them") + " may be wrong",
        true));
  }
  if (const int warps = dataEstimateWarps(m.ctx); warps < MaxDataPairs)
    out.messages.push_back(resolver.plain(
        at, true,
        "this kernel has " + std::to_string(m.ctx.dataAddressedLoads()) +
            " loads whose address reads data loaded before; warplint "
            "estimates each access whose address depends on data on " +
            std::to_string(warps) + " warps a draw instead of " +
            std::to_string(MaxDataPairs) +
            ", so that their estimates together cost what " +
            std::to_string(DataPairLoads) + " loads' would",
        true));
  if (m.callsTooDeep)
    out.messages.push_back(resolver.plain(
        at, true,
        "warplint follows calls " + std::to_string(MaxInlineDepth) + " deep; " +
            std::to_string(m.callsTooDeep) +
            (m.callsTooDeep == 1 ? " call" : " calls") + " deeper (of '" +
            m.firstTooDeep +
            (m.callsTooDeep == 1 ? "') was not followed, and the memory "
                                   "accesses in it are missing"
                                 : "', and others) were not followed, and "
                                   "the memory accesses in them are missing"),
        true));
}

} // namespace

KernelAnalysis analyzeKernel(const FunctionDecl *k, const KernelJob &job) {
  KernelAnalysis result;
  KernelOutput &out = result.out;
  ParamBindings bindings = launchBindings(job.sites, k);
  ParamRelations relations = launchRelations(job.sites, k);
  KernelModel m = walkKernel(job.ac, k, job.opts.params, bindings, relations);
  const std::string context =
      configurationContext(k, job.resolver, bindings, relations);
  std::vector<ShapeChoice> choices =
      chooseShapes(job.ac, k, job.sites, job.opts.blockDim, dimsUsed(m));
  // Several launch configurations: their access findings are gathered,
  // and where they differ on a line, the worst is reported, naming its
  // block shape.
  std::vector<AccessFinding> pending;
  const bool gather = choices.size() > 1;
  CallGroups calls;
  // The kernel as the run's notes name it, and each configuration.
  const SourcePos kernelAt = job.resolver.pos(k->getLocation());
  const std::string family = kernelAt.file + ":" +
                             std::to_string(kernelAt.line) + ":" +
                             std::to_string(kernelAt.column) + " " +
                             kernelName(k);
  const std::string instance = instantiationLabel(k);
  std::string variant;
  auto report = [&](AccessFinding f) {
    f.variant = variant;
    if (gather) {
      pending.push_back(std::move(f));
    } else {
      Message m{std::move(f.record)};
      m.weight = f.ratio;
      out.messages.push_back(std::move(m));
    }
  };
  for (const ShapeChoice &choice : choices) {
    std::string key = context + " " + choice.source;
    for (const Shape &sh : choice.shapes)
      key += " " + shapeText(sh);
    if (!job.claim(key))
      continue;
    out.configurations.push_back(key);
    variant = instance;
    if (gather)
      variant += (instance.empty() ? "" : ", ") + shapeText(choice.shapes[0]) +
                 " blocks";
    out.variants.push_back(
        {family, variant,
         instance.empty()  ? "launch configurations"
         : gather ? "configurations"
                          : "instantiations"});
    const size_t firstMessage = out.messages.size();
    KernelRecord kr;
    kr.name = kernelName(k);
    kr.signature = kernelSignature(k);
    kr.pos = job.resolver.pos(k->getLocation());
    kr.block = choice.shapes[0];
    kr.blockSource = choice.source;
    KernelScope scope{job.ac, job.opts, k, m, choice, job.resolver, out,
                       nullptr};
    AccessScope accesses{scope, bindGrid(job, k, choice, m), {}, {}, {}};
    // The work estimate, and how often each memory access runs in it (what
    // an access's finding weighs), before data is marked per warp below.
    KernelIssue issue(k, m, choice, job.sites);
    std::vector<size_t> judgedSites;
    std::vector<LaneExpr> masks;
    for (size_t i = 0; i < m.accesses.size(); ++i)
      if (m.accesses[i].space != Space::Local && m.accesses[i].mergedInto < 0) {
        judgedSites.push_back(i);
        masks.push_back(m.accesses[i].access.mask);
      }
    const std::vector<KernelIssue::Runs> runs = issue.runsPerBlock(masks);
    // Data each warp loads from one address is one value per warp under
    // these shapes: undone after the accesses, so that branches on it stay
    // conditions on data.
    std::vector<LaneExpr> offsets;
    for (const AccessSite &site : m.accesses)
      if (site.space != Space::Local && site.mergedInto < 0)
        offsets.push_back(site.access.offset);
    DataMarks marks = markWarpUniformData(m.ctx, offsets, choice.shapes);
    accesses.warpUniformData = marks.atoms;
    for (const AccessSite &site : m.accesses)
      if (site.atomic)
        accesses.atomicAddresses.insert({site.base, site.access.offset.get()});
    bool stopped = false; // by --timeout
    // Each access is judged, recorded and its rules run in turn, and its
    // figures freed: what its findings weigh needs the kernel's totals, so
    // only its cost per request is kept for them, and its findings wait
    // (a generated kernel of thousands of accesses would otherwise hold
    // every access's samples at once).
    std::vector<std::pair<double, double>> costs;
    std::vector<AccessOutput> outputs;
    costs.reserve(judgedSites.size());
    outputs.reserve(judgedSites.size());
    if (job.opts.accessRecords)
      out.accesses.reserve(out.accesses.size() + judgedSites.size());
    for (size_t i : judgedSites) {
      if (job.outOfTime()) {
        stopped = true;
        break;
      }
      const SiteResult judged = judgeAccessSite(scope, m.accesses[i]);
      costs.push_back(perRequest(m.accesses[i], judged.result));
      outputs.push_back(analyzeAccessSite(accesses, m.accesses[i], judged));
    }
    const std::vector<std::optional<AccessWeight>> weights =
        accessWeights(m, judgedSites, costs, runs, issue);
    size_t adding = 0;
    for (const AccessOutput &o : outputs)
      adding += o.messages.size() + o.findings.size();
    if (gather)
      reserveMore(pending, adding);
    else
      reserveMore(out.messages, adding);
    for (size_t j = 0; j < outputs.size(); ++j) {
      const AccessSite &site = m.accesses[judgedSites[j]];
      AccessOutput &o = outputs[j];
      if (const std::optional<AccessWeight> &w = weights[j];
          w && o.record != AccessOutput::NoRecord) {
        out.accesses[o.record].kernelShare = w->share;
        out.accesses[o.record].relativeRuns = w->runs;
      }
      for (Message &msg : o.messages)
        out.messages.push_back(std::move(msg));
      // A call nvcc makes several instructions of (a wmma fragment's load
      // or store): one finding for the call, its worst instruction's.
      const size_t instructions =
          site.intrinsic.empty() ? 0 : instructionsOf(m, site);
      for (PendingFinding &p : o.findings) {
        if (weights[j])
          job.opts.rules.weigh(p.rule, *weights[j], site.space, p.finding);
        // The configuration's label is set once its findings are compared.
        AccessFinding f{job.resolver.finding(p.rule, p.finding, p.at),
                        p.ratio,
                        p.shape,
                        {}};
        if (instructions > 1)
          calls.add(site, instructions, std::move(f));
        else
          report(std::move(f));
      }
      ++kr.accesses;
      o = AccessOutput();
    }
    restoreData(m.ctx, marks);
    calls.flush(report);
    if (stopped) {
      result.stopped = kr.signature + " (" + std::to_string(kr.accesses) +
                       " of " + std::to_string(m.accesses.size()) +
                       " accesses)";
      out.kernels.push_back(kr);
      break;
    }
    kr.accessesLeftOut = int(m.accessesLeftOut);
    kr.callsNotFollowed = m.callsTooDeep + m.callsElsewhere;
    scope.issue = &issue;
    analyzeControlFlow(scope);
    kr.issue = issue.record();
    out.kernels.push_back(kr);
    for (size_t i = firstMessage; i < out.messages.size(); ++i)
      if (!out.messages[i].plain && out.messages[i].variants.empty())
        out.messages[i].variants = {variant};
  }
  if (gather)
    reportWorst(pending, choices.size(), out);
  for (Message &msg : out.messages)
    if (!msg.plain)
      msg.family = family;
  // The rules on the kernel as declared.
  KernelFacts facts{kernelName(k), launchBound(job.ac, k)};
  FindingSite at{k, &m.origins, k->getLocation(),
                 SourceRange(k->getLocation())};
  job.opts.rules.run(facts, [&](const char *rule, const Finding &f) {
    out.messages.push_back({job.resolver.finding(rule, f, at)});
  });
  if (result.stopped)
    return result;
  reportLimits(k, m, job.resolver, out);
  return result;
}

} // namespace warplint
