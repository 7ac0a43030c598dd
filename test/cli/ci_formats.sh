# SARIF 2.1.0 and GitHub Actions annotations, as CI systems read them.
source "$(dirname "$0")/lib.bash"
fx="$TESTDIR/fixtures"
root=$(cd "$TESTDIR/.." && pwd)
schema="$root/../shared/schemas/sarif-schema-2.1.0.json"
cd "$root"

# --- SARIF ---------------------------------------------------------------
run sarif --format=sarif test/fixtures/smem-bank-conflict/compiler-merges.cu \
  test/fixtures/smem-bank-conflict/data-dependent-masks.cu
expect_rc sarif 0
json sarif "d['version'] == '2.1.0' and len(d['runs']) == 1"
# Every rule is described, with a help page that exists.
rules=$("$WARPLINT" --list-rules | grep -v '^ ' | sort | tr '\n' ' ')
json sarif "sorted(r['id'] for r in d['runs'][0]['tool']['driver']['rules']) == '$rules'.split()"
json sarif "all(r['shortDescription']['text'] and r['help']['text'] and r['defaultConfiguration']['level'] == 'warning' for r in d['runs'][0]['tool']['driver']['rules'])"
json sarif "all(r['helpUri'].startswith('https://') and r['helpUri'].endswith('/rules/' + r['id'] + '.md') and __import__('os').path.isfile('docs/rules/' + r['id'] + '.md') for r in d['runs'][0]['tool']['driver']['rules'])"
# Results: repository-relative URIs, regions with columns, notes as related
# locations, the rule's index, remarks as notes.
json sarif "all(x['locations'][0]['physicalLocation']['artifactLocation'] == {'uri': x['locations'][0]['physicalLocation']['artifactLocation']['uri'], 'uriBaseId': '%SRCROOT%'} and x['locations'][0]['physicalLocation']['artifactLocation']['uri'].startswith('test/fixtures/') for x in d['runs'][0]['results'])"
json sarif "d['runs'][0]['originalUriBaseIds']['%SRCROOT%']['uri'] == 'file://$root/'"
json sarif "[(x['level'], x['locations'][0]['physicalLocation']['region']) for x in d['runs'][0]['results'] if x['ruleId'] == 'smem-bank-conflict' and 'halves' == x['properties']['kernel']] == [('warning', {'startLine': 24, 'startColumn': 12})]"
json sarif "any(x['level'] == 'note' and x['locations'][0]['physicalLocation']['artifactLocation']['uri'].endswith('data-dependent-masks.cu') for x in d['runs'][0]['results'])"
json sarif "all(d['runs'][0]['tool']['driver']['rules'][x['ruleIndex']]['id'] == x['ruleId'] for x in d['runs'][0]['results'])"
json sarif "all(len(x['relatedLocations']) >= 1 and all('text' in l['message'] for l in x['relatedLocations']) for x in d['runs'][0]['results'] if x['level'] == 'warning')"
json sarif "d['runs'][0]['invocations'][0]['executionSuccessful'] is True"
cp "$TMP/sarif.out" "$TMP/before.sarif"

# Fingerprints survive moving the code: the same findings, ten lines lower.
mkdir -p "$TMP/moved/test/fixtures/smem-bank-conflict"
for f in compiler-merges data-dependent-masks; do
  { printf '\n%.0s' $(seq 10); cat "$fx/smem-bank-conflict/$f.cu"; } \
    >"$TMP/moved/test/fixtures/smem-bank-conflict/$f.cu"
done
(cd "$TMP/moved" && "$WARPLINT" --format=sarif test/fixtures/smem-bank-conflict/compiler-merges.cu \
  test/fixtures/smem-bank-conflict/data-dependent-masks.cu >"$TMP/moved.out" 2>"$TMP/moved.err")
python3 - "$TMP/before.sarif" "$TMP/moved.out" <<'PY' || fail "fingerprints changed when the code moved"
import json, sys
a, b = (json.load(open(p))['runs'][0]['results'] for p in sys.argv[1:3])
fa = sorted(x['partialFingerprints']['warplint/v1'] for x in a)
fb = sorted(x['partialFingerprints']['warplint/v1'] for x in b)
lines = [x['locations'][0]['physicalLocation']['region']['startLine'] for x in a]
moved = [x['locations'][0]['physicalLocation']['region']['startLine'] for x in b]
assert fa == fb and len(set(fa)) == len(fa), (fa, fb)
assert sorted(l + 10 for l in lines) == sorted(moved), (lines, moved)
PY
checks=$((checks + 1))

