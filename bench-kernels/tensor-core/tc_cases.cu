// Reference kernels for the tensor-core and asynchronous-copy accesses:
// ldmatrix, cp.async (inline PTX, __pipeline_memcpy_async, cuda::memcpy_async)
// and wmma::load_matrix_sync / store_matrix_sync. Each case runs the access
// under test REPS times (#pragma unroll 1) so its per-line counters dominate;
// measure.sh profiles them per SASS instruction (ncu's source page), which
// names the opcode nvcc chose (LDSM, LDGSTS, LDS, LDG...) and its wavefronts or
// sectors. The CASE table states warplint's prediction for the access under
// test per request: wavefronts for shared, sectors for global; -1 where
// warplint does not model the access (measured only, to build the model).
#include "../harness.cuh"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <mma.h>

#define REPS 64
#define T 128 // threads per block: 4 warps
#define BLOCKS 264

using namespace nvcuda;

static float *in, *out;

template <typename E>
__device__ __forceinline__ void fillShared(E *buf, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    buf[i] = E(float(i % 61) * 0.25f);
  __syncthreads();
}

__device__ __forceinline__ float sumHalves(unsigned r) {
  __half2 h = *reinterpret_cast<__half2 *>(&r);
  return __low2float(h) + __high2float(h);
}

// --- ldmatrix ---------------------------------------------------------------------
// Each warp owns a 32 x LD tile of halves. Lane l supplies the row address
// of row l % 16, column (l / 16) * 8 (the usual 16x16 A-fragment order), or
// row l (ROWS: 32 rows of one 16-byte chunk). With SWZ, chunk c of row r is
// stored at chunk c ^ (r % 8) (an XOR swizzle over 128-byte rows).
template <int LD, int X, bool ROWS, bool SWZ, bool TRANS>
__global__ void case_ldm(float *out) {
  __shared__ __align__(128) __half tile[4 * 32 * LD];
  fillShared(tile, 4 * 32 * LD);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int row = ROWS ? lane : lane % 16;
  int chunk = ROWS ? 0 : lane / 16;
  if (SWZ)
    chunk ^= row % 8;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    unsigned a = static_cast<unsigned>(
        __cvta_generic_to_shared(&tile[warp * 32 * LD + row * LD + chunk * 8]));
    unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    if (X == 1 && !TRANS)
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                   : "=r"(r0) : "r"(a));
    else if (X == 2 && !TRANS)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                   : "=r"(r0), "=r"(r1) : "r"(a));
    else if (X == 4 && !TRANS)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    acc += sumHalves(r0) + sumHalves(r1) + sumHalves(r2) + sumHalves(r3);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// --- cp.async ---------------------------------------------------------------------
// Lane t copies BYTES from in + (block's base + t * GSTRIDE) bytes into
// shared memory at t * SSTRIDE bytes, then waits for it.
template <int BYTES, int GSTRIDE, int SSTRIDE>
__global__ void case_cpasync(const float *in, float *out) {
  __shared__ __align__(128) char buf[T * 256 + 16];
  const char *src = reinterpret_cast<const char *>(in) +
                    size_t(blockIdx.x) * T * GSTRIDE + threadIdx.x * GSTRIDE;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    unsigned dst = static_cast<unsigned>(
        __cvta_generic_to_shared(&buf[threadIdx.x * SSTRIDE]));
    if (BYTES == 16)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src));
    else
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst), "l"(src),
                   "n"(BYTES));
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
    acc += float(buf[threadIdx.x * SSTRIDE]);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The same copy through the toolkit's wrappers.
