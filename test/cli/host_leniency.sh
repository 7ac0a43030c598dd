# Code that nvcc compiles is never a failure: an error Clang gives in
# host-only code is a note, the findings decide the exit code; errors in
# device code and in what it depends on still fail the file.
source "$(dirname "$0")/lib.bash"

# An error Clang gives in host-only code (rsqrtf, which nvcc's headers
# declare for the host too and Clang's only for the device): one note with
# the first error and its place, the findings, exit 0; the summary and JSON
# count it.
cat >"$TMP/host.cu" <<'CU'
#include <cmath>
__global__ void k(float *o) { o[threadIdx.x * 32] = 1; }
float inv(float x) {
  return rsqrtf(x) + undeclared_on_host;
}
int main() { k<<<1, 32>>>(nullptr); return (int)inv(2); }
CU
run host "$TMP/host.cu"
expect_rc host 0
expect_in host err "warplint: note: $TMP/host.cu: host code not checked: $TMP/host.cu:4:10: no matching function for call to 'rsqrtf'"
expect_in host err "(2 errors in host-only code)"
expect_in host err "1 file with host code not checked"
expect_not_in host err "error:"
expect_in host out "uncoalesced"
run host_json --format=json "$TMP/host.cu"
expect_rc host_json 0
json host_json "d['files'][0]['status'] == 'ok' and 'rsqrtf' in d['files'][0]['host_code_not_checked'] and d['host_code_not_checked'] == 1"
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
