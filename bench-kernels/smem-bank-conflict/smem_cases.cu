// Reference kernels for smem-bank-conflict. Each load case fills a shared buffer without
// conflicts, then runs the load under test REPS times (#pragma unroll 1; the
// `i & 1` term shifts every lane by one word, which rotates banks uniformly
// and keeps the conflict degree) so both the counters and the time follow it.
// The CASE table states warplint's prediction: wavefronts per request.
#include "../harness.cuh"

#define REPS 64
#define T 256 // threads per block in the 1D cases

__device__ __forceinline__ void fill(float *buf, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    buf[i] = i * 0.5f;
  __syncthreads();
}

// --- stride sweep --------------------------------------------------------------
// Every stride uses the same allocation (the largest, 33 words a lane), so
// occupancy is the same across the sweep and time follows the conflicts.
template <int S>
__global__ void case_sm_stride(float *out) {
  __shared__ float buf[T * 33 + 2];
  fill(buf, T * S + 2);
  int t = threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += buf[t * S + (i & 1)];
  out[blockIdx.x * blockDim.x + t] = acc;
}

// --- broadcasts and small ranges -----------------------------------------------------
__global__ void case_sm_broadcast(float *out) {
  __shared__ float buf[T + 2];
  fill(buf, T + 2);
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += buf[i & 1];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_sm_half(float *out) {
  __shared__ float buf[T + 2];
  fill(buf, T + 2);
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += buf[threadIdx.x / 2 + (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_sm_mod8(float *out) {
  __shared__ float buf[T + 2];
  fill(buf, T + 2);
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += buf[threadIdx.x % 8 + (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// --- element types ------------------------------------------------------------------
__global__ void case_sm_double(double *out) {
  __shared__ double buf[T + 2];
  for (int i = threadIdx.x; i < T + 2; i += blockDim.x) buf[i] = i;
  __syncthreads();
  double acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += buf[threadIdx.x + (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_sm_double_stride2(double *out) {
  __shared__ double buf[2 * T + 2];
  for (int i = threadIdx.x; i < 2 * T + 2; i += blockDim.x) buf[i] = i;
  __syncthreads();
  double acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += buf[2 * threadIdx.x + (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_sm_char(float *out) {
  __shared__ char buf[T + 8];
  for (int i = threadIdx.x; i < T + 8; i += blockDim.x) buf[i] = i;
  __syncthreads();
  int acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += buf[threadIdx.x + 4 * (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_sm_float2(float *out) {
  __shared__ float2 buf[T + 2];
  for (int i = threadIdx.x; i < T + 2; i += blockDim.x) buf[i] = make_float2(i, i);
  __syncthreads();
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    float2 v = buf[threadIdx.x + (i & 1)];
    acc += v.x + v.y;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_sm_float4(float *out) {
  __shared__ float4 buf[T + 2];
  for (int i = threadIdx.x; i < T + 2; i += blockDim.x) buf[i] = make_float4(i, i, i, i);
  __syncthreads();
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    float4 v = buf[threadIdx.x + (i & 1)];
    acc += v.x + v.w;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_sm_float4_stride2(float *out) {
  __shared__ float4 buf[2 * T + 2];
  for (int i = threadIdx.x; i < 2 * T + 2; i += blockDim.x) buf[i] = make_float4(i, i, i, i);
  __syncthreads();
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    float4 v = buf[2 * threadIdx.x + (i & 1)];
    acc += v.x + v.w;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// --- 2D tiles with 32x32 and 16x16 blocks: whole transposes -------------------------
#define N 2048
__global__ void case_tr_naive(const float *in, float *out) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * N + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void case_tr_padded(const float *in, float *out) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * N + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void case_tr_swizzled(const float *in, float *out) {
  __shared__ float tile[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * 32 + tx, y = blockIdx.y * 32 + ty;
  tile[ty][tx ^ ty] = in[y * N + x];
  __syncthreads();
  x = blockIdx.y * 32 + tx;
  y = blockIdx.x * 32 + ty;
  out[y * N + x] = tile[tx][ty ^ tx];
}
__global__ void case_tr16_naive(const float *in, float *out) {
  __shared__ float t[16][16];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  t[threadIdx.y][threadIdx.x] = in[y * N + x];
  __syncthreads();
  x = blockIdx.y * 16 + threadIdx.x;
  y = blockIdx.x * 16 + threadIdx.y;
  out[y * N + x] = t[threadIdx.x][threadIdx.y];
}
__global__ void case_tr16_swizzled(const float *in, float *out) {
  __shared__ float t[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
  t[ty][tx ^ ty] = in[y * N + x];
  __syncthreads();
  x = blockIdx.y * 16 + tx;
  y = blockIdx.x * 16 + ty;
  out[y * N + x] = t[tx][ty ^ tx];
}

// --- dynamic shared memory, device functions, prefetch distance ---------------------
__global__ void case_sm_dynamic32(float *out) {
  extern __shared__ float smem[];
  fill(smem, 32 * T + 2);
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += smem[threadIdx.x * 32 + (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_sm_dynamic_carved(float *out) {
  extern __shared__ float smem[];
  fill(smem, 33 * T + 66);
  float *b = smem + 64;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += b[threadIdx.x * 33 + (i & 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__device__ float readColumn(const float *tile, int r, int c) { return tile[r * 32 + c]; }
__global__ void case_sm_devfn(float *out) {
  __shared__ float tile[32 * 33 + 2];
  fill(tile, 32 * 33 + 2);
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += readColumn(tile, threadIdx.x % 32, i & 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
template <int PDIST>
__global__ void case_sm_prefetch(float *out) {
  __shared__ float v[9 * T + 2]; // the largest distance's size, for all
  fill(v, PDIST * T + 2);
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    acc += v[(i & 1) + PDIST * threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// --- masks and stores ---------------------------------------------------------------
__global__ void case_sm_even_lanes_stride2(float *out) {
  __shared__ float buf[2 * T + 2];
  fill(buf, 2 * T + 2);
  float acc = 0;
  if (threadIdx.x % 2 == 0) {
#pragma unroll 1
    for (int i = 0; i < REPS; ++i)
      acc += buf[threadIdx.x * 2 + (i & 1)];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_sm_store_stride32(float *out) {
  __shared__ float buf[32 * T + 2];
  int t = threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    buf[t * 32 + (i & 1)] = i;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = buf[t];
}
__global__ void case_sm_store_stride1(float *out) {
  __shared__ float buf[T + 2];
  int t = threadIdx.x;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i)
    buf[t + (i & 1)] = i;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = buf[t];
}

// --- host ---------------------------------------------------------------------------


static float *in, *out;
static const int BLOCKS = 2048;


static void l_s1() { case_sm_stride<1><<<BLOCKS, T>>>(out); }
static void l_s2() { case_sm_stride<2><<<BLOCKS, T>>>(out); }
static void l_s3() { case_sm_stride<3><<<BLOCKS, T>>>(out); }
static void l_s4() { case_sm_stride<4><<<BLOCKS, T>>>(out); }
static void l_s8() { case_sm_stride<8><<<BLOCKS, T>>>(out); }
static void l_s16() { case_sm_stride<16><<<BLOCKS, T>>>(out); }
static void l_s32() { case_sm_stride<32><<<BLOCKS, T>>>(out); }
static void l_s33() { case_sm_stride<33><<<BLOCKS, T>>>(out); }
static void l_bcast() { case_sm_broadcast<<<BLOCKS, T>>>(out); }
static void l_half() { case_sm_half<<<BLOCKS, T>>>(out); }
static void l_mod8() { case_sm_mod8<<<BLOCKS, T>>>(out); }
static void l_double() { case_sm_double<<<BLOCKS, T>>>((double *)out); }
static void l_double2() { case_sm_double_stride2<<<BLOCKS, T>>>((double *)out); }
static void l_char() { case_sm_char<<<BLOCKS, T>>>(out); }
static void l_float2() { case_sm_float2<<<BLOCKS, T>>>(out); }
static void l_float4() { case_sm_float4<<<BLOCKS, T>>>(out); }
static void l_float4s2() { case_sm_float4_stride2<<<BLOCKS, T>>>(out); }
static void l_tr_naive() { case_tr_naive<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(in, out); }
static void l_tr_padded() { case_tr_padded<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(in, out); }
static void l_tr_swz() { case_tr_swizzled<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(in, out); }
static void l_tr16_naive() { case_tr16_naive<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(in, out); }
static void l_tr16_swz() { case_tr16_swizzled<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(in, out); }
static void l_dyn32() { case_sm_dynamic32<<<BLOCKS, T, (32 * T + 2) * 4>>>(out); }
static void l_dyncarved() { case_sm_dynamic_carved<<<BLOCKS, T, (33 * T + 66) * 4>>>(out); }
static void l_devfn() { case_sm_devfn<<<BLOCKS, T>>>(out); }
static void l_pf4() { case_sm_prefetch<4><<<BLOCKS, T>>>(out); }
static void l_pf5() { case_sm_prefetch<5><<<BLOCKS, T>>>(out); }
static void l_pf8() { case_sm_prefetch<8><<<BLOCKS, T>>>(out); }
static void l_pf9() { case_sm_prefetch<9><<<BLOCKS, T>>>(out); }
static void l_even2() { case_sm_even_lanes_stride2<<<BLOCKS, T>>>(out); }
static void l_st32() { case_sm_store_stride32<<<BLOCKS, T / 8>>>(out); }
static void l_st1() { case_sm_store_stride1<<<BLOCKS, T>>>(out); }

static const Case cases[] = {
    CASE("case_sm_stride<1>", "load", "smem-stride", 1, l_s1),
    CASE("case_sm_stride<2>", "load", "smem-stride", 2, l_s2),
    CASE("case_sm_stride<3>", "load", "smem-stride", 1, l_s3),
    CASE("case_sm_stride<4>", "load", "smem-stride", 4, l_s4),
    CASE("case_sm_stride<8>", "load", "smem-stride", 8, l_s8),
    CASE("case_sm_stride<16>", "load", "smem-stride", 16, l_s16),
    CASE("case_sm_stride<32>", "load", "smem-stride", 32, l_s32),
    CASE("case_sm_stride<33>", "load", "smem-stride", 1, l_s33),
    CASE("case_sm_broadcast", "load", "smem-broadcast", 1, l_bcast),
    CASE("case_sm_half", "load", "smem-broadcast", 1, l_half),
    CASE("case_sm_mod8", "load", "smem-broadcast", 1, l_mod8),
    CASE("case_sm_double", "load", "smem-types", 2, l_double),
    CASE("case_sm_double_stride2", "load", "smem-types", 4, l_double2),
    CASE("case_sm_char", "load", "smem-types", 1, l_char),
    CASE("case_sm_float2", "load", "smem-types", 2, l_float2),
    CASE("case_sm_float4", "load", "smem-types", 4, l_float4),
    CASE("case_sm_float4_stride2", "load", "smem-types", 8, l_float4s2),
    CASE("case_tr_naive", "load", "transpose32", 32, l_tr_naive),
    CASE("case_tr_padded", "load", "transpose32", 1, l_tr_padded),
    CASE("case_tr_swizzled", "load", "transpose32", 1, l_tr_swz),
    CASE("case_tr16_naive", "load", "transpose16", 8, l_tr16_naive),
    CASE("case_tr16_swizzled", "load", "transpose16", 1, l_tr16_swz),
    CASE("case_sm_dynamic32", "load", "smem-dynamic", 32, l_dyn32),
    CASE("case_sm_dynamic_carved", "load", "smem-dynamic", 1, l_dyncarved),
    CASE("case_sm_devfn", "load", "smem-dynamic", 32, l_devfn),
    CASE("case_sm_prefetch<4>", "load", "prefetch", 4, l_pf4),
    CASE("case_sm_prefetch<5>", "load", "prefetch", 1, l_pf5),
    CASE("case_sm_prefetch<8>", "load", "prefetch", 8, l_pf8),
    CASE("case_sm_prefetch<9>", "load", "prefetch", 1, l_pf9),
    CASE("case_sm_even_lanes_stride2", "load", "smem-masks", 2, l_even2),
    CASE("case_sm_store_stride32", "store", "smem-stores", 32, l_st32),
    CASE("case_sm_store_stride1", "store", "smem-stores", 1, l_st1),
};
static std::vector<float> hostIn;
// The three 32x32 transposes must produce the transpose of the input.
static bool checkTranspose(const Case &c) {
  if (c.launch != l_tr_naive && c.launch != l_tr_padded && c.launch != l_tr_swz)
    return true;
  size_t n = (size_t)N * N;
  std::vector<float> o(n);
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
  c.launch();
  CHECK(cudaMemcpy(o.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (size_t y = 0; y < N; y += 97)
    for (size_t x = 0; x < N; x += 89)
      if (o[x * N + y] != hostIn[y * N + x]) {
        fprintf(stderr, "%s: transpose wrong at %zu,%zu\n", c.name, x, y);
        return false;
      }
  return true;
}

int main(int argc, char **argv) {
  size_t n = (size_t)N * N;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float) * 2));
  hostIn.resize(n);
  for (size_t i = 0; i < n; ++i)
    hostIn[i] = float((i * 2654435761u) % 1000) * 0.001f + 0.5f;
  CHECK(cudaMemcpy(in, hostIn.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  for (auto f : {(const void *)case_sm_dynamic32, (const void *)case_sm_dynamic_carved})
    CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (33 * T + 66) * 4));
  return runSuite(argc, argv, cases, checkTranspose);
}
