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
#include "../harness.cuh"


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



static float *in, *out;
static const unsigned N = 1u << 24; // 16 Mi floats
static void l0() { case_red_reduce0<<<N / T, T>>>(in, out); }
static void l1() { case_red_reduce1<<<N / T, T>>>(in, out); }
static void l2() { case_red_reduce2<<<N / T, T>>>(in, out); }
static void l3() { case_red_reduce3<<<N / (2 * T), T>>>(in, out); }
static void l4() { case_red_reduce4<<<N / (2 * T), T>>>(in, out); }
static void l5() { case_red_reduce5<T><<<N / (2 * T), T>>>(in, out); }
// Enough blocks to fill the GPU (8 resident blocks of 256 threads on each
// of 132 SMs take 1056): each thread then adds 64 elements. With fewer
// blocks the kernel is limited by occupancy, not by what it issues.
static const unsigned G6 = 1024;
static void l6() { case_red_reduce6<T><<<G6, T>>>(in, out, N); }

static const Case cases[] = {
    CASE("case_red_reduce0", "branch", "reduction", 0, l0),
    CASE("case_red_reduce1", "branch", "reduction", 0, l1),
    CASE("case_red_reduce2", "branch", "reduction", 0, l2),
    CASE("case_red_reduce3", "branch", "reduction", 0, l3),
    CASE("case_red_reduce4", "branch", "reduction", 0, l4),
    CASE("case_red_reduce5<256>", "branch", "reduction", 0, l5),
    CASE("case_red_reduce6<256>", "branch", "reduction", 0, l6),
};

static double reference;
// Each reduction's partial sums must add up to the total.
static bool checkSum(const Case &c) {
  unsigned blocks = c.launch == l6 ? G6
                    : (c.launch == l0 || c.launch == l1 || c.launch == l2)
                        ? N / T
                        : N / (2 * T);
  std::vector<float> partial(blocks);
  c.launch();
  CHECK(cudaMemcpy(partial.data(), out, blocks * sizeof(float),
                   cudaMemcpyDeviceToHost));
  double got = 0;
  for (float p : partial)
    got += p;
  if (std::fabs(got - reference) > 1e-3 * reference) {
    fprintf(stderr, "%s: sum %f, expected %f\n", c.name, got, reference);
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  CHECK(cudaMalloc(&in, N * sizeof(float)));
  CHECK(cudaMalloc(&out, N / T * sizeof(float)));
  std::vector<float> h(N);
  for (unsigned i = 0; i < N; ++i) {
    h[i] = float((i * 2654435761u) % 1000) * 0.001f;
    reference += h[i];
  }
  CHECK(cudaMemcpy(in, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  return runSuite(argc, argv, cases, checkSum);
}
