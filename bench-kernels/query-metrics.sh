#!/usr/bin/env bash
# Lists the Nsight Compute metrics this GPU offers for constant-cache,
# branch and predication counters (to pick what the suite records).
set -u
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
ncu --query-metrics 2>/dev/null | grep -iE 'idc|const|branch|pred|divergent|thread_inst' >"$OUT/metrics-available.txt"
wc -l "$OUT/metrics-available.txt"
