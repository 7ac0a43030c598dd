//===- Vectorize.h - accesses nvcc merges into one wide access --*- C++ -*-===//
//
// nvcc turns neighbouring accesses of one statement into one vector access
// when it can prove them adjacent and aligned: `d[i].x` and `d[i].y` of a
// float2 read together are one LDG.E.64 (8 bytes per lane, ideal 8 sectors,
// not a 2x array-of-structures waste); `s[2*i]` and `s[2*i+1]` are one
// LDS.64. The model does the same so that it neither warns about what the
// compiler already merged nor counts two requests where the GPU issues one.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_VECTORIZE_H
#define WARPLINT_MODEL_VECTORIZE_H

#include "model/Memory.h"

#include <vector>

namespace warplint {

/// One access as the merge sees it. `group` identifies accesses that may
/// merge at all: one statement, one allocation, one space, loads with loads
/// and stores with stores (the caller decides).
struct MergeInput {
  Access access;
  int group = 0;
  /// The alignment the allocation guarantees in bytes (a vector type's own
  /// alignment, 16 for cudaMalloc'd pointers cast to their element type is
  /// NOT assumed: the element's natural alignment is what nvcc knows).
  int baseAlign = 4;
};

/// A merged access: `first` (the lowest offset) absorbs `members` (indices
/// into the input, `first` included); `bytes` is the merged width.
struct MergedAccess {
  size_t first = 0;
  std::vector<size_t> members;
  int bytes = 0;
};

/// Runs of 2 or 4 accesses of one group, with the same mask and element
/// size, whose offsets are `elementBytes` apart for every lane (checked in
/// several environments), whose merged width is at most 16 bytes and whose
/// first offset is a multiple of that width for every lane and at most the
/// base's alignment. Accesses at the same offset as another (for every lane,
/// everywhere) join it: nvcc loads an element once. Accesses that merge
/// with nothing are not listed.
std::vector<MergedAccess> mergeAdjacent(const std::vector<MergeInput> &in,
                                        const Context &ctx, const Shape &shape);

/// Do accesses `a` and `b` touch disjoint bytes in every lane, their
/// offsets one constant apart everywhere (checked in the environments the
/// merge uses)? `p[i].x` and `p[i].y` do: nvcc moves a store of one past a
/// load of the other, and merges the loads.
bool disjointAtConstantDistance(const Access &a, const Access &b,
                                const Context &ctx, const Shape &shape);

} // namespace warplint

#endif
