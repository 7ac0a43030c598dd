# examples/cmake-project as a new user runs it: configure it with nvcc under
# CMake's "Unix Makefiles" and "Ninja" generators (configuring is enough for
# compile_commands.json), then `warplint -p build src/*.cu include/...*.cuh`.
# Every planted finding (a line marked "// BUG: <rule>") is reported exactly
# once, at its line, nothing else is, and every file is analyzed.
#
# Each part runs on its own and the test fails if any part does, so one
# failure does not hide the state of the others. Skips (77) only where nvcc,
# CMake's CUDA support or Ninja is missing.
source "$(dirname "$0")/lib.bash"
WARPLINT=$(cd "$(dirname "$WARPLINT")" && pwd)/$(basename "$WARPLINT")

nvcc=${CUDA_PATH:-/usr/local/cuda}/bin/nvcc
[ -x "$nvcc" ] || nvcc=$(command -v nvcc) || {
  echo "SKIP: no nvcc (neither ${CUDA_PATH:-/usr/local/cuda}/bin/nvcc nor one on PATH)"
  exit 77
}
if ! command -v cmake >/dev/null; then
  echo "SKIP: cmake not installed (scripts/setup.sh installs it)"
  exit 77
fi
cmake_version=$(cmake --version | sed -n 's/^cmake version \([0-9]*\.[0-9]*\).*/\1/p')
if [ "$(printf '3.18\n%s\n' "$cmake_version" | sort -V | head -1)" != 3.18 ]; then
  echo "SKIP: CMake $cmake_version has no CUDA_ARCHITECTURES support (3.18 or later needed)"
  exit 77
fi
generators=("Unix Makefiles")
skipped=""
if command -v ninja >/dev/null; then
  generators+=(Ninja)
else
  skipped="Ninja generator: ninja not installed (scripts/setup.sh installs ninja-build)"
fi

cp -r "$TESTDIR/../examples/cmake-project" "$TMP/project"
rm -rf "$TMP/project"/build*
cd "$TMP/project" || fail "cannot enter the copied project"

# marker <file> <rule>: the line number marked "// BUG: <rule>" in <file>.
marker() {
  local n
  n=$(grep -n -- "// BUG: $2\$" "$1" | cut -d: -f1)
  [ "$(printf '%s\n' "$n" | grep -c .)" = 1 ] || fail "$1: not exactly one '// BUG: $2' marker"
  echo "$n"
}
rowsum_line=$(marker src/reduce.cu uncoalesced-global-access)
aos_line=$(marker src/particles.cu uncoalesced-global-access)
tile_line=$(marker include/matops/transpose.cuh smem-bank-conflict)
# "file:line:rule" of every planted finding.
planted=("src/reduce.cu:$rowsum_line:uncoalesced-global-access"
         "src/particles.cu:$aos_line:uncoalesced-global-access"
         "include/matops/transpose.cuh:$tile_line:smem-bank-conflict")

