#include "frontend/walker/KernelWalker.h"

#include "frontend/walker/Walker.h"

#include "model/Vectorize.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace warplint {

/// The conjuncts of a mask built by land(): a load whose mask has all the
/// conjuncts of an earlier one's runs only where the earlier one ran.
static void conjuncts(const LaneExpr &m, std::set<const Node *> &out) {
  if (!m)
    return;
  if (m->op == Op::LAnd) {
    conjuncts(m->a, out);
    conjuncts(m->b, out);
    return;
  }
  out.insert(m.get());
}

/// The accesses' indices in program order (their seq; the pieces of a split
/// element share their first piece's).
static std::vector<size_t> programOrder(const KernelModel &m) {
  std::vector<size_t> order(m.accesses.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return m.accesses[x].seq < m.accesses[y].seq;
  });
  return order;
}

/// A `const T *__restrict__` kernel parameter: by its contract, no store of
/// the kernel writes what it points to.
static bool readOnlyParam(const clang::ValueDecl *base) {
  auto *p = llvm::dyn_cast_or_null<clang::ParmVarDecl>(base);
  if (!p || !p->getType()->isPointerType())
    return false;
  return p->getType().isRestrictQualified() &&
         p->getType()->getPointeeType().isConstQualified();
}

/// The two arms of one `?:`: `a` is `common && c` and `b` is `common && !c`
/// for the same node `c`, one of `conditions`, as the walker builds them;
/// `common` may be none. (Not an if's arms: nvcc hoists their common load
/// only where nothing comes before it in either, and eikonal's else arm
/// computes its indices first: the GPU measures both loads.)
static bool complementaryArms(const LaneExpr &a, const LaneExpr &b,
                              const std::set<LaneExpr> &conditions,
                              LaneExpr &common) {
  if (!a || !b)
    return false;
  std::vector<std::pair<LaneExpr, LaneExpr>> splits{{nullptr, a}};
  if (a->op == Op::LAnd)
    splits = {{a->a, a->b}, {a->b, a->a}};
  for (const auto &[rest, c] : splits)
    if (conditions.count(c) && detail::land(rest, un(Op::LNot, c)) == b) {
      common = rest;
      return true;
    }
  return false;
}

/// nvcc loads an element once when the same address was loaded before on
/// every path to the later load, with no store to that memory and no barrier
/// in between: `if (m[k] != 0) t += m[k] * x[j]` reads m[k] once, on the
/// condition's line. The later load joins the earlier one (as a merge does).
/// Offsets are hash-consed, so "the same address" is one node once the
/// source origins (which differ between two copies of `m[k]`) are cleared.
static void dropRepeatedLoads(KernelModel &m,
                              const std::vector<size_t> &order) {
  using Key = std::tuple<const Node *, const clang::ValueDecl *, int, int,
                         int>;
  // Per address, the loads that may stand for a later one, with their
  // masks' conjuncts.
  std::map<Key, std::vector<std::pair<size_t, std::set<const Node *>>>> seen;
  OriginFreeMemo memo;
  auto plainConjuncts = [&](const LaneExpr &mask) {
    std::set<const Node *> out;
    conjuncts(withoutOrigins(mask, memo), out);
    return out;
  };
  for (size_t i : order) {
    AccessSite &s = m.accesses[i];
    if (s.space == Space::Local || !s.base)
      continue;
    if (s.store || s.atomic || s.isVolatile) {
      // A store may alias any global load before it, except one through a
      // `const T *__restrict__` parameter, whose memory the kernel does not
      // write (nvcc keeps rtm8's `a[1]` in a register across the stores
      // between its two uses); shared arrays are distinct variables.
      for (auto it = seen.begin(); it != seen.end();)
        if (std::get<3>(it->first) == int(s.space) &&
            (s.space == Space::Global
                 ? !readOnlyParam(std::get<1>(it->first))
                 : std::get<1>(it->first) == s.base))
          it = seen.erase(it);
        else
          ++it;
      continue;
    }
    if (!s.intrinsic.empty())
      continue; // an intrinsic is issued where it is written
    Key key{withoutOrigins(s.access.offset, memo).get(), s.base,
            s.access.elementBytes, int(s.space), s.epoch};
    auto &earlier = seen[key];
    std::set<const Node *> mine = plainConjuncts(s.access.mask);
    bool joined = false;
    for (const auto &[e, theirs] : earlier)
      if (std::includes(mine.begin(), mine.end(), theirs.begin(),
                        theirs.end())) {
        s.mergedInto = int(e);
        joined = true;
        break;
      }
    // The same element loaded in both arms of one `?:` (`c ? p[i] : -p[i]`)
    // is one load before the branch, by the lanes of both: nvcc hoists what
    // the two arms have in common.
    for (auto &[e, theirs] : earlier) {
      if (joined)
        break;
      LaneExpr common;
      if (!complementaryArms(m.accesses[e].access.mask, s.access.mask,
                             m.ternaryConditions, common))
        continue;
      s.mergedInto = int(e);
      m.accesses[e].access.mask = common;
      theirs = plainConjuncts(common);
      joined = true;
      break;
    }
    if (!joined)
      earlier.emplace_back(i, std::move(mine));
  }
}

