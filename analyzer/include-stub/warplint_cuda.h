// warplint's bundled minimal CUDA header, used when no CUDA toolkit is found
// (or with --no-cuda-toolkit). It declares what kernels and launch sites need
// so that the device-side AST has the same shape as with the real toolkit:
// threadIdx & co come from Clang's own __clang_cuda_builtin_vars.h, and the
// device intrinsics from Clang's CUDA wrapper headers.
#pragma once
// A system header, as the toolkit's are: what it declares is library code
// (its warnings are not the user's, and the walker reads its functions and
// types as it reads the toolkit's).
#pragma clang system_header
#ifndef WARPLINT_CUDA_STUB
#define WARPLINT_CUDA_STUB 1
#ifndef CUDA_VERSION
#define CUDA_VERSION 12090
#endif
// cuda_runtime_api.h's version macro, which code tests to pick the
// *_sync warp intrinsics (`#if CUDART_VERSION >= 9000`).
#ifndef CUDART_VERSION
#define CUDART_VERSION CUDA_VERSION
#endif
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 9
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict

// As Clang's CUDA wrapper does: the device overloads of the math functions
// are declared before <cmath>, so that `pow(x, 2)` in a __host__ __device__
// function finds one; memcpy, memset, malloc, free, printf and assert()
// work in device code.
#include "__clang_cuda_math_forward_declares.h"
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <math.h>
#include <cmath>
#include <stdlib.h>
#include <string.h>
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

// device_types.h's rounding modes (the fp8 conversions take one).
enum cudaRoundMode {
  cudaRoundNearest,
  cudaRoundZero,
  cudaRoundPosInf,
  cudaRoundMinInf
};
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef enum cudaError {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3, cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9, cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13, cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21, cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101, cudaErrorInvalidKernelImage = 200,
  cudaErrorNoKernelImageForDevice = 209, cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600, cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701, cudaErrorLaunchTimeout = 702,
  cudaErrorPeerAccessAlreadyEnabled = 704, cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorAssert = 710, cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801, cudaErrorUnknown = 999
} cudaError_t;
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
// What a kernel launch from device code becomes (with relocatable device
// code: -rdc=true, Clang's -fgpu-rdc), as cuda_device_runtime_api.h has it.
__device__ void *cudaGetParameterBuffer(size_t alignment, size_t size);
__device__ cudaError_t cudaLaunchDevice(void *func, void *parameterBuffer,
                                        dim3 gridDimension, dim3 blockDimension,
                                        unsigned int sharedMemSize,
                                        cudaStream_t stream);
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
  size_t totalConstMem, memPitch, textureAlignment, sharedMemPerMultiprocessor,
      sharedMemPerBlockOptin;
  int maxThreadsPerMultiProcessor, regsPerMultiprocessor, concurrentKernels,
      computeMode, integrated, canMapHostMemory, ECCEnabled, pciBusID,
      pciDeviceID, pciDomainID, asyncEngineCount, unifiedAddressing,
      managedMemory, concurrentManagedAccess, maxBlocksPerMultiProcessor,
      cooperativeLaunch, persistingL2CacheMaxSize, isMultiGpuBoard,
      pageableMemoryAccess, hostNativeAtomicSupported, memoryPoolsSupported;
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
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
#define cudaMemAttachGlobal 1


// More of the runtime API that host code calls: declarations written from
// the CUDA Runtime API reference, enough for code to parse.
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3, cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11, cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13, cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15, cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17, cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19, cudaDevAttrComputeMode = 20,
  cudaDevAttrConcurrentKernels = 31, cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33, cudaDevAttrPciDeviceId = 34,
  cudaDevAttrMemoryClockRate = 36, cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38, cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40, cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrManagedMemory = 83,
  cudaDevAttrConcurrentManagedAccess = 89, cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrMemoryPoolsSupported = 115
};
enum cudaComputeMode {
  cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2, cudaComputeModeExclusiveProcess = 3
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaLimit {
  cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1,
  cudaLimitMallocHeapSize = 2, cudaLimitDevRuntimeSyncDepth = 3,
  cudaLimitDevRuntimePendingLaunchCount = 4,
  cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6
};
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2, cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation { enum cudaMemLocationType type; int id; };
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3, cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5, cudaMemAdviseUnsetAccessedBy = 6
};
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 1,
  cudaMemPoolReuseAllowOpportunistic = 2,
  cudaMemPoolReuseAllowInternalDependencies = 3,
  cudaMemPoolAttrReleaseThreshold = 4, cudaMemPoolAttrReservedMemCurrent = 5,
  cudaMemPoolAttrReservedMemHigh = 6, cudaMemPoolAttrUsedMemCurrent = 7,
  cudaMemPoolAttrUsedMemHigh = 8
};
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
typedef struct cudaArray *cudaArray_t;
struct cudaMemcpy3DParms {
  cudaArray_t srcArray; struct cudaPos srcPos; struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray; struct cudaPos dstPos; struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent; enum cudaMemcpyKind kind;
};
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA,
      maxDynamicSharedSizeBytes, preferredShmemCarveout;
};
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef void (*cudaHostFn_t)(void *user_data);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status,
                                     void *user_data);
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)

