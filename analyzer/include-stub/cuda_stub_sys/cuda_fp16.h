// warplint's bundled stand-in for <cuda_fp16.h> (no CUDA toolkit): the half
// types with the toolkit's members, operators and intrinsics (declarations:
// warplint_16bit.h).
#pragma once
#include "warplint_16bit.h"

typedef struct __attribute__((aligned(2))) {
  unsigned short x;
} __half_raw;
typedef struct __attribute__((aligned(4))) {
  unsigned short x, y;
} __half2_raw;

struct __nv_bfloat16;
struct __attribute__((aligned(2))) __half {
  WARPLINT_16BIT_MEMBERS(__half, __half_raw)
  explicit WARPLINT_HD __half(const __nv_bfloat16 f);
};
struct __attribute__((aligned(4))) __half2 {
  WARPLINT_16BIT_PAIR_MEMBERS(__half, __half2, __half2_raw)
};
typedef __half half;
typedef __half2 half2;

WARPLINT_16BIT_CONVERSIONS(__half, __half2, half)
WARPLINT_16BIT_INTRINSICS(__half, __half2)
#if !defined(__CUDA_NO_HALF_OPERATORS__)
WARPLINT_16BIT_OPERATORS(__half)
#endif
#if !defined(__CUDA_NO_HALF2_OPERATORS__)
WARPLINT_16BIT_OPERATORS(__half2)
#endif
// The constants, by their bits.
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