# Outside the project root: absolute file URIs.
run outside --format=sarif --project-root="$TMP" "$fx/smem-bank-conflict/compiler-merges.cu"
json outside "all(x['locations'][0]['physicalLocation']['artifactLocation']['uri'].startswith('file:///') and 'uriBaseId' not in x['locations'][0]['physicalLocation']['artifactLocation'] for x in d['runs'][0]['results'])"
run badroot --format=sarif --project-root="$TMP/none" "$fx/smem-bank-conflict/compiler-merges.cu"
expect_rc badroot 2
expect_in badroot err "--project-root: no directory"

# A file that does not parse: the run is not successful, and says why.
printf '__global__ void k(float *p) { p[threadIdx.x] = undeclared; }\n' >"$TMP/broken.cu"
run broken --format=sarif "$TMP/broken.cu"
expect_rc broken 2
json broken "d['runs'][0]['invocations'][0]['executionSuccessful'] is False and 'could not be analyzed' in d['runs'][0]['invocations'][0]['toolExecutionNotifications'][0]['message']['text']"

# A verified fix (padding a tile) as a SARIF fix: one replacement in the
# declaration's file, relative to the root like the result.
run sarif_fix --format=sarif test/fixtures/smem-bank-conflict/tiles.cu
json sarif_fix "[(f['description']['text'], f['artifactChanges']) for x in d['runs'][0]['results'] for f in x.get('fixes', [])] == [(\"pad the inner dimension: declare it as 'float tile[32][33]'\", [{'artifactLocation': {'uri': 'test/fixtures/smem-bank-conflict/tiles.cu', 'uriBaseId': '%SRCROOT%'}, 'replacements': [{'deletedRegion': {'startLine': 8, 'startColumn': 29, 'endLine': 8, 'endColumn': 31}, 'insertedContent': {'text': '33'}}]}])]"

# Validated against the OASIS schema with a real validator.
if [ -f "$schema" ]; then
  for name in sarif broken outside sarif_fix; do
    python3 - "$schema" "$TMP/$name.out" <<'PY' || fail "$name: not valid SARIF 2.1.0"
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
    checks=$((checks + 1))
  done
fi

# --- GitHub Actions ---------------------------------------------------------
run gh --format=github test/fixtures/smem-bank-conflict/compiler-merges.cu \
  test/fixtures/smem-bank-conflict/data-dependent-masks.cu
expect_rc gh 0
expect_in gh out "::warning file=test/fixtures/smem-bank-conflict/compiler-merges.cu,line=24,col=12,title=warplint smem-bank-conflict::shared load has a 2-way bank conflict"
expect_in gh out "::notice file=test/fixtures/smem-bank-conflict/data-dependent-masks.cu"
# Notes ride in the message, newlines escaped: one line per annotation.
expect_in gh out "%0Atest/fixtures/smem-bank-conflict/compiler-merges.cu:24: note: '2 * t' makes adjacent lanes 2 elements apart"
expect_in gh out "warplint: 3 warnings, 1 remark in 2 files"
[ "$(grep -c '^::' "$TMP/gh.out")" = 4 ] || fail "gh: expected 4 annotations: $(cat "$TMP/gh.out")"
checks=$((checks + 1))
# Property values escape ',' and ':'; data escapes '%'.
mkdir -p "$TMP/odd"
cp "$fx/smem-bank-conflict/compiler-merges.cu" "$TMP/odd/a,b:100%.cu"
(cd "$TMP/odd" && "$WARPLINT" --format=github "a,b:100%.cu" >"$TMP/odd.out" 2>"$TMP/odd.err")
expect_in odd out "::warning file=a%2Cb%3A100%25.cu,line=24,"
run ghbroken --format=github "$TMP/broken.cu"
expect_rc ghbroken 2
expect_in ghbroken out "::error file=$TMP/broken.cu,title=warplint could not analyze the file::"
expect_in ghbroken out "1 could not be analyzed"

