// Declarations of what nvcc provides by itself and Clang 22 does not, so that
// code using them parses and its accesses are seen. warplint only parses
// (-fsyntax-only); nothing here is ever compiled to code.
//
// - The __nv_atomic_* builtins and their __NV_ATOMIC_* / __NV_THREAD_SCOPE_*
//   constants (CUDA 12.8 and later).
// - The cache-hinted loads and stores of sm_32_intrinsics.h that Clang's CUDA
//   wrapper leaves out (it declares __ldg, __ldcg, __ldcs, __ldcv and __stwt).
// - Host overloads of min and max (below).
// - The C headers nvcc's own headers include in every .cu file (below).
// - __CUDACC__ defined as 1, __NVCC__ and __CUDACC_VER_MAJOR__/_MINOR__
//   defined, as nvcc does.
// - CUDA 13's __block_size__ kernel attribute, as a block-shape annotation.
// - The cudaThread* runtime functions CUDA 13 removed, as the cudaDevice*
//   functions they always were.
#ifndef WARPLINT_NVCC_BUILTINS_H
#define WARPLINT_NVCC_BUILTINS_H
#if defined(__CUDA__) && defined(__cplusplus)

// nvcc's headers (crt/common_functions.h, crt/math_functions.h) include
// <time.h>, <string.h>, <stdlib.h>, <stdio.h> and <math.h> in every .cu
// file, and host code leans on it: clock() and CLOCKS_PER_SEC, malloc,
// memset, strlen and sqrt without their headers. C++'s <math.h> also puts
// std's host isfinite, isnan, isinf and signbit (float, double) in the
// global namespace, where Clang's CUDA headers declare only device ones, so
// `isfinite(x)` in host code with <cmath> alone finds the host overload as
// with nvcc, not "call to __device__ function from __host__ function".
#if __has_include(<time.h>)
#include <time.h>
#endif
#if __has_include(<string.h>)
#include <string.h>
#endif
#if __has_include(<stdlib.h>)
#include <stdlib.h>
#endif
#if __has_include(<stdio.h>)
#include <stdio.h>
#endif
#if __has_include(<math.h>)
#include <math.h>
#endif

// nvcc defines __CUDACC__ as 1; Clang's CUDA headers define it empty, which
// breaks `#if __CUDACC__` in real code.
#ifdef __CUDACC__
#undef __CUDACC__
#endif
#define __CUDACC__ 1

// nvcc defines its version as __CUDACC_VER_MAJOR__ / _MINOR__ / _BUILD__;
// Clang does not, so `#if __CUDACC_VER_MAJOR__ >= 13` picks the branch for
// old toolkits (APIs CUDA 13 removed). The toolkit's version is nvcc's.
#if !defined(__CUDACC_VER_MAJOR__) && defined(CUDA_VERSION)
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif

// The cudaThread* functions, deprecated since CUDA 4.0 and removed in CUDA
// 13, are still called by host code written for older toolkits; each was
// documented as the cudaDevice* function of the same meaning. Only where the
// toolkit no longer declares them (CUDA 13; the bundled headers, which stand
// for 12.9, declare them).
#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 13 && \
    !defined(cudaThreadSynchronize)
#define cudaThreadSynchronize cudaDeviceSynchronize
#define cudaThreadExit cudaDeviceReset
#define cudaThreadSetLimit cudaDeviceSetLimit
#define cudaThreadGetLimit cudaDeviceGetLimit
#define cudaThreadSetCacheConfig cudaDeviceSetCacheConfig
#define cudaThreadGetCacheConfig cudaDeviceGetCacheConfig
#endif

// nvcc defines __NVCC__, and real code keys its __host__ __device__ macros
// and its CUDA-or-HIP choice on it (`#ifdef __NVCC__ ... #else #include
// <hip/hip_runtime.h>`). CCCL and <nv/target> key their compiler detection on
// it too: they are read first, so that they still see Clang.
#ifndef __NVCC__
#if defined(CUDA_VERSION) && __has_include(<nv/target>) && \
    __has_include(<cuda/std/__cccl/compiler.h>)
#include <nv/target>
#include <cuda/std/__cccl/compiler.h>
#endif
#define __NVCC__ 1
#endif

// CUDA 13's __block_size__(x, y, z) kernel attribute expands to an attribute
// Clang 22 does not know (and drops with a warning); as warplint's own
// block-shape annotation it gives the kernel its block shape.
#ifdef __block_size__
#undef __block_size__
#endif
#define __block_size__(...) __attribute__((annotate("warplint.block_dim", __VA_ARGS__)))

#define WARPLINT_DEV __attribute__((device))

#ifndef __NV_ATOMIC_RELAXED
#define __NV_ATOMIC_RELAXED 0
#define __NV_ATOMIC_CONSUME 1
#define __NV_ATOMIC_ACQUIRE 2
#define __NV_ATOMIC_RELEASE 3
#define __NV_ATOMIC_ACQ_REL 4
#define __NV_ATOMIC_SEQ_CST 5
#endif
#ifndef __NV_THREAD_SCOPE_THREAD
#define __NV_THREAD_SCOPE_THREAD 0
#define __NV_THREAD_SCOPE_BLOCK 1
#define __NV_THREAD_SCOPE_CLUSTER 2
#define __NV_THREAD_SCOPE_DEVICE 3
#define __NV_THREAD_SCOPE_SYSTEM 4
#endif

