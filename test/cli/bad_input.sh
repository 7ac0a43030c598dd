# Bad input: a clear error on stderr, exit code 2, the other files still
# analyzed, and the JSON marks the failed file. Never an empty "all clear".
source "$(dirname "$0")/lib.bash"
good=$TESTDIR/fixtures/uncoalesced-global-access/structs-and-masks.cu

run missing "$TMP/nope.cu"
expect_rc missing 2
expect_in missing err "nope.cu: error: cannot open file"

printf '__global__ void k(float *p) { p[threadIdx.x] = 1 \n}\n' >"$TMP/syntax.cu"
run syntax --format=json "$TMP/syntax.cu"
expect_rc syntax 2
expect_in syntax err "error: expected ';'"
json syntax "d['files'][0]['status'] == 'error' and 'expected' in d['files'][0]['error']"

printf 'import os\nprint(os.getcwd())\n' >"$TMP/script.py"
run notcuda "$TMP/script.py"
expect_rc notcuda 2
expect_in notcuda err "error"
expect_in notcuda err "1 of 1 file could not be analyzed"

head -c 4096 /dev/urandom >"$TMP/blob.cu"
printf '\0' >>"$TMP/blob.cu"
run binary "$TMP/blob.cu"
expect_rc binary 2
expect_in binary err "binary file"

mkdir -p "$TMP/dir.cu"
run directory "$TMP/dir.cu"
expect_rc directory 2
expect_in directory err "is a directory"

run unknownflag --no-such-flag "$good"
expect_rc unknownflag 2
expect_in unknownflag err "no-such-flag"

run badformat --format=xml "$good"
expect_rc badformat 2
expect_in badformat err "--format must be text, json, sarif, github or rdjson"

run badblock --block-dim=64,64 "$good"
expect_rc badblock 2
expect_in badblock err "--block-dim"

run nofiles
expect_rc nofiles 2
expect_in nofiles err "no input files"

# A file past the size limit is refused, not parsed for minutes.
head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' ' ' >"$TMP/huge.cu"
run huge --max-file-size=1 "$TMP/huge.cu"
expect_rc huge 2
expect_in huge err "too large"

# A missing header is an error, not silence.
printf '#include "not_there.h"\n__global__ void k() {}\n' >"$TMP/header.cu"
run header "$TMP/header.cu"
expect_rc header 2
expect_in header err "'not_there.h' file not found"

# One bad file among good ones: the good one is still analyzed.
run mixed --format=json "$TMP/nope.cu" "$good" "$TMP/syntax.cu"
expect_rc mixed 2
json mixed "[f['status'] for f in d['files']] == ['error', 'ok', 'error']"
json mixed "any(k['name'] == 'readY' for k in d['kernels'])"
json mixed "any(x['rule'] == 'uncoalesced-global-access' for x in d['diagnostics'])"
# A file that includes itself: Clang stops at its include depth with errors,
# and the kernel it repeats is one kernel, reported once.
cat >"$TMP/self.cu" <<'CU'
#include "self.cu"
__global__ void selfish(float *o) { o[threadIdx.x * 32] = 1; }
void launchSelfish(float *o) { selfish<<<1, 32>>>(o); }
CU
run self --format=json "$TMP/self.cu"
expect_rc self 2
json self "[k['name'] for k in d['kernels']] == ['selfish']"
json self "len([x for x in d['diagnostics'] if x['rule'] == 'uncoalesced-global-access']) == 1"
done_checks
