// Matrix transpose, three ways. Run: warplint examples/transpose.cu
#include <cuda_runtime.h>

constexpr int N = 4096;
constexpr int TILE = 32;

// Reads rows, writes columns: every store of a warp lands in 32 sectors.
__global__ void transposeNaive(const float *in, float *out) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  out[x * N + y] = in[y * N + x];
}

// Through a shared tile: both global accesses are contiguous, but reading
// the 32x32 tile by column puts all 32 lanes in one bank.
__global__ void transposeTile(const float *in, float *out) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}

// The fix: one padding column. Everything is coalesced and conflict-free.
__global__ void transposeShared(const float *in, float *out) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * N + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}

struct Vec3 {
  float x, y, z;
};

// An array of structures read one member at a time.
__global__ void norms(const Vec3 *v, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z;
}

void run(const float *in, float *out, const Vec3 *v, float *n, int count) {
  dim3 block(TILE, TILE);
  dim3 grid(N / TILE, N / TILE);
  transposeNaive<<<grid, block>>>(in, out);
  transposeTile<<<grid, block>>>(in, out);
  transposeShared<<<grid, block>>>(in, out);
  norms<<<(count + 255) / 256, 256>>>(v, n, count);
}
