// The library's kernels. Each is defined in its own file under src/ and
// launched from other files (the library is built with separable compilation).
#pragma once

namespace matops {

// sums[r] = sum of row r of a rows x cols row-major matrix; one thread per row.
__global__ void rowSum(const float *in, float *sums, int rows, int cols);

// sums[c] = sum of column c of a rows x cols row-major matrix; one thread per
// column.
__global__ void colSum(const float *in, float *sums, int rows, int cols);

struct Particle {
  float x, y, z, mass;
  float vx, vy, vz, charge;
};

// mass[i] = particles[i].mass.
__global__ void extractMass(const Particle *particles, float *mass, int n);

} // namespace matops