# --- reviewdog (rdjson) -----------------------------------------------------
run rd --format=rdjson test/fixtures/smem-bank-conflict/compiler-merges.cu \
  test/fixtures/smem-bank-conflict/data-dependent-masks.cu
expect_rc rd 0
json rd "d['source']['name'] == 'warplint' and len(d['diagnostics']) == 4"
json rd "[(x['location']['path'], x['location']['range']['start'], x['severity'], x['code']['value']) for x in d['diagnostics'] if x['location']['range']['start']['line'] == 24 and x['location']['path'].endswith('compiler-merges.cu')] == [('test/fixtures/smem-bank-conflict/compiler-merges.cu', {'line': 24, 'column': 12}, 'WARNING', 'smem-bank-conflict')]"
json rd "sum(x['severity'] == 'INFO' for x in d['diagnostics']) == 1"
json rd "all(x['code']['url'].startswith('https://') and x['related_locations'] for x in d['diagnostics'])"
run rdbroken --format=rdjson "$TMP/broken.cu"
expect_rc rdbroken 2
json rdbroken "[x['severity'] for x in d['diagnostics']] == ['ERROR'] and 'could not analyze' in d['diagnostics'][0]['message']"

# --- Baselines ---------------------------------------------------------------
mkdir -p "$TMP/bl"
cp "$fx/smem-bank-conflict/compiler-merges.cu" "$TMP/bl/k.cu"
cd "$TMP/bl"
run write --write-baseline=base.json k.cu
expect_rc write 0
expect_in write err "wrote 3 findings to base.json"
python3 - base.json <<'PY' || fail "base.json: not a baseline of 3 findings"
import json, sys
d = json.load(open(sys.argv[1]))
assert d['warplint_baseline'] == 1 and len(d['findings']) == 3
assert all(f['file'] == 'k.cu' and f['fingerprint'] and f['rule'] for f in d['findings'])
PY
checks=$((checks + 1))
# The same findings, moved down and joined by a new one: only the new one
# is reported, and it fails the run.
{ printf '\n\n\n'; cat "$fx/smem-bank-conflict/compiler-merges.cu"; cat <<'CU'
__global__ void added(float *o) {
  __shared__ float s[64];
  s[threadIdx.x] = 1.f;
  __syncthreads();
  o[threadIdx.x] = s[2 * threadIdx.x];
}
void launchAdded(float *o) { added<<<1, 32>>>(o); }
CU
} >k.cu
run known --baseline=base.json --fail-on-warnings k.cu
expect_rc known 1
expect_in known out "k.cu:$(grep -n 's\[2 \* threadIdx.x\]' k.cu | cut -d: -f1):20: warning: shared load has a 2-way bank conflict"
expect_in known err "1 warning in 1 file"
expect_in known err "3 in the baseline not shown"
[ "$(grep -c 'warning:' "$TMP/known.out")" = 1 ] || fail "known: expected 1 warning: $(cat "$TMP/known.out")"
checks=$((checks + 1))
run knownjson --baseline=base.json --format=json k.cu
json knownjson "d['baselined'] == 3 and len(d['diagnostics']) == 1 and d['diagnostics'][0]['fingerprint']"
run knownsarif --baseline=base.json --format=sarif k.cu
json knownsarif "[x['baselineState'] for x in d['runs'][0]['results']] == ['new']"
run knowngh --baseline=base.json --format=github k.cu
expect_in knowngh out "3 in the baseline not shown"
printf 'not json' >bad.json
run badbase --baseline=bad.json k.cu
expect_rc badbase 2
expect_in badbase err "--baseline: 'bad.json' is not JSON"
printf '{"findings": []}' >other.json
run otherbase --baseline=other.json k.cu
expect_rc otherbase 2
expect_in otherbase err "is not a warplint baseline"
run both --baseline=base.json --write-baseline=new.json k.cu
expect_rc both 2
expect_in both err "--baseline and --write-baseline do not go together"
cd "$root"

run badformat --format=xml "$fx/smem-bank-conflict/compiler-merges.cu"
expect_rc badformat 2
expect_in badformat err "--format must be text, json, sarif, github or rdjson, not 'xml'"

if [ ! -f "$schema" ]; then
  echo "SKIP: $schema not found; SARIF output not validated against the schema"
  done_checks
  exit 77
fi
done_checks
