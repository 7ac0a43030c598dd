# Text output as editors and CI parse it, and the exit codes users script on.
source "$(dirname "$0")/lib.bash"
fx=$TESTDIR/fixtures/uncoalesced-global-access

run text "$fx/structs-and-masks.cu"
expect_rc text 0
grep -qE '^/.*structs-and-masks\.cu:11:12: warning: global load is uncoalesced: .* \[uncoalesced-global-access\]$' "$TMP/text.out" ||
  fail "text: no clang-style warning line: $(cat "$TMP/text.out")"
expect_in text out "note: each lane uses 4 bytes of a 12-byte element"
expect_in text err "warplint: 2 warnings in 1 file"
expect_not_in text err "warnings generated"

run fail --fail-on-warnings "$fx/structs-and-masks.cu"
expect_rc fail 1
run clean --fail-on-warnings "$fx/negatives.cu"
expect_rc clean 0
expect_in clean err "warplint: 0 warnings in 1 file"
# The three NOLINT forms there (NOLINT, NOLINTNEXTLINE, NOLINTBEGIN/END) each
# hide one finding, and the summary says so.
expect_in clean err "; 3 suppressed by NOLINT"
run cleanjson --format=json "$fx/negatives.cu"
json cleanjson "d['suppressed'] == 3 and d['diagnostics'] == []"

run threshold --threshold=20 --fail-on-warnings "$fx/structs-and-masks.cu"
expect_rc threshold 0

# --fail-on=<level>: warnings, or also the upper bounds (remarks).
run failon --fail-on=warning "$fx/structs-and-masks.cu"
expect_rc failon 1
dm=$TESTDIR/fixtures/smem-bank-conflict/data-dependent-masks.cu
run remarkonly --fail-on=warning "$dm"
expect_rc remarkonly 0
run failremark --fail-on=remark "$dm"
expect_rc failremark 1
run failnone --fail-on=none "$fx/structs-and-masks.cu"
expect_rc failnone 0
run badfailon --fail-on=error "$fx/structs-and-masks.cu"
expect_rc badfailon 2
expect_in badfailon err "--fail-on wants warning, remark or none, not 'error'"

run version --version
expect_rc version 0
expect_in version out "warplint"
expect_in version out "built with Clang/LLVM 22."
# Plurals.
printf '__global__ void k(float *o) { o[threadIdx.x] = 1.f; }\nvoid l(float *o) { k<<<1, 32>>>(o); }\n' >"$TMP/one.cu"
run one "$TMP/one.cu"
expect_in one err "warplint: 0 warnings in 1 file (1 kernel configuration, 1 memory access)"
# The summary counts the accesses the JSON document lists, though a run that
# prints text keeps only their counts, not their records.
ds=$fx/data-segments.cu
run tallytext "$ds"
expect_in tallytext err "(6 kernel configurations, 22 memory accesses); 6 not evaluated, 1 depending on unknown values"
run tallyjson --format=json "$ds"
json tallyjson "len(d['accesses']) == 22 and sum(not a['evaluated'] for a in d['accesses']) == 6 and sum(a['evaluated'] and not a['exact'] for a in d['accesses']) == 1"
# A note on the place and range the line above it showed draws no second
# snippet (clang's rule for diagnostics at one location); a note elsewhere
# on the line draws its own.
printf '__global__ void k(const float *in, float *out) {\n  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  out[t * 2] = in[t];\n}\n' >"$TMP/notes.cu"
run notes "$TMP/notes.cu"
expect_rc notes 0
expect_in notes out "notes.cu:3:7: note: 't * 2' makes adjacent lanes 2 elements apart"
expect_in notes out "notes.cu:3:3: note: block shape 256x1x1 assumed"
# Of the warning and its four notes, three have a snippet: the warning, the
# note on 't * 2', and the first note back on the whole access after it.
[ "$(grep -c '^ *3 | ' "$TMP/notes.out")" = 3 ] ||
  fail "notes: not 3 snippets: $(cat "$TMP/notes.out")"
grep -A1 'note: block shape' "$TMP/notes.out" | tail -n 1 | grep -q '^ *3 | ' &&
  fail "notes: the snippet repeated under a note at the same place"
checks=$((checks + 1))
run norule --rules=smem-bank-conflicts "$fx/structs-and-masks.cu"
expect_rc norule 2
expect_in norule err "did you mean 'smem-bank-conflict'?"
done_checks