# at <name> <file:line:rule>: the warnings printed there, as a pattern.
at() {
  local file=${2%%:*} rest=${2#*:}
  local line=${rest%%:*} rule=${rest#*:}
  echo "(^|/)${file//./\\.}:$line:[0-9]+: warning: .*\\[$rule\\]\$"
}
# once <name> <file:line:rule>: that warning is printed exactly once.
once() {
  local n
  n=$(grep -cE -- "$(at "$1" "$2")" "$TMP/$1.out")
  [ "$n" = 1 ] || fail "$1: $n warnings at $2, expected 1; stdout: $(cat "$TMP/$1.out")"
  checks=$((checks + 1))
}
# only_planted <name>: no warning anywhere but at the planted lines.
only_planted() {
  local rest=$TMP/$1.unplanted p
  grep -E ': warning: ' "$TMP/$1.out" >"$rest"
  for p in "${planted[@]}"; do
    grep -vE -- "$(at "$1" "$p")" "$rest" >"$rest.tmp"
    mv "$rest.tmp" "$rest"
  done
  [ ! -s "$rest" ] || fail "$1: warnings outside the planted lines: $(cat "$rest")"
  checks=$((checks + 1))
}

# section <title> <function> [args]: runs one part in a subshell; a failure
# ends that part only.
failed=()
total=0
section() {
  local title=$1
  shift
  echo "== $title"
  if (checks=0; "$@"; echo "$checks" >"$TMP/section.checks"); then
    total=$((total + $(cat "$TMP/section.checks")))
    echo "   ok ($(cat "$TMP/section.checks") checks)"
  else
    failed+=("$title")
  fi
}

# The generator-independent part: configure, then the runs a user makes.
configure_and_run() { # <generator> <tag>
  local gen=$1 tag=$2 dir=build-$2
  cmake -S . -B "$dir" -G "$gen" -DCMAKE_CUDA_COMPILER="$nvcc" \
    >"$TMP/$tag.configure.log" 2>&1 ||
    fail "$gen: cmake configure failed: $(tail -30 "$TMP/$tag.configure.log")"
  # Configuring alone writes the database: none of the project's files was
  # compiled (CMake's compiler checks leave theirs under CMakeFiles/<version>).
  [ -f "$dir/compile_commands.json" ] || fail "$gen: configure wrote no compile_commands.json"
  [ -z "$(find "$dir" -path '*.dir/*' -name '*.o' -print -quit)" ] || fail "$gen: configure compiled the project"
  python3 - "$dir/compile_commands.json" <<'PY' || fail "$gen: compile_commands.json does not list the 3 sources with nvcc"
import json, os, sys
db = json.load(open(sys.argv[1]))
files = sorted(e["file"].split("/project/")[-1] for e in db)
assert files == ["src/main.cu", "src/particles.cu", "src/reduce.cu"], files
assert all("nvcc" in e.get("command", " ".join(e.get("arguments", []))) for e in db)
PY
  checks=$((checks + 3))
  # Makefiles pass include paths in an options file; Ninja on the command line.
  if [ "$gen" = "Unix Makefiles" ]; then
    grep -q -- '--options-file CMakeFiles/matops.dir/includes_CUDA.rsp' "$dir/compile_commands.json" ||
      fail "$gen: the database has no --options-file (the case this generator covers)"
  else
    grep -q -- "-I$PWD/include\\|-I$(pwd -P)/include" "$dir/compile_commands.json" ||
      fail "$gen: the database has no -I for include/"
  fi
  checks=$((checks + 1))

  run "$tag.all" -p "$dir" src/*.cu include/matops/*.cuh
  run "$tag.json" --format=json -p "$dir" src/*.cu include/matops/*.cuh
  run "$tag.header" --format=json -p "$dir" include/matops/transpose.cuh
}

check_run() { # <generator> <tag>
  local gen=$1 tag=$2
  [ -f "$TMP/$tag.all.rc" ] || fail "$gen: warplint did not run"
  # Findings are warnings: exit 0, every file analyzed.
  expect_rc "$tag.all" 0
  expect_not_in "$tag.all" err "could not be analyzed"
  expect_not_in "$tag.all" err "error:"
  expect_in "$tag.all" err "in 5 files"
  json "$tag.json" "[f['status'] for f in d['files']] == ['ok'] * 5"

  # (2) The header's template kernel: a 32-way conflict, reported once at
  # the header's line for the instantiation main.cu launches.
  once "$tag.all" "${planted[2]}"
  expect_in "$tag.all" out "shared load has a 32-way bank conflict"
  expect_in "$tag.all" out "in kernel instantiation 'matops::transposeTile<float, 32>'"
  json "$tag.json" "[(k['block_dim'], k['block_dim_source']) for k in d['kernels'] if k['name'] == 'transposeTile'] == [([32, 32, 1], 'launch site')]"
  # (3) The array of structures: bad for any launch.
  once "$tag.all" "${planted[1]}"
  expect_in "$tag.all" out "global load is uncoalesced: adjacent lanes are 32 bytes apart; 32 sectors per request where 4 would do"
  # Clean kernels and lines stay silent (colSum, the tile's global accesses,
  # the stores), and nothing is reported twice across files.
  only_planted "$tag.all"
  json "$tag.json" "sorted((x['file'].split('/project/')[-1], x['line'], x['rule']) for x in d['diagnostics']) == sorted((p.split(':')[0], int(p.split(':')[1]), p.split(':')[2]) for p in '${planted[*]}'.split())"
  json "$tag.json" "not [x for x in d['diagnostics'] if x['kernel'] == 'colSum']"
}

check_header_alone() { # <generator> <tag>
  local gen=$1 tag=$2
  [ -f "$TMP/$tag.header.rc" ] || fail "$gen: warplint did not run"
  # The header alone: analyzed without errors (its command is inferred from
  # a neighbouring entry). It does not instantiate its template, so the
  # template is analyzed as main.cu (which includes it) instantiates it, and
  # the planted finding is reported once, at the header's line.
  expect_rc "$tag.header" 0
  expect_not_in "$tag.header" err "could not be analyzed"
  expect_not_in "$tag.header" err "error:"
  expect_in "$tag.header" err "kernel template 'transposeTile' analyzed as instantiated in main.cu"
  json "$tag.header" "[f['status'] for f in d['files']] == ['ok']"
  json "$tag.header" "[(x['line'], x['rule']) for x in d['diagnostics']] == [($tile_line, 'smem-bank-conflict')]"
}

# (1) Launches in other translation units of the compile database. rowSum
# is defined in src/reduce.cu and launched only in src/main.cu:
# rowSum<<<rows / 256, 256>>>(matrix, sums, rows, cols) with cols = 1024, so
# its block is 256x1x1 from a launch site and adjacent lanes are 4096 bytes
# apart, with no assumption about 'cols'. The library's other kernels are
# launched there too.
check_cross_tu() { # <generator> <tag>
  local gen=$1 tag=$2 pattern
  [ -f "$TMP/$tag.all.rc" ] || fail "$gen: warplint did not run"
  once "$tag.all" "${planted[0]}"
  pattern=$(at "$tag.all" "${planted[0]}")
  grep -E -- "$pattern" "$TMP/$tag.all.out" | grep -qF "adjacent lanes are 4096 bytes apart; 32 sectors per request where 4 would do" ||
    fail "$tag.all: rowSum's warning does not use main.cu's launch (cols = 1024): $(grep -E -- "$pattern" "$TMP/$tag.all.out")"
  checks=$((checks + 1))
  expect_not_in "$tag.all" out "assuming 'cols'"
  if grep -qE "reduce\.cu:$rowsum_line:[0-9]+: note: block shape .* assumed" "$TMP/$tag.all.out"; then
    fail "$tag.all: rowSum's block shape is assumed, not taken from main.cu's launch"
  fi
  checks=$((checks + 1))
  json "$tag.json" "{k['name']: (k['block_dim'], k['block_dim_source'].startswith('launch site')) for k in d['kernels'] if k['name'] in ('rowSum', 'colSum', 'extractMass')} == {n: ([256, 1, 1], True) for n in ('rowSum', 'colSum', 'extractMass')}"
}

for gen in "${generators[@]}"; do
  tag=$(echo "$gen" | tr -dc 'A-Za-z' | tr 'A-Z' 'a-z')
  section "$gen: configure and analyze" configure_and_run "$gen" "$tag"
  section "$gen: findings and exit codes" check_run "$gen" "$tag"
  section "$gen: the header alone" check_header_alone "$gen" "$tag"
done
echo "---- launches in other translation units (cross-TU)"
for gen in "${generators[@]}"; do
  tag=$(echo "$gen" | tr -dc 'A-Za-z' | tr 'A-Z' 'a-z')
  section "$gen: rowSum bound by main.cu's launch (cross-TU)" check_cross_tu "$gen" "$tag"
done

echo "$total passed, ${#failed[@]} failed"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
if [ -n "$skipped" ]; then
  echo "SKIP: $skipped"
  exit 77
fi
