// A templated kernel in a header: it is instantiated (and launched) by the
// files that include it.
#pragma once

namespace matops {

// out (cols x rows) = transpose of in (rows x cols), through a TILE x TILE
// tile of shared memory. Launch with TILE x TILE blocks and a grid of
// (cols / TILE, rows / TILE).
template <typename T, int TILE>
__global__ void transposeTile(const T *in, T *out, int rows, int cols) {
  // The bug: the tile has TILE words per row, so reading it by column below
  // puts every lane of a warp in the same bank. The fix is one word of
  // padding per row: T tile[TILE][TILE + 1].
  __shared__ T tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows)
    tile[threadIdx.y][threadIdx.x] = in[y * cols + x]; // clean: rows of the tile
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  // warplint: smem-bank-conflict, a 32-way conflict on the tile's column read
  // (the store to out is coalesced).
  if (x < rows && y < cols)
    out[y * rows + x] = tile[threadIdx.x][threadIdx.y]; // BUG: smem-bank-conflict
}

} // namespace matops
