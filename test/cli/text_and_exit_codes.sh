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

run threshold --threshold=20 --fail-on-warnings "$fx/structs-and-masks.cu"
expect_rc threshold 0

run version --version
expect_rc version 0
expect_in version out "warplint"
done_checks
