# What nvcc users' code relies on parses, with the CUDA toolkit and with the
# bundled headers (--no-cuda-toolkit), and gives the same findings both ways.
source "$(dirname "$0")/lib.bash"
toolkit=
[ -f /usr/local/cuda/include/cuda_runtime.h ] && toolkit=yes

# Both modes: exit 0, the file parsed completely, and the same findings and
# accesses.
both() { # <name> <file>
  local mode
  for mode in tk nt; do
    if [ $mode = tk ]; then
      [ -n "$toolkit" ] || continue
      run "$1_$mode" --format=json "$2"
    else
      run "$1_$mode" --format=json --no-cuda-toolkit "$2"
    fi
    expect_rc "$1_$mode" 0
    expect_not_in "$1_$mode" err "could not be analyzed completely"
    json "$1_$mode" "[f['status'] for f in d['files']] == ['ok']"
  done
  if [ -n "$toolkit" ]; then
    python3 - "$TMP/$1_tk.out" "$TMP/$1_nt.out" <<'PY' || fail "$1: findings differ between the modes"
import json, sys
def seen(p):
    d = json.load(open(p))
    return (sorted((x['line'], x['rule']) for x in d['diagnostics']),
            sorted((x['line'], x['op'], x.get('sectors_per_request'))
                   for x in d['accesses']))
a, b = (seen(p) for p in sys.argv[1:])
sys.exit(a != b)
PY
  fi
}

# nvcc defines __NVCC__: code picks its __host__ __device__ macro and CUDA
# (not HIP) by it.
cat >"$TMP/nvcc_macro.cu" <<'CU'
#ifdef __NVCC__
#include <cuda_runtime.h>
#define HD __host__ __device__
#else
#include <hip/hip_runtime.h>
#define HD
#endif
HD inline int twice(int i) { return 2 * i; }
__global__ void k(float *o) { o[twice(threadIdx.x) * 16] = 1; }
void launch(float *o) { k<<<1, 32>>>(o); }
CU
both nvcc_macro "$TMP/nvcc_macro.cu"
json nvcc_macro_nt "[x['rule'] for x in d['diagnostics']] == ['uncoalesced-global-access']"

# __CUDACC_VER_MAJOR__ / _MINOR__ are defined; with the toolkit they are its
# version, so `#if __CUDACC_VER_MAJOR__ >= 13` takes the CUDA 13 branch.
# CUDART_VERSION is defined in both modes, so `#if CUDART_VERSION >= 9000`
# picks the *_sync intrinsics either way.
cat >"$TMP/version.cu" <<'CU'
#include <cuda_runtime.h>
#if !defined(CUDART_VERSION) || CUDART_VERSION < 9000
#error no runtime version
#endif
#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__)
#error no nvcc version
#endif
#if defined(CUDA_VERSION) && (__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 != CUDA_VERSION)
#error nvcc version is not the toolkit's
#endif
__global__ void k(float *o) { o[threadIdx.x] = __CUDACC_VER_MAJOR__; }
CU
both version "$TMP/version.cu"

# With __NVCC__ defined, CCCL and cooperative groups still detect Clang.
if [ -n "$toolkit" ]; then
  cat >"$TMP/cccl.cu" <<'CU'
#include <cooperative_groups.h>
#include <cub/cub.cuh>
namespace cg = cooperative_groups;
__global__ void k(float *o) {
  typedef cub::WarpReduce<float> R;
  __shared__ typename R::TempStorage t;
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
  o[threadIdx.x] = R(t).Sum(o[threadIdx.x]) + w.thread_rank();
}
CU
  run cccl --format=json "$TMP/cccl.cu"
  expect_rc cccl 0
  json cccl "[f['status'] for f in d['files']] == ['ok']"
fi

