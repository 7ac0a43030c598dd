// Reference kernels for uncoalesced-global-access. Each case is one kernel
// named case_<name> with one global access under test (the other access of the
// kernel is a contiguous one). The table at the bottom lists, per case, the
// access measured (load or store), the sweep it belongs to, and the
// sectors/request warplint predicts; bench-kernels/compare.py checks that
// prediction against warplint's JSON and against the GPU's counters.
#include "../harness.cuh"

#define W 2048 // row length of the 2D cases (elements)

// --- stride sweep (template: one instantiation per stride) ---------------------
template <int S>
__global__ void case_stride(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g * S];
}

// --- offset sweep ------------------------------------------------------------------
template <int O>
__global__ void case_offset(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g + O];
}

// --- element types ------------------------------------------------------------------
__global__ void case_double(const double *__restrict__ in, double *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g];
}
__global__ void case_double_off1(const double *__restrict__ in, double *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g + 1];
}
__global__ void case_double_stride2(const double *__restrict__ in, double *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[2 * g];
}
__global__ void case_char(const char *__restrict__ in, char *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g] + 1;
}
__global__ void case_short(const short *__restrict__ in, short *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g] + 1;
}
__global__ void case_char_stride4(const char *__restrict__ in, char *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[4 * g] + 1;
}
__global__ void case_float2(const float2 *__restrict__ in, float2 *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g];
}
__global__ void case_float4(const float4 *__restrict__ in, float4 *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g];
}
__global__ void case_float4_stride2(const float4 *__restrict__ in, float4 *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[2 * g];
}

// --- uniform and small-range indices ---------------------------------------------------
__global__ void case_block_uniform(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[blockIdx.x];
}
__global__ void case_tid_mod4(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[threadIdx.x % 4];
}
__global__ void case_tid_half(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[threadIdx.x / 2 + 64];
}
__global__ void case_tid_half_misaligned(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[threadIdx.x / 2 + 7];
}
__global__ void case_reversed(const float *__restrict__ in, float *out, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[n - 1 - g];
}
__global__ void case_xor_pairs(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g ^ 1];
}

// --- 2D and 3D blocks ---------------------------------------------------------------
__global__ void case_2d_16x16_row(const float *__restrict__ in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * W + x] = in[y * W + x];
}
__global__ void case_2d_16x16_col(const float *__restrict__ in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * W + x] = in[x * W + y];
}
__global__ void case_2d_8x32_row(const float *__restrict__ in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * W + x] = in[y * W + x];
}
__global__ void case_2d_8x32_col(const float *__restrict__ in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * W + x] = in[x * W + y];
}
__global__ void case_2d_32x8_col(const float *__restrict__ in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * W + x] = in[x * W + y];
}
__global__ void case_2d_16x16_col_store(const float *__restrict__ in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * W + y] = in[y * W + x];
}
__global__ void case_3d_8x8x4(const float *__restrict__ in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = threadIdx.y, z = threadIdx.z;
  int i = (z * 8 + y) * W + x;
  out[i] = in[i];
}
__global__ void case_3d_8x8x4_zfast(const float *__restrict__ in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = threadIdx.y, z = threadIdx.z;
  out[(z * 8 + y) * W + x] = in[(x * 8 + y) * 4 + z];
}

// --- structures ---------------------------------------------------------------------
struct F3 { float x, y, z; };
struct F2 { float a, b; };
struct F4 { float a, b, c, d; };
__global__ void case_aos12_y(const F3 *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g].y;
}
__global__ void case_aos8_a(const F2 *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g].a;
}
__global__ void case_aos16_c(const F4 *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g].c;
}

// --- masks ----------------------------------------------------------------------------
__global__ void case_even_lanes(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0;
  if (threadIdx.x % 2 == 0)
    v = in[g];
  out[g] = v;
}
__global__ void case_low_half(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0;
  if ((threadIdx.x & 31) < 16)
    v = in[g];
  out[g] = v;
}
__global__ void case_guarded(const float *__restrict__ in, float *out, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < n)
    out[g] = in[g];
}

