// Warp instructions an atomic costs, by space, type and how many lanes of
// the warp hit one address. Each kernel runs one warp, and the warp makes
// Reps atomics, lanes `lane / C` apart (C lanes per address, 32 / C
// addresses); `none_*` is the same loop with a plain read-modify-write, to
// subtract. measure.sh counts smsp__inst_executed.sum per kernel.
#include <cstdio>

constexpr int Reps = 256;

#define SHARED_KERNEL(T, C)                                                    \
  __global__ void k_shared_##T##_##C(T *out, T v) {                           \
    __shared__ T s[64];                                                        \
    int lane = threadIdx.x;                                                    \
    s[lane] = 0;                                                               \
    s[lane + 32] = 0;                                                          \
    __syncwarp();                                                              \
    for (int r = 0; r < Reps; ++r)                                             \
      atomicAdd(&s[lane / C + (r & 1) * 32], v);                               \
    __syncwarp();                                                              \
    out[lane] = s[lane] + s[lane + 32];                                        \
  }

#define GLOBAL_KERNEL(T, C)                                                    \
  __global__ void k_global_##T##_##C(T *out, T v) {                           \
    int lane = threadIdx.x;                                                    \
    for (int r = 0; r < Reps; ++r)                                             \
      atomicAdd(&out[lane / C + (r & 1) * 32], v);                             \
  }

#define EACH_C(M, T) M(T, 1) M(T, 2) M(T, 4) M(T, 8) M(T, 16) M(T, 32)

typedef unsigned long long ull;
EACH_C(SHARED_KERNEL, int)
EACH_C(SHARED_KERNEL, float)
EACH_C(SHARED_KERNEL, double)
EACH_C(SHARED_KERNEL, ull)
EACH_C(GLOBAL_KERNEL, int)
EACH_C(GLOBAL_KERNEL, float)
EACH_C(GLOBAL_KERNEL, double)
EACH_C(GLOBAL_KERNEL, ull)

// The loop and address arithmetic without the atomic.
__global__ void k_none_shared(float *out, float v) {
  __shared__ volatile float s[64];
  int lane = threadIdx.x;
  s[lane] = 0;
  s[lane + 32] = 0;
  __syncwarp();
  for (int r = 0; r < Reps; ++r)
    s[lane + (r & 1) * 32] += v;
  __syncwarp();
  out[lane] = s[lane] + s[lane + 32];
}
__global__ void k_none_global(volatile float *out, float v) {
  int lane = threadIdx.x;
  for (int r = 0; r < Reps; ++r)
    out[lane + (r & 1) * 32] += v;
}

#define LAUNCH(space, T, C)                                                    \
  k_##space##_##T##_##C<<<1, 32>>>((T *)buf, (T)1);
#define LAUNCH_C(space, T)                                                     \
  LAUNCH(space, T, 1) LAUNCH(space, T, 2) LAUNCH(space, T, 4)                  \
  LAUNCH(space, T, 8) LAUNCH(space, T, 16) LAUNCH(space, T, 32)

int main() {
  void *buf;
  cudaMalloc(&buf, 64 * sizeof(double));
  cudaMemset(buf, 0, 64 * sizeof(double));
  LAUNCH_C(shared, int) LAUNCH_C(shared, float) LAUNCH_C(shared, double)
  LAUNCH_C(shared, ull)
  LAUNCH_C(global, int) LAUNCH_C(global, float) LAUNCH_C(global, double)
  LAUNCH_C(global, ull)
  k_none_shared<<<1, 32>>>((float *)buf, 1.0f);
  k_none_global<<<1, 32>>>((float *)buf, 1.0f);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
