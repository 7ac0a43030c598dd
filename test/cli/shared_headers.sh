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

# --header-filter: findings in headers that do not match are left out and
# counted; the file's own findings stay.
printf '#include "k.cuh"\n__global__ void own(float *o) { o[threadIdx.x * 32] = 1; }\nvoid d(float *o) { strided<<<1, 64>>>(o); own<<<1, 64>>>(o); }\n' >"$TMP/d.cu"
run hide --header-filter='^$' "$TMP/d.cu"
expect_rc hide 0
expect_in hide out "d.cu:2:"
expect_not_in hide out "k.cuh"
expect_in hide err "1 warning in 1 file"
expect_in hide err "; 1 in headers --header-filter leaves out"
run show --header-filter='k\.cuh$' --format=json "$TMP/d.cu"
json show "sorted(x['file'].split('/')[-1] for x in d['diagnostics']) == ['d.cu', 'k.cuh'] and d['hidden_in_headers'] == 0"
run badre --header-filter='(' "$TMP/d.cu"
expect_rc badre 2
expect_in badre err "HeaderFilter '(' is not a regular expression"
# A header whose kernel template it never instantiates, run alone: the
# template is analyzed as the files that include it instantiate and launch
# it (found in the run or the compile database), and only the header's
# findings are shown, at the header's lines.
mkdir -p "$TMP/t/include" "$TMP/t/src" "$TMP/t/build"
cat >"$TMP/t/include/tile.cuh" <<'CU'
#pragma once
template <typename T, int Tile> __global__ void columnRead(const T *in, T *out) {
  __shared__ T tile[Tile][Tile];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * Tile + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * Tile + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
CU
cat >"$TMP/t/src/use.cu" <<'CU'
#include "tile.cuh"
__global__ void local(float *o) { o[threadIdx.x * 32] = 1; }
void run(const float *in, float *out) {
  columnRead<float, 32><<<1, dim3(32, 32)>>>(in, out);
  local<<<1, 64>>>(out);
}
CU
cat >"$TMP/t/build/compile_commands.json" <<JSON
[{"directory": "$TMP/t/build", "command": "nvcc -I../include -c ../src/use.cu", "file": "../src/use.cu"}]
JSON
run tmpl -p "$TMP/t/build" "$TMP/t/include/tile.cuh"
expect_rc tmpl 0
expect_in tmpl out "tile.cuh:6:43: warning: shared load has a 32-way bank conflict"
expect_not_in tmpl out "use.cu:2:"
expect_in tmpl err "kernel template 'columnRead' analyzed as instantiated in use.cu"
run tmpl_json --format=json -p "$TMP/t/build" "$TMP/t/include/tile.cuh"
json tmpl_json "[k['signature'] for k in d['kernels']] == ['columnRead<float, 32>']"
json tmpl_json "[f['status'] for f in d['files']] == ['ok']"
# With the including file in the same run, the finding is shown once.
run tmpl_both -p "$TMP/t/build" "$TMP/t/include/tile.cuh" "$TMP/t/src/use.cu"
[ "$(grep -c 'tile.cuh:6:43: warning' "$TMP/tmpl_both.out")" = 1 ] || fail "the template's warning is not printed once"
expect_in tmpl_both out "use.cu:2:"
# Nothing includes it: said so, not a silent all clear.
cp "$TMP/t/include/tile.cuh" "$TMP/t/include/lonely.cuh"
run lonely "$TMP/t/include/lonely.cuh"
expect_rc lonely 0
expect_in lonely err "kernel template 'columnRead' not instantiated here, and no file of the run or of the compile database includes this one"
done_checks
