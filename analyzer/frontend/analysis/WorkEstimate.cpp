#include "frontend/analysis/WorkEstimate.h"

#include "model/Issue.h"
#include "model/Sampling.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace warplint {

namespace {
/// Adds `a` to `list` unless it is there (fields of different copies of a
/// struct share a name: "'date.month' = 1024 (not known)" once).
void addAssumption(std::vector<std::string> &list, std::string a) {
  if (std::find(list.begin(), list.end(), a) == list.end())
    list.push_back(std::move(a));
}
} // namespace

KernelIssue::KernelIssue(const FunctionDecl *k, const KernelModel &m,
                         const ShapeChoice &choice, const LaunchSites &sites)
    : Ctx(m.ctx), Block(choice.shapes[0]), Base(representativeEnv(m.ctx)) {
  // Work under equal conditions is evaluated once, with its weights summed.
  std::vector<IssueWork> work;
  std::map<std::pair<const Node *, const Node *>, size_t> index;
  SiteItem.reserve(m.work.size());
  for (const WorkSite &w : m.work) {
    LaneExpr issue = w.mask;
    for (int f = w.frame; f >= 0 && m.ifFrames[f].weight < MinBranchWeight;
         f = m.ifFrames[f].parent)
      issue = m.ifFrames[f].reach;
    if (w.contended) {
      // A compare-and-swap loop: an item of its own, all of it the site's.
      work.push_back({issue, w.mask, 0, w.contended, double(w.perRound)});
      SiteItem.push_back({work.size() - 1, 1});
      continue;
    }
    auto key = std::make_pair(issue.get(), w.mask.get());
    auto [it, added] = index.try_emplace(key, work.size());
    if (added)
      work.push_back({issue, w.mask, 0});
    work[it->second].weight += w.weight;
    SiteItem.push_back({it->second, double(w.weight)});
  }
  for (auto &[item, share] : SiteItem)
    if (!work[item].contended)
      share = work[item].weight > 0 ? share / work[item].weight : 0;
  const Shape &block = Block;
  Env &env = Base;
  std::optional<std::pair<Shape, std::string>> grid;
  if (!choice.assumed)
    grid = launchGrid(sites, k, block);
  if (grid) {
    env.gridDim[0] = grid->first.x;
    env.gridDim[1] = grid->first.y;
    env.gridDim[2] = grid->first.z;
  }
  IssueEstimate e = estimateIssue(work, m.ctx, block, env);
  Issued = std::move(e.issued);
  Lanes = std::move(e.laneInstructions);
  // The counter or flag of each once-per-grid test, as the source names it.
  std::vector<std::string> onceNames;
  for (const LaneExpr &once : e.oncePerGrid) {
    const Atom *c = counterRead(once, m.ctx);
    onceNames.push_back(c ? c->name : "");
  }
  OnceName.assign(work.size(), "");
  for (size_t i = 0; i < work.size(); ++i)
    if (e.onceOf[i] >= 0)
      OnceName[i] = onceNames[size_t(e.onceOf[i])];
  KernelRecord::Issue &out = Record;
  out.estimated = true;
  out.perBlock = e.perBlock;
  out.activeLanes = e.activeLanes;
  if (grid) {
    out.grid = grid->first;
    out.gridSource = "the launch at " + grid->second;
    out.perLaunch = e.perBlock * double(grid->first.x) * double(grid->first.y) *
                    double(grid->first.z);
  }
  // What the figure rests on, as a user reads it.
  if (choice.assumed)
    out.assumptions.push_back("a block of " + shapeText(block) + " (" +
                              choice.source + ")");
  for (int u : e.unknowns) {
    const Atom &a = m.ctx.atoms[u];
    if ((a.kind != AtomKind::Parameter && a.kind != AtomKind::Uniform) ||
        a.fromData)
      continue; // (a condition on it is one on data, said below)
    Firm &= !a.known.empty();
    std::string v =
        "'" + a.name + "' = " + std::to_string(representativeValue(a));
    addAssumption(out.assumptions,
        a.known.empty()
            ? v + " (not known" + (a.related.empty() ? "" : "; " + a.related) +
                  ")"
            : v + (a.knownFrom.empty() ? "" : " (" + a.knownFrom + ")"));
  }
  Firm &= !(e.usesGridDim && !grid) && !e.dataConditions &&
          e.loopsAtCap.empty() && !m.loopsNotFollowed;
  if (e.usesGridDim && !grid)
    out.assumptions.push_back("gridDim = 1024 (not known)");
  if (e.dataConditions)
    out.assumptions.push_back(
        "conditions on data loaded per lane taken as true for every lane");
  for (const std::string &name : onceNames)
    addAssumption(out.assumptions,
                  "work under the test on '" + name +
                      "' counted in one block of the grid (the last to "
                      "arrive at the counter)");
  for (int l : e.loopsAtCap)
    out.assumptions.push_back("the loop over '" + m.ctx.loops[l].var +
                              "' counted at " + std::to_string(MaxTrip) +
                              " iterations, where it had not ended");
  if (m.loopsNotFollowed)
    out.assumptions.push_back(
        std::to_string(m.loopsNotFollowed) +
        (m.loopsNotFollowed == 1 ? " loop" : " loops") +
        " with no induction variable warplint follows, counted once");
  if (std::any_of(m.branches.begin(), m.branches.end(),
                  [](const auto &b) { return b.kind == BranchSite::Switch; }))
    out.assumptions.push_back("every case of a switch counted");
}

std::optional<double> KernelIssue::wasteShare(size_t begin,
                                              size_t end) const {
  if (begin >= end || end > SiteItem.size() || Record.perBlock <= 0)
    return std::nullopt;
  double waste = 0;
  for (size_t i = begin; i < end; ++i) {
    auto [item, share] = SiteItem[i];
    waste += share * (Issued[item] - Lanes[item] / WarpSize);
  }
  return std::max(0.0, waste) / Record.perBlock;
}

std::string KernelIssue::oncePerGridIn(size_t begin, size_t end) const {
  for (size_t i = begin; i < end && i < SiteItem.size(); ++i)
    if (!OnceName[SiteItem[i].first].empty())
      return OnceName[SiteItem[i].first];
  return "";
}

double KernelIssue::issuedShare(size_t begin, size_t end) const {
  if (begin >= end || end > SiteItem.size() || Record.perBlock <= 0)
    return 0;
  double issued = 0;
  for (size_t i = begin; i < end; ++i) {
    auto [item, share] = SiteItem[i];
    issued += share * Issued[item];
  }
  return issued / Record.perBlock;
}

std::vector<KernelIssue::Runs>
KernelIssue::runsPerBlock(const std::vector<LaneExpr> &masks) const {
  // One piece of work of one instruction per distinct mask (masks are
  // hash-consed: equal conditions are one node).
  std::vector<IssueWork> work;
  std::map<const Node *, size_t> index;
  std::vector<size_t> item;
  item.reserve(masks.size());
  for (const LaneExpr &mask : masks) {
    LaneExpr m = mask ? mask : cst(1);
    auto [it, added] = index.try_emplace(m.get(), work.size());
    if (added)
      work.push_back({m, m, 1});
    item.push_back(it->second);
  }
  IssueEstimate e = estimateIssue(work, Ctx, Block, Base);
  std::vector<Runs> runs;
  runs.reserve(item.size());
  for (size_t i : item)
    runs.push_back({e.issued[i], e.perInstruction[i]});
  return runs;
}

} // namespace warplint