# The runtime API beyond memory copies: device attributes, stream and event
# flags, pinned and mapped memory, pitched and 3D memory, prefetch locations,
# stream-ordered allocation, peer access, occupancy, graphs, the profiler
# header, scoped atomics.
cat >"$TMP/runtime_api.cu" <<'CU'
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
__global__ void k(int *a) {
  atomicAdd_system(a + threadIdx.x, 1);
  atomicCAS_block((unsigned *)a, 0u, 1u);
}
int main() {
  int v, lo, hi, nb;
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaDeviceGetStreamPriorityRange(&lo, &hi);
  cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, hi);
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  cudaStreamWaitEvent(s, e, 0);
  float *h, *d;
  cudaHostAlloc(&h, 64, cudaHostAllocMapped);
  cudaHostGetDevicePointer(&d, h, 0);
  cudaHostRegister(h, 64, cudaHostRegisterMapped);
  cudaFuncSetCacheConfig(k, cudaFuncCachePreferL1);
  cudaPitchedPtr pp;
  cudaMalloc3D(&pp, make_cudaExtent(4, 4, 4));
  cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync(h, 64, loc, 0, s);
  int *m;
  cudaMallocAsync(&m, 64, s);
  cudaFreeAsync(m, s);
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaDeviceEnablePeerAccess(1, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k, 128, 0);
  cudaGraph_t g;
  cudaGraphExec_t ge;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  k<<<1, 32, 0, s>>>(m);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&ge, g, NULL, NULL, 0);
  cudaGraphLaunch(ge, s);
  cudaProfilerStart();
  cudaProfilerStop();
  return p.pageableMemoryAccess + v;
}
CU
both runtime_api "$TMP/runtime_api.cu"
json runtime_api_nt "[(x['line'], x['op']) for x in d['accesses']] == [(4, 'atomic'), (5, 'atomic')]"

# Device code: make_<type><n> for every vector type, assert, memcpy, memset,
# printf, a math overload from a __host__ __device__ function, and a tile of
# a known parent assigned to the parent-less tile type.
cat >"$TMP/device.cu" <<'CU'
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__host__ __device__ float sq(float x) { return pow(x, 2); }
__global__ void k(float *a, float3 *b, uchar4 *c, double2 *e) {
  assert(a != nullptr);
  float t[4];
  memcpy(t, a, sizeof t);
  memset(t, 0, sizeof t);
  printf("%f\n", t[0]);
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
  b[threadIdx.x] = make_float3(sq(t[0]), 1, w.thread_rank());
  c[threadIdx.x] = make_uchar4(1, 2, 3, 4);
  e[threadIdx.x * 2] = make_double2(1, 2);
}
void launch(float *a, float3 *b, uchar4 *c, double2 *e) { k<<<1, 32>>>(a, b, c, e); }
CU
both device "$TMP/device.cu"
json device_nt "len(d['diagnostics']) == 2"
# Host code written for older toolkits: the cudaThread* functions CUDA 13
# removed (the cudaDevice* ones under their old names) still parse.
cat >"$TMP/old_api.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void k(float *o) { o[threadIdx.x * 32] = 1; }
int main() {
  float *o;
  cudaMalloc(&o, 1 << 20);
  k<<<1, 32>>>(o);
  cudaThreadSynchronize();
  size_t v;
  cudaThreadGetLimit(&v, cudaLimitStackSize);
  cudaThreadSetLimit(cudaLimitStackSize, v);
  cudaFuncCache c;
  cudaThreadGetCacheConfig(&c);
  cudaThreadSetCacheConfig(c);
  cudaThreadExit();
}
CU
both old_api "$TMP/old_api.cu"
json old_api_nt "len(d['diagnostics']) == 1"

