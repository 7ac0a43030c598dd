# Launches in other translation units: a kernel defined in one file and
# launched from another of the compile database (or of the same run) takes
# its block shape and constant arguments from that launch, and the finding
# names where they came from.
source "$(dirname "$0")/lib.bash"
mkdir -p "$TMP/p/src" "$TMP/p/app" "$TMP/p/build"
cat >"$TMP/p/src/kernels.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void copyStrided(const float *in, float *out, int stride) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g * stride];
}
__global__ void rowSum(const float *in, float *out, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int c = 0; c < cols; ++c)
    s += in[r * cols + c];
  out[r] = s;
}
__global__ void narrowRows(const float *in, float *out, int n) {
  int x = threadIdx.x, y = threadIdx.y;
  out[y * n + x] = in[x * n + y];
}
template <int Step> __global__ void stepped(float *out) {
  out[threadIdx.x * Step] = 1;
}
template __global__ void stepped<1>(float *);
template __global__ void stepped<16>(float *);
__global__ void neverLaunched(const float *in, float *out, int stride) {
  out[threadIdx.x] = in[threadIdx.x * stride];
}
CU
cat >"$TMP/p/app/main.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void copyStrided(const float *in, float *out, int stride);
__global__ void rowSum(const float *in, float *out, int cols);
__global__ void narrowRows(const float *in, float *out, int n);
template <int Step> __global__ void stepped(float *out);
int main() {
  float *a, *b;
  cudaMalloc(&a, 1 << 24);
  cudaMalloc(&b, 1 << 24);
  constexpr int cols = 512;
  copyStrided<<<64, 256>>>(a, b, 1);
  rowSum<<<4, 256>>>(a, b, cols);
  narrowRows<<<1, dim3(8, 32)>>>(a, b, 2048);
  stepped<1><<<1, 128>>>(b);
  cudaDeviceSynchronize();
}
CU
cat >"$TMP/p/build/compile_commands.json" <<JSON
[{"directory": "$TMP/p/build", "command": "/usr/local/cuda/bin/nvcc -arch=sm_90 -x cu -c ../src/kernels.cu -o kernels.o", "file": "../src/kernels.cu"},
 {"directory": "$TMP/p/build", "command": "/usr/local/cuda/bin/nvcc -arch=sm_90 -x cu -c ../app/main.cu -o main.o", "file": "../app/main.cu"}]
JSON

# Only the kernels' file is named; its launches are found in main.cu.
run db -p "$TMP/p/build" "$TMP/p/src/kernels.cu"
expect_rc db 0
# stride = 1 at the launch: coalesced, silent.
expect_not_in db out "kernels.cu:4:"
# cols = 512 at the launch: the warning names the value and the launch.
expect_in db out "kernels.cu:10:10: warning: global load is uncoalesced: adjacent lanes are 2048 bytes apart"
expect_in db out "('cols' = 512 (the launch at main.cu:12))"
# 8x32 blocks from main.cu: each warp covers 4 rows of 8 floats.
expect_in db out "kernels.cu:15:20: warning: global load is uncoalesced: most adjacent lanes are 8192 bytes apart; 8 sectors per request where 4 would do ('n' = 2048 (the launch at main.cu:13))"
expect_not_in db out "block shape 16x16x1 assumed"
# stepped<16> is instantiated here but launched nowhere: still analyzed
# under the assumed shapes; stepped<1> is launched with 128 threads.
expect_in db out "kernels.cu:18:"
# A kernel launched nowhere keeps its stated assumptions.
expect_in db out "assuming 'stride' >= 32"
run json --format=json -p "$TMP/p/build" "$TMP/p/src/kernels.cu"
json json "[k['block_dim'] for k in d['kernels'] if k['name'] == 'narrowRows'] == [[8, 32, 1]]"
json json "[k['block_dim_source'] for k in d['kernels'] if k['name'] == 'narrowRows'] == ['launch site in main.cu']"
json json "[k['block_dim'] for k in d['kernels'] if k['signature'] == 'stepped<1>'] == [[128, 1, 1]]"
json json "[k['block_dim_source'] for k in d['kernels'] if k['name'] == 'neverLaunched'] == ['assumed']"

