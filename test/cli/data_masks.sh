# Accesses under a condition on data: an upper bound. By default (auto) a
# remark unless the figure holds with only a few random lanes taking the
# branch too, then a warning; always a remark or a warning when asked.
source "$(dirname "$0")/lib.bash"
fx=$TESTDIR/fixtures/smem-bank-conflict/data-dependent-masks.cu
# Lanes 64 bytes apart under a condition on data: a sector per lane.
spread=$TESTDIR/fixtures/uncoalesced-global-access/while-loops.cu

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

run auto --data-masks=auto --fail-on-warnings "$fx"
expect_rc auto 0
expect_in auto out "remark: shared store has a 2-way bank conflict"

# A 2-way conflict among 4 random lanes is seldom one: a remark. A sector per
# lane stays 4 sectors for 4 lanes where 1 would do: a warning by default,
# a remark when asked for remarks.
run spread_default --format=json "$spread"
json spread_default "[(x['line'], x['severity']) for x in d['diagnostics'] if x['rule'] == 'uncoalesced-global-access' and 'depends on data' in x['message']] == [(45, 'warning')]"
run spread_remark --data-masks=remark --format=json "$spread"
json spread_remark "[(x['line'], x['severity']) for x in d['diagnostics'] if x['rule'] == 'uncoalesced-global-access' and 'depends on data' in x['message']] == [(45, 'remark')]"
run spread_auto_yaml --config="DataMasks: auto" --format=json "$spread"
json spread_auto_yaml "[(x['line'], x['severity']) for x in d['diagnostics'] if x['rule'] == 'uncoalesced-global-access' and 'depends on data' in x['message']] == [(45, 'warning')]"

run bad --data-masks=maybe "$fx"
expect_rc bad 2
expect_in bad err "--data-masks wants auto, remark, warning or off"
done_checks
