#!/bin/sh
# On a GPU machine: build atomic_costs.cu as nvcc builds by default, count
# each kernel's warp instructions with Nsight Compute, and write
# $OUT/atomic-costs.csv (kernel, warp_instructions) and the SASS opcodes of
# each kernel's atomic ($OUT/atomic-sass.txt). scripts/atomic-costs.py turns
# the recording into the walker's table.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/atomic-costs}
mkdir -p "$out" /tmp/atomic-costs-build
nvcc -O3 -arch=sm_90 -o /tmp/atomic-costs-build/bench "$here/atomic_costs.cu"
ncu --csv --metrics smsp__inst_executed.sum /tmp/atomic-costs-build/bench \
  > /tmp/atomic-costs-build/ncu.csv
python3 - "$out/atomic-costs.csv" /tmp/atomic-costs-build/ncu.csv <<'PY'
import csv, sys
with open(sys.argv[1], 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['kernel', 'warp_instructions'])
    text = open(sys.argv[2]).read()
    rows = list(csv.DictReader(text[text.index('"ID"'):].splitlines()))
    for r in rows:
        if r['Metric Name'] == 'smsp__inst_executed.sum':
            name = r['Kernel Name'].split('(')[0].replace('k_', '', 1)
            w.writerow([name, r['Metric Value'].replace(',', '')])
PY
cuobjdump -sass /tmp/atomic-costs-build/bench |
  awk '/Function :/ {f=$3} /ATOM|RED|CAS|BSSY|BRA/ {print f": "$0}' \
  > "$out/atomic-sass.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
nvcc --version | tail -2 >> "$out/gpu.txt"
