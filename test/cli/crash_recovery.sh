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
done_checks
