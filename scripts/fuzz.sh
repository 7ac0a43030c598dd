#!/usr/bin/env bash
# Fuzzes warplint with libFuzzer (docs/fuzzing.md): builds the fuzz targets
# of test/fuzz with Debian's clang-22 under AddressSanitizer and
# UndefinedBehaviorSanitizer in build-fuzz/, then runs each for a bounded
# time, seeded with the committed seeds and regressions (and, for the front
# end, the fixtures and a sample of ../shared/corpus/hecbench), and prints per
# target its runs, executions per second, coverage and crashes.
#
#   scripts/fuzz.sh [-t SECONDS] [-k] [TARGET...]
#     -t SECONDS  time per target (default 60)
#     -k          keep going after a crash (libFuzzer's fork mode), collecting
#                 every crash, timeout and out-of-memory input of the run
#     TARGET      fuzz_model, fuzz_command_line, fuzz_frontend (default: all)
#
# Work files (corpus, crashes, logs) stay in build-fuzz/fuzz/<target>/; a
# crash is saved there as crash-*, timeout-* or oom-*. Replay one with
# `build-fuzz/test/fuzz/<target> FILE`; once fixed, keep it in
# test/fuzz/regressions/<target>/, where CTest replays it on every build.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
keep_going=0
while getopts "t:kh" opt; do
  case $opt in
    t) seconds=$OPTARG ;;
    k) keep_going=1 ;;
    *) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_model fuzz_command_line fuzz_frontend)
for t in "${targets[@]}"; do
  case $t in
    fuzz_model|fuzz_command_line|fuzz_frontend) ;;
    *) echo "fuzz: unknown target '$t'" >&2; exit 2 ;;
  esac
done

# What the normal build needs, then libFuzzer and the sanitizer runtimes of
# clang-22 (libclang-rt-22-dev).
scripts/setup.sh
if ! dpkg-query -W -f='${Status}' libclang-rt-22-dev 2>/dev/null |
     grep -q "install ok installed"; then
  echo "fuzz: installing libclang-rt-22-dev"
  if [ "$(id -u)" -ne 0 ]; then
    echo "fuzz: need root to install libclang-rt-22-dev (or install it yourself)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends libclang-rt-22-dev >/dev/null
fi

cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DWARPLINT_FUZZ=ON >/dev/null
# Only the targets: the rest of the tree is not needed here.
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]}"

# Per target: extra libFuzzer options and seed directories.
work=build-fuzz/fuzz
frontend_seeds() {
  local d=$work/fuzz_frontend/seeds
  rm -rf "$d"
  mkdir -p "$d"
  local f
  for f in test/fixtures/*/*.cu; do
    cp "$f" "$d/$(basename "$(dirname "$f")")-$(basename "$f")"
  done
  # A fixed sample of the real programs (not committed: copied into the
  # work directory), the small ones, which parse fast.
  local corpus=../shared/corpus/hecbench
  if [ -d "$corpus" ]; then
    find "$corpus" -name '*.cu' -size -24k | sort | awk 'NR % 8 == 1' |
      head -n 40 | while read -r f; do
        cp "$f" "$d/hecbench-$(echo "$f" | md5sum | cut -c1-8)-$(basename "$f")"
      done
  fi
  echo "$d"
}

export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:detect_odr_violation=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
summary=()
status=0
for t in "${targets[@]}"; do
  dir=$work/$t
  mkdir -p "$dir/corpus" "$dir/crashes"
  seeds=()
  for s in test/fuzz/seeds/$t test/fuzz/regressions/$t; do
    [ -d "$s" ] && seeds+=("$s")
  done
  case $t in
    # Longer programs from the start: a model needs a few dozen bytes.
    fuzz_model) opts=(-max_len=512 -len_control=0 -timeout=30) ;;
    fuzz_command_line) opts=(-max_len=4096 -timeout=10) ;;
    fuzz_frontend)
      seeds+=("$(frontend_seeds)")
      # Clang's own allocations under ASan need more than the default 2 GB.
      opts=(-max_len=32768 -timeout=60 -rss_limit_mb=6144
            -dict=test/fuzz/cuda.dict) ;;
  esac
  if [ $keep_going -eq 1 ]; then
    opts+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  # Crashes, hangs and out-of-memory inputs (not the slow-unit-* notes).
  count() { find "$dir/crashes" -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' | wc -l; }
  before=$(count)
  log=$dir/fuzz.log
  echo "fuzz: $t for ${seconds}s (log: $log)"
  # The corpus directory first: libFuzzer adds new inputs there only.
  set +e
  "build-fuzz/test/fuzz/$t" -max_total_time="$seconds" -print_final_stats=1 \
    "${opts[@]}" -artifact_prefix="$dir/crashes/" "$dir/corpus" \
    "${seeds[@]}" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  [ -n "$runs" ] || runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  # Over the whole run (fork mode's last line shows its last job's rate).
  rate=$(awk -v r="${runs:-0}" -v t="$seconds" 'BEGIN { printf "%.1f", r / t }')
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)
  after=$(count)
  crashes=$((after - before))
  [ "$rc" -eq 0 ] || [ $crashes -gt 0 ] || crashes="? (exit $rc, see log)"
  line="$t: ${runs:-0} runs, ${rate:-0} exec/s, ${cov:-cov: ?}, crashes: $crashes"
  summary+=("$line")
  if [ "$crashes" != 0 ]; then
    status=1
    ls -t "$dir/crashes" | grep -v '^slow-unit' | head -n 5 |
      sed "s|^|  $dir/crashes/|"
    grep -m1 -E 'ERROR: |runtime error|==ERROR|deadly signal|timeout' "$log" |
      sed 's/^/  /' || true
  fi
done
echo
printf '%s\n' "${summary[@]}"
exit $status
