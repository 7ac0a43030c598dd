// A seed for the front-end fuzzer: warp-level code, atomics, a grid-stride
// loop, a struct member and a do-while.
struct Particle { float x, y, z; int id; };

__device__ int counter;

__global__ void reduce(const Particle *p, float *sum, int n) {
  unsigned mask = __activemask();
  float v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += p[i].x + p[i].id;
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync(mask, v, off);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(sum, v);
  int t = threadIdx.x;
  do {
    t >>= 1;
  } while (t > 4 && !!(t & 1));
  if (1 && t)
    atomicAdd(&counter, t);
}
