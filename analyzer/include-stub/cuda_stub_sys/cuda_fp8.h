// warplint's bundled stand-in for <cuda_fp8.h> (no CUDA toolkit): the fp8
// types (e4m3, e5m2, e8m0, and their pairs and quads), their storage types
// and the C conversions (declarations: warplint never generates code).
#pragma once
#include "cuda_fp16.h"
#include "cuda_bf16.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t {
  __NV_E4M3,
  __NV_E5M2
} __nv_fp8_interpretation_t;

#define WARPLINT_FP8_TO(S, N, T)                                               \
  WARPLINT_HD S __nv_cvt_##N(const T x, const __nv_saturation_t saturate,      \
                             const __nv_fp8_interpretation_t interpretation);
WARPLINT_FP8_TO(__nv_fp8_storage_t, double_to_fp8, double)
WARPLINT_FP8_TO(__nv_fp8x2_storage_t, double2_to_fp8x2, double2)
WARPLINT_FP8_TO(__nv_fp8_storage_t, float_to_fp8, float)
WARPLINT_FP8_TO(__nv_fp8x2_storage_t, float2_to_fp8x2, float2)
WARPLINT_FP8_TO(__nv_fp8_storage_t, halfraw_to_fp8, __half_raw)
WARPLINT_FP8_TO(__nv_fp8x2_storage_t, halfraw2_to_fp8x2, __half2_raw)
WARPLINT_FP8_TO(__nv_fp8_storage_t, bfloat16raw_to_fp8, __nv_bfloat16_raw)
WARPLINT_FP8_TO(__nv_fp8x2_storage_t, bfloat16raw2_to_fp8x2, __nv_bfloat162_raw)
#undef WARPLINT_FP8_TO
WARPLINT_HD __half_raw __nv_cvt_fp8_to_halfraw(
    const __nv_fp8_storage_t x, const __nv_fp8_interpretation_t interpretation);
WARPLINT_HD __half2_raw
__nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                           const __nv_fp8_interpretation_t interpretation);
#define WARPLINT_E8M0_TO(S, N, T)                                              \
  WARPLINT_HD S __nv_cvt_##N(const T x, const __nv_saturation_t saturate,      \
                             const enum cudaRoundMode rounding);
WARPLINT_E8M0_TO(__nv_fp8_storage_t, bfloat16raw_to_e8m0, __nv_bfloat16_raw)
WARPLINT_E8M0_TO(__nv_fp8x2_storage_t, bfloat162raw_to_e8m0x2,
                 __nv_bfloat162_raw)
WARPLINT_E8M0_TO(__nv_fp8_storage_t, float_to_e8m0, float)
WARPLINT_E8M0_TO(__nv_fp8x2_storage_t, float2_to_e8m0x2, float2)
WARPLINT_E8M0_TO(__nv_fp8_storage_t, double_to_e8m0, double)
WARPLINT_E8M0_TO(__nv_fp8x2_storage_t, double2_to_e8m0x2, double2)
#undef WARPLINT_E8M0_TO
WARPLINT_HD __nv_bfloat16_raw
__nv_cvt_e8m0_to_bf16raw(const __nv_fp8_storage_t x);
WARPLINT_HD __nv_bfloat162_raw
__nv_cvt_e8m0x2_to_bf162raw(const __nv_fp8x2_storage_t x);

// One fp8 value (S: its storage), with the toolkit's explicit conversions.
#define WARPLINT_FP8(T, S, A)                                                  \
  struct __attribute__((aligned(A))) T {                                       \
    S __x;                                                                     \
    T() = default;                                                             \
    explicit WARPLINT_HD T(const __half f);                                    \
    explicit WARPLINT_HD T(const __nv_bfloat16 f);                             \
    explicit WARPLINT_HD T(const float f);                                     \
    explicit WARPLINT_HD T(const double f);                                    \
    explicit WARPLINT_HD T(const unsigned short v);                            \
    explicit WARPLINT_HD T(const unsigned int v);                              \
    explicit WARPLINT_HD T(const unsigned long long v);                        \
    explicit WARPLINT_HD T(const short v);                                     \
    explicit WARPLINT_HD T(const int v);                                       \
    explicit WARPLINT_HD T(const long long v);                                 \
    explicit WARPLINT_HD operator float() const;                               \
    explicit WARPLINT_HD operator __half() const;                              \
    explicit WARPLINT_HD operator __nv_bfloat16() const;                       \
    explicit WARPLINT_HD operator double() const;                              \
    explicit WARPLINT_HD operator bool() const;                                \
    explicit WARPLINT_HD operator int() const;                                 \
    explicit WARPLINT_HD operator unsigned int() const;                        \
    explicit WARPLINT_HD operator short() const;                               \
    explicit WARPLINT_HD operator unsigned short() const;                      \
    explicit WARPLINT_HD operator char() const;                                \
    explicit WARPLINT_HD operator signed char() const;                         \
    explicit WARPLINT_HD operator unsigned char() const;                       \
    explicit WARPLINT_HD operator long long() const;                           \
    explicit WARPLINT_HD operator unsigned long long() const;                  \
  };
// Two of them, and four.
#define WARPLINT_FP8X2(T)                                                      \
  struct __attribute__((aligned(2))) T {                                       \
    __nv_fp8x2_storage_t __x;                                                  \
    T() = default;                                                             \
    explicit WARPLINT_HD T(const __half2 f);                                   \
    explicit WARPLINT_HD T(const __nv_bfloat162 f);                            \
    explicit WARPLINT_HD T(const float2 f);                                    \
    explicit WARPLINT_HD T(const double2 f);                                   \
    explicit WARPLINT_HD operator __half2() const;                             \
    explicit WARPLINT_HD operator float2() const;                              \
  };
#define WARPLINT_FP8X4(T)                                                      \
  struct __attribute__((aligned(4))) T {                                       \
    __nv_fp8x4_storage_t __x;                                                  \
    T() = default;                                                             \
    explicit WARPLINT_HD T(const __half2 lo, const __half2 hi);                \
    explicit WARPLINT_HD T(const __nv_bfloat162 lo, const __nv_bfloat162 hi);  \
    explicit WARPLINT_HD T(const float4 f);                                    \
    explicit WARPLINT_HD T(const double4 f);                                   \
    explicit WARPLINT_HD operator float4() const;                              \
  };
WARPLINT_FP8(__nv_fp8_e4m3, __nv_fp8_storage_t, 1)
WARPLINT_FP8(__nv_fp8_e5m2, __nv_fp8_storage_t, 1)
WARPLINT_FP8(__nv_fp8_e8m0, __nv_fp8_storage_t, 1)
WARPLINT_FP8X2(__nv_fp8x2_e4m3)
WARPLINT_FP8X2(__nv_fp8x2_e5m2)
WARPLINT_FP8X2(__nv_fp8x2_e8m0)
WARPLINT_FP8X4(__nv_fp8x4_e4m3)
WARPLINT_FP8X4(__nv_fp8x4_e5m2)
WARPLINT_FP8X4(__nv_fp8x4_e8m0)
#undef WARPLINT_FP8
#undef WARPLINT_FP8X2
#undef WARPLINT_FP8X4
