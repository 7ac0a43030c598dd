#!/usr/bin/env bash
# Per-source-line Nsight Compute measurement of real CUDA programs (HeCBench corpus).
#
# Runs on the GPU machine. Usage:
#   measure.sh CORPUS_DIR PROGRAMS_TSV OUT_DIR [JOBS] [RUN_TIMEOUT_S] [DEADLINE_S]
#
#   CORPUS_DIR    a writable copy of the corpus folder (programs are built in place)
#   PROGRAMS_TSV  one program per line: "<program folder>\t<arguments>" (arguments may be empty)
#   OUT_DIR       receives raw.tar.gz (raw ncu CSVs, logs, metadata), refreshed while running
#   JOBS          programs profiled at the same time (default 4); ncu serialises the kernel
#                 launches of concurrent profiled processes through its lock file, and the
#                 SourceCounters metrics are instruction-level counts, so results do not mix
#   RUN_TIMEOUT_S per-program wall-clock limit under ncu (default 90)
#   DEADLINE_S    no program is started after this many seconds (default 480)
#
# Per program the raw folder holds:
#   <prog>.build.log   make output;            <prog>.status   one line: ok|build-failed|run-failed|timeout|no-kernels <reason>
#   <prog>.run.log     ncu + program output;   <prog>.ncu-rep  the ncu report (source imported)
#   <prog>.source.csv  ncu -i <rep> --page source --csv --print-source cuda,sass
#   <prog>.kernels.csv ncu -i <rep> --page raw --csv (one row per profiled kernel: ids, mangled names, launch sizes)
#   <prog>.sass.txt.gz nvdisasm -g -gi of the binary's cubins (line and inline call-site per instruction)
# and meta.txt (GPU, driver, nvcc, ncu, date) and demangled.tsv (mangled<TAB>cu++filt output).
# raw.tar.gz leaves the .ncu-rep reports and the SASS out; they follow as sass.tar.NN and
# reps.tar.NN (15 MiB parts; reports: the first 2 parts only, so that all fits in what a
# device call returns). PROFILE=0 builds and disassembles only.
set -u
CORPUS=$(cd "$1" && pwd); LIST=$(readlink -f "$2"); OUTDIR=$3
JOBS=${4:-4}; RUN_TMO=${5:-90}; DEADLINE=${6:-480}
BUILD_TMO=${BUILD_TMO:-240}
START=$(date +%s)
W=${WORKDIR:-/tmp/realcode-work}; RAW=$W/raw
rm -rf "$RAW"; mkdir -p "$RAW" "$OUTDIR"
export CORPUS RAW RUN_TMO START DEADLINE

snapshot() {  # tar the raw folder (reports and SASS left out) into OUT_DIR atomically
  tar -C "$W" --exclude='*.ncu-rep' --exclude='*.sass.txt.gz' -czf "$OUTDIR/.raw.tar.gz.part" raw 2>/dev/null && mv -f "$OUTDIR/.raw.tar.gz.part" "$OUTDIR/raw.tar.gz"
}

{
  echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
  echo "nvcc=$(nvcc --version | grep -o 'release [0-9.]*, V[0-9.]*' | head -1)"
  echo "ncu=$(ncu --version | tail -1)"
  echo "corpus=$CORPUS"
} > "$RAW/meta.txt"
cp "$LIST" "$RAW/programs.tsv"

# ---- build, in parallel across programs -------------------------------------------------
build_one() {
  p=$1; cd "$CORPUS/$p" || { echo "build-failed no such folder" > "$RAW/$p.status"; return; }
  timeout "$BUILD_TMO" make ARCH=sm_90 EXTRA_CFLAGS=-lineinfo > "$RAW/$p.build.log" 2>&1
  rc=$?
  if [ $rc -ne 0 ] || [ ! -x main ]; then
    [ $rc -eq 124 ] && why="build timeout" || why="make rc=$rc: $(grep -m1 -i 'error' "$RAW/$p.build.log" | cut -c1-160)"
    echo "build-failed $why" > "$RAW/$p.status"
    return
  fi
  # SASS with line and inline call-site information (nvdisasm -g -gi), for every cubin in
  # the binary: ncu lists an instruction inlined from a CUDA header under the header's line
  # only; the inline chain gives the program's own call-site line.
  d=$(mktemp -d); ( cd "$d" && cuobjdump -xelf all "$CORPUS/$p/main" > /dev/null 2>&1
    for c in *.cubin; do [ -e "$c" ] || continue; echo "#### cubin $c"
      nvdisasm -g -gi -c "$c" 2>&1 || nvdisasm -g -c "$c" 2>&1; done ) | gzip > "$RAW/$p.sass.txt.gz"
  rm -rf "$d"
}
export -f build_one; export BUILD_TMO
cut -f1 "$LIST" | grep -v '^\s*$' | xargs -P "$(nproc)" -I{} bash -c 'build_one "$@"' _ {}
echo "build done after $(( $(date +%s) - START )) s: $(ls "$RAW"/*.status 2>/dev/null | wc -l) failed"
( cd "$RAW" && ls *.sass.txt.gz > /dev/null 2>&1 && tar -cf - *.sass.txt.gz | split -b 15M -d -a 2 - "$OUTDIR/sass.tar." )
snapshot
if [ "${PROFILE:-1}" = 0 ]; then echo "PROFILE=0: built and disassembled only"; exit 0; fi

