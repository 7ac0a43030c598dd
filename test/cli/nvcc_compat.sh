# What nvcc users' code relies on parses, with the CUDA toolkit and with the
# bundled headers (--no-cuda-toolkit), and gives the same findings both ways.
source "$(dirname "$0")/lib.bash"
toolkit=
[ -f /usr/local/cuda/include/cuda_runtime.h ] && toolkit=yes

# Both modes: exit 0, the file parsed completely, and the same findings and
# accesses.
both() { # <name> <file>
  local mode
  for mode in tk nt; do
    if [ $mode = tk ]; then
      [ -n "$toolkit" ] || continue
      run "$1_$mode" --format=json "$2"
    else
      run "$1_$mode" --format=json --no-cuda-toolkit "$2"
    fi
    expect_rc "$1_$mode" 0
    expect_not_in "$1_$mode" err "could not be analyzed completely"
    json "$1_$mode" "[f['status'] for f in d['files']] == ['ok']"
  done
  if [ -n "$toolkit" ]; then
    python3 - "$TMP/$1_tk.out" "$TMP/$1_nt.out" <<'PY' || fail "$1: findings differ between the modes"
import json, sys
def seen(p):
    d = json.load(open(p))
    return (sorted((x['line'], x['rule']) for x in d['diagnostics']),
            sorted((x['line'], x['op'], x.get('sectors_per_request'))
                   for x in d['accesses']))
a, b = (seen(p) for p in sys.argv[1:])
sys.exit(a != b)
PY
  fi
}

# nvcc defines __NVCC__: code picks its __host__ __device__ macro and CUDA
# (not HIP) by it.
cat >"$TMP/nvcc_macro.cu" <<'CU'
#ifdef __NVCC__
#include <cuda_runtime.h>
#define HD __host__ __device__
#else
#include <hip/hip_runtime.h>
#define HD
#endif
HD inline int twice(int i) { return 2 * i; }
__global__ void k(float *o) { o[twice(threadIdx.x) * 16] = 1; }
void launch(float *o) { k<<<1, 32>>>(o); }
CU
both nvcc_macro "$TMP/nvcc_macro.cu"
json nvcc_macro_nt "[x['rule'] for x in d['diagnostics']] == ['uncoalesced-global-access']"

# __CUDACC_VER_MAJOR__ / _MINOR__ are defined; with the toolkit they are its
# version, so `#if __CUDACC_VER_MAJOR__ >= 13` takes the CUDA 13 branch.
cat >"$TMP/version.cu" <<'CU'
#if !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_VER_MINOR__)
#error no nvcc version
#endif
#if defined(CUDA_VERSION) && (__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 != CUDA_VERSION)
#error nvcc version is not the toolkit's
#endif
__global__ void k(float *o) { o[threadIdx.x] = __CUDACC_VER_MAJOR__; }
CU
both version "$TMP/version.cu"

# With __NVCC__ defined, CCCL and cooperative groups still detect Clang.
if [ -n "$toolkit" ]; then
  cat >"$TMP/cccl.cu" <<'CU'
#include <cooperative_groups.h>
#include <cub/cub.cuh>
namespace cg = cooperative_groups;
__global__ void k(float *o) {
  typedef cub::WarpReduce<float> R;
  __shared__ typename R::TempStorage t;
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
  o[threadIdx.x] = R(t).Sum(o[threadIdx.x]) + w.thread_rank();
}
CU
  run cccl --format=json "$TMP/cccl.cu"
  expect_rc cccl 0
  json cccl "[f['status'] for f in d['files']] == ['ok']"
fi

done_checks
