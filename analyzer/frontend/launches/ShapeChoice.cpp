// Which block shapes, grids and parameter values a kernel is analyzed with,
// from its launch sites, annotation, options and __launch_bounds__
// (LaunchShapes.h).
#include "frontend/launches/HostCode.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace warplint {

using namespace host;

std::optional<std::pair<Shape, std::string>>
launchGridDims(const LaunchSites &sites, const FunctionDecl *kernel,
               const Shape &block) {
  auto it = sites.grids.find(kernel->getCanonicalDecl());
  if (it == sites.grids.end())
    return std::nullopt;
  std::optional<std::pair<Shape, std::string>> out;
  for (const LaunchSites::GridLaunch &g : it->second) {
    if (!(g.block == block))
      continue;
    if (!out) {
      out = {g.grid, g.where};
      continue;
    }
    int64_t *mine[3] = {&out->first.x, &out->first.y, &out->first.z};
    const int64_t theirs[3] = {g.grid.x, g.grid.y, g.grid.z};
    for (int d = 0; d < 3; ++d)
      if (*mine[d] != theirs[d])
        *mine[d] = 0;
  }
  if (!out || (out->first.x <= 0 && out->first.y <= 0 && out->first.z <= 0))
    return std::nullopt;
  return out;
}

std::optional<std::pair<Shape, std::string>>
launchGrid(const LaunchSites &sites, const FunctionDecl *kernel,
           const Shape &block) {
  auto g = launchGridDims(sites, kernel, block);
  if (!g || g->first.x <= 0 || g->first.y <= 0 || g->first.z <= 0)
    return std::nullopt;
  return g;
}

namespace {
std::vector<Shape> candidateShapes(int dims) {
  if (dims & 4)
    return {{8, 8, 4}, {16, 8, 2}, {32, 4, 2}, {8, 4, 8}};
  if (dims & 2)
    return {{16, 16, 1}, {32, 8, 1}, {32, 32, 1}, {8, 32, 1}, {64, 4, 1}};
  return {{256, 1, 1}, {128, 1, 1}, {1024, 1, 1}, {64, 1, 1}, {32, 1, 1}};
}

} // namespace

