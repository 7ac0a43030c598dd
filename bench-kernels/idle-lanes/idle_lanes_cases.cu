// idle-lanes: how full the warps are that run a branch or loop body. Each
// case marks its branch or loop ("branch under test") and the body line
// under it ("body under test"); the GPU's per-line counters (SourceCounters:
// Predicated-On Thread Instructions Executed over Instructions Executed on
// the body line) give the mean active lanes per warp instruction, which
// warplint's `active_lanes` predicts. Cases that must warn say so.
#include "../harness.cuh"

#define T 256

// The tutorial's first reduction, with its one-statement body: every warp
// issues the add for a few lanes. Predicted: 5.43 lanes, 3.92x (warns).
__global__ void case_il_interleaved(const float *in, float *out) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    if (tid % (2 * st) == 0) // branch under test
      s[tid] += s[tid + st]; // body under test
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// Sequential addressing: whole warps drop out. Predicted: 21.25 lanes, 1x.
__global__ void case_il_sequential(const float *in, float *out) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st) // branch under test
      s[tid] += s[tid + st]; // body under test
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// Strided index (Harris' reduce1): contiguous lanes too. Predicted: 1x.
__global__ void case_il_strided(const float *in, float *out) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    unsigned index = 2 * st * tid;
    if (index < blockDim.x) // branch under test
      s[index] += s[index + st]; // body under test
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// A trip count that differs by lane: the warp runs the longest. Warns.
__global__ void case_il_lane_loop(const float *in, float *out) {
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  float acc = 0.f;
  for (unsigned k = 0; k < (tid & 31); ++k) // branch under test
    acc += in[(g + k * 4096) & ((1u << 24) - 1)] * 0.5f; // body under test
  out[g] = acc;
}

// The same work with a trip count per warp: no lane idles.
__global__ void case_il_warp_loop(const float *in, float *out) {
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  float acc = 0.f;
  for (unsigned k = 0; k < (tid >> 5) * 4; ++k) // branch under test
    acc += in[(g + k * 4096) & ((1u << 24) - 1)] * 0.5f; // body under test
  out[g] = acc;
}

// One lane in eight takes the branch on each round. Warns.
__global__ void case_il_rounds(const float *in, float *out) {
  unsigned tid = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + tid;
  float acc = 0.f;
  for (unsigned r = 0; r < 8; ++r) {
    if ((tid & 7) == r) // branch under test
      acc += in[(g + r * 4096) & ((1u << 24) - 1)] * 0.5f; // body under test
  }
  out[g] = acc;
}

static float *in, *out;
static const unsigned N = 1u << 24;
static void l0() { case_il_interleaved<<<N / T, T>>>(in, out); }
static void l1() { case_il_sequential<<<N / T, T>>>(in, out); }
static void l2() { case_il_strided<<<N / T, T>>>(in, out); }
static void l3() { case_il_lane_loop<<<N / T, T>>>(in, out); }
static void l4() { case_il_warp_loop<<<N / T, T>>>(in, out); }
static void l5() { case_il_rounds<<<N / T, T>>>(in, out); }

static const Case cases[] = {
    CASE("case_il_interleaved", "body", "reduction", -1, l0),
    CASE("case_il_sequential", "body", "reduction", -1, l1),
    CASE("case_il_strided", "body", "reduction", -1, l2),
    CASE("case_il_lane_loop", "body", "loop", -1, l3),
    CASE("case_il_warp_loop", "body", "loop", -1, l4),
    CASE("case_il_rounds", "body", "rounds", -1, l5),
};

int main(int argc, char **argv) {
  CHECK(cudaMalloc(&in, N * sizeof(float)));
  CHECK(cudaMalloc(&out, N * sizeof(float)));
  CHECK(cudaMemset(in, 0, N * sizeof(float)));
  return runSuite(argc, argv, cases);
}
