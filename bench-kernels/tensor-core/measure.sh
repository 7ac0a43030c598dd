#!/usr/bin/env bash
# Measures the tensor-core and asynchronous-copy reference kernels on a GPU
# machine, per SASS instruction, for one suite: tc (tc_cases.cu: ldmatrix,
# cp.async, m16n16k16 half wmma) or frag (frag_cases.cu: wmma fragments of
# the other shapes and types). Builds the suite (nvcc -O3 -arch=sm_90
# -lineinfo), times the cases, profiles each case kernel once with Nsight
# Compute's SourceCounters section and exports the source page (one row per
# SASS instruction: opcode, instructions executed, L1 wavefronts shared and
# their ideal, L2 theoretical sectors global and their ideal), and the
# disassembly; for frag also the fragments' lane map (frag --layouts, JSON).
# Writes $OUT/<suite>.tar.gz (default OUT: ./gpu-out); unpack it into
# bench-kernels/results/<gpu>/tensor-core/ to record.
#   measure.sh [tc|frag]
set -euo pipefail
cd "$(dirname "$0")"
S=${1:-tc}
case $S in tc | frag) ;; *) echo "usage: measure.sh [tc|frag]" >&2; exit 2 ;; esac
OUT=${OUT:-$PWD/gpu-out}
W=$(mktemp -d)
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | grep -o 'release [0-9.]*'
  ncu --version | tail -1
  date -u +%Y-%m-%d
} >"$W/gpu.txt"
nvcc -O3 -arch=sm_90 -lineinfo -std=c++17 -o "$W/$S" "${S}_cases.cu"
files=(gpu.txt "$S.times.csv" "$S.sass.txt" "$S.source.csv" ncu.log)
if [ "$S" = frag ]; then
  "$W/$S" --layouts >"$W/layouts.json"
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$W/layouts.json"
  files+=(layouts.json)
fi
"$W/$S" >"$W/$S.times.csv"
cuobjdump -sass "$W/$S" >"$W/$S.sass.txt"
ncu --kernel-name-base demangled -k regex:case_ --section SourceCounters \
  -f -o "$W/$S" "$W/$S" --profile >"$W/ncu.log" 2>&1 || { tail -20 "$W/ncu.log"; exit 1; }
ncu -i "$W/$S.ncu-rep" --page source --csv --print-source sass >"$W/$S.source.csv"
mkdir -p "$OUT"
(cd "$W" && tar czf "$OUT/$S.tar.gz" "${files[@]}")
echo "$S: $(($(wc -l <"$W/$S.times.csv") - 1)) timed cases, $(grep -c '^"Kernel Name"' "$W/$S.source.csv") kernel blocks"
