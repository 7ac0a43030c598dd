#include "frontend/analysis/ControlFlow.h"

#include "model/Explain.h"
#include "model/Issue.h"
#include "model/Sampling.h"

#include <algorithm>
#include <map>
#include <vector>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

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
void explainBranch(const BranchSite &b, const BranchRecord &br, KernelScope &s,
                   const LaneExpr &cond) {
  const KernelModel &m = s.m;
  const ShapeChoice &choice = s.choice;
  std::string drawn;
  llvm::raw_string_ostream os(drawn);
  [&] {
    std::string condText =
        b.condExpr ? s.resolver.text(b.condExpr->getSourceRange()) : br.kind;
    os << s.resolver.shown(br.pos.file) << ":" << br.pos.line << ":"
       << br.pos.column << ": explain: " << br.kind << " '" << condText << "' in "
       << br.signature << ", block " << shapeText(choice.shapes[0]) << " ("
       << choice.source << ")\n";
    if (!br.evaluated) {
      os << "  not drawn: the condition depends on data loaded per lane\n";
      return;
    }
    constexpr int MaxRows = 16;
    // The warp the warning names, in its block.
    PictureAt at;
    at.warp = br.warp;
    at.iteration = br.iteration;
    std::copy(std::begin(br.block), std::end(br.block), at.block);
    BranchPicture pic =
        b.kind == BranchSite::Loop
            ? pictureLoop(b.loop, b.mask, m.ctx, choice.shapes[0], MaxRows + 1,
                          at)
            : pictureBranch(cond, b.mask, m.ctx, choice.shapes[0], MaxRows + 1,
                            at);
    bool more = pic.rows.size() > size_t(MaxRows);
    if (more)
      pic.rows.resize(MaxRows);
    if (pic.warp < 0 || pic.rows.empty()) {
      os << "  not drawn: no warp of block 0 reaches it\n";
      return;
    }
    bool loopRows = b.kind == BranchSite::Loop;
    os << "  warp " << pic.warp << ", blockIdx " << blockText(pic.block)
       << "; X: " << (loopRows ? "still in the loop" : "takes it")
       << (loopRows ? ", .: left it" : ", .: skips it")
       << ", blank: not here\n";
    if (pic.crossing)
      os << (pic.crossingMoved
                 ? "  drawn with " + *pic.crossing +
                       ", so that the bound of a guard falls inside this "
                       "warp (at run time the value decides which warp it "
                       "falls in)\n"
                 : "  drawn where the index crosses the bound of a guard, "
                   "the conditions as written" +
                       (pic.crossing->empty() ? std::string()
                                              : " (at " + *pic.crossing + ")") +
                       "\n");
    if (loopRows && pic.rows[0].value > 0)
      os << "  (iterations 0.." << pic.rows[0].value - 1
         << " not drawn: the rows end past the split)\n";
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
      os << "  (" << MaxRows << " iterations drawn; more follow)\n";
    if (br.issueRatio > 0)
      os << "  over the block's warps, blocks and iterations: "
         << formatFigure(br.activeLanes) << " lanes per warp instruction"
         << (br.predicated
                 ? " (predicated: every warp that reaches it issues it)"
                 : "")
         << "\n";
  }();
  s.explained(br.pos, os.str());
}

