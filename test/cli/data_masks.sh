# Accesses under a condition on data: an upper bound, a remark by default,
# never a failure unless asked for as a warning.
source "$(dirname "$0")/lib.bash"
fx=$TESTDIR/fixtures/smem-bank-conflict/data-dependent-masks.cu

run default --fail-on-warnings "$fx"
expect_rc default 0
expect_in default out "remark: shared store has a 2-way bank conflict"
expect_in default out "so this is an upper bound [smem-bank-conflict]"
expect_in default err "0 warnings and 1 remark"

run json --format=json "$fx"
expect_rc json 0
json json "[x['severity'] for x in d['diagnostics']] == ['remark']"

run warning --data-masks=warning --fail-on-warnings "$fx"
expect_rc warning 1
expect_in warning out "warning: shared store has a 2-way bank conflict"

run off --data-masks=off "$fx"
expect_rc off 0
expect_not_in off out "bank conflict"

run bad --data-masks=maybe "$fx"
expect_rc bad 2
expect_in bad err "--data-masks wants remark, warning or off"
done_checks
