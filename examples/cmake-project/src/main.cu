// The program: launches the library's kernels with constant sizes and block
// shapes. warplint reads these launches to know each kernel's block shape
// and parameter values (rowSum's cols, for one).
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "matops/matops.cuh"
#include "matops/transpose.cuh"

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err_));       \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  constexpr int rows = 1024, cols = 1024;
  constexpr int tile = 32;
  constexpr int particles = 1 << 20;

  std::vector<float> host(rows * cols, 1.0f);
  float *matrix, *transposed, *sums, *mass;
  matops::Particle *ps;
  CHECK(cudaMalloc(&matrix, rows * cols * sizeof(float)));
  CHECK(cudaMalloc(&transposed, rows * cols * sizeof(float)));
  CHECK(cudaMalloc(&sums, rows * sizeof(float)));
  CHECK(cudaMalloc(&ps, particles * sizeof(matops::Particle)));
  CHECK(cudaMalloc(&mass, particles * sizeof(float)));
  CHECK(cudaMemcpy(matrix, host.data(), rows * cols * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemset(ps, 0, particles * sizeof(matops::Particle)));

  matops::rowSum<<<rows / 256, 256>>>(matrix, sums, rows, cols);
  matops::colSum<<<cols / 256, 256>>>(matrix, sums, rows, cols);
  dim3 block(tile, tile);
  dim3 grid(cols / tile, rows / tile);
  matops::transposeTile<float, tile><<<grid, block>>>(matrix, transposed, rows, cols);
  matops::extractMass<<<particles / 256, 256>>>(ps, mass, particles);
  CHECK(cudaGetLastError());

  float first = 0;
  CHECK(cudaMemcpy(&first, sums, sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("first column sum: %.0f (expected %d)\n", first, rows);
  cudaFree(matrix);
  cudaFree(transposed);
  cudaFree(sums);
  cudaFree(ps);
  cudaFree(mass);
  return first == rows ? 0 : 1;
}
