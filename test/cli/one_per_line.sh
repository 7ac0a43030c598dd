# One warning per place (file, line, column) and rule, whatever the number of
# instantiations, launch configurations or calls that find it: the count in
# the summary line is the number of warnings printed, in every format; JSON
# keeps each configuration, the repeats marked. SARIF's URIs are valid URIs,
# and its rule pages are the published documentation's.
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

# Every URI in the SARIF document is a valid URI (RFC 3986: no characters
# left unencoded, a scheme where it is absolute), the rule pages are https
# pages of the documentation, and each names a page the docs have.
mkdir -p "$TMP/a dir #1"
cp test/fixtures/uncoalesced-global-access/one-per-line.cu "$TMP/a dir #1/k%1 é.cu"
run sarif2 --format=sarif "${files[@]}" "$TMP/a dir #1/k%1 é.cu"
expect_rc sarif2 0
python3 - "$TMP/sarif2.out" "$root" <<'PY' || fail "SARIF URIs are not valid"
import json, os, re, sys
from urllib.parse import urlsplit, unquote
d = json.load(open(sys.argv[1]))
root = sys.argv[2]
allowed = re.compile(r"^([A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$")
uris = []
def walk(x, key=None):
    if isinstance(x, dict):
        for k, v in x.items():
            walk(v, k)
    elif isinstance(x, list):
        for v in x:
            walk(v, key)
    elif key in ("uri", "helpUri", "informationUri"):
        uris.append((key, x))
walk(d)
assert uris, "no URIs"
bad = [u for _, u in uris if not allowed.match(u)]
assert not bad, bad
for key, u in uris:
    p = urlsplit(u)
    if p.scheme:
        assert p.scheme in ("https", "file"), u
        assert p.scheme != "file" or key == "uri", ("a doc page on this machine", u)
        assert p.scheme != "https" or p.netloc, u
    else:
        assert not u.startswith("/"), ("a relative URI must be relative", u)
# An absolute artifact names the file it was found in.
files = [unquote(urlsplit(u).path) for k, u in uris if u.startswith("file:") and k == "uri"]
assert any(f.endswith("/a dir #1/k%1 é.cu") for f in files), files
rules = d["runs"][0]["tool"]["driver"]["rules"]
for r in rules:
    assert r["helpUri"].startswith("https://"), r["helpUri"]
    assert r["helpUri"].endswith("/rules/" + r["id"] + ".md"), r["helpUri"]
    assert os.path.isfile(os.path.join(root, "docs/rules", r["id"] + ".md")), r["id"]
assert d["runs"][0]["tool"]["driver"]["informationUri"].startswith("https://")
PY
checks=$((checks + 1))
# The base URL is an option.
run sarif3 --format=sarif --docs-url=https://example.org/warplint/docs/ test/fixtures/uncoalesced-global-access/one-per-line.cu
json sarif3 "all(r['helpUri'] == 'https://example.org/warplint/docs/rules/' + r['id'] + '.md' for r in d['runs'][0]['tool']['driver']['rules'])"
done_checks