void runBranchRules(KernelScope &s) {
  const KernelModel &m = s.m;
  const ShapeChoice &choice = s.choice;
  const FunctionDecl *k = s.kernel;
  const std::vector<SourceLocation> accesses =
      accessLocations(s.ac.getSourceManager(), m);
  for (const BranchSite &b : m.branches) {
    BranchResult r = branchResult(b, m, choice.shapes);
    SourceLocation loc = b.condExpr ? b.condExpr->getBeginLoc()
                                    : b.stmt->getBeginLoc();
    LaneExpr cond = b.kind == BranchSite::Loop ? m.ctx.loops[b.loop].cond
                                               : b.cond;
    BranchRecord br;
    br.kernel = kernelName(k);
    br.signature = kernelSignature(k);
    br.pos = s.resolver.pos(loc);
    br.kind = kindName(b.kind);
    br.evaluated = r.evaluated;
    br.divergent = r.divergent;
    br.maybeDivergent = r.maybe;
    br.warp = r.warp;
    br.iteration = r.iteration;
    std::copy(std::begin(r.block), std::end(r.block), br.block);
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
                      b.weight < MinBranchWeight;
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
      br.bodyFirst = s.resolver.pos(body->getBeginLoc()).line;
      br.bodyLast = s.resolver.pos(body->getEndLoc()).line;
    }
    br.dependsOn = laneSources(cond, m.ctx);
    if (r.evaluated && r.divergent && s.issue)
      br.wasteShare = s.issue->wasteShare(b.workBegin, b.workEnd);
    s.out.branches.push_back(br);
    if (s.explaining(br.pos))
      explainBranch(b, br, s, cond);

    BranchFacts facts(r, m.ctx);
    facts.shape = choice.shapes[0];
    facts.shapeAssumed = choice.assumed;
    facts.kind = br.kind;
    facts.weight = b.weight;
    facts.cond = cond;
    facts.condOrigin = cond ? cond->origin : -1;
    facts.laneSources = br.dependsOn;
    facts.reductionModulo = isReductionModulo(cond);
    facts.laneModulo = isLaneModulo(cond);
    facts.condUsesLoop = cond && !props(cond, m.ctx).loops.empty();
    facts.bodyAccessesMemory =
        bodyAccessesMemory(s.ac.getSourceManager(), b, accesses);
    facts.unrolled = b.kind == BranchSite::Loop && unrolledByNvcc(cond);
    facts.predicated = predicated;
    facts.wasteShare = br.wasteShare;
    if (br.wasteShare)
      facts.oncePerGrid = s.issue->oncePerGridIn(b.workBegin, b.workEnd);
    // A body outside a loop the estimate counts once: the kernel's total
    // is a lower bound, so the body's share an upper one.
    if (br.wasteShare) {
      double more = 0; // the loops' share, once more for each further run
      for (const auto &once : m.countedOnce)
        if (b.workEnd <= once.workBegin || b.workBegin >= once.workEnd) {
          if (!facts.countedOnceLine)
            facts.countedOnceLine =
                s.resolver.pos(once.stmt->getBeginLoc()).line;
          more += s.issue->issuedShare(once.workBegin, once.workEnd);
        }
      if (facts.countedOnceLine)
        facts.wasteShareRepeated =
            *br.wasteShare / (1 + (RepeatedTrips - 1) * more);
    }
    FindingSite at = s.site(loc,
                            b.condExpr ? b.condExpr->getSourceRange()
                                       : b.stmt->getSourceRange(),
                            b.calls);
    s.opts.rules.run(facts, [&](const char *rule, const Finding &f) {
      s.report(rule, f, at);
    });
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

void runSyncRules(KernelScope &s) {
  const KernelModel &m = s.m;
  for (const SyncSite &site : m.syncs) {
    ReachResult reach = analyzeReach(site.mask, m.ctx, s.choice.shapes);
    int64_t maskValue = 0;
    SyncFacts facts(site.callee, reach);
    facts.fullMask = constValue(site.maskArg, maskValue) &&
                     uint32_t(maskValue) == AllLanes;
    facts.maskFromActivemask = mentionsActivemask(site.maskArg, m.ctx);
    facts.laneVaryingPath = site.mask && props(site.mask, m.ctx).laneVarying;
    facts.tileSize = site.tileSize;
    if (site.tileSize > 0 && reach.partialWarp)
      for (int t = 0; t < WarpSize / site.tileSize && !facts.partialTile;
           ++t) {
        LaneMask lanes = site.tileSize == 32
                             ? AllLanes
                             : ((1u << site.tileSize) - 1)
                                   << (t * site.tileSize);
        LaneMask in = reach.active & lanes;
        if (in && in != (reach.present & lanes))
          facts.partialTile = in;
      }
    for (const Expr *a : site.call->arguments())
      if (!isa<CXXDefaultArgExpr>(a))
        facts.argText.push_back(s.resolver.text(a->getSourceRange()));
    FindingSite at = s.site(site.call->getBeginLoc(),
                            site.call->getSourceRange(), site.calls);
    s.opts.rules.run(facts, [&](const char *rule, const Finding &f) {
      s.report(rule, f, at);
    });
  }
}

/// Shared loads that follow a store to the same array in the same barrier
/// epoch: does a lane read what another lane of its warp wrote?
void runHazardRules(KernelScope &s) {
  const KernelModel &m = s.m;
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
          m.ctx, s.choice.shapes);
      if (!h.intraWarp)
        continue;
      HazardFacts facts(h);
      facts.array = load.base->getNameAsString();
      facts.volatileAccess = load.isVolatile || store.isVolatile;
      facts.storeLine = s.resolver.pos(store.expr->getBeginLoc()).line;
      FindingSite at = s.site(load.expr->getBeginLoc(),
                              load.expr->getSourceRange(), load.calls);
      s.opts.rules.run(facts, [&](const char *rule, const Finding &f) {
        s.report(rule, f, at);
      });
      break;
    }
  }
}

} // namespace

void analyzeControlFlow(KernelScope &s) {
  runBranchRules(s);
  runSyncRules(s);
  runHazardRules(s);
}

std::vector<Message> analyzeLaunches(ASTContext &ac, const LaunchSites &sites,
                                     const ToolOptions &opts,
                                     Resolver &resolver) {
  std::vector<Message> out;
  for (const auto &[call, k, shape] : sites.launches) {
    if (!k || ac.getSourceManager().isInSystemHeader(call->getBeginLoc()))
      continue;
    LaunchFacts facts{shape, kernelName(k)};
    FindingSite at{k, nullptr, call->getBeginLoc(), call->getSourceRange()};
    opts.rules.run(facts, [&](const char *rule, const Finding &f) {
      out.push_back({resolver.finding(rule, f, at)});
    });
  }
  return out;
}

} // namespace warplint