// --- loops, device functions ------------------------------------------------------------
__global__ void case_loop_rows(const float *__restrict__ in, float *out) {
  float acc = 0;
#pragma unroll 1
  for (int r = 0; r < 32; ++r)
    acc += in[(blockIdx.x * 32 + r) * 256 + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
__global__ void case_loop_row_per_thread(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (int k = 0; k < 16; ++k)
    acc += in[g * 16 + k];
  out[g] = acc;
}
__global__ void case_loop_offset(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (int k = 0; k < 8; ++k)
    acc += in[g + k];
  out[g] = acc;
}
__global__ void case_grid_stride(const float *__restrict__ in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = in[i] * 2.0f;
}
__device__ float fetch(const float *p, int i, int stride) { return p[i * stride]; }
__global__ void case_device_fn_stride8(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = fetch(in, g, 8);
}
__global__ void case_store_stride2(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * g] = in[g];
}
__global__ void case_store_stride32(const float *__restrict__ in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[32 * g] = in[g];
}

// --- host ------------------------------------------------------------------
static const int N = 1 << 22;    // threads in a 1D launch
static const int B = 256;        // 1D block
static char *bufIn, *bufOut;     // 40 N floats each: room for every stride


#define F(p) ((float *)(p))
static void l_stride1() { case_stride<1><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_stride2() { case_stride<2><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_stride3() { case_stride<3><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_stride4() { case_stride<4><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_stride8() { case_stride<8><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_stride16() { case_stride<16><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_stride32() { case_stride<32><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_stride33() { case_stride<33><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_offset0() { case_offset<0><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_offset1() { case_offset<1><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_offset2() { case_offset<2><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_offset4() { case_offset<4><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_offset8() { case_offset<8><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_offset16() { case_offset<16><<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_double() { case_double<<<N / B, B>>>((double *)bufIn, (double *)bufOut); }
static void l_double_off1() { case_double_off1<<<N / B, B>>>((double *)bufIn, (double *)bufOut); }
static void l_double_stride2() { case_double_stride2<<<N / B, B>>>((double *)bufIn, (double *)bufOut); }
static void l_char() { case_char<<<N / B, B>>>(bufIn, bufOut); }
static void l_short() { case_short<<<N / B, B>>>((short *)bufIn, (short *)bufOut); }
static void l_char_stride4() { case_char_stride4<<<N / B, B>>>(bufIn, bufOut); }
static void l_float2() { case_float2<<<N / B, B>>>((float2 *)bufIn, (float2 *)bufOut); }
static void l_float4() { case_float4<<<N / B, B>>>((float4 *)bufIn, (float4 *)bufOut); }
static void l_float4_stride2() { case_float4_stride2<<<N / B, B>>>((float4 *)bufIn, (float4 *)bufOut); }
static void l_block_uniform() { case_block_uniform<<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_tid_mod4() { case_tid_mod4<<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_tid_half() { case_tid_half<<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_tid_half_mis() { case_tid_half_misaligned<<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_reversed() { case_reversed<<<N / B, B>>>(F(bufIn), F(bufOut), N); }
static void l_xor_pairs() { case_xor_pairs<<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_2d_16x16_row() { case_2d_16x16_row<<<dim3(W / 16, W / 16), dim3(16, 16)>>>(F(bufIn), F(bufOut)); }
static void l_2d_16x16_col() { case_2d_16x16_col<<<dim3(W / 16, W / 16), dim3(16, 16)>>>(F(bufIn), F(bufOut)); }
static void l_2d_8x32_row() { case_2d_8x32_row<<<dim3(W / 8, W / 32), dim3(8, 32)>>>(F(bufIn), F(bufOut)); }
static void l_2d_8x32_col() { case_2d_8x32_col<<<dim3(W / 8, W / 32), dim3(8, 32)>>>(F(bufIn), F(bufOut)); }
static void l_2d_32x8_col() { case_2d_32x8_col<<<dim3(W / 32, W / 8), dim3(32, 8)>>>(F(bufIn), F(bufOut)); }
static void l_2d_16x16_col_store() { case_2d_16x16_col_store<<<dim3(W / 16, W / 16), dim3(16, 16)>>>(F(bufIn), F(bufOut)); }
static void l_3d() { case_3d_8x8x4<<<W / 8, dim3(8, 8, 4)>>>(F(bufIn), F(bufOut)); }
static void l_3d_zfast() { case_3d_8x8x4_zfast<<<W / 8, dim3(8, 8, 4)>>>(F(bufIn), F(bufOut)); }
static void l_aos12() { case_aos12_y<<<N / B, B>>>((F3 *)bufIn, F(bufOut)); }
static void l_aos8() { case_aos8_a<<<N / B, B>>>((F2 *)bufIn, F(bufOut)); }
static void l_aos16() { case_aos16_c<<<N / B, B>>>((F4 *)bufIn, F(bufOut)); }
static void l_even() { case_even_lanes<<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_low_half() { case_low_half<<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_guarded() { case_guarded<<<N / B, B>>>(F(bufIn), F(bufOut), N); }
static void l_loop_rows() { case_loop_rows<<<N / (32 * 256), 256>>>(F(bufIn), F(bufOut)); }
static void l_loop_rpt() { case_loop_row_per_thread<<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_loop_offset() { case_loop_offset<<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_grid_stride() { case_grid_stride<<<1024, 256>>>(F(bufIn), F(bufOut), N); }
static void l_devfn() { case_device_fn_stride8<<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_store2() { case_store_stride2<<<N / B, B>>>(F(bufIn), F(bufOut)); }
static void l_store32() { case_store_stride32<<<N / B, B>>>(F(bufIn), F(bufOut)); }

static const Case cases[] = {
    CASE("case_stride<1>", "load", "float-stride", 4, l_stride1),
    CASE("case_stride<2>", "load", "float-stride", 8, l_stride2),
    CASE("case_stride<3>", "load", "float-stride", 12, l_stride3),
    CASE("case_stride<4>", "load", "float-stride", 16, l_stride4),
    CASE("case_stride<8>", "load", "float-stride", 32, l_stride8),
    CASE("case_stride<16>", "load", "float-stride", 32, l_stride16),
    CASE("case_stride<32>", "load", "float-stride", 32, l_stride32),
    CASE("case_stride<33>", "load", "float-stride", 32, l_stride33),
    CASE("case_offset<0>", "load", "float-offset", 4, l_offset0),
    CASE("case_offset<1>", "load", "float-offset", 5, l_offset1),
    CASE("case_offset<2>", "load", "float-offset", 5, l_offset2),
    CASE("case_offset<4>", "load", "float-offset", 5, l_offset4),
    CASE("case_offset<8>", "load", "float-offset", 4, l_offset8),
    CASE("case_offset<16>", "load", "float-offset", 4, l_offset16),
    CASE("case_double", "load", "types", 8, l_double),
    CASE("case_double_off1", "load", "types", 9, l_double_off1),
    CASE("case_double_stride2", "load", "types", 16, l_double_stride2),
    CASE("case_char", "load", "types", 1, l_char),
    CASE("case_short", "load", "types", 2, l_short),
    CASE("case_char_stride4", "load", "types", 4, l_char_stride4),
    CASE("case_float2", "load", "types", 8, l_float2),
    CASE("case_float4", "load", "types", 16, l_float4),
    CASE("case_float4_stride2", "load", "types", 32, l_float4_stride2),
    CASE("case_block_uniform", "load", "uniform", 1, l_block_uniform),
    CASE("case_tid_mod4", "load", "uniform", 1, l_tid_mod4),
    CASE("case_tid_half", "load", "uniform", 2, l_tid_half),
    CASE("case_tid_half_misaligned", "load", "uniform", 3, l_tid_half_mis),
    CASE("case_reversed", "load", "uniform", 4, l_reversed),
    CASE("case_xor_pairs", "load", "uniform", 4, l_xor_pairs),
    CASE("case_2d_16x16_row", "load", "2d", 4, l_2d_16x16_row),
    CASE("case_2d_16x16_col", "load", "2d", 16, l_2d_16x16_col),
    CASE("case_2d_8x32_row", "load", "2d", 4, l_2d_8x32_row),
    CASE("case_2d_8x32_col", "load", "2d", 8, l_2d_8x32_col),
    CASE("case_2d_32x8_col", "load", "2d", 32, l_2d_32x8_col),
    CASE("case_2d_16x16_col_store", "store", "2d", 16, l_2d_16x16_col_store),
    CASE("case_3d_8x8x4", "load", "3d", 4, l_3d),
    CASE("case_3d_8x8x4_zfast", "load", "3d", 16, l_3d_zfast),
    CASE("case_aos12_y", "load", "structs", 12, l_aos12),
    CASE("case_aos8_a", "load", "structs", 8, l_aos8),
    CASE("case_aos16_c", "load", "structs", 16, l_aos16),
    CASE("case_even_lanes", "load", "masks", 4, l_even),
    CASE("case_low_half", "load", "masks", 2, l_low_half),
    CASE("case_guarded", "load", "masks", 4, l_guarded),
    CASE("case_loop_rows", "load", "loops", 4, l_loop_rows),
    CASE("case_loop_row_per_thread", "load", "loops", 32, l_loop_rpt),
    CASE("case_loop_offset", "load", "loops", 4.875, l_loop_offset),
    CASE("case_grid_stride", "load", "loops", 4, l_grid_stride),
    CASE("case_device_fn_stride8", "load", "loops", 32, l_devfn),
    CASE("case_store_stride2", "store", "stores", 8, l_store2),
    CASE("case_store_stride32", "store", "stores", 32, l_store32),
};

__global__ void fill(unsigned *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x) {
    unsigned x = (unsigned)i * 2654435761u ^ seed;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    // Small positive floats as bit patterns: real data, never NaN.
    p[i] = 0x3f800000u | (x & 0x007fffffu);
  }
}

int main(int argc, char **argv) {
  size_t bytes = (size_t)40 * N * sizeof(float);
  CHECK(cudaMalloc(&bufIn, bytes));
  CHECK(cudaMalloc(&bufOut, bytes));
  fill<<<1024, 256>>>((unsigned *)bufIn, bytes / 4, 12345u);
  fill<<<1024, 256>>>((unsigned *)bufOut, bytes / 4, 777u);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  return runSuite(argc, argv, cases);
}