// Can store `st` write bytes that load `ld` reads? Not when both go through
// one pointer at offsets a constant apart whose byte ranges are disjoint:
// `p[i].x += h; p[i].y -= h;`, whose store of .x nvcc moves past the load of
// .y (one 64-bit load, one 64-bit store, measured on hexciton).
static bool mayAlias(const AccessSite &st, const AccessSite &ld,
                     const Context &ctx) {
  if (st.atomic)
    return true;
  if (st.base == ld.base &&
      disjointAtConstantDistance(st.access, ld.access, ctx, Shape{}))
    return false;
  // Through any pointers: two members of one struct type whose bytes in it
  // do not overlap never alias (type-based alias analysis by field path:
  // `e[i].x = h` between `p[j].x += h` and `p[j].y -= h` of float2s leaves
  // the loads of .x and .y one 64-bit load, as measured on the H200).
  auto member = [](const AccessSite &s)
      -> std::optional<std::tuple<const clang::RecordDecl *, int64_t, int64_t>> {
    auto *m = s.expr ? llvm::dyn_cast<clang::MemberExpr>(s.expr->IgnoreParens())
                     : nullptr;
    auto *f = m ? llvm::dyn_cast<clang::FieldDecl>(m->getMemberDecl()) : nullptr;
    if (!f || f->isBitField())
      return std::nullopt;
    const clang::RecordDecl *rd = f->getParent();
    const clang::ASTContext &ac = f->getASTContext();
    if (!rd || rd->isUnion() || rd->isInvalidDecl() || !rd->getDefinition())
      return std::nullopt;
    int64_t off = int64_t(ac.getFieldOffset(f) / ac.getCharWidth());
    return std::make_tuple(static_cast<const clang::RecordDecl *>(rd->getCanonicalDecl()), off,
                           off + int64_t(s.access.elementBytes));
  };
  auto a = member(st), b = member(ld);
  if (a && b && std::get<0>(*a) == std::get<0>(*b) &&
      (std::get<2>(*a) <= std::get<1>(*b) || std::get<2>(*b) <= std::get<1>(*a)))
    return false;
  return true;
}

/// A load of the bytes a store of its straight-line region wrote, with no
/// store between them that may write them, in the lanes the store wrote,
/// reads the register the store wrote: nvcc issues no load (`Y[t].Re =
/// Y[t].Re * b; ... Y[t].Re = Y[t].Re + a;`, the second line's load
/// measured absent). It joins the store, as a merged access does, and
/// reads no memory that would keep the store from being dead.
static void forwardStoredValues(KernelModel &m,
                                const std::vector<size_t> &order) {
  using Key = std::tuple<const Node *, const clang::ValueDecl *, int, int>;
  struct Stored {
    Key key;
    size_t site;
    std::set<const Node *> lanes; // the store's mask's conjuncts
  };
  // The region's last few stores only: forwarding is from a store to a load
  // soon after it, and each store is checked against every one kept, so
  // that a region of thousands of stores stays linear. (A load whose
  // store has left the window is counted, as before forwarding.)
  constexpr size_t Window = 16;
  std::vector<Stored> stored;
  OriginFreeMemo memo;
  int stmt = -1, epoch = -1;
  for (size_t i : order) {
    AccessSite &s = m.accesses[i];
    if (s.stmt != stmt || s.epoch != epoch) {
      stored.clear();
      stmt = s.stmt;
      epoch = s.epoch;
    }
    if (s.space == Space::Local || !s.base || s.isVolatile ||
        s.mergedInto >= 0 || !s.intrinsic.empty())
      continue;
    Key key{withoutOrigins(s.access.offset, memo).get(), s.base,
            s.access.elementBytes, int(s.space)};
    std::set<const Node *> mine;
    conjuncts(withoutOrigins(s.access.mask, memo), mine);
    if (s.store || s.atomic) {
      stored.erase(std::remove_if(stored.begin(), stored.end(),
                                  [&](const Stored &x) {
                                    return x.key == key ||
                                           mayAlias(s, m.accesses[x.site],
                                                    m.ctx);
                                  }),
                   stored.end());
      if (!s.atomic) {
        stored.push_back({key, i, std::move(mine)});
        if (stored.size() > Window)
          stored.erase(stored.begin());
      }
      continue;
    }
    for (const Stored &x : stored)
      if (x.key == key && std::includes(mine.begin(), mine.end(),
                                        x.lanes.begin(), x.lanes.end())) {
        s.mergedInto = int(x.site);
        break;
      }
  }
}

