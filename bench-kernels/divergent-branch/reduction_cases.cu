// The seven classic parallel reductions (Harris, "Optimizing Parallel
// Reduction in CUDA"), from interleaved addressing to complete unrolling
// with several elements per thread. The case is the reduction's main branch
// (the line marked "branch under test"). warplint finds that its lanes
// disagree in reduce0 (tid % (2*s), every step), reduce1 (the strided index)
// and reduce2/3 (tid < s once s < 32), and that they never do in reduce4-6,
// which stop the loop at s > 32 and finish in one warp. In all seven the
// branch guards a single shared-memory add, small enough for the compiler to
// predicate: warplint predicts no divergent branch instruction (and gives no
// divergent-branch warning), which the GPU's counters check.
#include <cuda_runtime.h>

#define T 256

__global__ void case_red_reduce0(const float *in, float *out) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    if (tid % (2 * st) == 0) // branch under test
      s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void case_red_reduce1(const float *in, float *out) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    unsigned index = 2 * st * tid;
    if (index < blockDim.x) // branch under test
      s[index] += s[index + st];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void case_red_reduce2(const float *in, float *out) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st) // branch under test
      s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void case_red_reduce3(const float *in, float *out) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  s[tid] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st) // branch under test
      s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__device__ void warpReduce(volatile float *s, unsigned tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void case_red_reduce4(const float *in, float *out) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  s[tid] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 32; st >>= 1) {
    if (tid < st) // branch under test
      s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

template <unsigned B>
__global__ void case_red_reduce5(const float *in, float *out) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (B * 2) + threadIdx.x;
  s[tid] = in[i] + in[i + B];
  __syncthreads();
  if (B >= 512) { if (tid < 256) s[tid] += s[tid + 256]; __syncthreads(); }
  if (B >= 256) {
    if (tid < 128) // branch under test
      s[tid] += s[tid + 128];
    __syncthreads();
  }
  if (B >= 128) { if (tid < 64) s[tid] += s[tid + 64]; __syncthreads(); }
  if (tid < 32)
    warpReduce(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

template <unsigned B>
__global__ void case_red_reduce6(const float *in, float *out, unsigned n) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (B * 2) + threadIdx.x;
  unsigned gridSize = B * 2 * gridDim.x;
  float sum = 0;
  while (i < n) {
    sum += in[i] + in[i + B];
    i += gridSize;
  }
  s[tid] = sum;
  __syncthreads();
  if (B >= 256) {
    if (tid < 128) // branch under test
      s[tid] += s[tid + 128];
    __syncthreads();
  }
  if (B >= 128) { if (tid < 64) s[tid] += s[tid + 64]; __syncthreads(); }
  if (tid < 32)
    warpReduce(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static float *in, *out;
static const unsigned N = 1u << 24; // 16 Mi floats
struct Case {
  const char *name, *op, *sweep;
  double expect;
  void (*launch)();
  unsigned blocks; // partial sums written
};
static void l0() { case_red_reduce0<<<N / T, T>>>(in, out); }
static void l1() { case_red_reduce1<<<N / T, T>>>(in, out); }
static void l2() { case_red_reduce2<<<N / T, T>>>(in, out); }
static void l3() { case_red_reduce3<<<N / (2 * T), T>>>(in, out); }
static void l4() { case_red_reduce4<<<N / (2 * T), T>>>(in, out); }
static void l5() { case_red_reduce5<T><<<N / (2 * T), T>>>(in, out); }
static void l6() { case_red_reduce6<T><<<256, T>>>(in, out, N); }

// CASE(kernel signature, "branch", sweep, predicted divergent branch (1/0), launcher)
#define CASE(sig, op, sweep, expect, fn) {sig, op, sweep, expect, fn
static const Case cases[] = {
    CASE("case_red_reduce0", "branch", "reduction", 0, l0), N / T},
    CASE("case_red_reduce1", "branch", "reduction", 0, l1), N / T},
    CASE("case_red_reduce2", "branch", "reduction", 0, l2), N / T},
    CASE("case_red_reduce3", "branch", "reduction", 0, l3), N / (2 * T)},
    CASE("case_red_reduce4", "branch", "reduction", 0, l4), N / (2 * T)},
    CASE("case_red_reduce5<256>", "branch", "reduction", 0, l5), N / (2 * T)},
    CASE("case_red_reduce6<256>", "branch", "reduction", 0, l6), 256},
};

int main(int argc, char **argv) {
  bool profile = argc > 1 && !strcmp(argv[1], "--profile");
  CHECK(cudaMalloc(&in, N * sizeof(float)));
  CHECK(cudaMalloc(&out, N / T * sizeof(float)));
  std::vector<float> h(N);
  double ref = 0;
  for (unsigned i = 0; i < N; ++i) {
    h[i] = float((i * 2654435761u) % 1000) * 0.001f;
    ref += h[i];
  }
  CHECK(cudaMemcpy(in, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  if (profile) {
    for (const Case &c : cases)
      c.launch();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    return 0;
  }
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  printf("case,op,sweep,expect,time_ms\n");
  std::vector<float> partial(N / T);
  for (const Case &c : cases) {
    // Check the result: the partial sums add up to the total.
    c.launch();
    CHECK(cudaMemcpy(partial.data(), out, c.blocks * sizeof(float),
                     cudaMemcpyDeviceToHost));
    double got = 0;
    for (unsigned i = 0; i < c.blocks; ++i)
      got += partial[i];
    if (std::fabs(got - ref) > 1e-3 * ref) {
      fprintf(stderr, "%s: sum %f, expected %f\n", c.name, got, ref);
      return 1;
    }
    for (int i = 0; i < 3; ++i)
      c.launch();
    std::vector<float> t;
    for (int rep = 0; rep < 7; ++rep) {
      CHECK(cudaEventRecord(a));
      for (int i = 0; i < 10; ++i)
        c.launch();
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, a, b));
      t.push_back(ms / 10);
    }
    std::sort(t.begin(), t.end());
    printf("%s,%s,%s,%g,%.5f\n", c.name, c.op, c.sweep, c.expect, t[3]);
  }
  return 0;
}
