# warplint's rules as clang-tidy checks: Debian's clang-tidy-22 loads the
# module and reports each rule as warplint-<rule id>, with its notes,
# options and NOLINT.
source "$(dirname "$0")/lib.bash"
MODULE="$(dirname "$WARPLINT")/libwarplint-tidy.so"
TIDY=$(command -v clang-tidy-22 || true)
if [ -z "$TIDY" ]; then echo "skipped: clang-tidy-22 is not installed"; exit 77; fi
if [ ! -f "$MODULE" ]; then echo "skipped: no $MODULE (sanitizer builds leave it out)"; exit 77; fi
if [ ! -f /usr/local/cuda/include/cuda_runtime.h ]; then echo "skipped: no CUDA toolkit"; exit 77; fi
CUDA_ARGS=(-x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda
  -isystem /usr/local/cuda/include/cccl -Wno-unknown-cuda-version)
tidy() { # <name> <clang-tidy args...> : runs clang-tidy with the module
  local name=$1
  shift
  "$TIDY" -load="$MODULE" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
  echo $? >"$TMP/$name.rc"
}
cat >"$TMP/k.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void strided(const float *in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g * 32];
}
__global__ void columns(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][threadIdx.y] = 1;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}
__global__ void quiet(const float *in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g * 32]; // NOLINT(warplint-uncoalesced-global-access)
}
void launch(const float *a, float *b) {
  strided<<<64, 256>>>(a, b);
  columns<<<1, dim3(32, 32)>>>(b);
  quiet<<<64, 256>>>(a, b);
}
CU

tidy list -checks='-*,warplint-*' --list-checks
expect_rc list 0
expect_in list out "warplint-uncoalesced-global-access"
expect_in list out "warplint-smem-bank-conflict"
expect_in list out "warplint-missing-syncwarp"

tidy all -checks='-*,warplint-*' "$TMP/k.cu" -- "${CUDA_ARGS[@]}"
expect_rc all 0
expect_in all out "k.cu:4:12: warning: global load is uncoalesced: adjacent lanes are 128 bytes apart; 32 sectors per request where 4 would do [warplint-uncoalesced-global-access]"
expect_in all out "k.cu:4:15: note: 'g * 32' makes adjacent lanes 32 elements apart"
expect_in all out "k.cu:8:3: warning: shared store has a 32-way bank conflict"
expect_in all out "[warplint-smem-bank-conflict]"
expect_not_in all out "k.cu:14:"
[ "$(grep -c 'warning:' "$TMP/all.out")" = 2 ] || fail "all: not 2 warnings: $(cat "$TMP/all.out")"

# One check on: only its rule.
tidy one -checks='-*,warplint-smem-bank-conflict' "$TMP/k.cu" -- "${CUDA_ARGS[@]}"
expect_in one out "[warplint-smem-bank-conflict]"
expect_not_in one out "uncoalesced"

# A check option: the global threshold raised above the 8x excess.
tidy opt -checks='-*,warplint-*' \
  -config="{CheckOptions: {warplint-uncoalesced-global-access.Threshold: '9'}}" \
  "$TMP/k.cu" -- "${CUDA_ARGS[@]}"
expect_not_in opt out "uncoalesced"
expect_in opt out "[warplint-smem-bank-conflict]"
tidy dump -checks='-*,warplint-*' \
  -config="{CheckOptions: {warplint-uncoalesced-global-access.Threshold: '9'}}" \
  --dump-config
expect_in dump out "warplint-uncoalesced-global-access.Threshold"

# As errors, the way CI runs clang-tidy.
tidy werr -checks='-*,warplint-*' -warnings-as-errors='warplint-*' "$TMP/k.cu" -- "${CUDA_ARGS[@]}"
expect_rc werr 1
expect_in werr out "error: global load is uncoalesced"
done_checks
