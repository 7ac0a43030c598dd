// An array of structures read one member at a time.
#include "matops/matops.cuh"

namespace matops {

// Each Particle is 32 bytes, so a warp's 32 loads of .mass touch 32 different
// 32-byte sectors to use 4 bytes of each, whatever the launch.
// warplint: uncoalesced-global-access, 32 sectors per request where 4 would do.
// The store to mass[i] is coalesced. The fix: a structure of arrays.
__global__ void extractMass(const Particle *particles, float *mass, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    mass[i] = particles[i].mass; // BUG: uncoalesced-global-access
}

} // namespace matops
