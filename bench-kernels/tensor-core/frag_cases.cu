// wmma fragments of every shape and type the toolkit offers, beyond the
// m16n16k16 half ones tc_cases.cu covers: bf16, 8-bit integers, tf32, double,
// the m32n8k16 and m8n32k16 shapes, float, half and int accumulators in both
// memory layouts. The toolkit does not document which element of a tile each
// lane holds, so this file measures it two ways:
//
//  --layouts  one warp loads a tile whose elements hold their own stored line
//             (then their position in the line) and prints, per fragment type,
//             lane and fragment element, the (line, element) it came from; an
//             accumulator is also stored with every element holding its lane
//             and index. The output (JSON) is the lane map warplint encodes.
//  --profile  every case kernel once, for Nsight Compute's per-instruction
//             counters (measure.sh): which SASS instructions nvcc made of the
//             call, and their shared wavefronts or global sectors at a tight
//             and a skewed leading dimension.
//
// Fragment configurations are numbered (Cfg<ID>) so that kernel names read
// the same in ncu's demangling and in warplint's.
#include "../harness.cuh"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <type_traits>

#define REPS 64
#define T 128 // threads per block: 4 warps
#define BLOCKS 264

using namespace nvcuda;

static float *in, *out;

template <typename S> __device__ __forceinline__ float toF(S v) { return float(v); }
template <> __device__ __forceinline__ float toF(__half v) { return __half2float(v); }
template <> __device__ __forceinline__ float toF(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
template <typename S> __device__ __forceinline__ S fromF(float v) { return S(v); }
template <> __device__ __forceinline__ __half fromF(float v) { return __float2half(v); }
template <> __device__ __forceinline__ __nv_bfloat16 fromF(float v) {
  return __float2bfloat16(v);
}

// A fragment type: Use, shape, element type, operand layout (void for an
// accumulator), and the type its tile is stored as.
template <typename U, int M_, int N_, int K_, typename E_, typename L_, typename S_>
struct FragCfg {
  using Use = U;
  using E = E_;
  using Layout = L_;
  using S = S_;
  static constexpr int M = M_, N = N_, K = K_;
  static constexpr bool acc = std::is_same<U, wmma::accumulator>::value;
  // The stored matrix's lines and their length (row-major: rows; an
  // accumulator's in mem_row_major, or columns with MEMCOL).
  static constexpr int rows = std::is_same<U, wmma::matrix_a>::value   ? M
                              : std::is_same<U, wmma::matrix_b>::value ? K
                                                                        : M;
  static constexpr int cols = std::is_same<U, wmma::matrix_a>::value   ? K
                              : std::is_same<U, wmma::matrix_b>::value ? N
                                                                        : N;
  static constexpr bool colMajor = std::is_same<L_, wmma::col_major>::value;
  __host__ __device__ static constexpr int lines(bool memCol) { return colMajor || memCol ? cols : rows; }
  __host__ __device__ static constexpr int len(bool memCol) { return colMajor || memCol ? rows : cols; }
};

template <int ID> struct Cfg;
#define CFG(id, use, m, n, k, e, layout, s)                                    \
  template <> struct Cfg<id> : FragCfg<wmma::use, m, n, k, e, layout, s> {     \
    static constexpr const char *name = #use " m" #m "n" #n "k" #k " " #e " " #layout; \
  };
#define OPERANDS(base, m, n, k, e, s)                                          \
  CFG(base + 0, matrix_a, m, n, k, e, wmma::row_major, s)                      \
  CFG(base + 1, matrix_a, m, n, k, e, wmma::col_major, s)                      \
  CFG(base + 2, matrix_b, m, n, k, e, wmma::row_major, s)                      \
  CFG(base + 3, matrix_b, m, n, k, e, wmma::col_major, s)
OPERANDS(0, 16, 16, 16, __half, __half)
OPERANDS(4, 16, 16, 16, __nv_bfloat16, __nv_bfloat16)
OPERANDS(8, 16, 16, 16, signed char, signed char)
OPERANDS(12, 16, 16, 16, unsigned char, unsigned char)
OPERANDS(16, 32, 8, 16, __half, __half)
OPERANDS(20, 32, 8, 16, __nv_bfloat16, __nv_bfloat16)
OPERANDS(24, 32, 8, 16, signed char, signed char)
OPERANDS(28, 8, 32, 16, __half, __half)
OPERANDS(32, 8, 32, 16, __nv_bfloat16, __nv_bfloat16)
OPERANDS(36, 8, 32, 16, signed char, signed char)
OPERANDS(40, 16, 16, 8, wmma::precision::tf32, float)
OPERANDS(44, 8, 8, 4, double, double)
OPERANDS(48, 32, 8, 16, unsigned char, unsigned char)
OPERANDS(52, 8, 32, 16, unsigned char, unsigned char)
CFG(60, accumulator, 16, 16, 16, float, void, float)
CFG(61, accumulator, 16, 16, 16, __half, void, __half)
CFG(62, accumulator, 16, 16, 16, int, void, int)
CFG(63, accumulator, 32, 8, 16, float, void, float)
CFG(64, accumulator, 32, 8, 16, __half, void, __half)
CFG(65, accumulator, 32, 8, 16, int, void, int)
CFG(66, accumulator, 8, 32, 16, float, void, float)
CFG(67, accumulator, 8, 32, 16, __half, void, __half)
CFG(68, accumulator, 8, 32, 16, int, void, int)
CFG(69, accumulator, 16, 16, 8, float, void, float)
CFG(70, accumulator, 8, 8, 4, double, void, double)

template <typename C>
using Frag = typename std::conditional<
    C::acc, wmma::fragment<wmma::accumulator, C::M, C::N, C::K, typename C::E>,
    wmma::fragment<typename C::Use, C::M, C::N, C::K, typename C::E,
                   typename C::Layout>>::type;

template <typename C, bool MEMCOL>
__device__ __forceinline__ void load(Frag<C> &f, const typename C::S *p, unsigned ld) {
  if constexpr (C::acc)
    wmma::load_matrix_sync(f, p, ld, MEMCOL ? wmma::mem_col_major : wmma::mem_row_major);
  else
    wmma::load_matrix_sync(f, p, ld);
}

// --- the lane map -----------------------------------------------------------------
// One warp. Operands and accumulators: load a tile whose elements are their
// line (pass 0), then their position in the line (pass 1); out[pass][lane][e]
// is fragment element e. Accumulators also: store a fragment whose element e
// of lane l is 64 l + e; out[2][i] is stored element i.
#define MAXE 32
template <int ID, bool MEMCOL>
__global__ void probe(float *out) {
  using C = Cfg<ID>;
  using S = typename C::S;
  constexpr int lines = C::lines(MEMCOL), len = C::len(MEMCOL);
  __shared__ __align__(128) S tile[lines * len];
  int lane = threadIdx.x;
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = lane; i < lines * len; i += 32)
      tile[i] = fromF<S>(float(pass ? i % len : i / len));
    __syncwarp();
    Frag<C> f;
    load<C, MEMCOL>(f, tile, len);
    for (int e = 0; e < f.num_elements; ++e)
      out[(pass * 32 + lane) * MAXE + e] = toF(f.x[e]);
    __syncwarp();
  }
  if constexpr (C::acc) {
    Frag<C> f;
    for (int e = 0; e < f.num_elements; ++e)
      f.x[e] = fromF<typename C::E>(float(lane * 64 + e));
    wmma::store_matrix_sync(tile, f, len, MEMCOL ? wmma::mem_col_major : wmma::mem_row_major);
    __syncwarp();
    for (int i = lane; i < lines * len; i += 32)
      out[2 * 32 * MAXE + i] = toF(tile[i]);
  }
}