# Without a database, the files of one run see each other's launches.
run files "$TMP/p/src/kernels.cu" "$TMP/p/app/main.cu"
expect_rc files 0
expect_in files out "('cols' = 512 (the launch at main.cu:12))"
expect_not_in files out "kernels.cu:4:"

# A file in the database that cannot be parsed does not stop the kernels'
# file from being analyzed, and its errors are not the kernels' file's.
printf 'int main() { copyStrided<<<1, 32>>>(undeclared, 0, 4); }\n' >"$TMP/p/app/broken.cu"
cat >"$TMP/p/build/compile_commands.json" <<JSON
[{"directory": "$TMP/p/build", "command": "nvcc -c ../src/kernels.cu", "file": "../src/kernels.cu"},
 {"directory": "$TMP/p/build", "command": "nvcc -c ../app/broken.cu", "file": "../app/broken.cu"}]
JSON
run broken -p "$TMP/p/build" "$TMP/p/src/kernels.cu"
expect_rc broken 0
expect_not_in broken err "could not be analyzed"
expect_in broken out "assuming 'stride' >= 32"
# The usual library shape: the kernel's file defines a launcher function,
# and the program (a C++ file, in the database as a g++ entry) calls it with
# constants; those bind the launcher's parameters and so the launch.
mkdir -p "$TMP/w/lib" "$TMP/w/app" "$TMP/w/build"
cat >"$TMP/w/lib/ops.h" <<'H'
#pragma once
void launchGather(const float *in, float *out, int n, int stride, int threads);
void launchOther(const float *in, float *out, int stride);
H
cat >"$TMP/w/lib/ops.cu" <<'CU'
#include "ops.h"
__global__ void gather(const float *in, float *out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i * stride];
}
void launchGather(const float *in, float *out, int n, int stride, int threads) {
  gather<<<(n + threads - 1) / threads, threads>>>(in, out, n, stride);
}
__global__ void other(const float *in, float *out, int stride) {
  out[threadIdx.x] = in[threadIdx.x * stride];
}
void launchOther(const float *in, float *out, int stride) {
  other<<<1, 128>>>(in, out, stride);
}
CU
cat >"$TMP/w/app/main.cpp" <<'CPP'
#include "../lib/ops.h"
int main() {
  float *a = nullptr, *b = nullptr;
  launchGather(a, b, 1 << 20, 4, 256);
  launchGather(a, b, 1 << 20, 8, 128);
  int s = 4;
  launchOther(a, b, s * 8);
}
CPP
cat >"$TMP/w/build/compile_commands.json" <<JSON
[{"directory": "$TMP/w/build", "command": "/usr/local/cuda/bin/nvcc -arch=sm_90 -x cu -c ../lib/ops.cu -o ops.o", "file": "../lib/ops.cu"},
 {"directory": "$TMP/w/build", "command": "/usr/bin/g++ -O2 -c ../app/main.cpp -o main.o", "file": "../app/main.cpp"}]