/// Across a loop's back edge: a load in the body, before any store of its
/// body that may write it, of bytes that the region just before the loop
/// stored and that the body stores again after it, with no other store of
/// the body that may write them, reads a register: the pre-loop store's
/// value in the first iteration, the body's store's in the others (a
/// cipher's `state[0] = cipher[0] ^ key[0]` at the top of each round, after
/// `cipher[0] = ...` before the loop and at the end of each round; measured
/// without a load). It joins the body's store.
static void forwardAcrossLoops(KernelModel &m,
                               const std::vector<size_t> &order) {
  OriginFreeMemo memo;
  using Key = std::tuple<const Node *, const clang::ValueDecl *, int, int>;
  auto keyOf = [&](const AccessSite &s) {
    return Key{withoutOrigins(s.access.offset, memo).get(), s.base,
               s.access.elementBytes, int(s.space)};
  };
  auto eligible = [](const AccessSite &s) {
    return s.space != Space::Local && s.base && !s.isVolatile &&
           s.mergedInto < 0 && s.intrinsic.empty();
  };
  for (const LoopRegions &lr : m.loopRegions) {
    // The stores of the region before the loop that no later store of it
    // may overwrite, and the body's accesses in walk order.
    std::vector<size_t> before, body;
    int epoch = -1;
    bool oneEpoch = true;
    for (size_t i : order) {
      const AccessSite &s = m.accesses[i];
      if (s.stmt == lr.before || (s.stmt >= lr.first && s.stmt <= lr.last)) {
        if (epoch >= 0 && s.epoch != epoch)
          oneEpoch = false;
        epoch = s.epoch;
      }
      if (s.stmt == lr.before && (s.store || s.atomic)) {
        before.erase(std::remove_if(before.begin(), before.end(),
                                    [&](size_t x) {
                                      return keyOf(m.accesses[x]) == keyOf(s) ||
                                             mayAlias(s, m.accesses[x], m.ctx);
                                    }),
                     before.end());
        if (!s.atomic && eligible(s))
          before.push_back(i);
      } else if (s.stmt >= lr.first && s.stmt <= lr.last) {
        body.push_back(i);
      }
    }
    if (!oneEpoch || before.empty())
      continue;
    for (size_t k = 0; k < body.size(); ++k) {
      AccessSite &ld = m.accesses[body[k]];
      if (ld.store || ld.atomic || !eligible(ld))
        continue;
      Key key = keyOf(ld);
      std::set<const Node *> mine;
      conjuncts(withoutOrigins(ld.access.mask, memo), mine);
      auto covers = [&](const AccessSite &st) {
        std::set<const Node *> theirs;
        conjuncts(withoutOrigins(st.access.mask, memo), theirs);
        return std::includes(mine.begin(), mine.end(), theirs.begin(),
                             theirs.end());
      };
      bool stored = std::any_of(before.begin(), before.end(), [&](size_t x) {
        return keyOf(m.accesses[x]) == key && covers(m.accesses[x]);
      });
      if (!stored)
        continue;
      // Every store of the body: one of these bytes after the load, by
      // the load's lanes at least, or one that cannot write them.
      int again = -1;
      bool clean = true;
      for (size_t j = 0; j < body.size() && clean; ++j) {
        const AccessSite &st = m.accesses[body[j]];
        if (!st.store && !st.atomic)
          continue;
        bool same = !st.atomic && keyOf(st) == key;
        if (same && j > k && covers(st)) {
          again = int(body[j]);
          continue;
        }
        if (same || mayAlias(st, ld, m.ctx))
          clean = false;
      }
      if (clean && again >= 0)
        ld.mergedInto = again;
    }
  }
}

