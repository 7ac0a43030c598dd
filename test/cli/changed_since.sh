# --changed-since=REV in a scratch git repository: only the files whose
# source or an included header changed since REV are analyzed, the others
# are counted as skipped; not a repository or no such revision is a usage
# error.
source "$(dirname "$0")/lib.bash"
command -v git >/dev/null || exit 77
cd "$TMP"
mkdir -p repo/inc repo/build && cd repo
git init -q . && git config user.email ci@example.com && git config user.name ci
printf '#pragma once\n__device__ inline int twice(int x) { return 2 * x; }\n' >inc/two.cuh
printf '#pragma once\n__device__ inline int thrice(int x) { return 3 * x; }\n' >inc/three.cuh
printf '#include "two.cuh"\n__global__ void a(float *o) { o[twice(threadIdx.x)] = 0; }\n' >a.cu
printf '#include "three.cuh"\n__global__ void b(float *o) { o[thrice(threadIdx.x)] = 0; }\n' >b.cu
printf '__global__ void c(float *o) { o[threadIdx.x * 8] = 0; }\n' >c.cu
# The include path comes from the compile command: a textual guess at
# "three.cuh" would not find inc/.
cat >build/compile_commands.json <<JSON
[{"directory": "$TMP/repo", "command": "clang++ -Iinc -c a.cu", "file": "a.cu"},
 {"directory": "$TMP/repo", "command": "clang++ -Iinc -c b.cu", "file": "b.cu"},
 {"directory": "$TMP/repo", "command": "clang++ -Iinc -c c.cu", "file": "c.cu"}]
JSON
git add . && git commit -qm init

# Nothing changed: nothing analyzed, and the summary says why.
run none -p build --changed-since=HEAD a.cu b.cu c.cu
expect_rc none 0
expect_in none err "0 of 3 files changed (or include a changed header), 3 skipped as unchanged"
expect_in none err "in 0 files"
expect_in none err "3 of 3 files unchanged since HEAD, skipped"
# -p alone: the database's files.
run none_db -p build --changed-since=HEAD --format=json
expect_rc none_db 0
json none_db "d['files'] == []"
expect_in none_db err "3 skipped as unchanged"

# A .cu changed (not committed): that file only.
echo '// edited' >>c.cu
run cu -p build --changed-since=HEAD --format=json a.cu b.cu c.cu
expect_rc cu 0
json cu "[f['path'] for f in d['files']] == ['c.cu']"
expect_in cu err "1 of 3 files changed"
git commit -qam 'edit c'

# A header only b.cu includes: b.cu only, found through its include path.
echo '// edited' >>inc/three.cuh
run header -p build --changed-since=HEAD a.cu b.cu c.cu
expect_rc header 0
expect_in header out "b.cu:2:31: warning"
expect_not_in header out "a.cu"
expect_in header err "2 of 3 files unchanged since HEAD, skipped"
# Against an older revision, committed changes count too.
git commit -qam 'edit three'
run older -p build --changed-since=HEAD~2 --format=json a.cu b.cu c.cu
json older "[f['path'] for f in d['files']] == ['b.cu', 'c.cu']"
# Staged changes and new, untracked files count.
echo '// staged' >>inc/two.cuh && git add inc/two.cuh
printf '__global__ void n(float *o) { o[threadIdx.x] = 0; }\n' >new.cu
run staged -p build --changed-since=HEAD --format=json a.cu b.cu c.cu new.cu
json staged "[f['path'] for f in d['files']] == ['a.cu', 'new.cu']"
git commit -qam 'edit two' && git add new.cu && git commit -qm new

# With --shard: the changed files are what the shards split.
echo '// again' >>a.cu
echo '// again' >>c.cu
run sh1 -p build --changed-since=HEAD --shard=1/2 --format=json a.cu b.cu c.cu
run sh2 -p build --changed-since=HEAD --shard=2/2 --format=json a.cu b.cu c.cu
json sh1 "d['shard']['run_files'] == ['a.cu', 'c.cu']"
run shm merge --format=json "$TMP/sh1.out" "$TMP/sh2.out"
run shs -p build --changed-since=HEAD --format=json a.cu b.cu c.cu
cmp -s "$TMP/shm.out" "$TMP/shs.out" || fail "sharded --changed-since merged differs from the single run"
checks=$((checks + 1))

# Errors: no such revision, not a repository.
run badrev --changed-since=no-such-rev a.cu
expect_rc badrev 2
expect_in badrev err "no revision 'no-such-rev' in the repository"
mkdir -p "$TMP/plain" && cp c.cu "$TMP/plain/"
run norepo --changed-since=HEAD "$TMP/plain/c.cu"
expect_rc norepo 2
expect_in norepo err "is not in a git repository"
run empty --changed-since= a.cu
expect_rc empty 2
expect_in empty err "--changed-since wants a git revision"
done_checks
