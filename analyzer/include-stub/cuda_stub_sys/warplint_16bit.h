// warplint's bundled stand-in (no CUDA toolkit), shared by <cuda_fp16.h> and
// <cuda_bf16.h>: the members, operators and intrinsics of the 16-bit float
// types, declared as the CUDA Math API documents them ("Half Precision
// Intrinsics", "Bfloat16 Precision Intrinsics"), so that code nvcc accepts
// parses. Declarations only: warplint never generates code. The model sees a
// call to one as library code: its arguments are the values read, and the
// loads, stores and atomics among them (__ldg, __stcg, atomicAdd) the accesses
// their pointer argument names.
#pragma once
#include "../warplint_cuda.h"

#define WARPLINT_HD __host__ __device__

// A scalar 16-bit type T's members (RAW: its raw struct), with every implicit
// conversion the toolkit's class has (nvcc compiles the header with them).
#define WARPLINT_16BIT_MEMBERS(T, RAW)                                         \
protected:                                                                     \
  unsigned short __x;                                                          \
                                                                               \
public:                                                                        \
  T() = default;                                                               \
  WARPLINT_HD constexpr T(const RAW &r) : __x(r.x) {}                          \
  WARPLINT_HD T &operator=(const RAW &r);                                      \
  WARPLINT_HD volatile T &operator=(const RAW &r) volatile;                    \
  WARPLINT_HD volatile T &operator=(const volatile RAW &r) volatile;           \
  WARPLINT_HD operator RAW() const;                                            \
  WARPLINT_HD operator RAW() const volatile;                                   \
  WARPLINT_HD T(float f);                                                      \
  WARPLINT_HD T(double f);                                                     \
  WARPLINT_HD operator float() const;                                          \
  WARPLINT_HD T &operator=(float f);                                           \
  WARPLINT_HD T &operator=(double f);                                          \
  WARPLINT_HD T(short v);                                                      \
  WARPLINT_HD T(unsigned short v);                                             \
  WARPLINT_HD T(int v);                                                        \
  WARPLINT_HD T(unsigned int v);                                               \
  WARPLINT_HD T(long v);                                                       \
  WARPLINT_HD T(unsigned long v);                                              \
  WARPLINT_HD T(long long v);                                                  \
  WARPLINT_HD T(unsigned long long v);                                         \
  WARPLINT_HD operator signed char() const;                                    \
  WARPLINT_HD operator unsigned char() const;                                  \
  WARPLINT_HD operator char() const;                                           \
  WARPLINT_HD operator short() const;                                          \
  WARPLINT_HD operator unsigned short() const;                                 \
  WARPLINT_HD operator int() const;                                            \
  WARPLINT_HD operator unsigned int() const;                                   \
  WARPLINT_HD operator long() const;                                           \
  WARPLINT_HD operator unsigned long() const;                                  \
  WARPLINT_HD operator long long() const;                                      \
  WARPLINT_HD operator unsigned long long() const;                             \
  WARPLINT_HD T &operator=(short v);                                           \
  WARPLINT_HD T &operator=(unsigned short v);                                  \
  WARPLINT_HD T &operator=(int v);                                             \
  WARPLINT_HD T &operator=(unsigned int v);                                    \
  WARPLINT_HD T &operator=(long long v);                                       \
  WARPLINT_HD T &operator=(unsigned long long v);                              \
  WARPLINT_HD constexpr operator bool() const { return (__x & 0x7fffu) != 0u; }

// A pair type T2 of T's members (RAW2: its raw struct). Like the toolkit's,
// it copies and moves itself in functions of its own (not trivially
// copyable): a class that holds one copies it through them.
#define WARPLINT_16BIT_PAIR_MEMBERS(T, T2, RAW2)                               \
  T x, y;                                                                      \
  T2() = default;                                                              \
  WARPLINT_HD T2(const T2 &&src);                                              \
  WARPLINT_HD T2 &operator=(const T2 &&src);                                   \
  WARPLINT_HD T2(const T2 &src);                                               \
  WARPLINT_HD T2 &operator=(const T2 &src);                                    \
  WARPLINT_HD constexpr T2(const T &a, const T &b) : x(a), y(b) {}             \
  WARPLINT_HD T2(const RAW2 &r);                                               \
  WARPLINT_HD T2 &operator=(const RAW2 &r);                                    \
  WARPLINT_HD operator RAW2() const;

