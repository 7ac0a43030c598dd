// Reference kernels for constant-nonuniform-access: a __constant__ table read
// REPS times with lane-indexed, partly uniform and uniform indices. Measured:
// distinct addresses per request = 1 + sm__idc_divergent_instruction_replays /
// sm__idc_divergent_instructions (1 when no instruction diverges).
#include "../harness.cuh"

#define REPS 64
#define T 256

__constant__ float coeffs[T + 64];

__global__ void case_const_lane(float *out) {
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += coeffs[threadIdx.x + (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_const_quarter(float *out) {
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += coeffs[threadIdx.x / 8 + (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_const_pairs(float *out) {
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += coeffs[(threadIdx.x & 1) + (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_const_warp_uniform(float *out) {
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += coeffs[threadIdx.x / 32 + (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_const_block_uniform(float *out) {
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += coeffs[blockIdx.x % 64 + (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}



static float *out;
static const int BLOCKS = 2048;
static void l_lane() { case_const_lane<<<BLOCKS, T>>>(out); }
static void l_quarter() { case_const_quarter<<<BLOCKS, T>>>(out); }
static void l_pairs() { case_const_pairs<<<BLOCKS, T>>>(out); }
static void l_warp() { case_const_warp_uniform<<<BLOCKS, T>>>(out); }
static void l_block() { case_const_block_uniform<<<BLOCKS, T>>>(out); }

static const Case cases[] = {
    CASE("case_const_lane", "load", "constant", 32, l_lane),
    CASE("case_const_quarter", "load", "constant", 4, l_quarter),
    CASE("case_const_pairs", "load", "constant", 2, l_pairs),
    CASE("case_const_warp_uniform", "load", "constant", 1, l_warp),
    CASE("case_const_block_uniform", "load", "constant", 1, l_block),
};

int main(int argc, char **argv) {
  CHECK(cudaMalloc(&out, (size_t)BLOCKS * T * sizeof(float)));
  std::vector<float> c(T + 64);
  for (size_t i = 0; i < c.size(); ++i)
    c[i] = 0.25f + i * 0.001f;
  CHECK(cudaMemcpyToSymbol(coeffs, c.data(), c.size() * sizeof(float)));
  return runSuite(argc, argv, cases);
}
