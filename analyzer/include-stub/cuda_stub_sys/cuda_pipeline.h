// warplint's bundled stand-in for <cuda_pipeline.h> (no CUDA toolkit): the
// per-thread asynchronous-copy primitives (modelled as a global read and a
// shared write per lane, analyzer/frontend/walker/WalkerIntrinsics.cpp).
#pragma once
#include "../warplint_cuda.h"

extern "C" __device__ void __pipeline_memcpy_async(void *dst, const void *src,
                                                   size_t size_and_align,
                                                   size_t zfill = 0);
extern "C" __device__ void __pipeline_commit();
extern "C" __device__ void __pipeline_wait_prior(size_t prior);
extern "C" __device__ void __pipeline_arrive_on(unsigned long long *bar);
