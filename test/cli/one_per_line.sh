# One warning per place (file, line, column) and rule, whatever the number of
# instantiations, launch configurations or calls that find it: the count in
# the summary line is the number of warnings printed, in every format; JSON
# keeps each configuration, the repeats marked.
source "$(dirname "$0")/lib.bash"
root=$(cd "$TESTDIR/.." && pwd)
cd "$root" || fail "cannot enter $root"
files=(test/fixtures/uncoalesced-global-access/strides.cu
       test/fixtures/uncoalesced-global-access/one-per-line.cu
       test/fixtures/uncoalesced-global-access/helper-call-sites.cu
       test/fixtures/smem-bank-conflict/strides.cu
       test/fixtures/partial-warp-block/launches.cu)

run text "${files[@]}"
expect_rc text 0
printed=$(grep -c ': warning: .*\[[a-z-]*\]$' "$TMP/text.out")
summary=$(sed -n 's/^warplint: \([0-9]*\) warnings\{0,1\} in .*/\1/p' "$TMP/text.err")
[ -n "$summary" ] && [ "$printed" = "$summary" ] ||
  fail "the summary counts '$summary' warnings, the text prints $printed"
checks=$((checks + 1))
# Each place and rule once.
dups=$(grep -o '^[^ ]*: warning: .*\[[a-z-]*\]$' "$TMP/text.out" |
  sed 's/^\([^:]*:[0-9]*:[0-9]*\): warning: .*\(\[[a-z-]*\]\)$/\1 \2/' | sort | uniq -d)
[ -z "$dups" ] || fail "places and rules warned more than once: $dups"
checks=$((checks + 1))
expect_in text out "note: in 7 of 8 instantiations (S = 2..33); clean for 1"
expect_in text out "note: also from the calls at helper-call-sites.cu:16, helper-call-sites.cu:21, helper-call-sites.cu:22"

# JSON keeps every configuration; the ones not shown are repeats.
run json --format=json "${files[@]}"
json json "sum(not x.get('repeat', False) and x['severity'] == 'warning' for x in d['diagnostics']) == $summary"
json json "sum(x.get('repeat', False) for x in d['diagnostics']) > 0"
json json "len({(x['file'], x['line'], x['column'], x['rule']) for x in d['diagnostics'] if not x.get('repeat')}) == sum(not x.get('repeat', False) for x in d['diagnostics'])"
# SARIF, GitHub and rdjson show the same warnings.
run sarif --format=sarif "${files[@]}"
json sarif "sum(x['level'] == 'warning' for x in d['runs'][0]['results']) == $summary"
run gh --format=github "${files[@]}"
[ "$(grep -c '^::warning ' "$TMP/gh.out")" = "$summary" ] || fail "github: not $summary warnings"
expect_in gh out "warplint: $summary warnings in"
run rd --format=rdjson "${files[@]}"
json rd "sum(x['severity'] == 'WARNING' for x in d['diagnostics']) == $summary"
# -j2 prints what -j1 does.
run text2 -j2 "${files[@]}"
cmp -s "$TMP/text.out" "$TMP/text2.out" || fail "-j2 differs: $(diff "$TMP/text.out" "$TMP/text2.out" | head)"
checks=$((checks + 1))

done_checks