/// What nvcc merges (Vectorize.h): accesses of one statement to one
/// allocation, loads with loads and stores with stores; loads only where
/// no store that may write what they read comes between them, and stores
/// only where no load that may read what the first writes does (the first
/// store is then not dead: `Y[t] = Y[t] * b; a = A[t]; Y[t] = Y[t] + a;`
/// keeps both stores, A may be Y).
static void mergeVectorAccesses(KernelModel &m,
                                const std::vector<size_t> &order) {
  std::map<std::tuple<int, int, const clang::ValueDecl *, int, bool, int>, int>
      groups;
  // Per load: the last store or atomic of its region walked before it that
  // may write what it reads (its position in walk order, or -1). Per store:
  // the last access of its region that an earlier store of the region
  // cannot move past (a load that may read what it wrote, a store to other
  // memory that may overwrite it). Two loads with such a store between
  // them differ here, and two stores with such an access.
  std::vector<int> lastOther(m.accesses.size(), -1);
  std::vector<size_t> writers; // walked so far, in order
  // Per writer: the position in `writers` of the last one before it to
  // another allocation or space (-1: none), so that a search back past a
  // run of stores to one array (a generated statement storing `out`
  // thousands of times) takes one step, not one per store.
  std::vector<int> runStart;
  auto sameTarget = [&](const AccessSite &a, const AccessSite &b) {
    return a.space == b.space && a.base == b.base;
  };
  auto pushWriter = [&](size_t k) {
    int prev = int(writers.size()) - 1;
    int start = -1;
    if (prev >= 0)
      start = sameTarget(m.accesses[order[writers[size_t(prev)]]],
                         m.accesses[order[k]])
                  ? runStart[size_t(prev)]
                  : prev;
    writers.push_back(k);
    runStart.push_back(start);
  };
  int barrier = -1, stmt = -1, epoch = -1;
  for (size_t k = 0; k < order.size(); ++k) {
    const AccessSite &s = m.accesses[order[k]];
    if (s.stmt != stmt || s.epoch != epoch) {
      barrier = -1;
      stmt = s.stmt;
      epoch = s.epoch;
    }
    if (s.store || s.atomic) {
      lastOther[order[k]] = barrier;
      // A store to other memory that may write what an earlier store of
      // the region wrote: that one cannot move past it to merge with a
      // later one (`p[j].x += h; e[i].x = h; p[j].y -= h;`: three 4-byte
      // stores, as measured).
      for (int w = int(writers.size()) - 1; w >= 0;) {
        const AccessSite &st = m.accesses[order[writers[size_t(w)]]];
        if (st.stmt != s.stmt || st.epoch != s.epoch)
          break;
        // (A store to the same allocation, or to another space, is no
        // barrier: nor is the rest of its run.)
        if (sameTarget(st, s) || st.space != s.space) {
          w = runStart[size_t(w)];
          continue;
        }
        if (mayAlias(s, st, m.ctx)) {
          barrier = int(k);
          break;
        }
        --w;
      }
      pushWriter(k);
      continue;
    }
    if (s.mergedInto >= 0)
      continue; // forwarded or repeated: it reads no memory
    // (Only this merge region's stores: loads of one region share all
    // that came before it.)
    for (int w = int(writers.size()) - 1; w >= 0;) {
      const AccessSite &st = m.accesses[order[writers[size_t(w)]]];
      if (st.stmt != s.stmt || st.epoch != s.epoch)
        break;
      if (st.space != s.space) {
        w = runStart[size_t(w)];
        continue;
      }
      if (mayAlias(st, s, m.ctx)) {
        lastOther[order[k]] = int(writers[size_t(w)]);
        barrier = int(k);
        break;
      }
      --w;
    }
  }
  std::vector<MergeInput> in;
  std::vector<size_t> site;
  for (size_t i = 0; i < m.accesses.size(); ++i) {
    const AccessSite &s = m.accesses[i];
    if (s.space == Space::Local || s.isVolatile || !s.base || s.atomic ||
        s.mergedInto >= 0 || !s.intrinsic.empty())
      continue;
    // Barriers end a region too (their epoch differs).
    auto key = std::make_tuple(s.stmt, s.epoch, s.base, int(s.space), s.store,
                               lastOther[i]);
    int g = groups.emplace(key, int(groups.size())).first->second;
    in.push_back({s.access, g, s.align ? s.align : s.access.elementBytes});
    site.push_back(i);
  }
  if (in.size() < 2)
    return;
  for (const MergedAccess &ma : mergeAdjacent(in, m.ctx, Shape{})) {
    // nvcc issues a merged load where the first member is read and a merged
    // store where the last member is written (measured: a float4 written
    // member by member is one STS.128 on the `.w` line).
    size_t carrier = site[ma.members[0]];
    for (size_t k : ma.members) {
      const AccessSite &s = m.accesses[site[k]];
      if (s.store ? s.seq > m.accesses[carrier].seq
                  : s.seq < m.accesses[carrier].seq)
        carrier = site[k];
    }
    const AccessSite &lowest = m.accesses[site[ma.first]];
    AccessSite &c = m.accesses[carrier];
    c.access.offset = lowest.access.offset;
    c.array = lowest.array;
    c.access.elementBytes = ma.bytes;
    if (c.elementStride <= ma.bytes)
      c.structMember = false;
    for (size_t k : ma.members)
      if (site[k] != carrier)
        m.accesses[site[k]].mergedInto = int(carrier);
  }
  // What nvcc would merge if the allocation were 16-byte aligned: a lane's
  // adjacent elements written (read) one by one, `out[4 * t + 0..3]` through
  // a float pointer. The fix for such an access is one vector access
  // (AccessSite::vectorIfAligned), not another index.
  std::vector<MergeInput> aligned;
  std::vector<size_t> alignedSite;
  for (size_t k = 0; k < in.size(); ++k)
    if (m.accesses[site[k]].mergedInto < 0 &&
        m.accesses[site[k]].access.elementBytes == in[k].access.elementBytes) {
      aligned.push_back(in[k]);
      aligned.back().baseAlign = 16;
      alignedSite.push_back(site[k]);
    }
  if (aligned.size() < 2)
    return;
  for (const MergedAccess &ma : mergeAdjacent(aligned, m.ctx, Shape{}))
    if (ma.bytes > aligned[ma.first].access.elementBytes)
      for (size_t k : ma.members)
        m.accesses[alignedSite[k]].vectorIfAligned = ma.bytes;
}

