# A kernel launched with several block shapes: one warning per line, the
# worst configuration's, naming its shape only where the shapes disagree.
source "$(dirname "$0")/lib.bash"
cat >"$TMP/k.cu" <<'CU'
__global__ void strided(float *o) { o[threadIdx.x * 32] = 1; }
__global__ void columns(float *o) { o[threadIdx.x * 64 + threadIdx.y] = 1; }
void run(float *o) {
  strided<<<1, 64>>>(o);
  strided<<<1, 128>>>(o);
  columns<<<1, dim3(32, 4)>>>(o);
  columns<<<1, dim3(16, 8)>>>(o);
}
CU
run both "$TMP/k.cu"
expect_rc both 0
[ "$(grep -c 'k.cu:1:.*warning:' "$TMP/both.out")" = 1 ] || fail "strided: not one warning"
[ "$(grep -c 'k.cu:2:.*warning:' "$TMP/both.out")" = 1 ] || fail "columns: not one warning"
expect_not_in both out "k.cu:1:37: warning: global store is uncoalesced: adjacent lanes are 128 bytes apart; 32 sectors per request where 4 would do (with"
expect_in both out "32 sectors per request where 4 would do (with 32x4x1 blocks, the worst of the kernel's 2 launch configurations)"
run json --format=json "$TMP/k.cu"
json json "len(d['kernels']) == 4"
json json "len([x for x in d['diagnostics'] if x['rule'] == 'uncoalesced-global-access']) == 2"
# Block sizes from a host loop, some of them above the 1024 threads a block
# may have (a condition on another variable keeps those from the launch):
# only the sizes that can launch are configurations.
cat >"$TMP/sizes.cu" <<'CU'
__global__ void fill(float *o) { o[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
void run(float *o) {
  for (int lg = 8; lg <= 12; ++lg) {
    long n = 1L << lg;
    if (lg <= 10)
      fill<<<4, n>>>(o);
  }
}
CU
run sizes --format=json "$TMP/sizes.cu"
expect_rc sizes 0
json sizes "sorted(k['block_dim'][0] for k in d['kernels']) == [256, 512, 1024]"
done_checks