template <int GSTRIDE>
__global__ void case_pipeline_memcpy(const float *in, float *out) {
  __shared__ __align__(128) char buf[T * 16];
  const char *src = reinterpret_cast<const char *>(in) +
                    size_t(blockIdx.x) * T * GSTRIDE + threadIdx.x * GSTRIDE;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    __pipeline_memcpy_async(&buf[threadIdx.x * 16], src, 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    acc += float(buf[threadIdx.x * 16]);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int GSTRIDE>
__global__ void case_cuda_memcpy_async(const float *in, float *out) {
  __shared__ __align__(128) char buf[T * 16];
  const char *src = reinterpret_cast<const char *>(in) +
                    size_t(blockIdx.x) * T * GSTRIDE + threadIdx.x * GSTRIDE;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[threadIdx.x * 16], src, cuda::aligned_size_t<16>(16), pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    acc += float(buf[threadIdx.x * 16]);
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// A group's copy (cooperative_groups::memcpy_async) of BYTES contiguous
// bytes, with cuda::aligned_size_t<ALIGN> (0: a plain byte count, whose width
// the library picks from the pointers at run time), by the whole block or,
// with TILE, by each warp as a thread_block_tile<32> of its own part.
template <int ALIGN, int BYTES, bool TILE>
__global__ void case_cg_memcpy(const float *in, float *out) {
  namespace cg = cooperative_groups;
  __shared__ __align__(128) char buf[BYTES];
  cg::thread_block block = cg::this_thread_block();
  const char *src = reinterpret_cast<const char *>(in) + size_t(blockIdx.x) * BYTES;
  constexpr int part = TILE ? BYTES / (T / 32) : BYTES;
  int at = TILE ? int(threadIdx.x / 32) * part : 0;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    if constexpr (TILE) {
      cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
      cg::memcpy_async(warp, buf + at, src + at, cuda::aligned_size_t<16>(part));
      cg::wait(warp);
    } else if constexpr (ALIGN > 0) {
      cg::memcpy_async(block, buf, src, cuda::aligned_size_t<ALIGN>(BYTES));
      cg::wait(block);
    } else {
      cg::memcpy_async(block, buf, src, size_t(BYTES));
      cg::wait(block);
    }
    acc += float(buf[(threadIdx.x * 16) % BYTES]);
    block.sync();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// --- wmma -------------------------------------------------------------------------
// One warp's fragment loaded from (or stored to) its own shared tile with
// leading dimension LD; measured only: the fragment layout is not documented.
template <typename Use, typename Layout, int LD>
__global__ void case_wmma_load(float *out) {
  __shared__ __align__(128) __half tile[4 * 16 * LD + 16];
  fillShared(tile, 4 * 16 * LD + 16);
  int warp = threadIdx.x / 32;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    wmma::fragment<Use, 16, 16, 16, __half, Layout> f;
    wmma::load_matrix_sync(f, &tile[warp * 16 * LD + (i & 1) * 8], LD);
    acc += __half2float(f.x[0]) + __half2float(f.x[f.num_elements - 1]);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int LD>
__global__ void case_wmma_store(float *out) {
  __shared__ __align__(128) float tile[4 * 16 * LD + 8];
  int warp = threadIdx.x / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 1.0f);
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    c.x[0] += 1.0f;
    wmma::store_matrix_sync(&tile[warp * 16 * LD + (i & 1) * 4], c, LD,
                            wmma::mem_row_major);
  }
  __syncwarp();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x % 32 + warp * 16 * LD];
}

// A fragment loaded from and stored to global memory (sectors per request):
// every element is used, so nvcc loads them all.
template <int LD>
__global__ void case_wmma_global(const float *in, float *out) {
  size_t tile = size_t(blockIdx.x * 4 + threadIdx.x / 32) * 16 * LD;
  const __half *a = reinterpret_cast<const __half *>(in) + tile;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> f;
    wmma::load_matrix_sync(f, a + (i & 1) * 8, LD);
    for (int e = 0; e < f.num_elements; ++e)
      c.x[e % c.num_elements] += __half2float(f.x[e]);
  }
  wmma::store_matrix_sync(out + tile, c, LD, wmma::mem_row_major);
}

// An accumulator loaded from shared or global memory (mem_row_major), and a
// transposed operand from global memory.
template <int LD>
__global__ void case_wmma_acc_shared(float *out) {
  __shared__ __align__(128) float tile[4 * 16 * LD + 8];
  fillShared(tile, 4 * 16 * LD + 8);
  int warp = threadIdx.x / 32;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(c, &tile[warp * 16 * LD + (i & 1) * 4], LD,
                           wmma::mem_row_major);
    for (int e = 0; e < c.num_elements; ++e)
      acc += c.x[e];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int LD>
__global__ void case_wmma_acc_global(const float *in, float *out) {
  const float *src = in + size_t(blockIdx.x * 4 + threadIdx.x / 32) * 16 * LD;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(c, src + (i & 1) * 4, LD, wmma::mem_row_major);
    for (int e = 0; e < c.num_elements; ++e)
      acc += c.x[e];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int LD>
__global__ void case_wmma_global_col(const float *in, float *out) {
  size_t tile = size_t(blockIdx.x * 4 + threadIdx.x / 32) * 16 * LD;
  const __half *a = reinterpret_cast<const __half *>(in) + tile;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> f;
    wmma::load_matrix_sync(f, a + (i & 1) * 8, LD);
    for (int e = 0; e < f.num_elements; ++e)
      acc += __half2float(f.x[e]);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// bf16 and tf32 fragments from shared memory, and stmatrix.
template <int LD>
__global__ void case_wmma_bf16(float *out) {
  __shared__ __align__(128) __nv_bfloat16 tile[4 * 16 * LD + 16];
  fillShared(tile, 4 * 16 * LD + 16);
  int warp = threadIdx.x / 32;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> f;
    wmma::load_matrix_sync(f, &tile[warp * 16 * LD + (i & 1) * 8], LD);
    acc += __bfloat162float(f.x[0]) + __bfloat162float(f.x[f.num_elements - 1]);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int LD>
__global__ void case_wmma_tf32(float *out) {
  __shared__ __align__(128) float tile[4 * 16 * LD + 16];
  fillShared(tile, 4 * 16 * LD + 16);
  int warp = threadIdx.x / 32;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> f;
    wmma::load_matrix_sync(f, &tile[warp * 16 * LD + (i & 1) * 4], LD);
    for (int e = 0; e < f.num_elements; ++e)
      acc += f.x[e];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int LD>
__global__ void case_stmatrix(float *out) {
  __shared__ __align__(128) __half tile[4 * 32 * LD];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(
      &tile[warp * 32 * LD + (lane % 16) * LD + (lane / 16) * 8]));
  unsigned r = lane * 0x10001u;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    r += i;
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 ::"r"(a), "r"(r), "r"(r + 1), "r"(r + 2), "r"(r + 3) : "memory");
  }
  __syncwarp();
  out[blockIdx.x * blockDim.x + threadIdx.x] = __half2float(tile[threadIdx.x]);
}

#define LDM(name, ...)                                                         \
  static void name() { case_ldm<__VA_ARGS__><<<BLOCKS, T>>>(out); }
LDM(l_ldm_x1_rows, 8, 1, true, false, false)
LDM(l_ldm_x4_rows, 8, 4, true, false, false)
LDM(l_ldm_x4_ld16, 16, 4, false, false, false)
LDM(l_ldm_x2_ld16, 16, 2, false, false, false)
LDM(l_ldm_x1_ld16, 16, 1, false, false, false)
LDM(l_ldm_x4_ld24, 24, 4, false, false, false)
LDM(l_ldm_x4_ld32, 32, 4, false, false, false)
LDM(l_ldm_x4_ld64, 64, 4, false, false, false)
LDM(l_ldm_x4_ld72, 72, 4, false, false, false)
LDM(l_ldm_x4_ld64_swz, 64, 4, false, true, false)
LDM(l_ldm_x4t_ld16, 16, 4, false, false, true)
LDM(l_ldm_x4t_ld24, 24, 4, false, false, true)

#define CPA(name, ...)                                                         \
  static void name() { case_cpasync<__VA_ARGS__><<<BLOCKS, T>>>(in, out); }
CPA(l_cpa16, 16, 16, 16)
CPA(l_cpa8, 8, 8, 8)
CPA(l_cpa4, 4, 4, 4)
CPA(l_cpa16_g64, 16, 64, 16)
CPA(l_cpa4_g128, 4, 128, 4)
CPA(l_cpa16_s128, 16, 16, 128)
CPA(l_cpa4_s128, 4, 4, 128)
CPA(l_cpa16_s32, 16, 16, 32)
CPA(l_cpa16_s64, 16, 16, 64)
CPA(l_cpa16_s256, 16, 16, 256)
CPA(l_cpa16_g32, 16, 32, 16)
CPA(l_cpa8_s64, 8, 8, 64)
CPA(l_cpa8_s128, 8, 8, 128)
CPA(l_cpa4_s8, 4, 4, 8)
CPA(l_cpa4_s16, 4, 4, 16)
#define CGM(name, ...)                                                         \
  static void name() { case_cg_memcpy<__VA_ARGS__><<<BLOCKS, T>>>(in, out); }
CGM(l_cg16, 16, T * 16, false)
CGM(l_cg16x4, 16, T * 64, false)
CGM(l_cg4, 4, T * 16, false)
CGM(l_cg8, 8, T * 16, false)
CGM(l_cg0, 0, T * 16, false)
CGM(l_cgtile, 16, T * 16, true)
static void l_pipe16() { case_pipeline_memcpy<16><<<BLOCKS, T>>>(in, out); }
static void l_pipe16_g64() { case_pipeline_memcpy<64><<<BLOCKS, T>>>(in, out); }
static void l_cuda16() { case_cuda_memcpy_async<16><<<BLOCKS, T>>>(in, out); }
static void l_cuda16_g64() { case_cuda_memcpy_async<64><<<BLOCKS, T>>>(in, out); }

#define WLD(name, ...)                                                         \
  static void name() { case_wmma_load<__VA_ARGS__><<<BLOCKS, T>>>(out); }
WLD(l_wa_row16, wmma::matrix_a, wmma::row_major, 16)
WLD(l_wa_row24, wmma::matrix_a, wmma::row_major, 24)
WLD(l_wa_row32, wmma::matrix_a, wmma::row_major, 32)
WLD(l_wa_row64, wmma::matrix_a, wmma::row_major, 64)
WLD(l_wa_row72, wmma::matrix_a, wmma::row_major, 72)
WLD(l_wa_col16, wmma::matrix_a, wmma::col_major, 16)
WLD(l_wa_col24, wmma::matrix_a, wmma::col_major, 24)
WLD(l_wb_col16, wmma::matrix_b, wmma::col_major, 16)
WLD(l_wb_col24, wmma::matrix_b, wmma::col_major, 24)
WLD(l_wb_row16, wmma::matrix_b, wmma::row_major, 16)
WLD(l_wb_row24, wmma::matrix_b, wmma::row_major, 24)
WLD(l_wb_row64, wmma::matrix_b, wmma::row_major, 64)
static void l_ws16() { case_wmma_store<16><<<BLOCKS, T>>>(out); }
static void l_ws20() { case_wmma_store<20><<<BLOCKS, T>>>(out); }
static void l_ws24() { case_wmma_store<24><<<BLOCKS, T>>>(out); }
static void l_ws32() { case_wmma_store<32><<<BLOCKS, T>>>(out); }
static void l_wg16() { case_wmma_global<16><<<BLOCKS, T>>>(in, out); }
static void l_wg256() { case_wmma_global<256><<<BLOCKS, T>>>(in, out); }
static void l_bf16_16() { case_wmma_bf16<16><<<BLOCKS, T>>>(out); }
static void l_bf16_24() { case_wmma_bf16<24><<<BLOCKS, T>>>(out); }
static void l_tf32_8() { case_wmma_tf32<8><<<BLOCKS, T>>>(out); }
static void l_tf32_12() { case_wmma_tf32<12><<<BLOCKS, T>>>(out); }
static void l_tf32_16() { case_wmma_tf32<16><<<BLOCKS, T>>>(out); }
static void l_accs16() { case_wmma_acc_shared<16><<<BLOCKS, T>>>(out); }
static void l_accs24() { case_wmma_acc_shared<24><<<BLOCKS, T>>>(out); }
static void l_accg16() { case_wmma_acc_global<16><<<BLOCKS, T>>>(in, out); }
static void l_gcol16() { case_wmma_global_col<16><<<BLOCKS, T>>>(in, out); }
static void l_gcol256() { case_wmma_global_col<256><<<BLOCKS, T>>>(in, out); }
static void l_stm16() { case_stmatrix<16><<<BLOCKS, T>>>(out); }
static void l_stm24() { case_stmatrix<24><<<BLOCKS, T>>>(out); }

// Per request: ldmatrix/stmatrix and shared wmma fragments, wavefronts (8
// lanes' 16-byte rows per matrix, conflicts counted per matrix); cp.async and
// global wmma fragments, sectors of the global side (a 16-byte copy whose
// shared destination conflicts: one sector a lane). -1: measured only (bf16
// fragments whose elements nvcc drops, a group copy whose width the library
// picks at run time: not modelled).
static const Case cases[] = {
    CASE("case_ldm<8, 1, true, false, false>", "load", "ldmatrix", 1, l_ldm_x1_rows),
    CASE("case_ldm<8, 4, true, false, false>", "load", "ldmatrix", 4, l_ldm_x4_rows),
    CASE("case_ldm<16, 4, false, false, false>", "load", "ldmatrix", 8, l_ldm_x4_ld16),
    CASE("case_ldm<16, 2, false, false, false>", "load", "ldmatrix", 4, l_ldm_x2_ld16),
    CASE("case_ldm<16, 1, false, false, false>", "load", "ldmatrix", 2, l_ldm_x1_ld16),
    CASE("case_ldm<24, 4, false, false, false>", "load", "ldmatrix", 4, l_ldm_x4_ld24),
    CASE("case_ldm<32, 4, false, false, false>", "load", "ldmatrix", 16, l_ldm_x4_ld32),
    CASE("case_ldm<64, 4, false, false, false>", "load", "ldmatrix", 32, l_ldm_x4_ld64),
    CASE("case_ldm<72, 4, false, false, false>", "load", "ldmatrix", 4, l_ldm_x4_ld72),
    CASE("case_ldm<64, 4, false, true, false>", "load", "ldmatrix", 4, l_ldm_x4_ld64_swz),
    CASE("case_ldm<16, 4, false, false, true>", "load", "ldmatrix", 8, l_ldm_x4t_ld16),
    CASE("case_ldm<24, 4, false, false, true>", "load", "ldmatrix", 4, l_ldm_x4t_ld24),
    CASE("case_cpasync<16, 16, 16>", "load", "cp.async", 16, l_cpa16),
    CASE("case_cpasync<8, 8, 8>", "load", "cp.async", 8, l_cpa8),
    CASE("case_cpasync<4, 4, 4>", "load", "cp.async", 4, l_cpa4),
    CASE("case_cpasync<16, 64, 16>", "load", "cp.async", 32, l_cpa16_g64),
    CASE("case_cpasync<4, 128, 4>", "load", "cp.async", 32, l_cpa4_g128),
    CASE("case_cpasync<16, 16, 128>", "load", "cp.async", 32, l_cpa16_s128),
    CASE("case_cpasync<4, 4, 128>", "load", "cp.async", 4, l_cpa4_s128),
    CASE("case_cpasync<16, 16, 32>", "load", "cp.async", 32, l_cpa16_s32),
    CASE("case_cpasync<16, 16, 64>", "load", "cp.async", 32, l_cpa16_s64),
    CASE("case_cpasync<16, 16, 256>", "load", "cp.async", 32, l_cpa16_s256),
    CASE("case_cpasync<16, 32, 16>", "load", "cp.async", 32, l_cpa16_g32),
    CASE("case_cpasync<8, 8, 64>", "load", "cp.async", 8, l_cpa8_s64),
    CASE("case_cpasync<8, 8, 128>", "load", "cp.async", 8, l_cpa8_s128),
    CASE("case_cpasync<4, 4, 8>", "load", "cp.async", 4, l_cpa4_s8),
    CASE("case_cpasync<4, 4, 16>", "load", "cp.async", 4, l_cpa4_s16),
    CASE("case_cg_memcpy<16, 2048, false>", "load", "cp.async", 16, l_cg16),
    CASE("case_cg_memcpy<16, 8192, false>", "load", "cp.async", 16, l_cg16x4),
    CASE("case_cg_memcpy<4, 2048, false>", "load", "cp.async", 4, l_cg4),
    CASE("case_cg_memcpy<8, 2048, false>", "load", "cp.async", 8, l_cg8),
    CASE("case_cg_memcpy<0, 2048, false>", "load", "cp.async", -1, l_cg0),
    CASE("case_cg_memcpy<16, 2048, true>", "load", "cp.async", 16, l_cgtile),
    CASE("case_pipeline_memcpy<16>", "load", "cp.async", 16, l_pipe16),
    CASE("case_pipeline_memcpy<64>", "load", "cp.async", 32, l_pipe16_g64),
    CASE("case_cuda_memcpy_async<16>", "load", "cp.async", 16, l_cuda16),
    CASE("case_cuda_memcpy_async<64>", "load", "cp.async", 32, l_cuda16_g64),
    CASE("case_wmma_load<matrix_a, row_major, 16>", "load", "wmma", 8, l_wa_row16),
    CASE("case_wmma_load<matrix_a, row_major, 24>", "load", "wmma", 4, l_wa_row24),
    CASE("case_wmma_load<matrix_a, row_major, 32>", "load", "wmma", 16, l_wa_row32),
    CASE("case_wmma_load<matrix_a, row_major, 64>", "load", "wmma", 32, l_wa_row64),
    CASE("case_wmma_load<matrix_a, row_major, 72>", "load", "wmma", 4, l_wa_row72),
    CASE("case_wmma_load<matrix_a, col_major, 16>", "load", "wmma", 8, l_wa_col16),
    CASE("case_wmma_load<matrix_a, col_major, 24>", "load", "wmma", 4, l_wa_col24),
    CASE("case_wmma_load<matrix_b, col_major, 16>", "load", "wmma", 8, l_wb_col16),
    CASE("case_wmma_load<matrix_b, col_major, 24>", "load", "wmma", 4, l_wb_col24),
    CASE("case_wmma_load<matrix_b, row_major, 16>", "load", "wmma", 8, l_wb_row16),
    CASE("case_wmma_load<matrix_b, row_major, 24>", "load", "wmma", 4, l_wb_row24),
    CASE("case_wmma_load<matrix_b, row_major, 64>", "load", "wmma", 32, l_wb_row64),
    CASE("case_wmma_store<16>", "store", "wmma", 4, l_ws16),
    CASE("case_wmma_store<20>", "store", "wmma", 4, l_ws20),
    CASE("case_wmma_store<24>", "store", "wmma", 2, l_ws24),
    CASE("case_wmma_store<32>", "store", "wmma", 8, l_ws32),
    CASE("case_wmma_global<16>", "load", "wmma", 8, l_wg16),
    CASE("case_wmma_global<256>", "load", "wmma", 8, l_wg256),
    CASE("case_wmma_bf16<16>", "load", "wmma", -1, l_bf16_16),
    CASE("case_wmma_bf16<24>", "load", "wmma", -1, l_bf16_24),
    CASE("case_wmma_tf32<8>", "load", "wmma", 2, l_tf32_8),
    CASE("case_wmma_tf32<12>", "load", "wmma", 1, l_tf32_12),
    CASE("case_wmma_tf32<16>", "load", "wmma", 4, l_tf32_16),
    CASE("case_wmma_acc_shared<16>", "load", "wmma", 4, l_accs16),
    CASE("case_wmma_acc_shared<24>", "load", "wmma", 2, l_accs24),
    CASE("case_wmma_acc_global<16>", "load", "wmma", 12, l_accg16),
    CASE("case_wmma_global_col<16>", "load", "wmma", 8, l_gcol16),
    CASE("case_wmma_global_col<256>", "load", "wmma", 8, l_gcol256),
    CASE("case_stmatrix<16>", "store", "ldmatrix", 8, l_stm16),
    CASE("case_stmatrix<24>", "store", "ldmatrix", 4, l_stm24),
};

int main(int argc, char **argv) {
  // Enough input for the widest global stride (128 bytes a lane).
  size_t n = size_t(4) << 20; // 16 MiB: the widest wmma tile (16 x 256 halves a warp)
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  // The widest wmma tile stored to global memory: 16 x 256 floats a warp.
  CHECK(cudaMalloc(&out, size_t(BLOCKS) * 4 * 16 * 256 * sizeof(float)));
  std::vector<float> h(n);
  for (size_t i = 0; i < n; ++i)
    h[i] = float((i * 2654435761u) % 1000) * 0.001f + 0.5f;
  CHECK(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  return runSuite(argc, argv, cases);
}