/// The constant first value and trip count of a loop `for (i = c0; i < N;
/// ++i)` (or `<=`), when its variable's value at iteration k is c0 + k.
static std::optional<std::pair<int64_t, int64_t>>
countedLoop(const Context &ctx, int L) {
  const Loop &lp = ctx.loops[L];
  auto isVar = [&](const LaneExpr &e) {
    return e && e->op == Op::LoopVar && e->value == L;
  };
  auto isConst = [](const LaneExpr &e) { return e && e->op == Op::Const; };
  if (!isConst(lp.init) || !lp.next || lp.next->op != Op::Add || !lp.cond)
    return std::nullopt;
  const LaneExpr &step = isVar(lp.next->a) ? lp.next->b : lp.next->a;
  if (!(isVar(lp.next->a) || isVar(lp.next->b)) || !isConst(step) ||
      step->value != 1)
    return std::nullopt;
  int64_t c0 = lp.init->value, bound;
  const Node &c = *lp.cond;
  if ((c.op == Op::Lt || c.op == Op::Le) && isVar(c.a) && isConst(c.b))
    bound = c.b->value + (c.op == Op::Le);
  else if ((c.op == Op::Gt || c.op == Op::Ge) && isVar(c.b) && isConst(c.a))
    bound = c.a->value + (c.op == Op::Ge);
  else
    return std::nullopt;
  if (bound <= c0)
    return std::nullopt;
  return std::make_pair(c0, bound - c0);
}