namespace warplint_builtins {
template <class T> struct plain { typedef T type; };
template <class T> struct plain<const T> { typedef T type; };
template <class T> struct plain<volatile T> { typedef T type; };
template <class T> struct plain<const volatile T> { typedef T type; };
} // namespace warplint_builtins

#define WARPLINT_PLAIN(T) typename warplint_builtins::plain<T>::type

// Loads and stores: the pointer is the first argument.
template <class T>
WARPLINT_DEV WARPLINT_PLAIN(T) __nv_atomic_load_n(T *p, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class R>
WARPLINT_DEV void __nv_atomic_load(T *p, R *ret, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class V>
WARPLINT_DEV void __nv_atomic_store_n(T *p, V value, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class V>
WARPLINT_DEV void __nv_atomic_store(T *p, V *value, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class V>
WARPLINT_DEV WARPLINT_PLAIN(T) __nv_atomic_exchange_n(T *p, V value, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class V, class R>
WARPLINT_DEV void __nv_atomic_exchange(T *p, V *value, R *ret, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class E, class V>
WARPLINT_DEV bool __nv_atomic_compare_exchange_n(T *p, E *expected, V desired, bool weak, int success,
                                                 int failure, int scope = __NV_THREAD_SCOPE_SYSTEM);
template <class T, class E, class V>
WARPLINT_DEV bool __nv_atomic_compare_exchange(T *p, E *expected, V *desired, bool weak, int success,
                                               int failure, int scope = __NV_THREAD_SCOPE_SYSTEM);
WARPLINT_DEV void __nv_atomic_thread_fence(int order, int scope = __NV_THREAD_SCOPE_SYSTEM);

// Read-modify-write forms: __nv_atomic_fetch_OP returns the old value,
// __nv_atomic_OP returns nothing.
#define WARPLINT_NV_ATOMIC_RMW(op)                                                              \
  template <class T, class V>                                                                  \
  WARPLINT_DEV WARPLINT_PLAIN(T) __nv_atomic_fetch_##op(T *p, V value, int order,               \
                                                        int scope = __NV_THREAD_SCOPE_SYSTEM); \
  template <class T, class V>                                                                  \
  WARPLINT_DEV void __nv_atomic_##op(T *p, V value, int order, int scope = __NV_THREAD_SCOPE_SYSTEM);
WARPLINT_NV_ATOMIC_RMW(add)
WARPLINT_NV_ATOMIC_RMW(sub)
WARPLINT_NV_ATOMIC_RMW(min)
WARPLINT_NV_ATOMIC_RMW(max)
WARPLINT_NV_ATOMIC_RMW(and)
WARPLINT_NV_ATOMIC_RMW(or)
WARPLINT_NV_ATOMIC_RMW(xor)
#undef WARPLINT_NV_ATOMIC_RMW

// Cache-hinted loads and stores Clang's wrapper does not declare. They are
// templates, so the non-template overloads that cuda_fp16.h and cuda_bf16.h
// declare for their own types still win; the value parameter does not take
// part in deduction, so a float store of a double converts as with nvcc.
#define WARPLINT_HINTED_LOAD(name)                                                             \
  template <class T> WARPLINT_DEV WARPLINT_PLAIN(T) name(const T *p);
#define WARPLINT_HINTED_STORE(name)                                                            \
  template <class T> WARPLINT_DEV void name(T *p, typename warplint_builtins::plain<T>::type value);
WARPLINT_HINTED_LOAD(__ldca)
WARPLINT_HINTED_LOAD(__ldlu)
WARPLINT_HINTED_STORE(__stcs)
WARPLINT_HINTED_STORE(__stcg)
WARPLINT_HINTED_STORE(__stwb)
#undef WARPLINT_HINTED_LOAD
#undef WARPLINT_HINTED_STORE

// Host min and max. nvcc's math_functions.hpp declares them __host__
// __device__, for every mix of integer widths and signedness and for
// floating point; Clang's CUDA headers make them device-only, so host code
// (a launch configuration's min(blocks, 1024), a result check) stops with "no
// matching function". Host overloads, as nvcc has them:
#define WARPLINT_HOST __attribute__((host))
#define WARPLINT_MINMAX(R, A, B)                                                                \
  WARPLINT_HOST R min(A, B);                                                                   \
  WARPLINT_HOST R max(A, B);
WARPLINT_MINMAX(int, int, int)
WARPLINT_MINMAX(unsigned int, unsigned int, unsigned int)
WARPLINT_MINMAX(unsigned int, int, unsigned int)
WARPLINT_MINMAX(unsigned int, unsigned int, int)
WARPLINT_MINMAX(long, long, long)
WARPLINT_MINMAX(unsigned long, unsigned long, unsigned long)
WARPLINT_MINMAX(unsigned long, long, unsigned long)
WARPLINT_MINMAX(unsigned long, unsigned long, long)
WARPLINT_MINMAX(long long, long long, long long)
WARPLINT_MINMAX(unsigned long long, unsigned long long, unsigned long long)
WARPLINT_MINMAX(unsigned long long, long long, unsigned long long)
WARPLINT_MINMAX(unsigned long long, unsigned long long, long long)
WARPLINT_MINMAX(float, float, float)
WARPLINT_MINMAX(double, double, double)
WARPLINT_MINMAX(double, float, double)
WARPLINT_MINMAX(double, double, float)
#undef WARPLINT_MINMAX
#undef WARPLINT_HOST

#undef WARPLINT_PLAIN
#undef WARPLINT_DEV
#endif
#endif
