# --shard=I/N splits the run's files by size, each file in exactly one
# shard, and `warplint merge` puts the shards' JSON reports together into
# the report a single run over all the files gives (JSON and SARIF, byte for
# byte), a header kernel shared by files in different shards included.
source "$(dirname "$0")/lib.bash"
cd "$TMP"
cat >k.cuh <<'CU'
#pragma once
__global__ void strided(float *o, int n) {
  o[threadIdx.x * 32] = 1;
  if (threadIdx.x < 5) o[threadIdx.x * n] = 2;
}
CU
printf '#include "k.cuh"\nvoid a(float *o) { strided<<<1, 64>>>(o, 4); }\n__global__ void ka(float *o) { o[threadIdx.x * 8] = 0; }\nvoid a2(float *o) { ka<<<1, 128>>>(o); }\n' >a.cu
printf '#include "k.cuh"\nvoid b(float *o) { strided<<<1, 64>>>(o, 4); }\n' >b.cu
printf '#include "k.cuh"\nvoid c(float *o) { strided<<<1, 128>>>(o, 8); }\n__global__ void kc(float *o) { o[threadIdx.x * 16] = 0; }\n' >c.cu
printf '__global__ void kd(float *o) { o[threadIdx.x * 2] = 0; } // NOLINT\n__global__ void ke(float *o) { if (threadIdx.x %% 2) o[threadIdx.x * 4] = 0; }\n' >d.cu
# Sizes that put a.cu and b.cu, which share k.cuh, in different shards.
for i in $(seq 1 10); do echo "// a.cu padding line $i ..............................." >>a.cu; done
for i in $(seq 1 60); do echo "// b.cu padding line $i ..............................." >>b.cu; done
# A big file: balancing puts it alone.
{ echo '__global__ void big(float *o) { o[threadIdx.x * 3] = 0; }'
  for i in $(seq 1 2500); do echo "// padding line $i ......................................"; done; } >e.cu
files="a.cu b.cu c.cu d.cu e.cu"

run single --format=json $files
expect_rc single 0
run single_sarif --format=sarif $files
for i in 1 2 3; do
  run s$i --format=json --shard=$i/3 $files
  expect_rc s$i 0
  expect_in s$i err "--shard=$i/3"
done
# Each file in exactly one shard, in the run's order within it; the big
# file alone; a.cu and b.cu (sharing k.cuh) in different shards.
python3 - "$TMP" <<'PY' || fail "shards do not cover the files once each"
import json, os, sys
t = sys.argv[1]
files = "a.cu b.cu c.cu d.cu e.cu".split()
seen, load, where = [], [], {}
for i in (1, 2, 3):
    d = json.load(open(f"{t}/s{i}.out"))
    assert d["shard"]["index"] == i and d["shard"]["count"] == 3
    assert d["shard"]["run_files"] == files
    mine = [f["path"] for f in d["files"]]
    assert mine == sorted(mine, key=files.index), mine
    seen += mine
    for f in mine: where[f] = i
    load.append(sum(os.path.getsize(f"{t}/{f}") for f in mine))
assert sorted(seen) == sorted(files), seen
big = where["e.cu"]
assert [f for f in files if where[f] == big] == ["e.cu"], where
assert where["a.cu"] != where["b.cu"], where
print("loads", load, where)
PY
checks=$((checks + 1))

# merge: byte-identical to the single run, in any order of the inputs.
run merged merge --format=json "$TMP/s3.out" "$TMP/s1.out" "$TMP/s2.out"
expect_rc merged 0
cmp -s "$TMP/single.out" "$TMP/merged.out" || fail "merged JSON differs from the single run's: $(diff "$TMP/single.out" "$TMP/merged.out" | head -20)"
checks=$((checks + 1))
json merged "len([k for k in d['kernels'] if k['name'] == 'strided']) == 2 and d['suppressed'] == 1"
run merged_sarif merge --format=sarif "$TMP/s1.out" "$TMP/s2.out" "$TMP/s3.out"
expect_rc merged_sarif 0
cmp -s "$TMP/single_sarif.out" "$TMP/merged_sarif.out" || fail "merged SARIF differs from the single run's: $(diff "$TMP/single_sarif.out" "$TMP/merged_sarif.out" | head -20)"
checks=$((checks + 1))
# Text: the findings and the summary line; exit codes as the main command's.
# The shards' SARIF (what a code-scanning job keeps) merges the same way:
# each carries its shard's JSON report in the run's property bag.
for i in 1 2 3; do run ss$i --format=sarif --shard=$i/3 $files; done
json ss1 "d['runs'][0]['properties']['warplintShardReport']['shard']['index'] == 1"
run sarif_merged merge --format=sarif "$TMP/ss2.out" "$TMP/ss3.out" "$TMP/ss1.out"
expect_rc sarif_merged 0
cmp -s "$TMP/single_sarif.out" "$TMP/sarif_merged.out" || fail "merged SARIF shards differ from the single run's SARIF: $(diff "$TMP/single_sarif.out" "$TMP/sarif_merged.out" | head -20)"
run sarif_mixed merge --format=json "$TMP/ss1.out" "$TMP/s2.out" "$TMP/ss3.out"
cmp -s "$TMP/single.out" "$TMP/sarif_mixed.out" || fail "SARIF and JSON shards merged differ from the single run"
run sarif_plain merge "$TMP/single_sarif.out"
expect_rc sarif_plain 2
expect_in sarif_plain err "is SARIF from a run without --shard"
run merged_text merge "$TMP/s1.out" "$TMP/s2.out" "$TMP/s3.out"
expect_rc merged_text 0
expect_in merged_text out "k.cuh:3:3: warning: global store is uncoalesced"
expect_in merged_text err "in 5 files"
expect_in merged_text err "1 suppressed by NOLINT; merged from 3 shards"
run merged_fail merge --fail-on=warning "$TMP/s1.out" "$TMP/s2.out" "$TMP/s3.out"
expect_rc merged_fail 1
run merged_fail2 merge --fail-on-warnings --format=json "$TMP/s1.out" "$TMP/s2.out" "$TMP/s3.out"
expect_rc merged_fail2 1
# A baseline given to merge: as a single run's.
run base --write-baseline="$TMP/base.json" --format=json $files
run single_base --baseline="$TMP/base.json" --format=json $files
run merged_base merge --baseline="$TMP/base.json" --format=json "$TMP/s1.out" "$TMP/s2.out" "$TMP/s3.out"
cmp -s "$TMP/single_base.out" "$TMP/merged_base.out" || fail "merge --baseline differs from a single run's"
checks=$((checks + 1))

