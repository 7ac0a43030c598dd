//===- MemoryDetail.h - what Memory.cpp shares with its parts -*- C++ -*-===//
//
// The model's memory analysis is three files: Requests.cpp (what one warp's
// request costs: sectors, wavefronts, banks), DataAddresses.cpp (addresses
// read from data: tables, rows picked by data, random draws) and Memory.cpp
// (an access over warps, blocks, loop iterations, shapes and unknowns).
// This header is what they share; it is not part of the model's interface.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_MEMORYDETAIL_H
#define WARPLINT_MODEL_MEMORYDETAIL_H

#include "model/Memory.h"

#include <map>
#include <string>
#include <vector>

namespace warplint {
namespace memory_detail {

/// Lanes per phase of a shared access of `bytes` per lane (32, 16 or 8).
int phaseLanes(int bytes);
/// The lanes of phase `p` of a request of `per` lanes per phase.
LaneMask phaseMask(int per, int p);

/// Why an address that depends on data is not evaluated (the first data
/// atom's reason).
std::string dataReason(const LaneExpr &e, const Context &ctx);

struct Totals {
  double requests = 0, actual = 0, ideal = 0, lanes = 0;
  /// The same sums over the requests of whole warps (every lane that exists
  /// active): what a warning is decided on when most requests are such.
  double fullRequests = 0, fullActual = 0, fullIdeal = 0;
  /// The same sums with SparseMaskLanes random lanes of each request
  /// active (WarpFigures::sparse).
  double sparseActual = 0, sparseIdeal = 0;
  int64_t firstCommon = 0;
  bool strideSeen = false, strideConstant = true;
  int64_t stride = 0;
  /// WarpFigures::spacing where every request with two active lanes or
  /// more has the same one, else 0 (-1: no such request).
  int spacing = -1;
  bool tail = false; // a bounds guard assumed on its far side
  bool data = false, guard = false, undefined = false, unended = false;
  /// Per iteration of the loops nvcc unrolls (AccessResult::iterations),
  /// keyed by their iteration numbers, outer loop first.
  struct Iteration {
    double requests = 0, actual = 0, ideal = 0;
  };
  std::map<std::vector<int>, Iteration> iterations;
  EvalStop stopped = EvalStop::None; // a value depends on itself, or too deep
  /// The furthest byte an active lane reached (offset + element size).
  int64_t reach = 0;
};
/// The worst iteration's actual/ideal of an unrolled access's run (0: not
/// unrolled, or no iteration issued a request).
inline double worstIteration(const Totals &t) {
  double worst = 0;
  for (const auto &[key, it] : t.iterations)
    if (it.requests > 0 && it.ideal > 0)
      worst = std::max(worst, it.actual / it.ideal);
  return worst;
}
/// actual/ideal of `t`, or, where at least half of its requests are whole
/// warps', the ratio over those when it is higher: a few boundary warps
/// with idle lanes (an 18x18 tile's halo guard) do not pull a conflict that
/// every whole warp has under the threshold.
inline double verdictRatio(const Totals &t) {
  double mean = t.ideal > 0 ? t.actual / t.ideal : 1;
  if (t.fullIdeal > 0 && 2 * t.fullRequests >= t.requests)
    return std::max(mean, t.fullActual / t.fullIdeal);
  return mean;
}

/// What one warp of one environment adds to the totals.
struct WarpFigures {
  LaneMask active = 0, present = 0;
  Cost cost;
  /// Under a condition on data: the mean cost of SparseMaskDraws draws of
  /// SparseMaskLanes of the active lanes; otherwise `cost`.
  Cost sparse;
  // The distances between consecutive active lanes, per lane (addresses
  // wrap like the GPU's integers; so do their distances): `uneven` where
  // two lanes apart do not divide evenly, `alike` where all are one.
  int64_t dist[WarpSize];
  int nDist = 0;
  /// The lane-index gap between consecutive active lanes where it is one
  /// (1: contiguous, 2: every other lane), 0 where it varies, -1 with
  /// fewer than two active lanes.
  int spacing = -1;
  bool uneven = false, alike = true;
  bool data = false, guard = false, undefined = false, unended = false;
  bool tail = false; // WarpEval::assumedTail
  EvalStop stopped = EvalStop::None; // a value depends on itself, or too deep
  int64_t reach = 0;                 // Totals::reach
};

/// An access whose address is a lane-varying part plus a warp-uniform one
/// (`mu(i - 2, j, k)` and `la(i, j + 1, k)` of a stencil: the same lanes
/// moved by a uniform amount). The lane-varying part's values and the
/// mask's lanes, per warp and environment, are shared by every access of
/// the class: the same part, mask, context facts and block shapes.
struct LaneClass;
struct LaneShare {
  LaneExpr lanePart;    // offset - uniformPart, exactly (mod 2^64)
  LaneExpr uniformPart; // Node::uniform
  LaneClass *cls = nullptr;
  /// What the class's evaluations read of an environment besides its
  /// blocks, grid and loop iterations: these unknowns' values.
  std::vector<int> unknowns;
};

/// Fills `f` (in place: it is filled for every warp of every sample).
/// `uniforms`, where given, holds the uniform values of `env` and `sh`
/// (WarpEval::shareUniforms). `share`, where given, is the access's class:
/// the lane-varying part and mask are looked up there, or evaluated and
/// kept, and the uniform part added (the same figures as an evaluation of
/// the whole address).
void warpFigures(WarpFigures &f, const Access &acc, const LaneExpr &mask,
                 const Context &ctx, const Shape &sh, const Env &env,
                 const CostModel &cost, int w, LoopSequences &seq,
                 UniformValues *uniforms = nullptr,
                 const LaneShare *share = nullptr);

/// Words for a cache key: every fact of `ctx` an analysis of `roots` may
/// read (the atoms and loops they use), with `node` naming each expression
/// node. With `followData`, for an analysis that draws data (Env::dataSeed),
/// also those of the addresses the data is loaded from and of the other
/// loads of the same allocations; false then where that is more than
/// MaxKeyAtoms atoms (a chain of loads, each from an address built on the
/// one before: a key per access would grow with the chain, and all of them
/// with its square): such an analysis is not kept.
constexpr size_t MaxKeyAtoms = 64;
bool appendContextWords(const Context &ctx, const std::vector<LaneExpr> &roots,
                        const std::function<uint64_t(const LaneExpr &)> &node,
                        std::vector<uint64_t> &w, bool followData);
uint64_t stringHash(const std::string &s);

/// A cache key of words (FNV-1a over them): the access and site caches'.
struct KeyWords {
  std::vector<uint64_t> words;
  bool operator==(const KeyWords &o) const { return words == o.words; }
};
/// FNV-1a over the words.
inline uint64_t wordsHash(const std::vector<uint64_t> &words) {
  uint64_t h = 1469598103934665603ull;
  for (uint64_t w : words)
    h = (h ^ w) * 1099511628211ull;
  return h;
}
struct KeyWordsHash {
  size_t operator()(const KeyWords &k) const {
    return size_t(wordsHash(k.words));
  }
};

/// One warp's figures added to `t` and, where given, to `also` (the
/// representative run's subsample, gathered as the full run goes).
void accumulate(const WarpFigures &f, Totals &t, Totals *also = nullptr);

} // namespace memory_detail
} // namespace warplint

#endif
