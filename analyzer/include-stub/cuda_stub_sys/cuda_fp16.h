// warplint's bundled stand-in for <cuda_fp16.h> (no CUDA toolkit).
#pragma once
#include "../warplint_cuda.h"

struct __attribute__((aligned(2))) __half {
  unsigned short x;
  __host__ __device__ __half() = default;
  __host__ __device__ __half(float f);
  __host__ __device__ operator float() const;
};
struct __attribute__((aligned(4))) __half2 {
  __half x, y;
};
typedef __half half;
typedef __half2 half2;
__host__ __device__ __half __float2half(float f);
__host__ __device__ float __half2float(__half h);
__host__ __device__ __half2 __floats2half2_rn(float a, float b);
__device__ __half __hadd(__half a, __half b);
__device__ __half __hmul(__half a, __half b);
__device__ __half2 __hadd2(__half2 a, __half2 b);
__device__ __half2 __hmul2(__half2 a, __half2 b);
// Arithmetic and comparisons, as the toolkit's header defines them (unless
// __CUDA_NO_HALF_OPERATORS__): library code nvcc inlines.
#if !defined(__CUDA_NO_HALF_OPERATORS__)
WARPLINT_16BIT_FLOAT_OPERATORS(__half)
#endif
