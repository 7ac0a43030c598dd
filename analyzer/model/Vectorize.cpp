#include "model/Vectorize.h"
#include "model/Sampling.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace warplint {

namespace {
// The environments the adjacency is checked in: the representative one, a
// second block, and the unknowns at other values. Offsets that differ by a
// constant in all of them are taken to differ by it everywhere (the model's
// usual standard of evidence; a symbolic difference would be the same here
// because both offsets come from one index expression).
std::vector<Env> buildCheckEnvs(const Context &ctx) {
  std::vector<Env> envs{representativeEnv(ctx)};
  Env b = envs[0];
  b.blockIdx[0] = 3;
  b.blockIdx[1] = 1;
  // Distinct unknowns take distinct values: two offsets built from two
  // different unknowns are not adjacent just because both read 1024.
  auto values =
      std::make_shared<std::vector<int64_t>>(*ctx.representativeValues());
  for (size_t i = 0; i < ctx.atoms.size(); ++i)
    if (ctx.atoms[i].known.empty())
      (*values)[i] = sampledAsSize(ctx.atoms[i].role) ? 97 + 13 * int64_t(i)
                                                      : int64_t(1 + i % 7);
  b.unknowns = UnknownValues(std::move(values));
  // Later loop iterations: `s[i] += s[i + s]` is adjacent only while s = 1.
  // Each loop at its own iteration: with all at one, the variables of
  // nested loops are equal, and `a[i * n + k]` and `a[k * n + j]` would be
  // one element everywhere.
  for (int iter : {1, 5}) {
    Env c = b;
    c.loopIter.resize(ctx.loops.size());
    for (size_t l = 0; l < ctx.loops.size(); ++l)
      c.loopIter[l] = iter + 2 * int(l % 8);
    envs.push_back(c);
  }
  envs.push_back(b);
  return envs;
}

/// The environments in which an alignment must hold for nvcc to see it:
/// `base` with every unknown (also one whose values the launches show) at
/// 1025, 1026 and 1027, distinct unknowns at different values: what the
/// compiler can prove of an offset is its low bits, and these vary them
/// while keeping the sizes large (`C / 4` is no zero divisor).
std::vector<Env> compilerEnvs(const Context &ctx, const Env &base) {
  std::vector<Env> out;
  for (int64_t k = 0; k < 3; ++k) {
    Env env = base;
    auto values = std::make_shared<std::vector<int64_t>>(ctx.atoms.size());
    for (size_t i = 0; i < ctx.atoms.size(); ++i)
      (*values)[i] = 1025 + (int64_t(i) + k) % 3;
    env.unknowns = UnknownValues(std::move(values));
    out.push_back(std::move(env));
  }
  return out;
}

/// checkEnvs of the context as it is now, built once per state of its
/// atoms, loops and grid: building them costs a pass over every atom, and
/// a kernel of thousands of accesses asks for them once per pair it
/// compares.
const std::vector<Env> &checkEnvs(const Context &ctx) {
  struct Cached {
    uint64_t serial = 0, generation = 0;
    size_t atoms = 0, loops = 0;
    std::array<int64_t, 3> grid{};
    std::vector<Env> envs;
  };
  thread_local Cached c;
  if (c.envs.empty() || c.serial != ctx.serial ||
      c.generation != ctx.generation || c.atoms != ctx.atoms.size() ||
      c.loops != ctx.loops.size() || c.grid != ctx.grid) {
    c.envs = buildCheckEnvs(ctx);
    c.serial = ctx.serial;
    c.generation = ctx.generation;
    c.atoms = ctx.atoms.size();
    c.loops = ctx.loops.size();
    c.grid = ctx.grid;
  }
  return c.envs;
}
} // namespace

