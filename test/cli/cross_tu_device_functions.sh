# Separately compiled device code (nvcc -rdc): a kernel calls a __device__
# function its file declares and another file of the run or of the compile
# database defines. warplint reads that file and follows the call, reporting
# the accesses at their lines there; where no file defines the function, the
# kernel's remark says the call was not followed and why.
source "$(dirname "$0")/lib.bash"
mkdir -p "$TMP/p/src" "$TMP/p/build"
cat >"$TMP/p/src/merge.cu" <<'CU'
#include <cuda_runtime.h>
__device__ unsigned long mix(unsigned long a, unsigned long b);
// Each thread hashes its own pair of 4-word digests.
__device__ void merge(const unsigned long *in, unsigned long *out) {
  for (int i = 0; i < 4; ++i)
    out[i] = mix(in[i], in[i + 4]);
}
// A C function declared elsewhere with other parameter types: the linker
// joins them by name.
extern "C" __device__ double poly(double x, double c[], int n) {
  double s = 0;
  for (int i = n - 1; i >= 0; --i)
    s = s * x + c[i];
  return s;
}
CU
cat >"$TMP/p/src/mix.cu" <<'CU'
#include <cuda_runtime.h>
__device__ unsigned long mix(unsigned long a, unsigned long b) {
  return a * 31 + (b ^ (b >> 7));
}
CU
cat >"$TMP/p/src/kernels.cu" <<'CU'
#include <cuda_runtime.h>
__device__ void merge(const unsigned long *in, unsigned long *out);
extern "C" __device__ double poly(double x, const double c[], int n);
__device__ void missing(float *out);

__global__ void tree(const unsigned long *leaves, unsigned long *nodes) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  merge(leaves + t * 8, nodes + t * 4);
}

__global__ void evaluate(const double *x, const double *coef, double *y) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  y[t] = poly(x[t], coef, 8);
}

__global__ void elsewhere(float *out) { missing(out); }

int main() {
  unsigned long *a, *b;
  double *x, *c, *y;
  float *f;
  tree<<<64, 256>>>(a, b);
  evaluate<<<64, 256>>>(x, c, y);
  elsewhere<<<1, 32>>>(f);
}
CU
cat >"$TMP/p/build/compile_commands.json" <<JSON
[{"directory": "$TMP/p/build", "command": "/usr/local/cuda/bin/nvcc -rdc=true -arch=sm_90 -x cu -c ../src/kernels.cu -o kernels.o", "file": "../src/kernels.cu"},
 {"directory": "$TMP/p/build", "command": "/usr/local/cuda/bin/nvcc -rdc=true -arch=sm_90 -x cu -c ../src/merge.cu -o merge.o", "file": "../src/merge.cu"},
 {"directory": "$TMP/p/build", "command": "/usr/local/cuda/bin/nvcc -rdc=true -arch=sm_90 -x cu -c ../src/mix.cu -o mix.o", "file": "../src/mix.cu"}]
JSON

# Only the kernels' file is named; merge() is found in merge.cu through the
# compile database, and the accesses are reported at merge.cu's lines.
run db -p "$TMP/p/build" "$TMP/p/src/kernels.cu"
expect_rc db 0
# in[i] and in[i + 4]: lanes 64 bytes apart, 32 sectors where 8 would do.
# (The two loads of the line get one message.)
expect_in db out "merge.cu:6:18: warning: global load is uncoalesced: adjacent lanes are 64 bytes apart; 32 sectors per request where 8 would do"
expect_in db out "merge.cu:6:5: warning: global store is uncoalesced: adjacent lanes are 32 bytes apart; 32 sectors per request where 8 would do"
expect_in db out "kernels.cu:8:3: note: in the call from here"
# poly(): declared with `const double c[]`, defined with `double c[]`,
# joined by name: its coefficient loads are one address per warp.
expect_not_in db out "of 'poly'"
# missing() is defined nowhere: said, with why.
expect_in db out "1 call (of 'missing') to a function this file declares but does not define (separately compiled device code) was not followed, and the memory accesses in it are missing ('missing': no file of the run or of the compile database defines it)"
expect_not_in db out "of 'merge'"
# mix(), which merge() calls, is defined in a third file: followed too.
expect_not_in db out "of 'mix'"

run json -p "$TMP/p/build" --format=json "$TMP/p/src/kernels.cu"
expect_rc json 0
json json "sorted({a['line'] for a in d['accesses'] if a['file'].endswith('merge.cu')}) == [6, 13]"
json json "[a['sectors_per_request'] for a in d['accesses'] if a['file'].endswith('merge.cu') and a['line'] == 13] == [1]"

# The same with the files named on the command line (no database).
run files "$TMP/p/src/kernels.cu" "$TMP/p/src/merge.cu" "$TMP/p/src/mix.cu" -- -rdc=true
expect_rc files 0
expect_in files out "merge.cu:6:18: warning: global load is uncoalesced"
done_checks