# ---- profile, JOBS programs at a time -----------------------------------------------------
profile_one() {  # $1: one line of the program list
  p=$(printf '%s' "$1" | cut -f1); args=$(printf '%s' "$1" | cut -s -f2-)
  [ -e "$RAW/$p.status" ] && return            # build failed
  if [ $(( $(date +%s) - START )) -gt "$DEADLINE" ]; then echo "timeout not started: measurement deadline" > "$RAW/$p.status"; return; fi
  cd "$CORPUS/$p" || return
  t0=$(date +%s)
  # shellcheck disable=SC2086
  timeout -k 5 "$RUN_TMO" ncu --kernel-id :::1 --kernel-name-base mangled --section SourceCounters \
      --import-source yes -f -o "$RAW/$p" ./main $args > "$RAW/$p.run.log" 2>&1
  rc=$?
  t1=$(date +%s)
  if [ -s "$RAW/$p.ncu-rep" ]; then
    ncu -i "$RAW/$p.ncu-rep" --print-kernel-base mangled --page source --csv --print-source cuda,sass \
        > "$RAW/$p.source.csv" 2> "$RAW/$p.source.err"
    ncu -i "$RAW/$p.ncu-rep" --print-kernel-base mangled --page raw --csv \
        --metrics launch__grid_size,launch__block_size,launch__registers_per_thread > "$RAW/$p.kernels.csv" 2>/dev/null
  fi
  nk=$(grep -c '^==PROF== Profiling' "$RAW/$p.run.log")
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then st="timeout after ${RUN_TMO}s ($nk kernels profiled)"
  elif [ ! -s "$RAW/$p.ncu-rep" ]; then
    if [ $rc -ne 0 ]; then st="run-failed rc=$rc: $(grep -v '^==' "$RAW/$p.run.log" | grep -m1 -i 'error\|fail\|usage' | cut -c1-160)"
    else st="no-kernels"; fi
  elif [ $rc -ne 0 ]; then st="ok program rc=$rc ($nk kernels profiled)"
  else st="ok ($nk kernels profiled)"; fi
  echo "$st; wall $((t1 - t0)) s" > "$RAW/$p.status"
  echo "[$(( t1 - START ))s] $p: $st ($((t1 - t0)) s)"
}
export -f profile_one

( while sleep 45; do snapshot; done ) & SNAP=$!
trap 'kill $SNAP 2>/dev/null; snapshot' EXIT
grep -v '^\s*$' "$LIST" | xargs -P "$JOBS" -d '\n' -I{} bash -c 'profile_one "$1"' _ {}
kill $SNAP 2>/dev/null; wait $SNAP 2>/dev/null

# demangled kernel names
grep -h '^"Function Name"' "$RAW"/*.source.csv 2>/dev/null | sed 's/^"Function Name","//; s/"\r\?$//' | sort -u | while read -r s; do
  printf '%s\t%s\n' "$s" "$(cu++filt "$s" 2>/dev/null)"; done > "$RAW/demangled.tsv"
snapshot
( cd "$RAW" && ls *.ncu-rep >/dev/null 2>&1 && tar -cf - *.ncu-rep | split -b 15M -d -a 2 - "$OUTDIR/reps.tar." )
ls "$OUTDIR"/reps.tar.* 2>/dev/null | tail -n +3 | xargs -r rm -f
echo "done after $(( $(date +%s) - START )) s"
grep -h '' "$RAW"/*.status | cut -d' ' -f1 | sort | uniq -c
