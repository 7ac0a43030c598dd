// Reference kernels for divergent-branch. Each case kernel holds one branch
// under test (the line marked "branch under test"); the rest of the kernel
// is branch-free or uniform. The GPU's truth is whether any branch target
// diverged (smsp__sass_branch_targets_threads_divergent > 0). warplint's
// prediction for that: the branch is divergent and its body large enough to
// stay a branch (otherwise the compiler predicates it and no branch exists).
// The CASE table states the prediction: 1 divergent branch, 0 none.
#include "../harness.cuh"

#define T 256

__device__ __noinline__ float work(float x) {
#pragma unroll 1
  for (int i = 0; i < 64; ++i)
    x = x * 1.0001f + 0.5f;
  return x;
}

// --- lane-dependent conditions, large bodies ----------------------------------------
__global__ void case_br_gt2(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if (threadIdx.x > 2) // branch under test
    x = work(x);
  a[g] = x;
}
__global__ void case_br_odd(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if (threadIdx.x % 2 == 1) // branch under test
    x = work(x);
  a[g] = x;
}
__global__ void case_br_half_else(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if ((threadIdx.x & 31) < 16) // branch under test
    x = work(x);
  else
    x = work(x * 2.0f);
  a[g] = x;
}
__global__ void case_br_lane_loop(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  for (int i = 0; i < (threadIdx.x & 31); ++i) // branch under test
    x = work(x);
  a[g] = x;
}
__global__ void case_br_early_exit(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 4 == 0) // branch under test
    return;
  a[g] = work(a[g]);
}
__global__ void case_br_switch(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  switch (threadIdx.x % 4) { // branch under test
  case 0: x = work(x); break;
  case 1: x = work(x + 1.0f); break;
  case 2: x = work(x * 3.0f); break;
  default: x = work(x - 1.0f); break;
  }
  a[g] = x;
}
__global__ void case_br_2d_x(float *a) {
  int g = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  float x = a[g];
  if (threadIdx.x < 8) // branch under test
    x = work(x);
  a[g] = x;
}
__device__ float helper(float x, int lane) {
  if (lane % 3 == 0) // branch under test
    x = work(x);
  return x;
}
__global__ void case_br_device_fn(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  a[g] = helper(a[g], threadIdx.x);
}
template <int K>
__global__ void case_br_template(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if (threadIdx.x % K == 0) // branch under test
    x = work(x);
  a[g] = x;
}

// --- reductions -------------------------------------------------------------------------
__global__ void case_br_reduce0(float *a) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  s[tid] = a[blockIdx.x * T + tid];
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    if (tid % (2 * st) == 0) // branch under test
      s[tid] = work(s[tid] + s[tid + st]);
    __syncthreads();
  }
  if (tid == 0)
    a[blockIdx.x] = s[0];
}
__global__ void case_br_reduce2(float *a) {
  __shared__ float s[T];
  unsigned tid = threadIdx.x;
  s[tid] = a[blockIdx.x * T + tid];
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st) // branch under test
      s[tid] = work(s[tid] + s[tid + st]);
    __syncthreads();
  }
  if (tid == 0)
    a[blockIdx.x] = s[0];
}

// --- uniform conditions, large bodies -------------------------------------------------
__global__ void case_br_warp_index(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if ((threadIdx.x / 32) % 2 == 0) // branch under test
    x = work(x);
  a[g] = x;
}
__global__ void case_br_lt64(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if (threadIdx.x < 64) // branch under test
    x = work(x);
  a[g] = x;
}
__global__ void case_br_block(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if (blockIdx.x % 2 == 0) // branch under test
    x = work(x);
  a[g] = x;
}
__global__ void case_br_uniform_load(float *a, const float *flag) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if (flag[0] > 0.5f) // branch under test
    x = work(x);
  a[g] = x;
}
__global__ void case_br_param(float *a, int k) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if (k > 3) // branch under test
    x = work(x);
  a[g] = x;
}
__global__ void case_br_uniform_loop(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  for (int i = 0; i < 8; ++i) // branch under test
    x = work(x);
  a[g] = x;
}
__global__ void case_br_grid_stride(float *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; // branch under test
       i += blockDim.x * gridDim.x)
    a[i] = work(a[i]);
}
__global__ void case_br_2d_y(float *a) {
  int g = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  float x = a[g];
  if (threadIdx.y < 8) // branch under test
    x = work(x);
  a[g] = x;
}

// --- small bodies: predicated, no branch ------------------------------------------------
__global__ void case_br_small_odd(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if (threadIdx.x % 2) // branch under test
    x += 1.0f;
  a[g] = x;
}
__global__ void case_br_small_gt2(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if (threadIdx.x > 2) // branch under test
    x *= 3.0f;
  a[g] = x;
}

