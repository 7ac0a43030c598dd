// 24 lane-dependent conditional updates before one access: every update
// doubles the paths through the kernel, so a model that copies a value per
// path does 2^24 work. Bound: one analysis in well under the test's timeout,
// with the access evaluated (the address is x's final value for each lane).
#include <cuda_runtime.h>

__global__ void chain(const float *in, float *out) {
  int t = threadIdx.x;
  int x = t;
  if (t & 1) x = x + 1;
  if (t & 2) x = x + 2;
  if (t & 4) x = x + 3;
  if (t & 8) x = x + 5;
  if (t & 16) x = x + 7;
  if (t > 3) x = x + 1;
  if (t > 5) x = x + 2;
  if (t > 7) x = x + 3;
  if (t > 9) x = x + 1;
  if (t > 11) x = x + 2;
  if (t > 13) x = x + 1;
  if (t > 15) x = x + 4;
  if (t > 17) x = x + 1;
  if (t > 19) x = x + 2;
  if (t > 21) x = x + 1;
  if (t > 23) x = x + 3;
  if (t > 25) x = x + 1;
  if (t > 27) x = x + 2;
  if (t > 29) x = x + 1;
  if (t < 2) x = x + 2;
  if (t < 4) x = x + 1;
  if (t < 6) x = x + 2;
  if (t < 8) x = x + 1;
  if (t < 10) x = x + 3;
  out[t] = in[x];
}

void launch(const float *in, float *out) { chain<<<64, 256>>>(in, out); }
