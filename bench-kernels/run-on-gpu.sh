#!/usr/bin/env bash
# Runs the whole suite on a GPU machine in one go: for each rule folder, builds
# its *.cu with nvcc, runs it (timings as CSV) and profiles it with Nsight
# Compute (the metrics listed in the folder's metrics.txt, per kernel named
# case_*). Writes into $OUT (default ./gpu-out): gpu.txt, <rule>.<file>.times.csv,
# <rule>.<file>.ncu.csv, and all of them packed in results.tar.gz (what the device
# tool brings back). Unpack into bench-kernels/results/<gpu>/ to record.
set -euo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | grep -o 'release [0-9.]*'
  ncu --version | tail -1
  date -u +%Y-%m-%d
} >"$OUT/gpu.txt"
for dir in */; do
  rule=${dir%/}
  [ -f "$rule/metrics.txt" ] || continue
  for src in "$rule"/*.cu; do
    name=$(basename "$src" .cu)
    bin=/tmp/$name
    out=$OUT/$rule.$name
    nvcc -O3 -arch=sm_90 -lineinfo -o "$bin" "$src"
    "$bin" >"$out.times.csv"
    ncu --csv -k regex:case_ --metrics "$(paste -sd, "$rule/metrics.txt")" \
      "$bin" --profile >"$out.ncu.csv" 2>"/tmp/$name.ncu.err" ||
      { tail -20 "/tmp/$name.ncu.err"; exit 1; }
    echo "$rule/$name: $(($(wc -l <"$out.times.csv") - 1)) timed cases, $(grep -c case_ "$out.ncu.csv") counter rows"
  done
done
(cd "$OUT" && tar czf /tmp/results.tar.gz gpu.txt ./*.csv && rm -f ./*.csv &&
  mv /tmp/results.tar.gz .)