template <int ID, bool MEMCOL> static void printLayout(bool &first) {
  using C = Cfg<ID>;
  constexpr int lines = C::lines(MEMCOL), len = C::len(MEMCOL);
  const int n = 3 * 32 * MAXE;
  float *d;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemset(d, 0xff, n * sizeof(float)));
  probe<ID, MEMCOL><<<1, 32>>>(d);
  CHECK(cudaGetLastError());
  std::vector<float> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  int ne = Frag<C>::num_elements;
  printf("%s\n  {\"fragment\": \"%s%s\", \"lines\": %d, \"line_length\": %d, "
         "\"elements\": %d,\n   \"load\": [",
         first ? "" : ",", C::name,
         C::acc ? (MEMCOL ? "mem_col_major" : "mem_row_major") : "", lines, len, ne);
  first = false;
  for (int l = 0; l < 32; ++l) {
    printf("%s[", l ? ", " : "");
    for (int e = 0; e < ne; ++e)
      printf("%s[%g, %g]", e ? ", " : "", h[l * MAXE + e], h[(32 + l) * MAXE + e]);
    printf("]");
  }
  printf("]");
  if (C::acc) {
    // store[lane][e]: where lane's element e was stored.
    std::vector<std::pair<int, int>> at(32 * ne, {-1, -1});
    for (int i = 0; i < lines * len; ++i) {
      int v = int(h[2 * 32 * MAXE + i]);
      if (v >= 0 && v / 64 < 32 && v % 64 < ne)
        at[(v / 64) * ne + v % 64] = {i / len, i % len};
    }
    printf(",\n   \"store\": [");
    for (int l = 0; l < 32; ++l) {
      printf("%s[", l ? ", " : "");
      for (int e = 0; e < ne; ++e)
        printf("%s[%d, %d]", e ? ", " : "", at[l * ne + e].first, at[l * ne + e].second);
      printf("]");
    }
    printf("]");
  }
  printf("}");
}