# More shards than files: the extra ones analyze nothing and still merge.
for i in 1 2 3 4 5 6 7; do run t$i --format=json --shard=$i/7 $files; expect_rc t$i 0; done
run merged7 merge --format=json "$TMP"/t?.out
cmp -s "$TMP/single.out" "$TMP/merged7.out" || fail "7 shards merged differ from the single run"
checks=$((checks + 1))
run one --shard=1/1 --format=json $files
run merged1 merge --format=json "$TMP/one.out"
cmp -s "$TMP/single.out" "$TMP/merged1.out" || fail "1 shard merged differs from the single run"
checks=$((checks + 1))

# A file that fails: merge says so and exits 2, as the run does.
printf '__global__ void broken(float *o) { o[threadIdx.x] = }\n' >f.cu
run fsingle --format=json $files f.cu
for i in 1 2; do run f$i --format=json --shard=$i/2 $files f.cu; done
run fmerged merge --format=json "$TMP/f1.out" "$TMP/f2.out"
expect_rc fmerged 2
cmp -s "$TMP/fsingle.out" "$TMP/fmerged.out" || fail "merge with a failed file differs from the single run"
checks=$((checks + 1))

# -p alone: every file of the compile database, sharded the same way.
mkdir -p db
printf '[\n' >db/compile_commands.json
for f in a b c; do printf '{"directory": "%s", "command": "clang++ -c %s.cu", "file": "%s.cu"},\n' "$TMP" $f $f >>db/compile_commands.json; done
printf '{"directory": "%s", "command": "clang++ -c d.cu", "file": "d.cu"}]\n' "$TMP" >>db/compile_commands.json
run dball --format=json -p db
expect_rc dball 0
json dball "[f['path'].split('/')[-1] for f in d['files']] == ['a.cu', 'b.cu', 'c.cu', 'd.cu']"
for i in 1 2; do run db$i --format=json -p db --shard=$i/2; done
run dbmerged merge --format=json "$TMP/db1.out" "$TMP/db2.out"
cmp -s "$TMP/dball.out" "$TMP/dbmerged.out" || fail "-p shards merged differ from the single -p run"
checks=$((checks + 1))

# Usage errors.
for bad in 0/3 4/3 3 a/b 1/0 -1/2 1/2/3 ''; do
  run badshard "--shard=$bad" a.cu
  expect_rc badshard 2
  expect_in badshard err "--shard"
done
run missing merge --format=json "$TMP/s1.out" "$TMP/s3.out"
expect_rc missing 2
expect_in missing err "shard 2 of 3 missing"
run twice merge "$TMP/s1.out" "$TMP/s1.out" "$TMP/s2.out"
expect_rc twice 2
expect_in twice err "shard 1/3 is given twice"
run mixed merge "$TMP/s1.out" "$TMP/t2.out"
expect_rc mixed 2
expect_in mixed err "are shards of different runs"
run plain merge "$TMP/single.out"
expect_rc plain 2
expect_in plain err "is the report of a run without --shard"
echo '{"tool": "warplint"' >"$TMP/broken.json"
run broken merge "$TMP/broken.json"
expect_rc broken 2
expect_in broken err "is not JSON"
run nofile merge "$TMP/nonexistent.json"
expect_rc nofile 2
expect_in nofile err "cannot read"
python3 -c "
import json; d = json.load(open('$TMP/s1.out')); del d['shard']['run_files']
json.dump(d, open('$TMP/cut.json', 'w'))"
run cut merge "$TMP/cut.json" "$TMP/s2.out" "$TMP/s3.out"
expect_rc cut 2
expect_in cut err "field 'run_files' is missing"
run sbase --format=json --shard=1/3 --baseline="$TMP/base.json" $files
run sbase_merge merge "$TMP/sbase.out" "$TMP/s2.out" "$TMP/s3.out"
expect_rc sbase_merge 2
expect_in sbase_merge err "give --baseline to merge"
run noinputs merge
expect_rc noinputs 2
expect_in noinputs err "no reports to merge"
run mergefmt merge --format=xml "$TMP/s1.out"
expect_rc mergefmt 2
done_checks