std::vector<ShapeChoice> chooseShapes(ASTContext &ac, const FunctionDecl *k,
                                      const LaunchSites &sites,
                                      const std::optional<Shape> &option,
                                      int dims) {
  std::vector<ShapeChoice> out;
  auto it = sites.shapes.find(k->getCanonicalDecl());
  if (it != sites.shapes.end()) {
    auto from = sites.foreign.find(k->getCanonicalDecl());
    std::string source = from == sites.foreign.end()
                             ? "launch site"
                             : "launch site in " + from->second;
    auto grids = sites.grids.find(k->getCanonicalDecl());
    for (const Shape &s : it->second) {
      ShapeChoice c({s}, source, false);
      // A shape a launch takes from a command-line default says so (the
      // first such launch; the others of the shape are alike).
      if (grids != sites.grids.end())
        for (const LaunchSites::GridLaunch &g : grids->second)
          if (g.block == s && g.onDefaults) {
            c.assuming = "the launch at " + g.where;
            break;
          }
      out.push_back(std::move(c));
    }
    return out;
  }
  if (auto s = annotatedShape(ac, k))
    return {{{*s}, "annotation", false}};
  if (option)
    return {{{*option}, "option", false}};
  // A launch whose block sets some dimensions to constants (`b.x = 1;
  // b.y = n;`): those are kept, the others take the usual candidates.
  if (auto p = sites.partial.find(k->getCanonicalDecl());
      p != sites.partial.end()) {
    for (const Shape &part : p->second) {
      std::vector<Shape> shapes;
      static const int64_t Fill[] = {256, 128, 32, 16, 8, 64};
      std::string which;
      for (int d = 0; d < 3; ++d)
        if ((d == 0 ? part.x : d == 1 ? part.y : part.z) == 0)
          which += std::string(which.empty() ? "" : ", ") + "xyz"[d];
      // A one-dimensional block of unknown size (`<<<g, n>>>`) takes the
      // one-dimensional candidates: whole warps, as such launches have.
      std::vector<int64_t> fill(std::begin(Fill), std::end(Fill));
      if (part.x == 0 && part.y == 1 && part.z == 1) {
        fill.clear();
        for (const Shape &c : candidateShapes(1))
          fill.push_back(c.x);
      }
      // Several members unknown (`dim3 b(bx, by)`): the usual candidates
      // that agree with the members the launch does give.
      if ((part.x == 0) + (part.y == 0) + (part.z == 0) >= 2) {
        for (const Shape &c : candidateShapes(dims | (part.z == 0 ? 4 : 2)))
          if ((part.x == 0 || c.x == part.x) &&
              (part.y == 0 || c.y == part.y) &&
              (part.z == 0 || c.z == part.z) &&
              std::find(shapes.begin(), shapes.end(), c) == shapes.end())
            shapes.push_back(c);
        if (!shapes.empty())
          fill.clear();
      }
      for (int64_t f : fill) {
        Shape s = part;
        for (int64_t *c : {&s.x, &s.y, &s.z})
          if (*c == 0)
            *c = f;
        if (s.threads() <= 1024 &&
            std::find(shapes.begin(), shapes.end(), s) == shapes.end())
          shapes.push_back(s);
      }
      if (!shapes.empty())
        out.push_back(
            {shapes, "launch site, blockDim." + which + " assumed", true});
    }
    if (!out.empty())
      return out;
  }
  std::vector<Shape> cands = candidateShapes(dims);
  if (auto n = launchBound(ac, k); n && *n > 0 && !(dims & 6)) {
    cands.insert(cands.begin(), Shape{*n, 1, 1});
    return {{cands, "launch bounds", true}};
  }
  return {{cands, "assumed", true}};
}

std::string shapeText(const Shape &s) {
  return std::to_string(s.x) + "x" + std::to_string(s.y) + "x" +
         std::to_string(s.z);
}

std::optional<Shape> annotatedShape(ASTContext &ac, const FunctionDecl *k) {
  for (const FunctionDecl *d = k; d; d = d->getPreviousDecl()) {
    const FunctionDecl *pattern = d->getTemplateInstantiationPattern();
    for (const FunctionDecl *f : {d, pattern}) {
      if (!f)
        continue;
      for (const auto *a : f->specific_attrs<AnnotateAttr>()) {
        if (a->getAnnotation() != "warplint.block_dim")
          continue;
        int64_t v[3] = {1, 1, 1};
        unsigned i = 0;
        for (const Expr *arg : a->args()) {
          if (i >= 3)
            break;
          auto x = HostEval{ac, NoFacts}.one(arg, 0);
          if (!x || *x <= 0)
            return std::nullopt;
          v[i++] = *x;
        }
        if (i == 0)
          return std::nullopt;
        return Shape{v[0], v[1], v[2]};
      }
    }
  }
  return std::nullopt;
}

std::optional<int64_t> launchBound(ASTContext &ac, const FunctionDecl *k) {
  if (auto *a = k->getAttr<CUDALaunchBoundsAttr>())
    return HostEval{ac, NoFacts}.one(a->getMaxThreads(), 0);
  return std::nullopt;
}

} // namespace warplint

