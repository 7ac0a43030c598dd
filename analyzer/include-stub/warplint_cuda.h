// warplint's bundled minimal CUDA header, used when no CUDA toolkit is found
// (or with --no-cuda-toolkit). It declares what kernels and launch sites need
// so that the device-side AST has the same shape as with the real toolkit:
// threadIdx & co come from Clang's own __clang_cuda_builtin_vars.h, and the
// device intrinsics from Clang's CUDA wrapper headers.
#pragma once
#ifndef WARPLINT_CUDA_STUB
#define WARPLINT_CUDA_STUB 1
#ifndef CUDA_VERSION
#define CUDA_VERSION 12090
#endif
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 9
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict

#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <math.h>
#include "__clang_cuda_builtin_vars.h"

#define WARPLINT_VEC(N, T, A1, A2, A3, A4)                                    \
  struct __attribute__((aligned(A1))) N##1 { T x; };                          \
  struct __attribute__((aligned(A2))) N##2 { T x, y; };                       \
  struct __attribute__((aligned(A3))) N##3 { T x, y, z; };                    \
  struct __attribute__((aligned(A4))) N##4 { T x, y, z, w; };
WARPLINT_VEC(char, signed char, 1, 2, 1, 4)
WARPLINT_VEC(uchar, unsigned char, 1, 2, 1, 4)
WARPLINT_VEC(short, short, 2, 4, 2, 8)
WARPLINT_VEC(ushort, unsigned short, 2, 4, 2, 8)
WARPLINT_VEC(int, int, 4, 8, 4, 16)
WARPLINT_VEC(uint, unsigned int, 4, 8, 4, 16)
WARPLINT_VEC(long, long, 8, 16, 8, 16)
WARPLINT_VEC(ulong, unsigned long, 8, 16, 8, 16)
WARPLINT_VEC(longlong, long long, 8, 16, 8, 16)
WARPLINT_VEC(ulonglong, unsigned long long, 8, 16, 8, 16)
WARPLINT_VEC(float, float, 4, 8, 4, 16)
WARPLINT_VEC(double, double, 8, 16, 8, 16)
#undef WARPLINT_VEC

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return {x, y, z}; }
};

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef enum cudaError { cudaSuccess = 0 } cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
  cudaMemcpyDeviceToDevice, cudaMemcpyDefault
};
extern "C" {
int cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0,
                      cudaStream_t stream = 0);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0,
                                     cudaStream_t stream = 0);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block,
                             void **args, size_t shared, cudaStream_t stream);
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n,
                       enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *ptr, int value, size_t n);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned flags = 1);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n,
                            enum cudaMemcpyKind kind, cudaStream_t s = 0);
cudaError_t cudaMemsetAsync(void *ptr, int value, size_t n, cudaStream_t s = 0);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t err);
cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value);
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsDim[3],
      maxGridSize[3], clockRate, major, minor, multiProcessorCount,
      memoryClockRate, memoryBusWidth, l2CacheSize;
};
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaGetLastError(void);
const char *cudaGetErrorString(cudaError_t err);
}
template <class T> static inline cudaError_t cudaMalloc(T **ptr, size_t size) {
  return cudaMalloc((void **)ptr, size);
}
template <class T>
static inline cudaError_t cudaMallocManaged(T **ptr, size_t size,
                                            unsigned flags = 1) {
  return cudaMallocManaged((void **)ptr, size, flags);
}
template <class T>
static inline cudaError_t cudaMallocHost(T **ptr, size_t size) {
  return cudaMallocHost((void **)ptr, size);
}
template <class T>
cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t n,
                               size_t offset = 0,
                               enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T>
cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t n,
                                 size_t offset = 0,
                                 enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T>
cudaError_t cudaFuncSetAttribute(T *func, int attr, int value) {
  return cudaFuncSetAttribute((const void *)func, attr, value);
}
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
#define cudaMemAttachGlobal 1

typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;
static __host__ __device__ inline uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }
static __host__ __device__ inline int2 make_int2(int x, int y) { return {x, y}; }
static __host__ __device__ inline float2 make_float2(float x, float y) { return {x, y}; }
static __host__ __device__ inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
static __host__ __device__ inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
static __host__ __device__ inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return {x, y, z}; }
extern "C" __device__ unsigned __isShared(const void *);
extern "C" __device__ size_t __cvta_generic_to_shared(const void *);

// Device intrinsics and math, from Clang's own CUDA headers.
#define __DEVICE__ static __device__ __forceinline__
#include "__clang_cuda_libdevice_declares.h"
#include "__clang_cuda_device_functions.h"
#include "__clang_cuda_math.h"
#include "__clang_cuda_intrinsics.h"
#undef __DEVICE__

// Atomics (declarations only: warplint never generates code).
#define WARPLINT_ATOMIC(NAME, T) __device__ T NAME(T *address, T val);
#define WARPLINT_ATOMIC_INT(NAME)                                              \
  WARPLINT_ATOMIC(NAME, int)                                                   \
  WARPLINT_ATOMIC(NAME, unsigned int)                                          \
  WARPLINT_ATOMIC(NAME, unsigned long long)
WARPLINT_ATOMIC_INT(atomicAdd)
WARPLINT_ATOMIC(atomicAdd, float)
WARPLINT_ATOMIC(atomicAdd, double)
WARPLINT_ATOMIC_INT(atomicSub)
WARPLINT_ATOMIC_INT(atomicExch)
WARPLINT_ATOMIC(atomicExch, float)
WARPLINT_ATOMIC_INT(atomicMin)
WARPLINT_ATOMIC_INT(atomicMax)
WARPLINT_ATOMIC_INT(atomicAnd)
WARPLINT_ATOMIC_INT(atomicOr)
WARPLINT_ATOMIC_INT(atomicXor)
WARPLINT_ATOMIC(atomicInc, unsigned int)
WARPLINT_ATOMIC(atomicDec, unsigned int)
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare,
                                  unsigned int val);
__device__ unsigned long long atomicCAS(unsigned long long *address,
                                        unsigned long long compare,
                                        unsigned long long val);
#undef WARPLINT_ATOMIC_INT
#undef WARPLINT_ATOMIC
#endif