// --- data-dependent: warplint reports it, predicts nothing ---------------------------
__global__ void case_br_data(float *a) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[g];
  if (x > 1.5f) // branch under test
    x = work(x);
  a[g] = x;
}

// --- host ---------------------------------------------------------------------------


static float *buf, *flag;
static const int BLOCKS = 1024, N = BLOCKS * T;
static void l_gt2() { case_br_gt2<<<BLOCKS, T>>>(buf); }
static void l_odd() { case_br_odd<<<BLOCKS, T>>>(buf); }
static void l_half() { case_br_half_else<<<BLOCKS, T>>>(buf); }
static void l_loop() { case_br_lane_loop<<<BLOCKS, T>>>(buf); }
static void l_exit() { case_br_early_exit<<<BLOCKS, T>>>(buf); }
static void l_switch() { case_br_switch<<<BLOCKS, T>>>(buf); }
static void l_2dx() { case_br_2d_x<<<BLOCKS, dim3(16, 16)>>>(buf); }
static void l_devfn() { case_br_device_fn<<<BLOCKS, T>>>(buf); }
static void l_tmpl() { case_br_template<4><<<BLOCKS, T>>>(buf); }
static void l_r0() { case_br_reduce0<<<BLOCKS, T>>>(buf); }
static void l_r2() { case_br_reduce2<<<BLOCKS, T>>>(buf); }
static void l_warpidx() { case_br_warp_index<<<BLOCKS, T>>>(buf); }
static void l_lt64() { case_br_lt64<<<BLOCKS, T>>>(buf); }
static void l_block() { case_br_block<<<BLOCKS, T>>>(buf); }
static void l_uload() { case_br_uniform_load<<<BLOCKS, T>>>(buf, flag); }
static void l_param() { case_br_param<<<BLOCKS, T>>>(buf, 5); }
static void l_uloop() { case_br_uniform_loop<<<BLOCKS, T>>>(buf); }
static void l_gs() { case_br_grid_stride<<<BLOCKS / 4, T>>>(buf, N); }
static void l_2dy() { case_br_2d_y<<<BLOCKS, dim3(16, 16)>>>(buf); }
static void l_sodd() { case_br_small_odd<<<BLOCKS, T>>>(buf); }
static void l_sgt2() { case_br_small_gt2<<<BLOCKS, T>>>(buf); }
static void l_data() { case_br_data<<<BLOCKS, T>>>(buf); }

static const Case cases[] = {
    CASE("case_br_gt2", "branch", "lane", 1, l_gt2),
    CASE("case_br_odd", "branch", "lane", 1, l_odd),
    CASE("case_br_half_else", "branch", "lane", 1, l_half),
    CASE("case_br_lane_loop", "branch", "lane", 1, l_loop),
    CASE("case_br_early_exit", "branch", "lane", 1, l_exit),
    CASE("case_br_switch", "branch", "lane", 1, l_switch),
    CASE("case_br_2d_x", "branch", "lane", 1, l_2dx),
    CASE("case_br_device_fn", "branch", "lane", 1, l_devfn),
    CASE("case_br_template<4>", "branch", "lane", 1, l_tmpl),
    CASE("case_br_reduce0", "branch", "reduction", 1, l_r0),
    CASE("case_br_reduce2", "branch", "reduction", 1, l_r2),
    CASE("case_br_warp_index", "branch", "uniform", 0, l_warpidx),
    CASE("case_br_lt64", "branch", "uniform", 0, l_lt64),
    CASE("case_br_block", "branch", "uniform", 0, l_block),
    CASE("case_br_uniform_load", "branch", "uniform", 0, l_uload),
    CASE("case_br_param", "branch", "uniform", 0, l_param),
    CASE("case_br_uniform_loop", "branch", "uniform", 0, l_uloop),
    CASE("case_br_grid_stride", "branch", "uniform", 0, l_gs),
    CASE("case_br_2d_y", "branch", "uniform", 0, l_2dy),
    CASE("case_br_small_odd", "branch", "predicated", 0, l_sodd),
    CASE("case_br_small_gt2", "branch", "predicated", 0, l_sgt2),
    // Data-dependent: measured and reported, no prediction made.
    Case{"case_br_data", "branch", "data", -1, l_data},
};

int main(int argc, char **argv) {
  CHECK(cudaMalloc(&buf, N * sizeof(float)));
  CHECK(cudaMalloc(&flag, sizeof(float)));
  std::vector<float> h(N);
  for (int i = 0; i < N; ++i)
    h[i] = 1.0f + float((i * 2654435761u) % 1000) * 0.001f; // 1..2: half > 1.5
  CHECK(cudaMemcpy(buf, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  float one = 1.0f;
  CHECK(cudaMemcpy(flag, &one, sizeof(float), cudaMemcpyHostToDevice));
  return runSuite(argc, argv, cases);
}
