# Code that nvcc compiles is never a failure: a plain-CUDA project (Makefile,
# nvcc with -rdc=true and -Xcompiler -fopenmp, host helpers that lean on what
# nvcc's and gcc's headers provide) recorded with `bear -- make`, through a
# stand-in nvcc that compiles nothing (no toolkit needed). warplint exits 0
# with its findings; a real error in device code still fails the file.
source "$(dirname "$0")/lib.bash"
if ! command -v bear >/dev/null || ! command -v make >/dev/null; then
  echo "SKIP: bear or make not installed (scripts/setup.sh installs them)"
  exit 77
fi
if ! command -v g++ >/dev/null; then
  echo "SKIP: no g++ (the host compiler whose omp.h the project includes)"
  exit 77
fi
proj="$TMP/host-leniency"
cp -r "$TESTDIR/projects/host-leniency" "$proj"
record() { # <make arguments...>: the project's compile database, as bear sees it
  (cd "$proj" && make -s clean >/dev/null &&
   PATH="$proj/bin:$PATH" bear --output "$proj/compile_commands.json" -- make -s "$@" \
     >"$TMP/make.out" 2>&1) || fail "bear -- make: $(cat "$TMP/make.out")"
  grep -q -- '-rdc=true' "$proj/compile_commands.json" ||
    fail "bear recorded no nvcc command: $(cat "$proj/compile_commands.json")"
}

record
run clean -p "$proj" --format=json "$proj/main.cu"
expect_rc clean 0
json clean "[f['status'] for f in d['files']] == ['ok']"
json clean "'uncoalesced-global-access' in [x['rule'] for x in d['diagnostics']]"
json clean "any(k['name'] == 'parent' for k in d['kernels'])"
expect_not_in clean err "could not be analyzed completely"
expect_not_in clean err "relocatable device code"
# The text output: the finding, no compiler error, exit 0.
run clean_text -p "$proj" "$proj/main.cu"
expect_rc clean_text 0
expect_in clean_text out "uncoalesced"
expect_not_in clean_text err "error:"

# A real error in a kernel: the file fails (exit 2) and says where.
record BROKEN=1
run broken -p "$proj" --format=json "$proj/main.cu"
expect_rc broken 2
json broken "d['files'][0]['status'] == 'error' and 'main.cu:12:' in d['files'][0]['error'] and 'undeclared_in_kernel' in d['files'][0]['error']"
run broken_text -p "$proj" "$proj/main.cu"
expect_rc broken_text 2
expect_in broken_text err "main.cu:12:22: error: use of undeclared identifier 'undeclared_in_kernel'"

# Errors Clang gives in host-only code: one note with the first error and
# its place, the findings, exit 0; the summary and JSON count it. (The
# names are undeclared so that the errors do not depend on which headers,
# the toolkit's or the bundled ones, declare what for the host.)
cat >"$TMP/host.cu" <<'CU'
#include <cmath>
__global__ void k(float *o) { o[threadIdx.x * 32] = 1; }
float inv(float x) {
  return undeclared_on_host(x) + also_undeclared;
}
int main() { k<<<1, 32>>>(nullptr); return (int)inv(2); }
CU
run host "$TMP/host.cu"
expect_rc host 0
expect_in host err "warplint: note: $TMP/host.cu: host code not checked: $TMP/host.cu:4:10: use of undeclared identifier 'undeclared_on_host'"
expect_in host err "(2 errors in host-only code)"
expect_in host err "1 file with host code not checked"
expect_not_in host err "error:"
expect_in host out "uncoalesced"
run host_json --format=json "$TMP/host.cu"
expect_rc host_json 0
json host_json "d['files'][0]['status'] == 'ok' and 'undeclared_on_host' in d['files'][0]['host_code_not_checked'] and d['host_code_not_checked'] == 1"
json host_json "[x['rule'] for x in d['diagnostics']] == ['uncoalesced-global-access']"
run host_fail --fail-on-warnings "$TMP/host.cu"
expect_rc host_fail 1
run host_sarif --format=sarif "$TMP/host.cu"
expect_rc host_sarif 0
expect_in host_sarif out "host code not checked"
run host_github --format=github "$TMP/host.cu"
expect_rc host_github 0
# The same error in device code, in a __host__ __device__ function, and in
# host code a kernel's type depends on (outside any function) fails the file.
for where in "__device__" "__host__ __device__"; do
  sed "s/^float inv/$where float inv/" "$TMP/host.cu" >"$TMP/dev.cu"
  run dev "$TMP/dev.cu"
  expect_rc dev 2
  expect_in dev err "use of undeclared identifier 'undeclared_on_host'"
done
cat >"$TMP/decl.cu" <<'CU'
struct Cfg { int n = undeclared_size; };
__global__ void k(float *o) { o[threadIdx.x * Cfg().n] = 1; }
CU
run decl "$TMP/decl.cu"
expect_rc decl 2
# A missing header stays an error, in host code too.
printf '#include "nowhere.h"\n__global__ void k(float *o) { o[threadIdx.x] = 1; }\n' >"$TMP/missing.cu"
run missing "$TMP/missing.cu"
expect_rc missing 2
expect_in missing err "'nowhere.h' file not found"

done_checks
