//===- Requests.cpp - what one warp's request costs -----------------------===//
//
// Sectors of a global request, wavefronts and bank conflicts of a shared
// one, addresses of a constant one: the hardware's arithmetic on one
// warp's lane addresses (Memory.h).
//
//===----------------------------------------------------------------------===//
#include "model/MemoryDetail.h"

#include <algorithm>
#include <array>

namespace warplint {
using namespace memory_detail;

// Distinct values of `first[i]..last[i]` over n ranges that start in order
// (upward, or downward with `down`), in one pass: the union's size grows by
// what each range adds past the furthest end so far. False when they are
// not in order.
static bool distinctInOrder(const int64_t *first, const int64_t *last, int n,
                            bool down, int &out) {
  int count = 0;
  int64_t prevFirst = 0, end = 0;
  for (int k = 0; k < n; ++k) {
    int i = down ? n - 1 - k : k;
    if (k > 0 && first[i] < prevFirst)
      return false;
    if (k == 0 || first[i] > end) {
      count += int(last[i] - first[i]) + 1;
      end = last[i];
    } else if (last[i] > end) {
      count += int(last[i] - end);
      end = last[i];
    }
    prevFirst = first[i];
  }
  out = count;
  return true;
}

// Distinct values of `first[i]..last[i]` over n ranges: in one ordered pass
// when they start in order (most warps' lanes run up or down an array),
// else through a bit set when they all fall within 256 of the smallest (a
// warp's sectors or elements usually do), else by sorting.
static int distinctInRanges(const int64_t *first, const int64_t *last, int n) {
  if (n == 0)
    return 0;
  int ordered = 0;
  if (distinctInOrder(first, last, n, false, ordered) ||
      distinctInOrder(first, last, n, true, ordered))
    return ordered;
  int64_t lo = first[0], hi = last[0];
  for (int i = 1; i < n; ++i) {
    lo = std::min(lo, first[i]);
    hi = std::max(hi, last[i]);
  }
  // (Unsigned: the distance between two wrapped addresses may overflow.)
  if (uint64_t(hi) - uint64_t(lo) < 256) {
    uint64_t bits[4] = {0, 0, 0, 0};
    // (Each value as an offset from the range's first, counted unsigned: a
    // range may end at the largest int64, past which `++v` overflows.)
    for (int i = 0; i < n; ++i)
      for (uint64_t d = 0, span = uint64_t(last[i]) - uint64_t(first[i]);
           d <= span; ++d) {
        uint64_t off = uint64_t(first[i]) + d - uint64_t(lo);
        bits[off >> 6] |= uint64_t(1) << (off & 63);
      }
    return __builtin_popcountll(bits[0]) + __builtin_popcountll(bits[1]) +
           __builtin_popcountll(bits[2]) + __builtin_popcountll(bits[3]);
  }
  int64_t values[2 * WarpSize];
  int m = 0;
  for (int i = 0; i < n; ++i)
    for (uint64_t d = 0, span = uint64_t(last[i]) - uint64_t(first[i]);
         d <= span && m < 2 * WarpSize; ++d)
      values[m++] = int64_t(uint64_t(first[i]) + d);
  std::sort(values, values + m);
  return int(std::unique(values, values + m) - values);
}

// Distinct units of 2^shift bytes that the active lanes' elements touch.
static int distinctUnits(const Lanes &addr, LaneMask active, int bytes,
                         int shift) {
  int64_t first[WarpSize], last[WarpSize];
  const int64_t low = (int64_t(1) << shift) - 1;
  int n = 0;
  for (int l = 0; l < WarpSize; ++l) {
    if (!((active >> l) & 1))
      continue;
    // The last byte's unit counted from the first, which cannot overflow
    // (an address may be any int64 the evaluator wrapped to).
    first[n] = addr[l] >> shift;
    last[n] = first[n] + (((addr[l] & low) + std::max(bytes, 1) - 1) >> shift);
    ++n;
  }
  return distinctInRanges(first, last, n);
}

int sectorsForRequest(const Lanes &addr, LaneMask active, int bytes) {
  return distinctUnits(addr, active, bytes, 5);
}

int idealSectors(int activeLanes, int bytes) {
  return (activeLanes * bytes + 31) / 32;
}

// Distinct addresses among the active lanes.
static int distinctAddresses(const Lanes &addr, LaneMask active) {
  int64_t seen[WarpSize];
  int n = 0;
  for (int l = 0; l < WarpSize; ++l)
    if ((active >> l) & 1)
      seen[n++] = addr[l];
  return distinctInRanges(seen, seen, n);
}

// The ideal as Nsight Compute's "ideal sectors" counts it: the sectors the
// active lanes' bytes would fill side by side, but never more than the
// request touches. A load every lane makes from one address ideally moves
// one sector, not a warp's worth (`mean[blockIdx.x]`: 1 sector, ideal 1);
// two rows of a 16x16 block reading one element each touch two sectors,
// ideal two (measured: floydwarshall's `dist[y * n + k]`, 1.0x); sixteen
// scattered addresses, two lanes each, are 16 sectors against 4.
Cost globalSectors(const Lanes &addr, LaneMask active, int bytes) {
  int sectors = sectorsForRequest(addr, active, bytes);
  int packed = idealSectors(__builtin_popcount(active), bytes);
  return {double(sectors), double(std::min(sectors, packed))};
}

int memory_detail::phaseLanes(int bytes) {
  return bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8;
}

// The lanes of phase `p` when each phase serves `per` lanes.
LaneMask memory_detail::phaseMask(int per, int p) {
  return per == 32 ? AllLanes : ((1u << per) - 1) << (p * per);
}

// Calls fn(lane, bank, word) for each 4-byte word the element of `bytes`
// bytes (at least 1) of each active lane covers.
template <class Fn>
static void forEachWord(const Lanes &addr, LaneMask active, int bytes,
                        Fn &&fn) {
  for (int l = 0; l < WarpSize; ++l) {
    if (!((active >> l) & 1))
      continue;
    int64_t first = addr[l] >> 2,
            last = first + (((addr[l] & 3) + bytes - 1) >> 2);
    for (int64_t w = first; w <= last; ++w)
      fn(l, int(((w % WarpSize) + WarpSize) % WarpSize), w);
  }
}

// worstBank() for elements wider than 16 bytes, whose lanes may touch one
// bank twice: every (bank, word) pair, sorted.
static BankConflict worstBankSorted(const Lanes &addr, LaneMask active,
                                    int bytes) {
  // (An element is counted up to 4 KiB, which covers every bank 32 times
  // over: no instruction moves more per lane, and the bound keeps the cost
  // of a nonsensical width fixed.)
  bytes = std::min(bytes, 4096);
  std::vector<std::pair<int, int64_t>> hits;
  LaneMask lanesIn[WarpSize] = {};
  forEachWord(addr, active, bytes, [&](int l, int b, int64_t w) {
    lanesIn[b] |= 1u << l;
    hits.emplace_back(b, w);
  });
  std::sort(hits.begin(), hits.end());
  int n = int(std::unique(hits.begin(), hits.end()) - hits.begin());
  BankConflict out;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && hits[j].first == hits[i].first)
      ++j;
    if (j - i > out.degree) {
      out.degree = j - i;
      out.bank = hits[i].first;
      out.lanes = lanesIn[out.bank];
    }
    i = j;
  }
  return out;
}

