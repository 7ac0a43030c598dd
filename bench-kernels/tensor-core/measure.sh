#!/usr/bin/env bash
# Measures the tensor-core and asynchronous-copy reference kernels on a GPU
# machine, per SASS instruction: builds tc_cases.cu (nvcc -O3 -arch=sm_90
# -lineinfo), times the cases, profiles each case kernel once with Nsight
# Compute's SourceCounters section and exports the source page (one row per
# SASS instruction: opcode, instructions executed, L1 wavefronts shared and
# their ideal, L2 theoretical sectors global and their ideal), and the
# disassembly. Writes $OUT/tc.tar.gz (default OUT: ./gpu-out); unpack it into
# bench-kernels/results/<gpu>/tensor-core/ to record.
set -euo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-$PWD/gpu-out}
W=$(mktemp -d)
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | grep -o 'release [0-9.]*'
  ncu --version | tail -1
  date -u +%Y-%m-%d
} >"$W/gpu.txt"
nvcc -O3 -arch=sm_90 -lineinfo -o "$W/tc" tc_cases.cu
"$W/tc" >"$W/tc.times.csv"
cuobjdump -sass "$W/tc" >"$W/tc.sass.txt"
ncu --kernel-name-base demangled -k regex:case_ --section SourceCounters \
  -f -o "$W/tc" "$W/tc" --profile >"$W/ncu.log" 2>&1 || { tail -20 "$W/ncu.log"; exit 1; }
ncu -i "$W/tc.ncu-rep" --page source --csv --print-source sass >"$W/tc.source.csv"
mkdir -p "$OUT"
(cd "$W" && tar czf "$OUT/tc.tar.gz" gpu.txt tc.times.csv tc.sass.txt tc.source.csv ncu.log)
echo "tensor-core: $(($(wc -l <"$W/tc.times.csv") - 1)) timed cases, $(grep -c '^"Function Name"\|Kernel Name' "$W/tc.source.csv") kernel blocks"
