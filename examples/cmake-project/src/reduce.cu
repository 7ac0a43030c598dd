// Row and column sums of a row-major matrix.
#include "matops/matops.cuh"

namespace matops {

// One thread per row: at each step of the loop, adjacent lanes read elements
// a whole row (cols floats) apart. cols is a parameter, known only from the
// launch in main.cu (another file): 1024, so the lanes are 4096 bytes apart.
// warplint: uncoalesced-global-access, 32 sectors per request where 4 would do.
__global__ void rowSum(const float *in, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0;
  for (int c = 0; c < cols; ++c)
    s += in[r * cols + c]; // BUG: uncoalesced-global-access
  sums[r] = s;
}

// The same sum over columns: adjacent lanes read adjacent elements of a row.
// Clean: warplint reports nothing here.
__global__ void colSum(const float *in, float *sums, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0;
  for (int r = 0; r < rows; ++r)
    s += in[r * cols + c];
  sums[c] = s;
}

} // namespace matops