BankConflict worstBank(const Lanes &addr, LaneMask active, int bytes) {
  if (bytes > 16)
    return worstBankSorted(addr, active, bytes);
  bytes = std::max(bytes, 1);
  // Per bank, the distinct words the active lanes touch in it, then the
  // bank with most words. (A bank's few words are searched: a warp's lanes
  // mostly fall in distinct banks or on one word, where sorting every
  // (bank, word) pair cost more than the search.) An element of at most 16
  // bytes covers at most 5 consecutive words, so a bank holds at most one
  // word per lane.
  int64_t words[WarpSize][WarpSize];
  int count[WarpSize] = {};
  LaneMask lanesIn[WarpSize] = {};
  forEachWord(addr, active, bytes, [&](int l, int b, int64_t w) {
    lanesIn[b] |= 1u << l;
    int k = 0;
    while (k < count[b] && words[b][k] != w)
      ++k;
    if (k == count[b])
      words[b][count[b]++] = w;
  });
  BankConflict out;
  for (int b = 0; b < WarpSize; ++b)
    if (count[b] > out.degree) {
      out.degree = count[b];
      out.bank = b;
      out.lanes = lanesIn[b];
    }
  return out;
}

// Bytes of the distinct words the lanes of `a` touch.
static int distinctWordBytes(const Lanes &addr, LaneMask a, int bytes) {
  return 4 * distinctUnits(addr, a, bytes, 2);
}

