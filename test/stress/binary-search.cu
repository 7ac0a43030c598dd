// A binary search over a shared array inside a loop: every probe's index
// depends on the previous probe's load, and the loop carries it. The model
// must stop with "depends on data" instead of recursing through the chain.
#include <cuda_runtime.h>

__global__ void search(const int *keys, const int *queries, int *pos, int n) {
  __shared__ int s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    s[i] = keys[i];
  __syncthreads();
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  for (int q = 0; q < 16; ++q) {
    int key = queries[g * 16 + q];
    int lo = 0, hi = 1023;
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (s[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (int step = 512; step > 0; step >>= 1) {
      if (lo + step < 1024 && s[lo + step] <= key)
        lo += step;
    }
    pos[g * 16 + q] = lo;
  }
}

void launch(const int *k, const int *q, int *p, int n) {
  search<<<64, 256>>>(k, q, p, n);
}