// The arithmetic and comparison operators the toolkit defines for T (unless
// its __CUDA_NO_*_OPERATORS__ macro is set): library code nvcc inlines.
#define WARPLINT_16BIT_OPERATORS(T)                                            \
  WARPLINT_HD T operator+(const T &a, const T &b);                             \
  WARPLINT_HD T operator-(const T &a, const T &b);                             \
  WARPLINT_HD T operator*(const T &a, const T &b);                             \
  WARPLINT_HD T operator/(const T &a, const T &b);                             \
  WARPLINT_HD T operator+(const T &a);                                         \
  WARPLINT_HD T operator-(const T &a);                                         \
  WARPLINT_HD T &operator+=(T &a, const T &b);                                 \
  WARPLINT_HD T &operator-=(T &a, const T &b);                                 \
  WARPLINT_HD T &operator*=(T &a, const T &b);                                 \
  WARPLINT_HD T &operator/=(T &a, const T &b);                                 \
  WARPLINT_HD T &operator++(T &a);                                             \
  WARPLINT_HD T &operator--(T &a);                                             \
  WARPLINT_HD T operator++(T &a, int);                                         \
  WARPLINT_HD T operator--(T &a, int);                                         \
  WARPLINT_HD bool operator==(const T &a, const T &b);                         \
  WARPLINT_HD bool operator!=(const T &a, const T &b);                         \
  WARPLINT_HD bool operator<(const T &a, const T &b);                          \
  WARPLINT_HD bool operator>(const T &a, const T &b);                          \
  WARPLINT_HD bool operator<=(const T &a, const T &b);                         \
  WARPLINT_HD bool operator>=(const T &a, const T &b);

// The intrinsics both types share by name (overloaded on T and its pair
// T2): the element-wise ones twice, for T (S empty: __hadd, hsqrt) and for
// T2 (S = 2: __hadd2, h2sqrt).
#define WARPLINT_16BIT_INTRINSICS(T, T2)                                       \
  WARPLINT_16BIT_ELEMENTWISE(T, )                                              \
  WARPLINT_16BIT_ELEMENTWISE(T2, 2)                                            \
  __device__ T __hdiv(const T a, const T b);                                   \
  __device__ bool __hisnan(const T a);                                         \
  __device__ int __hisinf(const T a);                                          \
  __device__ T2 __h2div(const T2 a, const T2 b);                               \
  __device__ T2 __hcmadd(const T2 a, const T2 b, const T2 c);                  \
  __device__ T2 __hisnan2(const T2 a);                                         \
  WARPLINT_16BIT_COMPARE(T, T2, eq)                                            \
  WARPLINT_16BIT_COMPARE(T, T2, ne)                                            \
  WARPLINT_16BIT_COMPARE(T, T2, le)                                            \
  WARPLINT_16BIT_COMPARE(T, T2, ge)                                            \
  WARPLINT_16BIT_COMPARE(T, T2, lt)                                            \
  WARPLINT_16BIT_COMPARE(T, T2, gt)                                            \
  WARPLINT_16BIT_COMPARE(T, T2, equ)                                           \
  WARPLINT_16BIT_COMPARE(T, T2, neu)                                           \
  WARPLINT_16BIT_COMPARE(T, T2, leu)                                           \
  WARPLINT_16BIT_COMPARE(T, T2, geu)                                           \
  WARPLINT_16BIT_COMPARE(T, T2, ltu)                                           \
  WARPLINT_16BIT_COMPARE(T, T2, gtu)                                           \
  WARPLINT_HD T2 __lowhigh2highlow(const T2 a);                                \
  WARPLINT_HD float __low2float(const T2 a);                                   \
  WARPLINT_HD float __high2float(const T2 a);                                  \
  WARPLINT_16BIT_MEMORY(T)                                                     \
  WARPLINT_16BIT_MEMORY(T2)

