// warplint's bundled stand-in for <cuda_bf16.h> (no CUDA toolkit): the
// bfloat16 types and the conversions kernels name most.
#pragma once
#include "../warplint_cuda.h"

struct __attribute__((aligned(2))) __nv_bfloat16 {
  unsigned short x;
  __host__ __device__ __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(float f);
  __host__ __device__ operator float() const;
};
struct __attribute__((aligned(4))) __nv_bfloat162 {
  __nv_bfloat16 x, y;
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
__host__ __device__ __nv_bfloat16 __float2bfloat16(float f);
__host__ __device__ float __bfloat162float(__nv_bfloat16 h);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b);
// Arithmetic and comparisons, as the toolkit's header defines them (unless
// __CUDA_NO_BFLOAT16_OPERATORS__): library code nvcc inlines.
#if !defined(__CUDA_NO_BFLOAT16_OPERATORS__)
WARPLINT_16BIT_FLOAT_OPERATORS(__nv_bfloat16)
#endif