# Host code leaning on the C headers nvcc's own headers include in every .cu
# file: clock() and CLOCKS_PER_SEC, malloc, memset, strlen and sqrt without
# their headers, each parses.
cat >"$TMP/time.cu" <<'CU'
__global__ void k(float *o) { o[threadIdx.x] = 1; }
double seconds() { return (double)clock() / CLOCKS_PER_SEC; }
CU
both time "$TMP/time.cu"
cat >"$TMP/cheaders.cu" <<'CU'
#include <cstdio>
__global__ void k(float *o) { o[threadIdx.x] = 1; }
int main() {
  void *p = malloc(8);
  memset(p, 0, 8);
  printf("%d\n", (int)sqrt(4.0) + (int)strlen("x") + abs(-1));
  free(p);
}
CU
both cheaders "$TMP/cheaders.cu"
# isfinite, isnan, isinf and signbit unqualified in host code, on float and
# double, with <cmath> only: the host overloads, not the device ones.
cat >"$TMP/classify.cu" <<'CU'
#include <cmath>
__global__ void k(float *o) { o[threadIdx.x] = isfinite(o[0]) ? 1 : 0; }
bool ok(float f, double d) {
  return isfinite(f) && !isnan(f) && !isinf(f) && !signbit(f) &&
         isfinite(d) && !isnan(d) && !isinf(d) && !signbit(d);
}
CU
both classify "$TMP/classify.cu"

# Device code nvcc accepts and Clang rejects: a __shared__ object whose class
# has a non-empty default constructor (nvcc: a warning), and inline assembly
# naming a PTX register with one % (nvcc passes it to ptxas). A note each,
# the file's findings, exit 0 (Clang leaves the variable's uses and the
# assembly statement out of the AST, so they are not modelled).
cat >"$TMP/shared_ctor.cu" <<'CU'
struct Counter { int c; __device__ Counter() { c = 0; } };
__global__ void k(float *o) {
  __shared__ Counter n;
  o[threadIdx.x * 32] = 1;
  o[1] = n.c;
}
CU
run shared_ctor --format=json --no-cuda-toolkit "$TMP/shared_ctor.cu"
expect_rc shared_ctor 0
expect_in shared_ctor err "shared_ctor.cu:3:22: initialization is not supported for __shared__ variables"
json shared_ctor "d['files'][0]['status'] == 'ok' and len(d['files'][0]['not_checked_nvcc_accepts']) == 1"
json shared_ctor "[x['rule'] for x in d['diagnostics']] == ['uncoalesced-global-access']"
# An initializer written out is an error with nvcc too: it stays one.
sed -i 's/__shared__ Counter n;/__shared__ Counter n = Counter();/' "$TMP/shared_ctor.cu"
run shared_init --no-cuda-toolkit "$TMP/shared_ctor.cu"
expect_rc shared_init 2
cat >"$TMP/asm.cu" <<'CU'
__global__ void k(unsigned *o) {
  unsigned lane;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(lane));
  o[threadIdx.x * 32] = lane;
}
CU
run asm --no-cuda-toolkit "$TMP/asm.cu"
expect_rc asm 0
expect_in asm err "not checked (nvcc accepts it): "
expect_in asm err "asm.cu:3:31: invalid % escape in inline assembly string"
expect_in asm out "uncoalesced"

# CUDA 12's DPX intrinsics (sm_90), with the toolkit and with the bundled
# headers.
cat >"$TMP/dpx.cu" <<'CU'
__global__ void k(const int *a, const unsigned *b, int *o, unsigned *u) {
  int t = threadIdx.x;
  bool pred;
  o[t] = __vimax3_s32(a[t], a[t + 32], 0) + __vibmin_s32(a[t], 7, &pred);
  u[t] = __viaddmax_s16x2(b[t], b[t + 32], 0u) ^ __vimin3_u16x2(b[t], 1u, 2u);
}
CU
both dpx "$TMP/dpx.cu"