// Arithmetic and math of one type V, element by element, named with S.
#define WARPLINT_16BIT_ELEMENTWISE(V, S)                                       \
  __device__ V __hadd##S(const V a, const V b);                                \
  __device__ V __hsub##S(const V a, const V b);                                \
  __device__ V __hmul##S(const V a, const V b);                                \
  __device__ V __hadd##S##_rn(const V a, const V b);                           \
  __device__ V __hsub##S##_rn(const V a, const V b);                           \
  __device__ V __hmul##S##_rn(const V a, const V b);                           \
  __device__ V __hadd##S##_sat(const V a, const V b);                          \
  __device__ V __hsub##S##_sat(const V a, const V b);                          \
  __device__ V __hmul##S##_sat(const V a, const V b);                          \
  __device__ V __hfma##S(const V a, const V b, const V c);                     \
  __device__ V __hfma##S##_sat(const V a, const V b, const V c);               \
  __device__ V __hfma##S##_relu(const V a, const V b, const V c);              \
  __device__ V __hneg##S(const V a);                                           \
  __device__ V __habs##S(const V a);                                           \
  __device__ V __hmax##S(const V a, const V b);                                \
  __device__ V __hmin##S(const V a, const V b);                                \
  __device__ V __hmax##S##_nan(const V a, const V b);                          \
  __device__ V __hmin##S##_nan(const V a, const V b);                          \
  __device__ V h##S##sqrt(const V a);                                          \
  __device__ V h##S##rsqrt(const V a);                                         \
  __device__ V h##S##rcp(const V a);                                           \
  __device__ V h##S##log(const V a);                                           \
  __device__ V h##S##log2(const V a);                                          \
  __device__ V h##S##log10(const V a);                                         \
  __device__ V h##S##exp(const V a);                                           \
  __device__ V h##S##exp2(const V a);                                          \
  __device__ V h##S##exp10(const V a);                                         \
  __device__ V h##S##cos(const V a);                                           \
  __device__ V h##S##sin(const V a);                                           \
  __device__ V h##S##tanh(const V a);                                          \
  __device__ V h##S##tanh_approx(const V a);                                   \
  WARPLINT_HD V h##S##trunc(const V a);                                        \
  WARPLINT_HD V h##S##ceil(const V a);                                         \
  WARPLINT_HD V h##S##floor(const V a);                                        \
  WARPLINT_HD V h##S##rint(const V a);

// A comparison OP of two T (a bool) and of two T2: per half (a T2 of 1.0
// or 0.0), as a mask, and both halves at once (a bool).
#define WARPLINT_16BIT_COMPARE(T, T2, OP)                                      \
  __device__ bool __h##OP(const T a, const T b);                               \
  __device__ T2 __h##OP##2(const T2 a, const T2 b);                            \
  __device__ unsigned __h##OP##2_mask(const T2 a, const T2 b);                 \
  __device__ bool __hb##OP##2(const T2 a, const T2 b);

// Warp shuffles, cache-hinted loads and stores, and atomic adds of one type.
#define WARPLINT_16BIT_MEMORY(T)                                               \
  __device__ T __shfl_sync(const unsigned mask, const T var, const int src,    \
                           const int width = 32);                              \
  __device__ T __shfl_up_sync(const unsigned mask, const T var,                \
                              const unsigned delta, const int width = 32);     \
  __device__ T __shfl_down_sync(const unsigned mask, const T var,              \
                                const unsigned delta, const int width = 32);   \
  __device__ T __shfl_xor_sync(const unsigned mask, const T var,               \
                               const int laneMask, const int width = 32);      \
  __device__ T __ldg(const T *const p);                                        \
  __device__ T __ldcg(const T *const p);                                       \
  __device__ T __ldca(const T *const p);                                       \
  __device__ T __ldcs(const T *const p);                                       \
  __device__ T __ldlu(const T *const p);                                       \
  __device__ T __ldcv(const T *const p);                                       \
  __device__ void __stwb(T *const p, const T v);                               \
  __device__ void __stcg(T *const p, const T v);                               \
  __device__ void __stcs(T *const p, const T v);                               \
  __device__ void __stwt(T *const p, const T v);                               \
  __device__ T atomicAdd(T *const address, const T val);