/// nvcc unrolls a loop with a small constant trip count and merges the
/// iterations' adjacent accesses, as it does within a statement: CUB's
/// `for (ITEM = 0; ITEM < 4; ++ITEM) buff[tid * 4 + ITEM] = items[ITEM];` is
/// one 16-byte store per lane (STS.128), not four conflicting 4-byte ones.
/// An access of such a loop whose offsets in m consecutive iterations are
/// adjacent for every lane and whose first is aligned to the merged width
/// (Vectorize.h decides both) becomes one access of m elements in the first
/// trip/m iterations. The loop must be straight-line code
/// (Loop::straight), and its other accesses to the same memory of the same
/// kind (a load between the stores could alias them).
static void mergeUnrolledIterations(KernelModel &m) {
  constexpr int64_t MaxTrip = 32; // nvcc unrolls small constant loops fully
  // The loops each access's offset uses, and per (memory, loop) whether
  // loads, stores or atomics touch it: computed once, so the pass stays
  // linear in the accesses.
  std::vector<std::vector<int>> loopsOf(m.accesses.size());
  std::map<std::tuple<const clang::ValueDecl *, int, int>, int> kinds;
  for (size_t i = 0; i < m.accesses.size(); ++i) {
    const AccessSite &s = m.accesses[i];
    if (s.space == Space::Local || !s.base)
      continue;
    loopsOf[i] = props(s.access.offset, m.ctx).loops;
    int kind = s.atomic ? 4 : s.store ? 2 : 1;
    for (int L : loopsOf[i])
      kinds[{s.base, int(s.space), L}] |= kind;
  }
  for (size_t i = 0; i < m.accesses.size(); ++i) {
    AccessSite &s = m.accesses[i];
    if (s.space == Space::Local || s.isVolatile || !s.base || s.atomic ||
        s.mergedInto >= 0 || !s.intrinsic.empty() || loopsOf[i].empty())
      continue;
    // The innermost loop (loops are numbered as the walk meets them, outer
    // first); the outer ones' variables stay put while it runs.
    int L = loopsOf[i].back();
    if (m.ctx.loops[L].iterOf >= 0 || !m.ctx.loops[L].straight)
      continue;
    auto counted = countedLoop(m.ctx, L);
    if (!counted || counted->second < 2 || counted->second > MaxTrip)
      continue;
    auto [c0, trip] = *counted;
    // Loads and stores of one memory in the loop may alias: keep them apart.
    if (kinds[{s.base, int(s.space), L}] != (s.store ? 2 : 1))
      continue;
    int eb = s.access.elementBytes;
    for (int64_t w = 4; w >= 2; w /= 2) {
      if (trip % w || w * eb > 16)
        continue;
      // Iteration k of the merged access covers the variable's values
      // c0 + w*(k - c0) + j for j < w.
      LaneExpr var = loopVar(L);
      std::vector<MergeInput> in;
      bool sameMask = true;
      for (int64_t j = 0; j < w; ++j) {
        LaneExpr with = cst(c0) + cst(w) * (var - cst(c0)) + cst(j);
        OriginFreeMemo memo; // per replacement: it maps nodes to results
        Access a = s.access;
        a.offset = replaceLoopVar(s.access.offset, L, with, memo);
        sameMask &= replaceLoopVar(s.access.mask, L, with, memo) ==
                    s.access.mask;
        in.push_back({a, 0, s.align ? s.align : eb});
      }
      if (!sameMask)
        break;
      std::vector<MergedAccess> merged = mergeAdjacent(in, m.ctx, Shape{});
      if (merged.size() != 1 || merged[0].members.size() != size_t(w) ||
          merged[0].first != 0)
        continue;
      s.access.offset = in[0].access.offset;
      s.access.elementBytes = merged[0].bytes;
      LaneExpr first = bin(Op::Lt, var, cst(c0 + trip / w));
      s.access.mask =
          s.access.mask ? bin(Op::LAnd, s.access.mask, first) : first;
      if (s.elementStride <= merged[0].bytes)
        s.structMember = false;
      break;
    }
  }
}

