# How the text output names files: as the command line gave them, as
# compilers do (a finding's line, its notes, an --explain picture, the
# compiler's own errors and the notes about host code), so that what is
# printed can be pasted and opened from where warplint ran; absolute with
# --absolute-paths, and always absolute in JSON and SARIF's artifact locations
# resolve to the same file.
source "$(dirname "$0")/lib.bash"

mkdir -p "$TMP/proj/src/inc"
cat >"$TMP/proj/src/inc/stride.cuh" <<'CUH'
#define STRIDE 4
__device__ inline void put(float *p, int i) { p[i * STRIDE + 1] = 1.0f; }
CUH
cat >"$TMP/proj/src/k.cu" <<'CU'
#include "inc/stride.cuh"
__global__ void k(float *p) {
  p[threadIdx.x * STRIDE] = 0;
  put(p, threadIdx.x);
}
void host() { undeclared_helper(); }
CU
cd "$TMP/proj" || fail "cd"

run rel src/k.cu
expect_rc rel 0
expect_in rel out "src/k.cu:3:3: warning: global store is uncoalesced"
expect_not_in rel out "$TMP/proj/src/k.cu:"
expect_in rel out "src/inc/stride.cuh:2:47: warning: global store is uncoalesced"
expect_in rel err "warplint: note: src/k.cu: host code not checked: src/k.cu:6:15: use of undeclared identifier 'undeclared_helper'"

# Dots are resolved as a compiler would not, but the name stays relative.
run dots ./src/../src/k.cu
expect_in dots out "src/k.cu:3:3: warning:"
expect_not_in dots out "$TMP/proj/"

run explain --explain src/k.cu:3 src/k.cu
expect_in explain out "src/k.cu:3:3: explain: global store 'p[threadIdx.x * STRIDE]'"
expect_not_in explain out "$TMP/proj/"

run abs --absolute-paths src/k.cu
expect_in abs out "$TMP/proj/src/k.cu:3:3: warning: global store is uncoalesced"
expect_in abs out "$TMP/proj/src/inc/stride.cuh:2:47: warning:"

# Given absolute, printed absolute.
run given "$TMP/proj/src/k.cu"
expect_in given out "$TMP/proj/src/k.cu:3:3: warning:"

# A file the compiler cannot parse: its error names the file as given too.
printf '__global__ void bad(float *p) { p[threadIdx.x] = ; }\n' >src/bad.cu
run bad src/bad.cu
expect_rc bad 2
expect_in bad err "src/bad.cu:1:50: error: expected expression"
expect_in bad err "Error while processing src/bad.cu."
expect_not_in bad err "$TMP/proj/"

# The machine-readable reports name files absolute whichever way they were
# given, so that reports of runs from different directories merge.
run json --format=json src/k.cu
json json "all(a['file'].startswith('$TMP/proj/src/') for a in d['accesses'])"
json json "d['files'][0]['path'] in ('src/k.cu', '$TMP/proj/src/k.cu')"
run sarif --format=sarif src/k.cu
json sarif "sorted({l['physicalLocation']['artifactLocation']['uri'] for r in d['runs'][0]['results'] for l in r['locations']}) == ['src/inc/stride.cuh', 'src/k.cu']"

# A compile database's files (-p without files) are named as its entries
# spell them, relative to the entry's directory, as the build's compiler
# printed them; a file given on the command line keeps its spelling where
# the entry's directory is the current one, and is absolute elsewhere (the
# parse runs in the entry's directory).
mkdir -p build
cat >build/compile_commands.json <<JSON
[{"directory": "$TMP/proj/build", "command": "nvcc -c ../src/k.cu -o k.o", "file": "../src/k.cu"}]
JSON
run db -p build
expect_in db out "../src/k.cu:3:3: warning: global store is uncoalesced"
expect_in db out "../src/inc/stride.cuh:2:47: warning:"
expect_not_in db out "$TMP/proj/"
run dbabs --absolute-paths -p build
expect_in dbabs out "$TMP/proj/src/k.cu:3:3: warning:"
run dbgiven -p build src/k.cu
expect_in dbgiven out "$TMP/proj/src/k.cu:3:3: warning:"
(cd build && "$WARPLINT" -p . ../src/k.cu >"$TMP/dbhere.out" 2>&1)
grep -q "^../src/k.cu:3:3: warning:" "$TMP/dbhere.out" || fail "a file given in the entry's directory keeps its spelling"
run dbjson --format=json -p build
json dbjson "all(a['file'].startswith('$TMP/proj/src/') for a in d['accesses'])"

done_checks
