# A crash while analyzing one file ends that file, not the run: it is named
# with where it happened, the other files' results are written, exit 2.
# (`#pragma clang __debug crash` makes Clang's parser trap, as a crash in
# Clang or in warplint would.)
source "$(dirname "$0")/lib.bash"
printf '#pragma clang __debug crash\n__global__ void k(float *p) { p[threadIdx.x] = 1.f; }\n' >"$TMP/crash.cu"
ok="$TESTDIR/fixtures/smem-bank-conflict/compiler-merges.cu"
run text "$TMP/crash.cu" "$ok"
expect_rc text 2
expect_in text err "warplint: error: $TMP/crash.cu: warplint crashed while analyzing this file (while parsing it); please report it with the file"
expect_in text out "compiler-merges.cu:24:12: warning: shared load has a 2-way bank conflict"
expect_in text err "1 of 2 files could not be analyzed"
expect_not_in text err "Stack dump"
run json --format=json "$ok" "$TMP/crash.cu"
expect_rc json 2
json json "[f['status'] for f in d['files']] == ['ok', 'error'] and 'crashed' in d['files'][1]['error'] and len(d['diagnostics']) == 3"
run sarif --format=sarif "$TMP/crash.cu" "$ok"
json sarif "d['runs'][0]['invocations'][0]['executionSuccessful'] is False and len(d['runs'][0]['results']) == 3"

# A crash inside a kernel's analysis, made on purpose by the developer's
# hook WARPLINT_DEBUG_CRASH=<kernel>:<how> (no real bug needed): an abort,
# a bad address, the stack exhausted by deep recursion. Only that file is
# lost: the others' findings are printed, before and after it, with one job
# and with several, and the exit code is 2.
printf '__global__ void boom(float *p) { p[threadIdx.x * 32] = 1.f; }\n' >"$TMP/chase.cu"
cat >"$TMP/ok.cu" <<'CU'
__global__ void strided(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x * 32];
}
CU
# (Under the sanitizers, scripts/sanitize.sh, AddressSanitizer owns SIGSEGV
# and the stack's guard: the abort alone is made there; the release build's
# run makes all three.)
hows="abort segv stack"
[ -n "${ASAN_OPTIONS:-}" ] && hows="abort"
for how in $hows; do
  for j in 1 2; do
    export WARPLINT_DEBUG_CRASH=boom:$how
    run "$how$j" -j$j "$TMP/ok.cu" "$TMP/chase.cu" "$ok"
    unset WARPLINT_DEBUG_CRASH
    expect_rc "$how$j" 2
    expect_in "$how$j" err "warplint: error: $TMP/chase.cu: warplint crashed while analyzing this file (in kernel boom); please report it with the file"
    expect_in "$how$j" out "ok.cu:2:"
    expect_in "$how$j" out "warning: global load is uncoalesced"
    expect_in "$how$j" out "compiler-merges.cu:24:12: warning: shared load has a 2-way bank conflict"
    expect_in "$how$j" err "1 of 3 files could not be analyzed"
  done
done
# The hook names one kernel: any other runs as usual.
export WARPLINT_DEBUG_CRASH=elsewhere:abort
run other "$TMP/ok.cu" "$TMP/chase.cu"
unset WARPLINT_DEBUG_CRASH
expect_rc other 0
expect_in other out "chase.cu:1:"
expect_in other out "warning: global store is uncoalesced"
done_checks
