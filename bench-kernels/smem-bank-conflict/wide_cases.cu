// Reference kernels for 8- and 16-byte shared accesses (smem-bank-conflict):
// which lanes run the load (all, a half, a quarter, one per phase) and how
// their addresses fall (broadcast, one per half, pairs, distinct), the
// patterns where the phases of a wide access merge or do not. Each kernel
// loads REPS times (`#pragma unroll 1`, the `i & 1` term keeps the load in
// the loop) so that one SASS instruction carries the case.
//
// Measured with Nsight Compute's source counters (per instruction: "L1
// Wavefronts Shared", "... Ideal" and "Instructions Executed"):
//   nvcc -O3 -arch=sm_90 -lineinfo -o wide wide_cases.cu
//   ncu --section SourceCounters --import-source yes -o wide ./wide
//   ncu -i wide.ncu-rep --page source --csv --print-source cuda,sass
// Recorded in results/h200/smem-bank-conflict.wide_cases.json; the model's
// table test (test/model/SharedModelTest.cpp, WideAccesses) holds the same
// figures.
#include <cstdio>
#define REPS 64
#define LANE (threadIdx.x & 31)

__device__ float sum(double v) { return (float)v; }
__device__ float sum(float v) { return v; }
__device__ float sum(float4 v) { return v.x + v.y + v.z + v.w; }
template <typename T> __device__ void fill(T *b, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) b[i] = T();
  __syncthreads();
}

#define LOAD_CASE(name, T, N, cond, idx)                                      \
  __global__ void name(float *out) {                                          \
    __shared__ T s[N];                                                        \
    fill(s, N);                                                               \
    float acc = 0;                                                            \
    _Pragma("unroll 1") for (int i = 0; i < REPS; ++i) {                      \
      if (cond) {                                                             \
        T v = s[(idx) + (i & 1)];                                             \
        acc += sum(v);                                                        \
      }                                                                       \
    }                                                                         \
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;                         \
  }

LOAD_CASE(d64_lanes0_15, double, 66, LANE < 16, LANE)
LOAD_CASE(d64_bcast, double, 4, true, 0)
LOAD_CASE(d64_two, double, 4, true, LANE / 16)
LOAD_CASE(d64_full, double, 66, true, LANE)
LOAD_CASE(d64_quarter, double, 66, (LANE & 15) < 4, (LANE & 15) + 4 * (LANE >> 4))
LOAD_CASE(d64_16distinct, double, 34, true, LANE % 16)
LOAD_CASE(d64_pairs, double, 34, true, LANE / 2)
LOAD_CASE(d64_8and8, double, 66, (LANE & 15) < 8, (LANE & 7) + 8 * (LANE >> 4))
LOAD_CASE(q128_bcast, float4, 4, true, 0)
LOAD_CASE(q128_lanes0_7, float4, 34, LANE < 8, LANE)
LOAD_CASE(q128_spread, float4, 34, LANE % 8 == 0, LANE / 8)
LOAD_CASE(q128_full, float4, 34, true, LANE)
LOAD_CASE(q128_two, float4, 4, true, LANE / 16)
LOAD_CASE(q128_four, float4, 6, true, LANE / 8)
LOAD_CASE(q128_8distinct, float4, 10, true, LANE % 8)
LOAD_CASE(f32_half_conflict, float, 70, LANE < 16, 2 * LANE)
LOAD_CASE(f32_lanes0_15, float, 34, LANE < 16, LANE)
LOAD_CASE(d64_col8, double, 72, true, (LANE & 7) * 8)
LOAD_CASE(d64_lanes0_7, double, 66, LANE < 8, LANE)
LOAD_CASE(d64_half0_bcast, double, 4, LANE < 16, 0)

// adv's tile: 16x16 block, an 8x8 tile of doubles stored by ty < 8 && tx < 8.
__global__ void d64_tile_store(float *out) {
  __shared__ double s[8][8];
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    if (tx < 8 && ty < 8) s[ty][tx] = i * 0.5;
    __syncthreads();
    acc += (float)s[tx & 7][i & 7];
    __syncthreads();
  }
  out[(blockIdx.x * 16 + ty) * 16 + tx] = acc;
}

int main() {
  float *out;
  cudaMalloc(&out, 64 * 256 * sizeof(float));
  d64_lanes0_15<<<64, 256>>>(out);
  d64_bcast<<<64, 256>>>(out);
  d64_two<<<64, 256>>>(out);
  d64_full<<<64, 256>>>(out);
  d64_quarter<<<64, 256>>>(out);
  d64_16distinct<<<64, 256>>>(out);
  d64_pairs<<<64, 256>>>(out);
  d64_8and8<<<64, 256>>>(out);
  q128_bcast<<<64, 256>>>(out);
  q128_lanes0_7<<<64, 256>>>(out);
  q128_spread<<<64, 256>>>(out);
  q128_full<<<64, 256>>>(out);
  q128_two<<<64, 256>>>(out);
  q128_four<<<64, 256>>>(out);
  q128_8distinct<<<64, 256>>>(out);
  f32_half_conflict<<<64, 256>>>(out);
  f32_lanes0_15<<<64, 256>>>(out);
  d64_col8<<<64, 256>>>(out);
  d64_lanes0_7<<<64, 256>>>(out);
  d64_half0_bcast<<<64, 256>>>(out);
  d64_tile_store<<<64, dim3(16, 16)>>>(out);
  cudaDeviceSynchronize();
  printf("done %s\n", cudaGetErrorString(cudaGetLastError()));
}