extern "C" {
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
// Deprecated since CUDA 4.0 and still in 12.9's runtime API (CUDA 13 removed
// them): the cudaDevice* functions under their old names.
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadExit(void);
cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaThreadGetLimit(size_t *value, enum cudaLimit limit);
cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config);
cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *config);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer);
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int *flags);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int flags, int priority);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int flags = 0);
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t callback,
                                  void *user_data, unsigned int flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *user_data);
cudaError_t cudaStreamBeginCapture(cudaStream_t s, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *graph);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned int flags);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long flags = 0);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t s);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaHostGetDevicePointer(void **device, void *host, unsigned int flags);
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaMalloc3D(struct cudaPitchedPtr *ptr, struct cudaExtent extent);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                         size_t width, size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                              size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t s = 0);
cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
cudaError_t cudaMemset2D(void *ptr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset3D(struct cudaPitchedPtr ptr, int value, struct cudaExtent extent);
cudaError_t cudaMemcpyPeer(void *dst, int dst_device, const void *src,
                           int src_device, size_t n);
cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src,
                                int src_device, size_t n, cudaStream_t s = 0);
cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t n, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t s = 0);
cudaError_t cudaMemAdvise(const void *ptr, size_t n, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location);
cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t s);
cudaError_t cudaFreeAsync(void *ptr, cudaStream_t s);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config);
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block,
                                        void **args, size_t shared, cudaStream_t s);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func,
                                                          int block_size, size_t shared);
cudaError_t cudaGetSymbolAddress(void **ptr, const void *symbol);
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
}
static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
  return {d, p, xsz, ysz};
}
static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) { return {x, y, z}; }
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) { return {w, h, d}; }
// The C++ API keeps the older five-argument form.
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                               cudaGraphNode_t *error_node, char *log,
                                               size_t log_size) {
  return cudaGraphInstantiate(exec, graph, 0ull);
}
template <class T>
static inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc((void **)ptr, size, flags);
}
template <class T>
static inline cudaError_t cudaHostGetDevicePointer(T **device, void *host, unsigned int flags) {
  return cudaHostGetDevicePointer((void **)device, host, flags);
}
template <class T>
static inline cudaError_t cudaMallocPitch(T **ptr, size_t *pitch, size_t width, size_t height) {
  return cudaMallocPitch((void **)ptr, pitch, width, height);
}
template <class T>
static inline cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t s) {
  return cudaMallocAsync((void **)ptr, size, s);
}
template <class T>
cudaError_t cudaLaunchKernel(T *func, dim3 grid, dim3 block, void **args,
                             size_t shared = 0, cudaStream_t s = 0) {
  return cudaLaunchKernel((const void *)func, grid, block, args, shared, s);
}
template <class T>
cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 grid, dim3 block, void **args,
                                        size_t shared = 0, cudaStream_t s = 0) {
  return cudaLaunchCooperativeKernel((const void *)func, grid, block, args, shared, s);
}
template <class T>
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *func) {
  return cudaFuncGetAttributes(attr, (const void *)func);
}
template <class T>
cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache config) {
  return cudaFuncSetCacheConfig((const void *)func, config);
}
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, T func, int block_size,
                                                          size_t shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)func, block_size,
                                                       shared);
}
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block_size, T func,
                                               size_t shared = 0, int limit = 0);
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t n,
                                    size_t offset = 0,
                                    enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                    cudaStream_t s = 0);
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t n,
                                      size_t offset = 0,
                                      enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                      cudaStream_t s = 0);
template <class T>
cudaError_t cudaGetSymbolAddress(void **ptr, const T &symbol) {
  return cudaGetSymbolAddress(ptr, (const void *)&symbol);
}
template <class T>
cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  return cudaGetSymbolSize(size, (const void *)&symbol);
}

typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;
// make_<type><n>() for every vector type, as vector_functions.h has them.
#define WARPLINT_MAKE(N, T)                                                    \
  static __host__ __device__ inline N##1 make_##N##1(T x) { return {x}; }     \
  static __host__ __device__ inline N##2 make_##N##2(T x, T y) {              \
    return {x, y};                                                             \
  }                                                                            \
  static __host__ __device__ inline N##3 make_##N##3(T x, T y, T z) {         \
    return {x, y, z};                                                          \
  }                                                                            \
  static __host__ __device__ inline N##4 make_##N##4(T x, T y, T z, T w) {    \
    return {x, y, z, w};                                                       \
  }
WARPLINT_MAKE(char, signed char)
WARPLINT_MAKE(uchar, unsigned char)
WARPLINT_MAKE(short, short)
WARPLINT_MAKE(ushort, unsigned short)
WARPLINT_MAKE(int, int)
WARPLINT_MAKE(uint, unsigned int)
WARPLINT_MAKE(long, long)
WARPLINT_MAKE(ulong, unsigned long)
WARPLINT_MAKE(longlong, long long)
WARPLINT_MAKE(ulonglong, unsigned long long)
WARPLINT_MAKE(float, float)
WARPLINT_MAKE(double, double)
#undef WARPLINT_MAKE
extern "C" __device__ unsigned __isShared(const void *);
extern "C" __device__ size_t __cvta_generic_to_shared(const void *);

// Device intrinsics and math, from Clang's own CUDA headers.
#define __DEVICE__ static __device__ __forceinline__
#include "__clang_cuda_libdevice_declares.h"
#include "__clang_cuda_device_functions.h"
#include "__clang_cuda_math.h"
#include "__clang_cuda_intrinsics.h"
#undef __DEVICE__
#include "__clang_cuda_cmath.h"

// sm_61's integer dot products (sm_61_intrinsics.h), which Clang's CUDA
// headers do not have.
__device__ int __dp4a(int srcA, int srcB, int c);
__device__ unsigned int __dp4a(unsigned int srcA, unsigned int srcB,
                               unsigned int c);