# A member template of a dependent type called without `template`
# (nvcc's front end takes `<` as the template's): a note, the kernel's other
# findings, exit 0. Clang says so, or (depending on how the name resolves)
# finds an overload set where a call was meant; both are the same case.
cat >"$TMP/template_kw.cu" <<'CU'
template <typename D, typename S> struct conv {
  template <unsigned long N> __device__ static void cast(D *d, const S *s) {
    for (unsigned long i = 0; i < N; ++i) d[i] = s[i];
  }
};
template <typename S, typename D, unsigned long N>
__device__ void castFrom(D *d, const S *s) {
  conv<D, S>::cast<N>(d, s);
}
__global__ void k(float *o, const float *in) {
  float r[4];
  castFrom<float, float, 4>(r, in);
  o[threadIdx.x * 32] = r[0];
}
CU
run template_kw --format=json --no-cuda-toolkit "$TMP/template_kw.cu"
expect_rc template_kw 0
expect_in template_kw err "not checked (nvcc accepts it): "
expect_in template_kw err "template_kw.cu:8:3: missing 'template' keyword prior to dependent template name 'cast'"
json template_kw "len(d['files'][0]['not_checked_nvcc_accepts']) == 1"
json template_kw "[(x['line'], x['rule']) for x in d['diagnostics']] == [(13, 'uncoalesced-global-access')]"
# A reference to an overloaded function that is not a call of a member
# template is an error with nvcc too: it stays one.
cat >"$TMP/overload_ref.cu" <<'CU'
__device__ float twice(float x) { return 2 * x; }
__device__ int twice(int x) { return 2 * x; }
__global__ void k(float *o) {
  o[threadIdx.x] = twice + 1;
}
CU
run overload_ref --no-cuda-toolkit "$TMP/overload_ref.cu"
expect_rc overload_ref 2
expect_in overload_ref err "reference to overloaded function could not be resolved"
expect_not_in overload_ref err "nvcc accepts it"

# `x = {}` on a class with copy, move and raw-value assignment operators
# (cuda_fp16's __half2 has all three): Clang finds them equally good, nvcc
# picks one. A note, exit 0.
cat >"$TMP/assign_braces.cu" <<'CU'
struct raw2 { unsigned short x, y; };
struct h2 {
  unsigned short x, y;
  h2() = default;
  __device__ h2(const raw2 &r) : x(r.x), y(r.y) {}
  __device__ h2(const h2 &&s) : x(s.x), y(s.y) {}
  __device__ h2(const h2 &s) : x(s.x), y(s.y) {}
  __device__ h2 &operator=(const h2 &&s) { x = s.x; y = s.y; return *this; }
  __device__ h2 &operator=(const h2 &s) { x = s.x; y = s.y; return *this; }
  __device__ h2 &operator=(const raw2 &r) { x = r.x; y = r.y; return *this; }
};
__global__ void k(h2 *o, const h2 *in) {
  h2 acc;
  acc = {};
  acc = in[threadIdx.x * 32];
  o[threadIdx.x] = acc;
}
CU
run assign_braces --format=json --no-cuda-toolkit "$TMP/assign_braces.cu"
expect_rc assign_braces 0
expect_in assign_braces err "assign_braces.cu:14:7: use of overloaded operator '=' is ambiguous"
json assign_braces "len(d['files'][0]['not_checked_nvcc_accepts']) == 1"
json assign_braces "15 in [x['line'] for x in d['diagnostics']]"
# An ambiguous assignment of a value is an error with nvcc too.
cat >"$TMP/assign_value.cu" <<'CU'
struct A { __device__ A(int); };
struct B { __device__ B(int); };
struct h2 { int v; __device__ h2 &operator=(const A &); __device__ h2 &operator=(const B &); };
__global__ void k(h2 *o) { h2 acc; acc = 1; o[threadIdx.x] = acc; }
CU
run assign_value --no-cuda-toolkit "$TMP/assign_value.cu"
expect_rc assign_value 2
expect_not_in assign_value err "nvcc accepts it"
# The toolkit headers' libraries of device functions: the 16-bit and 8-bit
# float types with their intrinsics, conversions and constants, complex
# numbers, the device random generators, the math constants and
# __grid_constant__. Both modes parse them and see the same accesses
# (strided elements read through intrinsics and operators, a generator's
# state copied in and out).
cat >"$TMP/libraries.cu" <<'CU'
#include <cuComplex.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <curand_kernel.h>
#include <math_constants.h>
struct Params { int stride; };
__global__ void k(const __grid_constant__ Params p, const __half *a,
                  const __half2 *b, __nv_bfloat162 *c, const __nv_fp8_e4m3 *q,
                  __nv_fp8_storage_t *r, const cuFloatComplex *z,
                  curandState *st, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half h = __hmax(a[i * 8], CUDART_ONE_FP16);
  __half2 s = __hfma2(b[i * 4], __half2half2(h), __float2half2_rn(1.f));
  float2 f = __half22float2(s * b[i]);
  c[i * 2] = __hadd2(c[i * 2], __floats2bfloat162_rn(f.x, f.y));
  float v = (float)q[i * p.stride] + __bfloat162float(__low2bfloat16(c[i]));
  r[i] = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E4M3);
  cuFloatComplex w = cuCmulf(z[i * 2], cuConjf(z[i]));
  curandState local = st[i];
  o[i] = curand_uniform(&local) + cuCabsf(w) + CUDART_PI_F +
         __half2float(__ushort_as_half(__half_as_ushort(h))) +
         (float)__half2int_rn(__low2half(s)) + (float)hexp(h);
  st[i] = local;
}
CU
both libraries "$TMP/libraries.cu"
json libraries_nt "len(d['accesses']) >= 12 and len(d['diagnostics']) >= 5"

