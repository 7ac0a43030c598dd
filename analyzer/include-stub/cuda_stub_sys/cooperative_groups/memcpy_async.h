// warplint's bundled stand-in for <cooperative_groups/memcpy_async.h> (no
// CUDA toolkit): a group's asynchronous copy (analyzer/frontend/
// WalkerIntrinsics.cpp models it).
#pragma once
#include "../cooperative_groups.h"
#include "../cuda/barrier"


namespace cooperative_groups {
template <typename Group>
__device__ void memcpy_async(const Group &group, void *dst, const void *src,
                             unsigned long bytes);
template <typename Group, unsigned long N>
__device__ void memcpy_async(const Group &group, void *dst, const void *src,
                             cuda::aligned_size_t<N> bytes);
template <typename Group> __device__ void wait(const Group &group);
template <typename Group> __device__ void wait_prior(const Group &group);
} // namespace cooperative_groups