Cost sharedWavefronts(const Lanes &addr, LaneMask active, int bytes) {
  Cost c;
  if (!active)
    return c;
  int per = phaseLanes(bytes);
  if (per == WarpSize) {
    c.actual = std::max(1, worstBank(addr, active, bytes).degree);
    c.ideal = 1;
    return c;
  }
  // 8- and 16-byte accesses go in phases (half-warps, quarter-warps), each
  // a wavefront per word of its worst bank. Two phases merge into one
  // wavefront when together they need at most 128 bytes (their own
  // distinct words, not shared between them) and no bank holds two of
  // their words: for 16-byte accesses the two quarters of each half-warp,
  // for 8-byte ones the two halves of a full warp. The ideal is those
  // bytes over 128 per merged pair, or the active lanes' bytes over 128 in
  // a partial 8- or 16-byte request (at most the wavefronts it takes).
  // Measured on an H200
  // (bench-kernels/smem-bank-conflict/wide_cases.cu: 19 lane patterns,
  // every wavefront count and 18 of the 19 ideals): 16 lanes of a 16x16
  // block storing doubles, 8 in each half, take 2 wavefronts against an
  // ideal of 1; a warp reading two doubles in different banks, one per
  // half, takes 1; a float4 every lane reads takes 2, not 4.
  const int phases = WarpSize / per;
  int degree[4] = {0, 0, 0, 0}, bytesIn[4] = {0, 0, 0, 0};
  for (int p = 0; p < phases; ++p) {
    LaneMask a = active & phaseMask(per, p);
    if (!a)
      continue;
    degree[p] = std::max(1, worstBank(addr, a, bytes).degree);
    bytesIn[p] = distinctWordBytes(addr, a, bytes);
  }
  const bool full = active == AllLanes;
  for (int q = 0; q < phases; q += 2) {
    LaneMask pair = active & (phaseMask(per, q) | phaseMask(per, q + 1));
    if (!pair)
      continue;
    int together = bytesIn[q] + bytesIn[q + 1];
    bool mayMerge = bytes == 16 || full;
    bool merged = mayMerge && together <= 128 &&
                  worstBank(addr, pair, bytes).degree <= 1;
    c.actual += merged ? 1 : degree[q] + degree[q + 1];
    c.ideal += std::max(1, (together + 127) / 128);
  }
  // A partial request: what its active lanes' bytes fill, but never more
  // than the wavefronts it takes (lanes that read one element share it;
  // found by fuzz_model: 20 lanes reading one 16-byte element took 2
  // wavefronts against an ideal of 3).
  if (!full)
    c.ideal = std::min(
        c.actual,
        double(std::max(1, (__builtin_popcount(active) * bytes + 127) / 128)));
  return c;
}

int sameAddressLanes(const Lanes &addr, LaneMask active) {
  int best = 0;
  for (int l = 0; l < WarpSize; ++l) {
    if (!((active >> l) & 1))
      continue;
    int n = 0;
    for (int k = 0; k < WarpSize; ++k)
      n += ((active >> k) & 1) && addr[k] == addr[l];
    best = std::max(best, n);
  }
  return best;
}

Cost constantAddresses(const Lanes &addr, LaneMask active, int bytes) {
  int n = distinctAddresses(addr, active);
  return {double(n), n ? 1.0 : 0.0};
}

} // namespace warplint
