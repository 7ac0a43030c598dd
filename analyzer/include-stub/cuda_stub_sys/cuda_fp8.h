// warplint's bundled stand-in for <cuda_fp8.h> (no CUDA toolkit): the fp8
// types and their conversions to and from float.
#pragma once
#include "../warplint_cuda.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"

struct __attribute__((aligned(1))) __nv_fp8_e4m3 {
  unsigned char __x;
  __host__ __device__ __nv_fp8_e4m3() = default;
  __host__ __device__ explicit __nv_fp8_e4m3(float f);
  __host__ __device__ explicit operator float() const;
  __host__ __device__ explicit operator __half() const;
};
struct __attribute__((aligned(1))) __nv_fp8_e5m2 {
  unsigned char __x;
  __host__ __device__ __nv_fp8_e5m2() = default;
  __host__ __device__ explicit __nv_fp8_e5m2(float f);
  __host__ __device__ explicit operator float() const;
  __host__ __device__ explicit operator __half() const;
};
struct __attribute__((aligned(2))) __nv_fp8x2_e4m3 {
  unsigned short __x;
};
struct __attribute__((aligned(4))) __nv_fp8x4_e4m3 {
  unsigned int __x;
};
