// A combination unranked by loops over binomial coefficients, each
// coefficient a loop of its own: the values the loops leave come from
// stepping loops inside loops, with trip counts that grow with the lane's
// index, and the branch, loop-exit and work analyses step them in every
// warp of every sample. Each warp's evaluation follows at most
// WarpEval::MaxTotalFinalSteps such steps, and a loop that went past them
// once is not followed again. Measured on a 2-core machine: 7.3 s before
// that bound, 1.6 s with it (bn-cuda of the real-code suite, built the same
// way, took over two minutes and now takes one second). The loads at the
// unranked element stay "not evaluated", with their reason.
#include <cuda_runtime.h>

__device__ int binomial(int n, int k) {
  int r = 1;
  for (int i = 0; i < k; i++)
    r *= n - i;
  for (int i = k; i > 1; i--)
    r /= i;
  return r;
}

// The k-subset of 0..n-1 of rank `rank` (combinations ordered by size);
// returns its last element.
__device__ int unrank(int *comb, int rank, int n) {
  int sum = 0, k = 1;
  while (sum < rank)
    sum += binomial(n, k++);
  rank -= sum - binomial(n, --k);
  int low = 0, pos = 0;
  while (k > 1) {
    sum = 0;
    int s = 1;
    while (sum < rank)
      sum += binomial(n - s++, k - 1);
    rank -= sum - binomial(n - (--s), --k);
    low += s;
    comb[pos++] = low;
    n -= s;
  }
  comb[pos] = low + rank;
  return low + rank;
}

__global__ void scores(const float *table, float *out, int total) {
  int id = blockIdx.x * 256 + threadIdx.x;
  if (id < total) {
    int comb[4] = {0, 0, 0, 0};
    int last = unrank(comb, id, 60);
    float s = 0;
    for (int j = 0; j < 8; j++)
      s += table[last * 64 + j];
    s += table[last * 64 + 8] + table[last * 64 + 9] + table[last * 64 + 10] +
         table[last * 64 + 11] + table[last * 64 + 12] + table[last * 64 + 13];
    out[id] = s;
  }
}

void launch(const float *t, float *o) { scores<<<2048, 256>>>(t, o, 487635); }
