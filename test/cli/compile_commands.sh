# Users' nvcc compile databases (CMake's CUDA language) and "--" arguments.
source "$(dirname "$0")/lib.bash"
mkdir -p "$TMP/src" "$TMP/build"
cat >"$TMP/src/k.cu" <<'CU'
#include <cuda_runtime.h>
#ifndef STRIDE
#error "STRIDE comes from the build"
#endif
__global__ void k(const float *in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g * STRIDE];
}
void launch(const float *a, float *b) { k<<<64, 256>>>(a, b); }
CU
cat >"$TMP/build/compile_commands.json" <<JSON
[{"directory": "$TMP/build",
  "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DSTRIDE=32 -I$TMP/src --generate-code=arch=compute_80,code=[compute_80,sm_80] -Xcompiler=-fPIC -lineinfo --expt-relaxed-constexpr -rdc=true -x cu -c $TMP/src/k.cu -o k.o",
  "file": "$TMP/src/k.cu"}]
JSON
run db -p "$TMP/build" "$TMP/src/k.cu"
expect_rc db 0
expect_in db out "adjacent lanes are 128 bytes apart"

run nodb "$TMP/src/k.cu"
expect_rc nodb 2
expect_in nodb err "STRIDE comes from the build"

run fixed "$TMP/src/k.cu" -- -DSTRIDE=2
expect_rc fixed 0
expect_in fixed out "adjacent lanes are 8 bytes apart"

run extra --extra-arg=-DSTRIDE=4 "$TMP/src/k.cu"
expect_rc extra 0
expect_in extra out "adjacent lanes are 16 bytes apart"

run baddb -p "$TMP/nowhere" "$TMP/src/k.cu"
expect_rc baddb 2
expect_in baddb err "cannot load compile_commands.json"

# Without a toolkit: the bundled header gives the same findings.
run stub --cuda-path="$TMP/no-cuda-here" "$TMP/src/k.cu" -- -DSTRIDE=32
expect_rc stub 0
expect_in stub err "no CUDA toolkit"
expect_in stub out "adjacent lanes are 128 bytes apart"
done_checks
