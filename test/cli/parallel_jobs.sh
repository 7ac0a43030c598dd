# -j N analyzes files side by side and prints what -j 1 prints, byte for
# byte: stdout, stderr and the exit code, as text and as JSON. Each file's
# results are committed in the run's order, so a kernel in a header that
# several files include is still analyzed once per configuration (also when
# a later file launches it in more configurations than an earlier one),
# findings are deduplicated and fingerprints numbered over the whole run,
# and files that fail keep their place and their messages.
source "$(dirname "$0")/lib.bash"
FIX=$TESTDIR/fixtures

cat >"$TMP/k.cuh" <<'CU'
#pragma once
__global__ void strided(float *o) { o[threadIdx.x * 32] = 1; }
__global__ void tile(float *o) {
  __shared__ float s[32][32];
  s[threadIdx.x][threadIdx.y] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.y] = s[threadIdx.y][threadIdx.x];
}
CU
printf '#include "k.cuh"\nvoid a(float *o) { strided<<<1, 64>>>(o); tile<<<1, dim3(32, 32)>>>(o); }\n' >"$TMP/a.cu"
# The same configurations: left out as a single run leaves them out.
printf '#include "k.cuh"\nvoid b(float *o) { strided<<<1, 64>>>(o); tile<<<1, dim3(32, 32)>>>(o); }\n' >"$TMP/b.cu"
# One configuration a.cu analyzed and one it did not: the kernel is
# analyzed again in this file's turn, against what the run has seen.
printf '#include "k.cuh"\nvoid c(float *o) { strided<<<1, 64>>>(o); strided<<<1, 128>>>(o); }\n' >"$TMP/c.cu"
printf '__global__ void broken(float *o) { o[threadIdx.x * 2] = 1 }\n' >"$TMP/broken.cu"
printf '\0\1\2binary' >"$TMP/binary.cu"

files=("$FIX/uncoalesced-global-access/strides.cu" "$TMP/a.cu"
       "$FIX/smem-bank-conflict/tiles.cu" "$TMP/broken.cu" "$TMP/b.cu"
       "$TMP/missing.cu"
       "$FIX/divergent-branch/branches.cu" "$TMP/c.cu" "$TMP/binary.cu"
       "$FIX/missing-syncwarp/warp-reduce.cu")

same() { # <name> <reference name>: identical stdout, stderr and exit code
  cmp -s "$TMP/$1.out" "$TMP/$2.out" ||
    fail "$1: stdout differs from $2: $(diff "$TMP/$2.out" "$TMP/$1.out" | head -20)"
  cmp -s "$TMP/$1.err" "$TMP/$2.err" ||
    fail "$1: stderr differs from $2: $(diff "$TMP/$2.err" "$TMP/$1.err" | head -20)"
  expect_rc "$1" "$(cat "$TMP/$2.rc")"
}

run text1 -j1 "${files[@]}"
expect_rc text1 2
expect_in text1 out "k.cuh:2:"
expect_in text1 err "binary.cu: error: binary file"
expect_in text1 err "missing.cu: error: cannot open file"
expect_in text1 err "broken.cu could not be analyzed completely"
[ "$(grep -c 'k.cuh:2:.*warning' "$TMP/text1.out")" = 1 ] ||
  fail "the header's warning is not printed once"
run text2 -j2 "${files[@]}"
same text2 text1
run json1 -j 1 --format=json "${files[@]}"
json json1 "[f['status'] for f in d['files']].count('ok') == 7"
json json1 "sorted(k['block_dim'][0] for k in d['kernels'] if k['file'].endswith('k.cuh') and k['name'] == 'strided') == [64, 128]"
json json1 "len([k for k in d['kernels'] if k['file'].endswith('k.cuh') and k['name'] == 'tile' and k['block_dim_source'] == 'launch site']) == 1"
json json1 "len(set(x['fingerprint'] for x in d['diagnostics'])) == len(d['diagnostics'])"
# More jobs than files: every file at once.
run json12 --jobs=12 --format=json "${files[@]}"
same json12 json1

# A baseline from one job hides the same findings in a run with several.
run base -j1 --write-baseline="$TMP/baseline.json" "${files[@]}"
run base1 -j1 --baseline="$TMP/baseline.json" --format=json "${files[@]}"
json base1 "d['diagnostics'] == [] and d['baselined'] > 0"
run base2 -j2 --baseline="$TMP/baseline.json" --format=json "${files[@]}"
same base2 base1

# A shard's JSON (which merge reads) is the same too.
run shard1 -j1 --shard=1/2 --format=json "${files[@]}"
run shard2 -j2 --shard=1/2 --format=json "${files[@]}"
same shard2 shard1

# Relative paths and a compile database whose commands run elsewhere: a
# parse that moves to its command's directory moves no other parse.
mkdir -p "$TMP/db"
cat >"$TMP/db/compile_commands.json" <<JSON
[{"directory": "$TMP/db", "command": "nvcc -I.. -c ../a.cu", "file": "../a.cu"},
 {"directory": "$TMP/db", "command": "nvcc -I.. -c ../b.cu", "file": "../b.cu"},
 {"directory": "$TMP/db", "command": "nvcc -I.. -c ../c.cu", "file": "../c.cu"}]
JSON
cp "$FIX/smem-bank-conflict/tiles.cu" "$FIX/divergent-branch/branches.cu" "$TMP/"
cd "$TMP" || fail "cannot enter $TMP"
rel=(a.cu tiles.cu b.cu branches.cu c.cu)
run rel1 -j1 --format=json -p db "${rel[@]}"
json rel1 "[f['status'] for f in d['files']] == ['ok'] * 5"
for i in 1 2; do
  run "rel2_$i" -j2 --format=json -p db "${rel[@]}"
  same "rel2_$i" rel1
done

# The default is one job per core; a count that is no number is refused.
run bad -j=many "$FIX/smem-bank-conflict/negatives.cu"
expect_rc bad 2
expect_in bad err "'many' value invalid"
done_checks
