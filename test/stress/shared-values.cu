// Values built from shared sub-expressions: each update reads the value
// before it twice (`a = a * 3 + (a >> 1)`), so the expression is a graph of
// 60 levels with 2^60 paths from its root. An evaluation that follows paths
// instead of nodes never ends; one per node takes microseconds. The block
// index and a parameter make the value one per warp (computed once for the
// warp); the thread index makes it one per lane. Bound: the test's timeout,
// with every access evaluated.
#include <cuda_runtime.h>

#define STEP(v) v = v * 3 + (v >> 1);
#define STEP10(v) STEP(v) STEP(v) STEP(v) STEP(v) STEP(v) \
                  STEP(v) STEP(v) STEP(v) STEP(v) STEP(v)
#define STEP60(v) STEP10(v) STEP10(v) STEP10(v) STEP10(v) STEP10(v) STEP10(v)

__global__ void perWarp(float *out, int n) {
  int a = blockIdx.x + n;
  STEP60(a)
  out[threadIdx.x + (a & 1023)] = 1.f;
}

__global__ void perLane(float *out, int n) {
  int b = threadIdx.x + n;
  STEP60(b)
  out[b & 4095] = 1.f;
}

// The per-warp value feeding the per-lane one at every level.
#define MIXED(a, b) STEP(a) b = b + (a & 1) + (b >> 3);
#define MIXED10(a, b) MIXED(a, b) MIXED(a, b) MIXED(a, b) MIXED(a, b) \
                     MIXED(a, b) MIXED(a, b) MIXED(a, b) MIXED(a, b) \
                     MIXED(a, b) MIXED(a, b)

__global__ void mixed(float *out, int n) {
  int a = blockIdx.x + n, b = threadIdx.x;
  MIXED10(a, b) MIXED10(a, b) MIXED10(a, b)
  out[(a & 255) * 32 + (b & 31)] = 1.f;
}