__device__ int __dp4a(char4 srcA, char4 srcB, int c);
__device__ unsigned int __dp4a(uchar4 srcA, uchar4 srcB, unsigned int c);
__device__ int __dp2a_lo(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_lo(unsigned int srcA, unsigned int srcB,
                                  unsigned int c);
__device__ int __dp2a_lo(short2 srcA, char4 srcB, int c);
__device__ unsigned int __dp2a_lo(ushort2 srcA, uchar4 srcB, unsigned int c);
__device__ int __dp2a_hi(int srcA, int srcB, int c);
__device__ unsigned int __dp2a_hi(unsigned int srcA, unsigned int srcB,
                                  unsigned int c);
__device__ int __dp2a_hi(short2 srcA, char4 srcB, int c);
__device__ unsigned int __dp2a_hi(ushort2 srcA, uchar4 srcB, unsigned int c);

// CUDA 12's DPX intrinsics (sm_90 dynamic-programming min/max: __vimax3_s32,
// __viaddmax_s16x2, __vibmin_u32, ...), declared as the toolkit declares them
// (host and device); Clang's CUDA headers do not have them. Calls to them are
// values the model does not evaluate.
__host__ __device__ int __viaddmax_s32(const int a, const int b, const int c);
__host__ __device__ int __viaddmax_s32_relu(const int a, const int b, const int c);
__host__ __device__ int __viaddmin_s32(const int a, const int b, const int c);
__host__ __device__ int __viaddmin_s32_relu(const int a, const int b, const int c);
__host__ __device__ int __vibmax_s32(const int a, const int b, bool* const pred);
__host__ __device__ int __vibmin_s32(const int a, const int b, bool* const pred);
__host__ __device__ int __vimax3_s32(const int a, const int b, const int c);
__host__ __device__ int __vimax3_s32_relu(const int a, const int b, const int c);
__host__ __device__ int __vimax_s32_relu(const int a, const int b);
__host__ __device__ int __vimin3_s32(const int a, const int b, const int c);
__host__ __device__ int __vimin3_s32_relu(const int a, const int b, const int c);
__host__ __device__ int __vimin_s32_relu(const int a, const int b);
__host__ __device__ unsigned int __viaddmax_s16x2(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __viaddmax_s16x2_relu(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __viaddmax_u16x2(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __viaddmax_u32(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __viaddmin_s16x2(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __viaddmin_s16x2_relu(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __viaddmin_u16x2(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __viaddmin_u32(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __vibmax_s16x2(const unsigned int a, const unsigned int b, bool* const pred_hi, bool* const pred_lo);
__host__ __device__ unsigned int __vibmax_u16x2(const unsigned int a, const unsigned int b, bool* const pred_hi, bool* const pred_lo);
__host__ __device__ unsigned int __vibmax_u32(const unsigned int a, const unsigned int b, bool* const pred);
__host__ __device__ unsigned int __vibmin_s16x2(const unsigned int a, const unsigned int b, bool* const pred_hi, bool* const pred_lo);
__host__ __device__ unsigned int __vibmin_u16x2(const unsigned int a, const unsigned int b, bool* const pred_hi, bool* const pred_lo);
__host__ __device__ unsigned int __vibmin_u32(const unsigned int a, const unsigned int b, bool* const pred);
__host__ __device__ unsigned int __vimax3_s16x2(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __vimax3_s16x2_relu(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __vimax3_u16x2(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __vimax3_u32(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __vimax_s16x2_relu(const unsigned int a, const unsigned int b);
__host__ __device__ unsigned int __vimin3_s16x2(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __vimin3_s16x2_relu(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __vimin3_u16x2(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __vimin3_u32(const unsigned int a, const unsigned int b, const unsigned int c);
__host__ __device__ unsigned int __vimin_s16x2_relu(const unsigned int a, const unsigned int b);

extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ int printf(const char *, ...);
__device__ void free(void *) __attribute((nothrow));
__device__ void *malloc(size_t) __attribute((nothrow)) __attribute__((malloc));
__device__ void *memcpy(void *dst, const void *src, size_t n);
__device__ void *memset(void *dst, int value, size_t n);
__device__ void __assertfail(const char *message, const char *file,
                             unsigned line, const char *function,
                             size_t char_size);
__device__ static inline void __assert_fail(const char *message,
                                            const char *file, unsigned line,
                                            const char *function) {
  __assertfail(message, file, line, function, sizeof(char));
}
}

// Atomics (declarations only: warplint never generates code), with their
// _block and _system scoped forms.
#define WARPLINT_ATOMIC(NAME, T)                                               \
  __device__ T NAME(T *address, T val);                                        \
  __device__ T NAME##_block(T *address, T val);                                \
  __device__ T NAME##_system(T *address, T val);
#define WARPLINT_ATOMIC_INT(NAME)                                              \
  WARPLINT_ATOMIC(NAME, int)                                                   \
  WARPLINT_ATOMIC(NAME, unsigned int)                                          \
  WARPLINT_ATOMIC(NAME, unsigned long long)
#define WARPLINT_ATOMIC_CAS(T)                                                 \
  __device__ T atomicCAS(T *address, T compare, T val);                        \
  __device__ T atomicCAS_block(T *address, T compare, T val);                  \
  __device__ T atomicCAS_system(T *address, T compare, T val);
WARPLINT_ATOMIC_INT(atomicAdd)
WARPLINT_ATOMIC(atomicAdd, float)
WARPLINT_ATOMIC(atomicAdd, double)
WARPLINT_ATOMIC_INT(atomicSub)
WARPLINT_ATOMIC_INT(atomicExch)
WARPLINT_ATOMIC(atomicExch, float)
WARPLINT_ATOMIC_INT(atomicMin)
WARPLINT_ATOMIC(atomicMin, long long)
WARPLINT_ATOMIC_INT(atomicMax)
WARPLINT_ATOMIC(atomicMax, long long)
WARPLINT_ATOMIC_INT(atomicAnd)
WARPLINT_ATOMIC_INT(atomicOr)
WARPLINT_ATOMIC_INT(atomicXor)
WARPLINT_ATOMIC(atomicInc, unsigned int)
WARPLINT_ATOMIC(atomicDec, unsigned int)
WARPLINT_ATOMIC_CAS(int)
WARPLINT_ATOMIC_CAS(unsigned int)
WARPLINT_ATOMIC_CAS(unsigned long long)
WARPLINT_ATOMIC_CAS(unsigned short)
#undef WARPLINT_ATOMIC_CAS
#undef WARPLINT_ATOMIC_INT
#undef WARPLINT_ATOMIC
#endif