std::vector<MergedAccess> mergeAdjacent(const std::vector<MergeInput> &in,
                                        const Context &ctx,
                                        const Shape &shape) {
  std::vector<MergedAccess> out;
  std::map<std::tuple<int, const Node *, int>, std::vector<size_t>> groups;
  for (size_t i = 0; i < in.size(); ++i) {
    const Access &a = in[i].access;
    if (a.elementBytes != 4 && a.elementBytes != 8)
      continue;
    if (props(a.offset, ctx).hasData)
      continue;
    groups[{in[i].group, a.mask.get(), a.elementBytes}].push_back(i);
  }
  std::vector<Env> envs; // (built for the first group of two or more)
  std::vector<Env> alignEnvs; // (built for the first alignment asked)
  const int warps = std::min(shape.warps(), 2);
  for (auto &[key, members] : groups) {
    if (members.size() < 2)
      continue;
    if (envs.empty())
      envs = checkEnvs(ctx);
    const int e = std::get<2>(key);
    // Lane offsets per member, per environment and warp; one evaluator per
    // environment and warp, so that the members share their common parts.
    std::vector<std::vector<Lanes>> vals(members.size());
    for (auto &v : vals)
      v.reserve(envs.size() * size_t(warps));
    bool ok = true;
    for (size_t k = 0; k < envs.size() * size_t(warps) && ok; ++k) {
      WarpEval ev(ctx, shape, envs[k / size_t(warps)], int(k % size_t(warps)));
      for (size_t m = 0; m < members.size(); ++m)
        vals[m].push_back(ev.value(in[members[m]].access.offset));
      ok &= !ev.undefined;
      // Two members merge or are one only where they are 0 or `e` bytes
      // apart in every lane of every environment: when no pair is in the
      // first, nothing of the group can be.
      // (Found by hashing each member's lanes relative to lane 0 with lane
      // 0's offset: a pair is the same lanes at lane 0's offset + 0 or + e.
      // Trying every pair made a kernel of thousands of stores to one
      // array quadratic.)
      if (k == 0 && ok) {
        auto key = [&](size_t x, int64_t lane0) {
          uint64_t h = uint64_t(lane0) * 0x9e3779b97f4a7c15ull;
          for (int l = 1; l < WarpSize; ++l)
            h = (h ^ uint64_t(wrapSub(vals[x][0][l], vals[x][0][0]))) *
                    0x100000001b3ull +
                (h >> 29);
          return h;
        };
        std::unordered_map<uint64_t, std::vector<size_t>> at;
        at.reserve(members.size());
        for (size_t x = 0; x < members.size(); ++x)
          at[key(x, vals[x][0][0])].push_back(x);
        bool pair = false;
        for (size_t x = 0; x < members.size() && !pair; ++x)
          for (int64_t d : {int64_t(0), int64_t(e)}) {
            auto found = at.find(key(x, wrapAdd(vals[x][0][0], d)));
            if (found == at.end())
              continue;
            for (size_t y : found->second) {
              if (y == x)
                continue;
              bool all = true;
              for (int l = 0; l < WarpSize && all; ++l)
                all = wrapSub(vals[y][0][l], vals[x][0][l]) == d;
              if ((pair = all))
                break;
            }
            if (pair)
              break;
          }
        ok = pair;
      }
    }
    if (!ok)
      continue;
    // Order by lane 0's offset in the first environment; drop duplicates
    // (the same element read twice in one statement is one load).
    std::vector<size_t> order(members.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      return vals[x][0][0] < vals[y][0][0];
    });
    auto apart = [&](size_t x, size_t y, int64_t d) {
      for (size_t k = 0; k < vals[x].size(); ++k)
        for (int l = 0; l < WarpSize; ++l)
          if (wrapSub(vals[y][k][l], vals[x][k][l]) != d)
            return false;
      return true;
    };
    auto aligned = [&](size_t x, int width) {
      if (width > in[members[x]].baseAlign)
        return false;
      for (const Lanes &v : vals[x])
        for (int l = 0; l < WarpSize; ++l)
          if (v[l] % width != 0)
            return false;
      // nvcc vectorizes only where the alignment follows from the kernel's
      // code whatever its parameters are (the values a launch passes are
      // not the compiler's to know): a buffer at `smem + n * k` floats is
      // 4-byte aligned, read scalar, even where every launch makes n * k
      // even. The offset must stay aligned with each unknown's low bits
      // varied (an environment the offset is undefined in says nothing).
      if (alignEnvs.empty())
        alignEnvs = compilerEnvs(ctx, envs[0]);
      for (const Env &env : alignEnvs)
        for (int w = 0; w < warps; ++w) {
          WarpEval ev(ctx, shape, env, w);
          Lanes v = ev.value(in[members[x]].access.offset);
          if (ev.undefined)
            break;
          for (int l = 0; l < WarpSize; ++l)
            if (v[l] % width != 0)
              return false;
        }
      return true;
    };
    // Members at one offset everywhere are one access (nvcc loads the
    // element once): keep the first as the representative.
    std::vector<std::vector<size_t>> uniq; // member positions, by offset
    for (size_t k : order) {
      if (!uniq.empty() && apart(uniq.back()[0], k, 0))
        uniq.back().push_back(k);
      else
        uniq.push_back({k});
    }
    // Chains of offsets each `e` bytes after the previous everywhere. The
    // order above is lane 0's in one environment, where offsets that differ
    // elsewhere may tie (`s[2*t+1-k]` and `s[2*t]` while k = 1) and split a
    // pair: each one's successor is looked for among all of them.
    const size_t n = uniq.size();
    std::vector<long> next(n, -1);
    std::vector<char> hasPrev(n, 0);
    if (n <= 64) {
      for (size_t x = 0; x < n; ++x)
        for (size_t y = 0; y < n; ++y)
          if (x != y && !hasPrev[y] && apart(uniq[x][0], uniq[y][0], e)) {
            next[x] = long(y);
            hasPrev[y] = 1;
            break;
          }
    } else {
      for (size_t x = 0; x + 1 < n; ++x)
        if (apart(uniq[x][0], uniq[x + 1][0], e)) {
          next[x] = long(x + 1);
          hasPrev[x + 1] = 1;
        }
    }
    std::vector<char> used(n);
    for (size_t head = 0; head < n; ++head) {
      if (hasPrev[head])
        continue;
      std::vector<size_t> chain{head};
      while (next[chain.back()] >= 0 && chain.size() <= n)
        chain.push_back(size_t(next[chain.back()]));
      size_t run = chain.size();
      size_t start = 0;
      while (run >= 2) {
        size_t first = uniq[chain[start]][0];
        int take = run >= 4 && e * 4 <= 16 && aligned(first, e * 4) ? 4
                   : aligned(first, e * 2)                          ? 2
                                                                    : 0;
        if (!take) {
          ++start;
          --run;
          continue;
        }
        MergedAccess ma;
        ma.first = members[first];
        for (int k = 0; k < take; ++k) {
          used[chain[start + k]] = 1;
          for (size_t x : uniq[chain[start + k]])
            ma.members.push_back(members[x]);
        }
        ma.bytes = e * take;
        out.push_back(ma);
        start += take;
        run -= take;
      }
    }
    for (size_t u = 0; u < uniq.size(); ++u) {
      if (used[u] || uniq[u].size() < 2)
        continue;
      MergedAccess ma;
      ma.first = members[uniq[u][0]];
      for (size_t x : uniq[u])
        ma.members.push_back(members[x]);
      ma.bytes = e;
      out.push_back(ma);
    }
  }
  return out;
}

bool disjointAtConstantDistance(const Access &a, const Access &b,
                                const Context &ctx, const Shape &shape) {
  if (!a.offset || !b.offset || props(a.offset, ctx).hasData ||
      props(b.offset, ctx).hasData)
    return false;
  const std::vector<Env> &envs = checkEnvs(ctx);
  const int warps = std::min(shape.warps(), 2);
  bool seen = false;
  int64_t d = 0;
  for (const Env &env : envs)
    for (int w = 0; w < warps; ++w) {
      WarpEval ev(ctx, shape, env, w);
      Lanes x = ev.value(a.offset), y = ev.value(b.offset);
      if (ev.undefined)
        return false;
      for (int l = 0; l < WarpSize; ++l) {
        int64_t dl = wrapSub(y[l], x[l]);
        if (seen && dl != d)
          return false;
        d = dl;
        seen = true;
      }
    }
  // b starts at a + d: disjoint when one ends before the other begins.
  return d >= a.elementBytes || -d >= b.elementBytes;
}

} // namespace warplint