JSON
run wrapper -p "$TMP/w/build" "$TMP/w/lib/ops.cu"
expect_rc wrapper 0
# strides 4 and 8 with 256 and 128 threads.
expect_in wrapper out "ops.cu:5:14: warning: global load is uncoalesced: adjacent lanes are 4*stride bytes apart; 16 to 32 sectors per request where 4 would do ('stride' = 4, 8 (the launch at ops.cu:8, called from main.cpp:4 and main.cpp:5))"
# stride = s * 8 = 32 through a local of main.cpp.
expect_in wrapper out "ops.cu:11:22: warning: global load is uncoalesced: adjacent lanes are 128 bytes apart; 32 sectors per request where 4 would do ('stride' = 32 (the launch at ops.cu:14, called from main.cpp:7))"
expect_not_in wrapper out "assuming 'stride'"
run wrapper_json --format=json -p "$TMP/w/build" "$TMP/w/lib/ops.cu"
json wrapper_json "sorted(k['block_dim'][0] for k in d['kernels'] if k['name'] == 'gather') == [128, 256]"
# A launcher passed a constant local array (`int dims[2] = {256, 64}`) as a
# pointer to const: its elements set the block, and the launch's constant
# grid is what gridDim reads in the kernel (the row width here). An array
# the caller changes after its initialiser binds nothing.
mkdir -p "$TMP/a/lib" "$TMP/a/app" "$TMP/a/build"
cat >"$TMP/a/lib/grid.h" <<'H'
#pragma once
void launchColumns(const float *in, float *out, const int *dims);
void launchChanged(const float *in, float *out, const int *dims);
H
cat >"$TMP/a/lib/grid.cu" <<'CU'
#include "grid.h"
#define GROUP 256
__global__ void columns(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int width = gridDim.x * blockDim.x;
  out[x + width * y] = in[x + width * y];
}
void launchColumns(const float *in, float *out, const int *dims) {
  int groups = GROUP;
  dim3 grid(groups, 1);
  dim3 block(dims[0] / groups, dims[1]);
  columns<<<grid, block>>>(in, out);
}
__global__ void changed(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x + 256 * y] = in[x + 256 * y];
}
void launchChanged(const float *in, float *out, const int *dims) {
  changed<<<1, dim3(dims[0], dims[1])>>>(in, out);
}
CU
cat >"$TMP/a/app/main.cpp" <<'CPP'
#include "../lib/grid.h"
void fill(int *d, int n);
int main() {
  float *a = nullptr, *b = nullptr;
  const int width = 256, height = 64;
  int dims[2] = {width, height};
  launchColumns(a, b, dims);
  int other[2] = {1, 32};
  fill(other, 2);
  launchChanged(a, b, other);
}
CPP
cat >"$TMP/a/build/compile_commands.json" <<JSON
[{"directory": "$TMP/a/build", "command": "/usr/local/cuda/bin/nvcc -arch=sm_90 -x cu -c ../lib/grid.cu -o grid.o", "file": "../lib/grid.cu"},
 {"directory": "$TMP/a/build", "command": "/usr/bin/g++ -O2 -c ../app/main.cpp -o main.o", "file": "../app/main.cpp"}]
JSON
run arrays -p "$TMP/a/build" "$TMP/a/lib/grid.cu"
expect_rc arrays 0
# Blocks of 1x64 and a grid of 256: lanes are 256 floats apart.
expect_in arrays out "grid.cu:7:24: warning: global load is uncoalesced: adjacent lanes are 1024 bytes apart; 32 sectors per request where 4 would do"
run arrays_json --format=json -p "$TMP/a/build" "$TMP/a/lib/grid.cu"
json arrays_json "[k['block_dim'] for k in d['kernels'] if k['name'] == 'columns'] == [[1, 64, 1]]"
json arrays_json "[k['issue']['grid_dim'] for k in d['kernels'] if k['name'] == 'columns'] == [[256, 1, 1]]"
json arrays_json "all('gridDim 256x1x1 (the launch at grid.cu:13, called from main.cpp:7)' in a['assumptions'] for a in d['accesses'] if a['kernel'] == 'columns')"
json arrays_json "all(not any(s.startswith('gridDim') for s in a['assumptions']) for a in d['accesses'] if a['kernel'] == 'changed')"
# `other` goes to fill() as a pointer to non-const: its values are not
# known at the launch, so the shape of `changed` is not taken from it.
json arrays_json "[k['block_dim_source'] for k in d['kernels'] if k['name'] == 'changed'] != ['launch site']"
done_checks
