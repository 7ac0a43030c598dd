#define N 4
struct P { int stride; int off; };
__device__ __noinline__ int opaque(int x) { return x * 3 + 1; }
__device__ inline int twice(int x) { return 2 * x; }

__global__ void k1(const float *a, float *o, int j) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i +
              j];                                  // nvcc: line 9
  o[i] = v;
}
__global__ void k2(const float *a, float *o, int j, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i + j * (
              k + 8 * (
              0))];                                // nvcc: line 15 (8 * (0) folds away)
  o[i] = v;
}
__global__ void k3(const float *a, float *o, P p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i * 2 +
              p.off];                              // nvcc: line 22 (a member)
  o[i] = v;
}
__global__ void k4(const float *a, float *o, int j) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i +
              twice(j)];                           // nvcc: line 28 (an inlined call)
  o[i] = v;
}
__global__ void k5(const float *a, float *o, int j) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i + j +
              N];                                  // nvcc: line 34 (a macro constant)
  o[i] = v;
}
__global__ void k6(const float *a, float *o, int j) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i +
    j] = a[i];                                     // nvcc: store on line 40
}
__global__ void k7(const float *a, float *o, int base) {
  float v = a[base +
              threadIdx.x];                        // nvcc: line 44 (threadIdx.x)
  o[threadIdx.x] = v;
}
__global__ void k8(const float *a, float *o, int j, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[(i + j) *
              w];                                  // nvcc: line 50 (a factor)
  o[i] = v;
}
__global__ void k9(const float *a, float *o, int j) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[j +
              i];                                  // nvcc: line 56
  o[i] = v;
}
__global__ void k10(const float *a, float *o, int j) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i
              + j
              + 1];                                // nvcc: line 63 (a constant term)
  o[i] = v;
}
__global__ void k11(const float *a, float *o, int j) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[opaque(j) +
              i];                                  // nvcc: line 69
  o[i] = v;
}
__global__ void k12(const float (*a)[64], float *o, int j) {
  int i = threadIdx.x;
  float v = a[j][
              i];                                  // nvcc: line 75 (the inner subscript)
  o[i] = v;
}
__global__ void k13(const float *a, float *o, int j, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[j +
              i + k * (
              0)];                                 // nvcc: line 81 (k * (0) folds away)
  o[i] = v;
}
