// warplint's bundled stand-in for <cuda_bf16.h> (no CUDA toolkit): the
// bfloat16 types with the toolkit's members, operators and intrinsics
// (declarations: warplint_16bit.h). Like the toolkit's, it includes
// <cuda_fp16.h>.
#pragma once
#include "cuda_fp16.h"

typedef struct __attribute__((aligned(2))) {
  unsigned short x;
} __nv_bfloat16_raw;
typedef struct __attribute__((aligned(4))) {
  unsigned short x, y;
} __nv_bfloat162_raw;

struct __attribute__((aligned(2))) __nv_bfloat16 {
  WARPLINT_16BIT_MEMBERS(__nv_bfloat16, __nv_bfloat16_raw)
  explicit WARPLINT_HD __nv_bfloat16(const __half f);
};
struct __attribute__((aligned(4))) __nv_bfloat162 {
  WARPLINT_16BIT_PAIR_MEMBERS(__nv_bfloat16, __nv_bfloat162, __nv_bfloat162_raw)
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

WARPLINT_16BIT_CONVERSIONS(__nv_bfloat16, __nv_bfloat162, bfloat16)
WARPLINT_16BIT_INTRINSICS(__nv_bfloat16, __nv_bfloat162)
#if !defined(__CUDA_NO_BFLOAT16_OPERATORS__)
WARPLINT_16BIT_OPERATORS(__nv_bfloat16)
#endif
#if !defined(__CUDA_NO_BFLOAT162_OPERATORS__)
WARPLINT_16BIT_OPERATORS(__nv_bfloat162)
#endif
// The constants, by their bits.
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