// The conversions each type names after itself (N: `half` or `bfloat16`,
// as in __float2half_rn and __float2bfloat16_rn).
#define WARPLINT_16BIT_CONVERSIONS(T, T2, N)                                   \
  WARPLINT_HD T __float2##N(const float a);                                    \
  WARPLINT_HD T __float2##N##_rn(const float a);                               \
  WARPLINT_HD T __float2##N##_rz(const float a);                               \
  WARPLINT_HD T __float2##N##_rd(const float a);                               \
  WARPLINT_HD T __float2##N##_ru(const float a);                               \
  WARPLINT_HD T __double2##N(const double a);                                  \
  WARPLINT_HD float __##N##2float(const T a);                                  \
  WARPLINT_HD T2 __float2##N##2_rn(const float a);                             \
  WARPLINT_HD T2 __floats2##N##2_rn(const float a, const float b);             \
  WARPLINT_HD T2 __float22##N##2_rn(const float2 a);                           \
  WARPLINT_HD float2 __##N##22float2(const T2 a);                              \
  WARPLINT_HD signed char __##N##2char_rz(const T h);                          \
  WARPLINT_HD unsigned char __##N##2uchar_rz(const T h);                       \
  WARPLINT_16BIT_INTEGER(T, N, int, int)                                       \
  WARPLINT_16BIT_INTEGER(T, N, uint, unsigned int)                             \
  WARPLINT_16BIT_INTEGER(T, N, short, short)                                   \
  WARPLINT_16BIT_INTEGER(T, N, ushort, unsigned short)                         \
  WARPLINT_16BIT_INTEGER(T, N, ll, long long)                                  \
  WARPLINT_16BIT_INTEGER(T, N, ull, unsigned long long)                        \
  WARPLINT_HD short __##N##_as_short(const T h);                               \
  WARPLINT_HD unsigned short __##N##_as_ushort(const T h);                     \
  WARPLINT_HD T __short_as_##N(const short i);                                 \
  WARPLINT_HD T __ushort_as_##N(const unsigned short i);                       \
  WARPLINT_HD T2 make_##N##2(const T x, const T y);                            \
  WARPLINT_HD T2 __##N##2##N##2(const T a);                                    \
  WARPLINT_HD T2 __halves2##N##2(const T a, const T b);                        \
  WARPLINT_HD T __low2##N(const T2 a);                                         \
  WARPLINT_HD T __high2##N(const T2 a);                                        \
  WARPLINT_HD T2 __low2##N##2(const T2 a);                                     \
  WARPLINT_HD T2 __high2##N##2(const T2 a);                                    \
  WARPLINT_HD T2 __lows2##N##2(const T2 a, const T2 b);                        \
  WARPLINT_HD T2 __highs2##N##2(const T2 a, const T2 b);

// To and from an integer type (X: its short name, C: the type), in the four
// roundings.
#define WARPLINT_16BIT_INTEGER(T, N, X, C)                                     \
  WARPLINT_HD C __##N##2##X##_rn(const T h);                                   \
  WARPLINT_HD C __##N##2##X##_rz(const T h);                                   \
  WARPLINT_HD C __##N##2##X##_rd(const T h);                                   \
  WARPLINT_HD C __##N##2##X##_ru(const T h);                                   \
  WARPLINT_HD T __##X##2##N##_rn(const C i);                                   \
  WARPLINT_HD T __##X##2##N##_rz(const C i);                                   \
  WARPLINT_HD T __##X##2##N##_rd(const C i);                                   \
  WARPLINT_HD T __##X##2##N##_ru(const C i);
