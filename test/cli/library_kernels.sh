# Kernels defined in library (system) headers are not analyzed. One the
# program instantiates with its own types (a cub reduction over the
# program's functor) runs the program's code, so warplint names it instead
# of passing over it: the note says which kernels and which types.
source "$(dirname "$0")/lib.bash"

mkdir -p "$TMP/sys"
cat >"$TMP/sys/lib.cuh" <<'CUH'
#pragma clang system_header
namespace lib {
template <class T> struct Identity {
  __device__ T operator()(T x) const { return x; }
};
template <class Op, class T> struct Transform {
  const T *p;
  Op op;
  __device__ T operator[](int i) const { return op(p[i]); }
};
template <class It, class T>
__global__ void reduceKernel(It in, T *out) {
  out[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
}
template <class It, class T> void reduce(It in, T *out) {
  reduceKernel<<<64, 256>>>(in, out);
}
} // namespace lib
CUH

# The program's functor, reached through the library's iterator.
cat >"$TMP/user.cu" <<'CU'
#include "lib.cuh"
struct Strided {
  __device__ float operator()(float x) const { return 2 * x; }
};
void run(const float *in, float *out) {
  lib::reduce(lib::Transform<Strided, float>{in, Strided{}}, out);
}
__global__ void own(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x];
}
void launchOwn(const float *in, float *out) { own<<<1, 32>>>(in, out); }
CU
run user "$TMP/user.cu" -- -isystem "$TMP/sys"
expect_rc user 0
expect_in user err "user.cu: 1 kernel of library headers instantiated with this file's types not analyzed"
expect_in user err "lib::reduceKernel (with Strided)"
expect_not_in user err "no __global__ function"

# Only library kernels: named, not "no __global__ function to analyze".
cat >"$TMP/only.cu" <<'CU'
#include "lib.cuh"
struct Mine {
  float v;
};
void run(const Mine *in, Mine *out) {
  lib::reduce(lib::Transform<lib::Identity<Mine>, Mine>{in, {}}, out);
}
CU
run only "$TMP/only.cu" -- -isystem "$TMP/sys"
expect_rc only 0
expect_in only err "lib::reduceKernel (with Mine)"
expect_not_in only err "no __global__ function"

# A library kernel over library and built-in types only is the library's
# own business: no note.
cat >"$TMP/plain.cu" <<'CU'
#include "lib.cuh"
void run(const float *in, float *out) {
  lib::reduce(lib::Transform<lib::Identity<float>, float>{in, {}}, out);
}
CU
run plain "$TMP/plain.cu" -- -isystem "$TMP/sys"
expect_not_in plain err "library headers"
done_checks