namespace warplint {

/// "the launch at main.cu:52", "the launches at a.cu:3, a.cu:9, ...".
static std::string launchesText(std::vector<std::string> where) {
  where.erase(std::unique(where.begin(), where.end()), where.end());
  if (where.empty())
    return "the launches";
  std::string text = where.size() == 1 ? "the launch at " + where[0]
                                       : "the launches at " + where[0];
  for (size_t i = 1; i < where.size() && i < 4; ++i)
    text += ", " + where[i];
  if (where.size() > 4)
    text += ", ...";
  return text;
}

std::map<unsigned, std::pair<std::vector<int64_t>, std::string>>
launchBindings(const LaunchSites &sites, const FunctionDecl *kernel) {
  std::map<unsigned, std::pair<std::vector<int64_t>, std::string>> out;
  auto it = sites.args.find(kernel->getCanonicalDecl());
  if (it == sites.args.end())
    return out;
  // ", and at 2 more launches" after the first of `n` launches named.
  auto more = [](size_t n) {
    return n < 2 ? std::string()
                 : ", and at " + std::to_string(n - 1) + " more launch" +
                       (n > 2 ? "es" : "");
  };
  for (const auto &[index, av] : it->second) {
    if (av.allConstant && !av.values.empty()) {
      out[index] = {av.values, launchesText(av.where)};
    } else if (!av.commandLine.empty()) {
      out[index] = {{},
                    "set by the command line at " + av.commandLine[0] +
                        more(av.commandLine.size())};
    } else if (!av.stopped.empty()) {
      const auto &[launch, stop] = av.stopped[0];
      out[index] = {{},
                    "passed to the launch at " + launch +
                        " through more host calls and expressions than "
                        "warplint follows (" +
                        std::to_string(host::HostEval::MaxSteps) +
                        " steps): the search stopped at " + stop +
                        more(av.stopped.size())};
    }
  }
  return out;
}

std::map<unsigned, ParamRelation> launchRelations(const LaunchSites &sites,
                                                  const FunctionDecl *kernel) {
  std::map<unsigned, ParamRelation> out;
  const FunctionDecl *k = kernel->getCanonicalDecl();
  auto it = sites.forms.find(k);
  if (it == sites.forms.end() || it->second.empty() || sites.foreign.count(k))
    return out;
  const auto &launches = it->second;
  auto bound = launchBindings(sites, kernel);
  for (auto b = bound.begin(); b != bound.end();)
    b = b->second.first.empty() ? bound.erase(b) : std::next(b);
  unsigned n = kernel->getNumParams();
  // The parameters every launch passes a form with variables in.
  std::vector<unsigned> open;
  for (unsigned p = 0; p < n; ++p) {
    if (bound.count(p) ||
        !kernel->getParamDecl(p)->getType()->isIntegralOrEnumerationType())
      continue;
    bool all = true;
    for (const auto &args : launches)
      all &= p < args.size() && args[p] && !args[p]->terms.empty();
    if (all)
      open.push_back(p);
  }
  // p and q relate when every launch passes them the same variables and one
  // difference of constants.
  auto offset = [&](unsigned p, unsigned q) -> std::optional<int64_t> {
    std::optional<int64_t> d;
    for (const auto &args : launches) {
      if (args[p]->terms != args[q]->terms)
        return std::nullopt;
      int64_t x = args[p]->constant - args[q]->constant;
      if (d && *d != x)
        return std::nullopt;
      d = x;
    }
    return d;
  };
  std::vector<char> grouped(n);
  for (unsigned p : open) {
    if (grouped[p])
      continue;
    std::vector<unsigned> group{p};
    for (unsigned q : open)
      if (q > p && !grouped[q] && offset(q, p))
        group.push_back(q);
    if (group.size() < 2)
      continue;
    // The base: the smallest constant in size at the first launch (the
    // variable passed as it is), then the first.
    unsigned base = group[0];
    for (unsigned q : group)
      if (std::llabs(launches[0][q]->constant) <
          std::llabs(launches[0][base]->constant))
        base = q;
    auto args = sites.args.find(k);
    for (unsigned q : group) {
      grouped[q] = 1;
      if (q == base)
        continue;
      std::vector<std::string> where;
      if (args != sites.args.end())
        if (auto a = args->second.find(q); a != args->second.end())
          where = a->second.where;
      out[q] = {base, *offset(q, base), launchesText(where)};
    }
  }
  return out;
}

} // namespace warplint
