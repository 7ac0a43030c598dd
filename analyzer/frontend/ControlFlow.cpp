#include "ControlFlow.h"

#include "model/Explain.h"
#include "model/Issue.h"
#include "model/Sampling.h"

#include <algorithm>
#include <map>
#include <vector>

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warplint {
namespace {

/// Does `e` hold `x % y == 0` with y depending on a loop counter and x on
/// threadIdx (Harris' interleaved reduction)?
bool isReductionModulo(const LaneExpr &e) {
  if (!e || e->op != Op::Eq)
    return false;
  const LaneExpr &m = e->a && e->a->op == Op::Rem ? e->a : e->b;
  if (!m || m->op != Op::Rem)
    return false;
  auto has = [](const LaneExpr &x, Op op) {
    bool found = false;
    visitNodes(x, [&](const Node &n) { return !(found |= n.op == op); });
    return found;
  };
  return has(m->b, Op::LoopVar) && has(m->a, Op::ThreadIdx);
}

/// Does `e` test low bits of a lane value (`threadIdx.x % k`, `& k`, k < 32)?
bool isLaneModulo(const LaneExpr &e) {
  bool found = false;
  visitNodes(e, [&](const Node &n) {
    int64_t k = 0;
    found |= (n.op == Op::Rem || n.op == Op::And) && constValue(n.b, k) &&
             k > 0 && k < 32 && n.a && n.a->op == Op::ThreadIdx;
    return !found;
  });
  return found;
}

const char *kindName(BranchSite::Kind k) {
  switch (k) {
  case BranchSite::If: return "if";
  case BranchSite::Exit: return "exit";
  case BranchSite::Loop: return "loop";
  case BranchSite::Ternary: return "ternary";
  case BranchSite::Switch: return "switch";
  }
  return "?";
}

BranchResult branchResult(const BranchSite &b, const KernelModel &m,
                          const std::vector<Shape> &shapes) {
  if (b.kind == BranchSite::Loop)
    return analyzeLoopExit(b.loop, b.mask, m.ctx, shapes);
  if (b.kind != BranchSite::Switch)
    return analyzeBranch(b.cond, b.mask, m.ctx, shapes);
  // A switch splits a warp if any of its cases takes some lanes but not all.
  BranchResult best = analyzeBranch(bin(Op::Ne, b.cond, cst(0)), b.mask,
                                    m.ctx, shapes);
  for (int64_t v : b.caseValues) {
    BranchResult r =
        analyzeBranch(bin(Op::Eq, b.cond, cst(v)), b.mask, m.ctx, shapes);
    if ((r.divergent && !best.divergent) || (r.maybe && !best.maybe))
      best = r;
  }
  return best;
}

/// Where the kernel's memory accesses are (not its local ones), in
/// translation-unit order: each branch asks whether its body holds one, by
/// bisection, not by a pass over every access (a kernel of thousands of
/// statements has thousands of both).
std::vector<SourceLocation> accessLocations(const SourceManager &sm,
                                            const KernelModel &m) {
  std::vector<SourceLocation> at;
  for (const AccessSite &a : m.accesses)
    if (a.expr && a.space != Space::Local)
      at.push_back(sm.getExpansionLoc(a.expr->getBeginLoc()));
  std::sort(at.begin(), at.end(), [&](SourceLocation x, SourceLocation y) {
    return sm.isBeforeInTranslationUnit(x, y);
  });
  return at;
}

/// Does the body of branch `b` (an if's then-branch, a loop's body) hold
/// one of the accesses at `accesses` (accessLocations())?
bool bodyAccessesMemory(const SourceManager &sm, const BranchSite &b,
                        const std::vector<SourceLocation> &accesses) {
  const Stmt *body = nullptr;
  if (auto *i = dyn_cast_or_null<IfStmt>(b.stmt))
    body = i->getThen();
  else if (b.kind == BranchSite::Loop)
    body = b.stmt; // recorded on the loop's body
  if (!body)
    return false;
  SourceRange r = body->getSourceRange();
  SourceLocation from = sm.getExpansionLoc(r.getBegin()),
                 to = sm.getExpansionLoc(r.getEnd());
  // The first access not before the body's start: inside unless past its end.
  auto it = std::lower_bound(accesses.begin(), accesses.end(), from,
                             [&](SourceLocation x, SourceLocation y) {
                               return sm.isBeforeInTranslationUnit(x, y);
                             });
  return it != accesses.end() && !sm.isBeforeInTranslationUnit(to, *it);
}

/// A loop nvcc unrolls fully, its condition a comparison with a constant
/// (`for (i = lane; i < 4; i += 2)`): its iterations are predicated
/// straight-line code, not a loop the warp runs for its longest lane.
bool unrolledByNvcc(const LaneExpr &cond) {
  if (!cond || !isComparison(cond->op) || !cond->a || !cond->b)
    return false;
  return (cond->a->op == Op::LoopVar && cond->b->op == Op::Const) ||
         (cond->b->op == Op::LoopVar && cond->a->op == Op::Const);
}

/// --explain on a branch's line: one warp's lanes, by iteration of the loop
/// around it (or of the loop itself). X takes the path, . reaches the
/// branch and skips it, a blank is not there.
void explainBranch(const BranchSite &b, const BranchRecord &br,
                   const KernelModel &m, const ShapeChoice &choice,
                   const LaneExpr &cond, Reporter &rep) {
  std::string drawn;
  llvm::raw_string_ostream os(drawn);
  [&] {
    std::string condText =
        b.condExpr ? rep.text(b.condExpr->getSourceRange()) : br.kind;
    os << br.pos.file << ":" << br.pos.line << ":" << br.pos.column
       << ": explain: " << br.kind << " '" << condText << "' in "
       << br.signature << ", block " << shapeText(choice.shapes[0]) << " ("
       << choice.source << ")\n";
    if (!br.evaluated) {
      os << "  not drawn: the condition depends on data loaded per lane\n";
      return;
    }
    constexpr int MaxRows = 16;
    BranchPicture pic =
        b.kind == BranchSite::Loop
            ? pictureLoop(b.loop, b.mask, m.ctx, choice.shapes[0], MaxRows + 1)
            : pictureBranch(cond, b.mask, m.ctx, choice.shapes[0], MaxRows + 1);
    bool more = pic.rows.size() > size_t(MaxRows);
    if (more)
      pic.rows.resize(MaxRows);
    if (pic.warp < 0 || pic.rows.empty()) {
      os << "  not drawn: no warp of block 0 reaches it\n";
      return;
    }
    bool loopRows = b.kind == BranchSite::Loop;
    os << "  warp " << pic.warp
       << ", blockIdx 0; X: " << (loopRows ? "still in the loop" : "takes it")
       << (loopRows ? ", .: left it" : ", .: skips it")
       << ", blank: not here\n";
    for (const BranchPicture::Row &r : pic.rows) {
      std::string label = loopRows ? "iteration " + std::to_string(r.value)
                          : pic.loopName.empty()
                              ? ""
                              : pic.loopName + " = " + std::to_string(r.value);
      os << "  " << label;
      for (size_t i = label.size(); i < 16; ++i)
        os << ' ';
      for (int l = 0; l < 32; ++l)
        os << ((r.taken >> l) & 1 ? 'X' : (r.active >> l) & 1 ? '.' : ' ');
      os << "  " << __builtin_popcount(r.taken) << " of 32\n";
    }
    if (more)
      os << "  (the first " << MaxRows << " iterations; more follow)\n";
    if (br.issueRatio > 0)
      os << "  over the block's warps, blocks and iterations: "
         << formatFigure(br.activeLanes) << " lanes per warp instruction"
         << (br.predicated
                 ? " (predicated: every warp that reaches it issues it)"
                 : "")
         << "\n";
  }();
  rep.explained(br.pos, os.str());
}

void runBranchRules(ASTContext &ac, const FunctionDecl *k, const KernelModel &m,
                    const ShapeChoice &choice, const ToolOptions &opts,
                    Report &report, Reporter &rep) {
  const std::vector<SourceLocation> accesses =
      accessLocations(ac.getSourceManager(), m);
  for (const BranchSite &b : m.branches) {
    BranchResult r = branchResult(b, m, choice.shapes);
    SourceLocation loc = b.condExpr ? b.condExpr->getBeginLoc()
                                    : b.stmt->getBeginLoc();
    LaneExpr cond = b.kind == BranchSite::Loop ? m.ctx.loops[b.loop].cond
                                               : b.cond;
    BranchRecord br;
    br.kernel = kernelName(k);
    br.signature = kernelSignature(k);
    br.pos = rep.pos(loc);
    br.kind = kindName(b.kind);
    br.evaluated = r.evaluated;
    br.divergent = r.divergent;
    br.maybeDivergent = r.maybe;
    br.warp = r.warp;
    br.iteration = r.iteration;
    if (r.warp >= 0) {
      br.takenLanes = laneList(r.taken);
      br.skippedLanes = laneList(r.active & ~r.taken);
    }
    br.divergentShare = r.divergentShare;
    // As the GPU runs it: a small if-body is predicated (every warp that
    // reaches it issues it), a larger one, a loop and the rest after an
    // exit are branched over by warps with no lane on the path.
    const BranchResult::Fill &fill =
        b.kind == BranchSite::Exit ? r.restFill : r.takenFill;
    bool predicated = (b.kind == BranchSite::If ||
                       b.kind == BranchSite::Ternary) &&
                      b.weight < opts.rules.branchMinWeight;
    // A switch's figure would be per case: not given.
    const BranchResult::Fill none;
    const BranchResult::Fill &known = b.kind == BranchSite::Switch ? none : fill;
    br.activeLanes = predicated ? known.lanesPredicated : known.lanesBranched;
    br.issueRatio = predicated ? known.issuePredicated : known.spread;
    br.spread = known.spread;
    br.predicated = predicated;
    br.weight = b.weight;
    // The body's lines: an if's then-branch, a ternary's true arm, a loop's
    // or a switch's body; none for an early exit (the rest of the kernel).
    const Stmt *body = nullptr;
    if (auto *is = dyn_cast_or_null<IfStmt>(b.stmt))
      body = b.kind == BranchSite::If ? is->getThen() : nullptr;
    else if (auto *co = dyn_cast_or_null<ConditionalOperator>(b.stmt))
      body = co->getTrueExpr();
    else if (auto *sw = dyn_cast_or_null<SwitchStmt>(b.stmt))
      body = sw->getBody();
    else if (b.kind == BranchSite::Loop)
      body = b.stmt;
    if (body) {
      br.bodyFirst = rep.pos(body->getBeginLoc()).line;
      br.bodyLast = rep.pos(body->getEndLoc()).line;
    }
    br.dependsOn = laneSources(cond, m.ctx);
    report.branches.push_back(br);
    if (rep.explaining(br.pos))
      explainBranch(b, br, m, choice, cond, rep);

    BranchFacts facts{r, m.ctx, choice.shapes[0], choice.assumed, br.kind,
                      b.weight, cond, cond ? cond->origin : -1, br.dependsOn,
                      isReductionModulo(cond), isLaneModulo(cond),
                      cond && !props(cond, m.ctx).loops.empty(),
                      bodyAccessesMemory(ac.getSourceManager(), b, accesses),
                      b.kind == BranchSite::Loop && unrolledByNvcc(cond),
                      predicated};
    for (const RuleInfo &rule : allRules()) {
      if (!rule.branch || !ruleEnabled(opts.rules.enabled, rule.id))
        continue;
      std::optional<Finding> f = rule.branch(facts, opts.rules);
      if (f && !rep.suppressed(loc, rule.id))
        rep.emit(k, m, rule.id, *f, loc,
                 b.condExpr ? b.condExpr->getSourceRange()
                            : b.stmt->getSourceRange(),
                 b.calls);
    }
  }
}

bool mentionsActivemask(const LaneExpr &e, const Context &ctx) {
  bool found = false;
  visitNodes(e, [&](const Node &n) {
    found |= n.op == Op::Unknown && ctx.atoms[n.value].name == "__activemask()";
    return !found;
  });
  return found;
}

void runSyncRules(const FunctionDecl *k, const KernelModel &m,
                  const ShapeChoice &choice, const ToolOptions &opts,
                  Reporter &rep) {
  for (const SyncSite &s : m.syncs) {
    ReachResult reach = analyzeReach(s.mask, m.ctx, choice.shapes);
    int64_t maskValue = 0;
    SyncFacts facts{s.callee, reach};
    facts.fullMask = constValue(s.maskArg, maskValue) &&
                     uint32_t(maskValue) == AllLanes;
    facts.maskFromActivemask = mentionsActivemask(s.maskArg, m.ctx);
    facts.laneVaryingPath = s.mask && props(s.mask, m.ctx).laneVarying;
    facts.tileSize = s.tileSize;
    if (s.tileSize > 0 && reach.partialWarp)
      for (int t = 0; t < WarpSize / s.tileSize && !facts.partialTile; ++t) {
        LaneMask lanes = s.tileSize == 32
                             ? AllLanes
                             : ((1u << s.tileSize) - 1) << (t * s.tileSize);
        LaneMask in = reach.active & lanes;
        if (in && in != (reach.present & lanes))
          facts.partialTile = in;
      }
    for (const Expr *a : s.call->arguments())
      if (!isa<CXXDefaultArgExpr>(a))
        facts.argText.push_back(rep.text(a->getSourceRange()));
    SourceLocation loc = s.call->getBeginLoc();
    for (const RuleInfo &rule : allRules()) {
      if (!rule.sync || !ruleEnabled(opts.rules.enabled, rule.id))
        continue;
      std::optional<Finding> f = rule.sync(facts, opts.rules);
      if (f && !rep.suppressed(loc, rule.id))
        rep.emit(k, m, rule.id, *f, loc, s.call->getSourceRange(), s.calls);
    }
  }
}

/// Shared loads that follow a store to the same array in the same barrier
/// epoch: does a lane read what another lane of its warp wrote?
void runHazardRules(const FunctionDecl *k, const KernelModel &m,
                    const ShapeChoice &choice, const ToolOptions &opts,
                    Reporter &rep) {
  constexpr int StoresChecked = 3; // the most recent stores before a load
  for (const AccessSite &load : m.accesses) {
    if (load.space != Space::Shared || load.store || !load.base)
      continue;
    int checked = 0;
    for (auto it = m.accesses.rbegin(); it != m.accesses.rend(); ++it) {
      const AccessSite &store = *it;
      if (store.seq >= load.seq || !store.store || store.base != load.base ||
          store.epoch != load.epoch)
        continue;
      if (++checked > StoresChecked)
        break;
      HazardResult h = analyzeHazard(
          store.access.offset, store.access.mask, store.access.elementBytes,
          load.access.offset, load.access.mask, load.access.elementBytes,
          m.ctx, choice.shapes);
      if (!h.intraWarp)
        continue;
      HazardFacts facts{h, load.base->getNameAsString(),
                        load.isVolatile || store.isVolatile,
                        rep.pos(store.expr->getBeginLoc()).line};
      SourceLocation loc = load.expr->getBeginLoc();
      for (const RuleInfo &rule : allRules()) {
        if (!rule.hazard || !ruleEnabled(opts.rules.enabled, rule.id))
          continue;
        std::optional<Finding> f = rule.hazard(facts, opts.rules);
        if (f && !rep.suppressed(loc, rule.id))
          rep.emit(k, m, rule.id, *f, loc, load.expr->getSourceRange(),
                   load.calls);
      }
      break;
    }
  }
}

} // namespace

void analyzeControlFlow(ASTContext &ac, const FunctionDecl *k,
                        const KernelModel &m, const ShapeChoice &choice,
                        const ToolOptions &opts, Report &report,
                        Reporter &rep) {
  runBranchRules(ac, k, m, choice, opts, report, rep);
  runSyncRules(k, m, choice, opts, rep);
  runHazardRules(k, m, choice, opts, rep);
}

void analyzeLaunches(ASTContext &ac, const LaunchSites &sites,
                     const ToolOptions &opts, Reporter &rep) {
  static const KernelModel none;
  for (const auto &[call, k, shape] : sites.launches) {
    if (!k || ac.getSourceManager().isInSystemHeader(call->getBeginLoc()))
      continue;
    LaunchFacts facts{shape, kernelName(k)};
    SourceLocation loc = call->getBeginLoc();
    for (const RuleInfo &rule : allRules()) {
      if (!rule.launch || !ruleEnabled(opts.rules.enabled, rule.id))
        continue;
      std::optional<Finding> f = rule.launch(facts, opts.rules);
      if (f && !rep.suppressed(loc, rule.id))
        rep.emit(k, none, rule.id, *f, loc, call->getSourceRange(), {});
    }
  }
}

KernelRecord::Issue estimateKernelIssue(const FunctionDecl *k,
                                        const KernelModel &m,
                                        const ShapeChoice &choice,
                                        const LaunchSites &sites,
                                        const ToolOptions &opts) {
  // Work under equal conditions is evaluated once, with its weights summed.
  std::vector<IssueWork> work;
  std::map<std::pair<const Node *, const Node *>, size_t> index;
  for (const WorkSite &w : m.work) {
    LaneExpr issue = w.mask;
    for (int f = w.frame; f >= 0 && m.ifFrames[f].weight <
                                        opts.rules.branchMinWeight;
         f = m.ifFrames[f].parent)
      issue = m.ifFrames[f].reach;
    auto key = std::make_pair(issue.get(), w.mask.get());
    auto [it, added] = index.try_emplace(key, work.size());
    if (added)
      work.push_back({issue, w.mask, 0});
    work[it->second].weight += w.weight;
  }
  const Shape &block = choice.shapes[0];
  Env env = representativeEnv(m.ctx);
  std::optional<std::pair<Shape, std::string>> grid;
  if (!choice.assumed)
    grid = launchGrid(sites, k, block);
  if (grid) {
    env.gridDim[0] = grid->first.x;
    env.gridDim[1] = grid->first.y;
    env.gridDim[2] = grid->first.z;
  }
  IssueEstimate e = estimateIssue(work, m.ctx, block, env);
  KernelRecord::Issue out;
  out.estimated = true;
  out.perBlock = e.perBlock;
  out.activeLanes = e.activeLanes;
  if (grid) {
    out.grid = grid->first;
    out.gridSource = "the launch at " + grid->second;
    out.perLaunch = e.perBlock * double(grid->first.x) *
                    double(grid->first.y) * double(grid->first.z);
  }
  // What the figure rests on, as a user reads it.
  if (choice.assumed)
    out.assumptions.push_back("a block of " + shapeText(block) + " (" +
                              choice.source + ")");
  for (int u : e.unknowns) {
    const Atom &a = m.ctx.atoms[u];
    if (a.kind != AtomKind::Parameter && a.kind != AtomKind::Uniform)
      continue;
    std::string v = "'" + a.name + "' = " +
                    std::to_string(representativeValue(a));
    out.assumptions.push_back(
        a.known.empty() ? v + " (not known" +
                              (a.related.empty() ? "" : "; " + a.related) + ")"
                        : v + (a.knownFrom.empty() ? "" : " (" + a.knownFrom +
                                                              ")"));
  }
  if (e.usesGridDim && !grid)
    out.assumptions.push_back("gridDim = 1024 (not known)");
  if (e.dataConditions)
    out.assumptions.push_back(
        "conditions on data loaded per lane taken as true for every lane");
  for (int l : e.loopsAtCap)
    out.assumptions.push_back("the loop over '" + m.ctx.loops[l].var +
                              "' counted at " + std::to_string(MaxTrip) +
                              " iterations, where it had not ended");
  if (m.loopsNotFollowed)
    out.assumptions.push_back(
        std::to_string(m.loopsNotFollowed) +
        (m.loopsNotFollowed == 1 ? " loop" : " loops") +
        " with no induction variable warplint follows, counted once");
  if (std::any_of(m.branches.begin(), m.branches.end(), [](const auto &b) {
        return b.kind == BranchSite::Switch;
      }))
    out.assumptions.push_back("every case of a switch counted");
  return out;
}

} // namespace warplint
