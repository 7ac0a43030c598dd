# --param fixes a kernel parameter's value; findings still print after many
# compiler errors; the summary counts what could not be evaluated.
source "$(dirname "$0")/lib.bash"
cat >"$TMP/k.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void rows(const float *in, float *out, int d) {
  int t = threadIdx.x;
  for (int x = 0; x < d; ++x)
    out[t * d + x] = in[t * d + x];
}
void launch(const float *a, float *b) { rows<<<1, 64>>>(a, b, 64); }
CU
# The launch passes d = 64: the parameter is bound and the warning says so.
run bound "$TMP/k.cu"
expect_rc bound 0
expect_in bound out "adjacent lanes are 256 bytes apart"
expect_in bound out "'d' = 64 (the launch at k.cu:7)"

# Without a launch, d is a symbol over its realistic range (>= 32).
sed -i '/^void launch/d' "$TMP/k.cu"
run sampled "$TMP/k.cu"
expect_rc sampled 0
expect_in sampled out "adjacent lanes are 4*d bytes apart"
expect_in sampled out "assuming 'd' >= 32"
expect_in sampled err "depending on unknown values"

run given --param=d=64 "$TMP/k.cu"
expect_rc given 0
expect_in given out "adjacent lanes are 256 bytes apart"

run badparam --param=d "$TMP/k.cu"
expect_rc badparam 2
expect_in badparam err "--param wants NAME=INTEGER"

# Option values out of range are errors, never an abort or a silent clamp.
run hugeparam --param=d=99999999999999999999 "$TMP/k.cu"
expect_rc hugeparam 2
expect_in hugeparam err "--param wants NAME=INTEGER (64-bit)"
run hexparam --param=d=0x40 "$TMP/k.cu"
expect_rc hexparam 0
expect_in hexparam out "adjacent lanes are 256 bytes apart"
for bad in 99999999999999999999 0 1025 16,-1 32,,1 x; do
  run "blockdim_$bad" --block-dim="$bad" "$TMP/k.cu"
  expect_rc "blockdim_$bad" 2
  expect_in "blockdim_$bad" err "--block-dim wants X[,Y[,Z]]"
done
for bad in 1 0.5 inf nan 1e400; do
  run "threshold_$bad" --threshold="$bad" "$TMP/k.cu"
  expect_rc "threshold_$bad" 2
  expect_in "threshold_$bad" err "--threshold must be a number greater than 1"
done

# --timeout: what was not analyzed in time is named, and the file fails. (A
# slow build may run out before the first access, so no count is expected.)
big="$TESTDIR/stress/big-kernel.cu"
run timeout --timeout=0.000001 --format=json "$big"
expect_rc timeout 2
expect_in timeout err "analysis stopped by --timeout: 1 kernel not analyzed in full: big"
json timeout "d['files'][0]['status'] == 'error' and 'timeout' in d['files'][0]['error']"
run notimeout --timeout=60 "$TMP/k.cu" --param=d=64
expect_rc notimeout 0
run badtimeout --timeout=-1 "$TMP/k.cu"
expect_rc badtimeout 2
expect_in badtimeout err "--timeout wants a number of seconds >= 0"

# 30 errors (clang stops at 20 and turns fatal): findings still print.
{
  for i in $(seq 1 30); do echo "int e$i = undeclared$i;"; done
  cat "$TMP/k.cu"
} >"$TMP/errors.cu"
run errors --param=d=64 "$TMP/errors.cu"
expect_rc errors 2
expect_in errors out "adjacent lanes are 256 bytes apart"
expect_in errors err "30 errors, the first 20 shown"
done_checks
