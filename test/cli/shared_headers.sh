# A kernel in a header that several files include is analyzed once per
# configuration and reported once, not once per file.
source "$(dirname "$0")/lib.bash"
cat >"$TMP/k.cuh" <<'CU'
#pragma once
__global__ void strided(float *o) { o[threadIdx.x * 32] = 1; }
CU
printf '#include "k.cuh"\nvoid a(float *o) { strided<<<1, 64>>>(o); }\n' >"$TMP/a.cu"
printf '#include "k.cuh"\nvoid b(float *o) { strided<<<1, 64>>>(o); }\n' >"$TMP/b.cu"
printf '#include "k.cuh"\nvoid c(float *o) { strided<<<1, 128>>>(o); }\n' >"$TMP/c.cu"

run same --format=json "$TMP/a.cu" "$TMP/b.cu"
expect_rc same 0
json same "len(d['kernels']) == 1"
json same "len(d['diagnostics']) == 1"
json same "[f['status'] for f in d['files']] == ['ok', 'ok']"
run same_text "$TMP/a.cu" "$TMP/b.cu"
expect_not_in same_text err "no __global__ function"
[ "$(grep -c 'warning:' "$TMP/same_text.out")" = 1 ] || fail "the header's warning is printed more than once"

# Another launch shape is another configuration: analyzed, its warning
# (the same text on the same line) still printed once.
run other --format=json "$TMP/a.cu" "$TMP/c.cu"
expect_rc other 0
json other "sorted(k['block_dim'][0] for k in d['kernels']) == [64, 128]"
json other "len(d['diagnostics']) == 1"
done_checks