// Where nvcc places a kernel's static __shared__ variables: one after
// another in the order the kernel declares them, each at its alignment
// (measured on the H200 with arrays of several types and sizes in several
// orders, and on aop, whose `__shared__ double3 lsums;` before `__shared__
// double shared_svd[12];` puts the array at byte 24: nvcc pairs
// shared_svd[1] with [2] in 16-byte loads and loads [0] alone). A variable
// nothing refers to takes no space. A scalar or struct variable whose
// address is never taken may be folded away or split into one variable
// per field placed after the others (measured: a `double3` read only as
// `.x` went after a 4 KiB array declared after it), so the places after
// such a variable are not known and are left alone. Each access to a
// placed variable is moved by its offset within 16 bytes, so that merges
// see the alignment nvcc sees; bank conflicts do not change under a shift
// of the whole warp. Only where every shared variable the accesses use is
// one the kernel's own body declares (a device function's or the
// namespace's has a place the kernel does not show) and is not extern.
static void placeSharedVariables(clang::ASTContext &ac,
                                 const clang::FunctionDecl *kernel,
                                 KernelModel &m) {
  using namespace clang;
  if (!kernel || !kernel->getBody())
    return;
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const VarDecl *> declared;
    std::set<const VarDecl *> used, addressed;
    bool VisitVarDecl(VarDecl *v) {
      if (v->hasAttr<CUDASharedAttr>() && !v->hasExternalStorage())
        declared.push_back(v);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *d) {
      if (auto *v = dyn_cast<VarDecl>(d->getDecl()))
        used.insert(v);
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *u) {
      if (u->getOpcode() != UO_AddrOf)
        return true;
      const Expr *e = u->getSubExpr()->IgnoreParenImpCasts();
      while (auto *me = dyn_cast<MemberExpr>(e))
        e = me->getBase()->IgnoreParenImpCasts();
      if (auto *d = dyn_cast<DeclRefExpr>(e))
        if (auto *v = dyn_cast<VarDecl>(d->getDecl()))
          addressed.insert(v);
      return true;
    }
  } f;
  f.TraverseStmt(kernel->getBody());
  std::set<const VarDecl *> own(f.declared.begin(), f.declared.end());
  for (const AccessSite &s : m.accesses) {
    auto *v = dyn_cast_or_null<VarDecl>(s.base);
    if (s.space == Space::Shared && v && !v->hasExternalStorage() &&
        !own.count(v))
      return;
  }
  std::map<const ValueDecl *, int64_t> at;
  int64_t next = 0;
  for (const VarDecl *v : f.declared) {
    QualType t = v->getType();
    if (!f.used.count(v))
      continue;
    if (t->isDependentType() || t->isIncompleteType() ||
        (!t->isArrayType() && !f.addressed.count(v)))
      break;
    int64_t align = ac.getDeclAlign(v).getQuantity();
    if (align <= 0)
      break;
    next = (next + align - 1) / align * align;
    at[v] = next % 16;
    next += ac.getTypeSizeInChars(t).getQuantity();
  }
  for (AccessSite &s : m.accesses)
    if (auto it = at.find(s.base);
        s.space == Space::Shared && it != at.end() && it->second != 0)
      s.access.offset = s.access.offset + cst(it->second);
}

KernelModel walkKernel(clang::ASTContext &ac, const clang::FunctionDecl *kernel,
                       const std::map<std::string, int64_t> &params,
                       const ParamBindings &bindings,
                       const ParamRelations &relations) {
  KernelModel m;
  detail::Walker::weightMemo().clear();
  // A loop's variable that its body sets per lane is known only once the
  // body has been walked (Walker::FoundVarying); the accesses before that
  // point in the body, and those of later iterations, read it. Walked again
  // with what the walk found, until it finds nothing new (a loop nested in
  // one found so may find more), a few rounds at most.
  detail::Walker::LoopVarying known;
  for (int walk = 1;; ++walk) {
    detail::Walker w(ac, m, params, bindings, relations);
    w.KnownVarying = &known;
    w.walkFunction(kernel);
    size_t before = known.size();
    if (walk == MaxVaryingWalks) {
      // The last walk still found some: they stay one value for the warp,
      // which the kernel's report says.
      std::set<std::string> names;
      for (const auto &found : w.FoundVarying)
        if (!known.count(found))
          names.insert(found.second->getNameAsString());
      m.varyingNotApplied.assign(names.begin(), names.end());
      break;
    }
    known.merge(w.FoundVarying);
    if (known.size() == before)
      break;
    m = KernelModel();
  }
  placeSharedVariables(ac, kernel, m);
  std::vector<LaneExpr> exprs;
  for (const AccessSite &s : m.accesses)
    exprs.insert(exprs.end(), {s.access.offset, s.access.mask});
  for (const BranchSite &b : m.branches)
    exprs.insert(exprs.end(), {b.cond, b.mask});
  for (const SyncSite &s : m.syncs)
    exprs.insert(exprs.end(), {s.mask, s.maskArg});
  std::vector<LaneExpr> offsets;
  for (const AccessSite &s : m.accesses)
    offsets.push_back(s.access.offset);
  classifyAtoms(m.ctx, exprs, offsets);
  std::vector<size_t> order = programOrder(m);
  dropRepeatedLoads(m, order);
  forwardStoredValues(m, order);
  forwardAcrossLoops(m, order);
  mergeVectorAccesses(m, order);
  mergeUnrolledIterations(m);
  return m;
}

} // namespace warplint