# CUB: its block and warp collectives (which warplint models by class,
# method and template arguments), device-wide algorithms, iterators and
# traits. Both modes see the same accesses, BlockReduce's shared partials
# included.
cat >"$TMP/cub.cu" <<'CU'
#include <cub/cub.cuh>
struct Larger {
  __device__ float operator()(float a, float b) const { return a > b ? a : b; }
};
template <int THREADS>
__global__ void reduce(const float *in, float *out, int n) {
  using Reduce = cub::BlockReduce<float, THREADS>;
  using Scan = cub::BlockScan<int, THREADS>;
  using Warp = cub::WarpReduce<float>;
  __shared__ typename Reduce::TempStorage rt;
  __shared__ typename Scan::TempStorage st;
  __shared__ typename Warp::TempStorage wt[THREADS / 32];
  int i = blockIdx.x * THREADS + threadIdx.x;
  float v = i < n ? in[i * 2] : 0.f;
  float s = Reduce(rt).Sum(v);
  int offset;
  Scan(st).ExclusiveSum(int(v), offset);
  float w = Warp(wt[threadIdx.x / 32]).Reduce(v, Larger());
  typename cub::Traits<float>::UnsignedBits bits = cub::Traits<float>::TwiddleIn(0u);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s + w + offset + bits;
}
void run(const float *in, float *out, float *sum, int n) {
  reduce<256><<<(n + 255) / 256, 256>>>(in, out, n);
  void *temp = nullptr;
  size_t bytes = 0;
  CubDebugExit(cub::DeviceReduce::Sum(temp, bytes, in, sum, n));
  CubDebugExit(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, 0));
}
CU
both cub "$TMP/cub.cu"
json cub_nt "any(x.get('op') == 'store' and x.get('space') == 'shared' for x in d['accesses'])"

# A CCCL library the bundled header does not have (Thrust, libcu++): the
# file fails, with what to give instead.
cat >"$TMP/cccl.cu" <<'CU'
#include <thrust/device_vector.h>
__global__ void k(float *o) { o[threadIdx.x * 2] = 1; }
CU
run cccl --no-cuda-toolkit "$TMP/cccl.cu"
expect_rc cccl 2
expect_in cccl err "cccl.cu:1:10: error: 'thrust/device_vector.h' file not found"
expect_in cccl err "not the toolkit's other libraries (Thrust, libcu++, cuBLAS, cuFFT, ...)"
expect_in cccl err "--cuda-path=DIR"
done_checks
