#include "helper.h"

__global__ void child(float *out, int stride) {
  out[threadIdx.x * stride] = 1.0f; // uncoalesced for stride 32
}

// A device-side launch: nvcc needs -rdc=true for it, and so does Clang.
__global__ void parent(float *out) {
  if (threadIdx.x == 0)
    child<<<1, 32>>>(out, 32);
#ifdef BROKEN
  out[threadIdx.x] = undeclared_in_kernel;
#endif
}

int main() {
  float *d = nullptr, h[32] = {0};
  double t0 = seconds();
  parent<<<1, 32>>>(d);
  child<<<1, 32>>>(d, 32);
  printf("%d threads, finite %d, %f s\n", host_threads(), all_finite(h, 32),
         seconds() - t0);
  return 0;
}