// --- per-instruction measurement ----------------------------------------------------
// Each warp loads (or stores) one fragment REPS times from its own tile with
// leading dimension LD (elements), in shared memory or, with GLOBAL, in
// global memory; every element is used, so nvcc loads them all. The tile
// moves by 32 bytes every other iteration so that nvcc keeps the access in
// the loop.
template <typename S, bool GLOBAL>
__device__ __forceinline__ void fillTile(S *tile, int n) {
  if (!GLOBAL) {
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      tile[i] = fromF<S>(float(i % 61) * 0.25f);
    __syncthreads();
  }
}

template <int ID, bool MEMCOL, int LD, bool GLOBAL>
__global__ void case_frag_load(const float *in, float *out) {
  using C = Cfg<ID>;
  using S = typename C::S;
  constexpr int lines = C::lines(MEMCOL), off = 32 / sizeof(S);
  constexpr int words = GLOBAL ? 1 : 4 * lines * LD + off;
  __shared__ __align__(128) S tile[words];
  fillTile<S, GLOBAL>(tile, words);
  int warp = threadIdx.x / 32;
  const S *base = GLOBAL ? reinterpret_cast<const S *>(in) +
                               size_t(blockIdx.x * 4 + warp) * lines * LD
                         : tile + warp * lines * LD;
  float acc = 0;
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    Frag<C> f;
    load<C, MEMCOL>(f, base + (i & 1) * off, LD);
    for (int e = 0; e < f.num_elements; ++e)
      acc += toF(f.x[e]);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int ID, bool MEMCOL, int LD, bool GLOBAL>
__global__ void case_frag_store(float *out) {
  using C = Cfg<ID>;
  using S = typename C::S;
  constexpr int lines = C::lines(MEMCOL), off = 32 / sizeof(S);
  constexpr int words = GLOBAL ? 1 : 4 * lines * LD + off;
  __shared__ __align__(128) S tile[words];
  int warp = threadIdx.x / 32;
  S *base = GLOBAL ? reinterpret_cast<S *>(out) + size_t(blockIdx.x * 4 + warp) * lines * LD
                   : tile + warp * lines * LD;
  Frag<C> f;
  wmma::fill_fragment(f, fromF<S>(1.0f));
#pragma unroll 1
  for (int i = 0; i < REPS; ++i) {
    f.x[0] = fromF<S>(toF(f.x[0]) + 1.0f);
    wmma::store_matrix_sync(base + (i & 1) * off, f, LD,
                            MEMCOL ? wmma::mem_col_major : wmma::mem_row_major);
  }
  if (!GLOBAL) {
    __syncwarp();
    out[blockIdx.x * blockDim.x + threadIdx.x] = toF(tile[threadIdx.x]);
  }
}

// Leading dimensions: the tight one (the stored line's length) and one
// 16 bytes longer (a skew).
#define TIGHT(id, mc) Cfg<id>::len(mc)
#define SKEW(id, mc) (Cfg<id>::len(mc) + int(16 / sizeof(Cfg<id>::S)))

#define LOADCASE(id, mc, ld, g)                                                \
  CASE("case_frag_load<" #id ", " #mc ", " #ld ", " #g ">", "load", "wmma", -1, \
       ([] { case_frag_load<id, mc, ld, g><<<BLOCKS, T>>>(in, out); }))
#define STORECASE(id, mc, ld, g)                                               \
  CASE("case_frag_store<" #id ", " #mc ", " #ld ", " #g ">", "store", "wmma", -1, \
       ([] { case_frag_store<id, mc, ld, g><<<BLOCKS, T>>>(out); }))
// An operand: shared at both leading dimensions, global at the tight one.
#define OPERAND(id, tight, skew)                                               \
  LOADCASE(id, false, tight, false), LOADCASE(id, false, skew, false),         \
      LOADCASE(id, false, tight, true)
#define OPERAND4(b, ta, sa, tac, sac, tb, sb, tbc, sbc)                        \
  OPERAND(b, ta, sa), OPERAND(b + 1, tac, sac), OPERAND(b + 2, tb, sb),        \
      OPERAND(b + 3, tbc, sbc)
// An accumulator in either memory layout: loaded from shared memory at the
// tight leading dimension, stored to it at both, and loaded and stored in
// global memory at the tight one.
#define ACCLAYOUT(id, mc, tight, skew)                                         \
  LOADCASE(id, mc, tight, false), STORECASE(id, mc, tight, false),             \
      STORECASE(id, mc, skew, false), LOADCASE(id, mc, tight, true),           \
      STORECASE(id, mc, tight, true)
#define ACC(id, trow, srow, tcol, scol)                                        \
  ACCLAYOUT(id, false, trow, srow), ACCLAYOUT(id, true, tcol, scol)

// The literal leading dimensions (the kernel names carry them): matrix_a
// row-major lines are K long, col-major M; matrix_b row-major N, col-major
// K; accumulators N (mem_row_major) or M (mem_col_major). The skew is 16
// bytes: 8 halves, 16 bytes of 8-bit integers, 4 floats, 2 doubles.
static const Case cases[] = {
    OPERAND4(0, 16, 24, 16, 24, 16, 24, 16, 24),   // m16n16k16 half
    OPERAND4(4, 16, 24, 16, 24, 16, 24, 16, 24),   // m16n16k16 bf16
    OPERAND4(8, 16, 32, 16, 32, 16, 32, 16, 32),   // m16n16k16 s8
    OPERAND4(12, 16, 32, 16, 32, 16, 32, 16, 32),  // m16n16k16 u8
    OPERAND4(16, 16, 24, 32, 40, 8, 16, 16, 24),   // m32n8k16 half
    OPERAND4(20, 16, 24, 32, 40, 8, 16, 16, 24),   // m32n8k16 bf16
    OPERAND4(24, 16, 32, 32, 48, 8, 24, 16, 32),   // m32n8k16 s8
    OPERAND4(28, 16, 24, 8, 16, 32, 40, 16, 24),   // m8n32k16 half
    OPERAND4(32, 16, 24, 8, 16, 32, 40, 16, 24),   // m8n32k16 bf16
    OPERAND4(36, 16, 32, 8, 24, 32, 48, 16, 32),   // m8n32k16 s8
    OPERAND4(40, 8, 12, 16, 20, 16, 20, 8, 12),    // m16n16k8 tf32
    OPERAND4(44, 4, 6, 8, 10, 8, 10, 4, 6),        // m8n8k4 double
    ACC(60, 16, 20, 16, 20),                       // m16n16k16 float
    ACC(61, 16, 24, 16, 24),                       // m16n16k16 half
    ACC(62, 16, 20, 16, 20),                       // m16n16k16 int
    ACC(63, 8, 12, 32, 36),                        // m32n8k16 float
    ACC(64, 8, 16, 32, 40),                        // m32n8k16 half
    ACC(65, 8, 12, 32, 36),                        // m32n8k16 int
    ACC(66, 32, 36, 8, 12),                        // m8n32k16 float
    ACC(67, 32, 40, 8, 16),                        // m8n32k16 half
    ACC(68, 32, 36, 8, 12),                        // m8n32k16 int
    ACC(69, 16, 20, 16, 20),                       // m16n16k8 float
    ACC(70, 8, 10, 8, 10),                         // m8n8k4 double
};

// Each literal leading dimension above is the tight or skewed one.
#define CHECKOP(b, ta, sa, tac, sac, tb, sb, tbc, sbc)                         \
  static_assert(TIGHT(b, false) == ta && SKEW(b, false) == sa &&               \
                    TIGHT(b + 1, false) == tac && SKEW(b + 1, false) == sac && \
                    TIGHT(b + 2, false) == tb && SKEW(b + 2, false) == sb &&   \
                    TIGHT(b + 3, false) == tbc && SKEW(b + 3, false) == sbc,   \
                "leading dimensions");
CHECKOP(0, 16, 24, 16, 24, 16, 24, 16, 24)
CHECKOP(8, 16, 32, 16, 32, 16, 32, 16, 32)
CHECKOP(16, 16, 24, 32, 40, 8, 16, 16, 24)
CHECKOP(24, 16, 32, 32, 48, 8, 24, 16, 32)
CHECKOP(28, 16, 24, 8, 16, 32, 40, 16, 24)
CHECKOP(36, 16, 32, 8, 24, 32, 48, 16, 32)
CHECKOP(40, 8, 12, 16, 20, 16, 20, 8, 12)
CHECKOP(44, 4, 6, 8, 10, 8, 10, 4, 6)
#define CHECKACC(id, trow, srow, tcol, scol)                                   \
  static_assert(TIGHT(id, false) == trow && SKEW(id, false) == srow &&         \
                    TIGHT(id, true) == tcol && SKEW(id, true) == scol,         \
                "leading dimensions");
CHECKACC(60, 16, 20, 16, 20)
CHECKACC(61, 16, 24, 16, 24)
CHECKACC(63, 8, 12, 32, 36)
CHECKACC(64, 8, 16, 32, 40)
CHECKACC(66, 32, 36, 8, 12)
CHECKACC(67, 32, 40, 8, 16)
CHECKACC(69, 16, 20, 16, 20)
CHECKACC(70, 8, 10, 8, 10)

template <int... IDS> static void printOperands(bool &first) {
  (printLayout<IDS, false>(first), ...);
}
template <int... IDS> static void printAccumulators(bool &first) {
  ((printLayout<IDS, false>(first), printLayout<IDS, true>(first)), ...);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--layouts")) {
    bool first = true;
    printf("[");
    printOperands<0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                  18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
                  33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
                  48, 49, 50, 51, 52, 53, 54, 55>(first);
    printAccumulators<60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70>(first);
    printf("\n]\n");
    CHECK(cudaDeviceSynchronize());
    return 0;
  }
  // 16 MiB each: the widest global tile is 1.5 KiB a warp (32 lines of 12
  // floats), 1,056 warps.
  size_t n = size_t(4) << 20;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  std::vector<float> h(n);
  for (size_t i = 0; i < n; ++i)
    h[i] = float((i * 2654435761u) % 1000) * 0.001f + 0.5f;
  CHECK(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  return runSuite(argc, argv, cases);
}
