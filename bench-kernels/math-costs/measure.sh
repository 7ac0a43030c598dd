#!/bin/sh
# On a GPU machine: build math_costs.cu as nvcc builds by default and with
# -use_fast_math, count each kernel's warp instructions with Nsight Compute,
# and write $OUT/math-costs.csv (kernel, build, instructions). cost.py turns
# that into ../results/<gpu>/math-costs.tsv.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/math-costs}
mkdir -p "$out" /tmp/math-costs-build
for build in default fast; do
  flags="-O3 -arch=sm_90"
  [ "$build" = fast ] && flags="$flags -use_fast_math"
  nvcc $flags -o /tmp/math-costs-build/$build "$here/math_costs.cu"
  ncu --csv --metrics smsp__inst_executed.sum /tmp/math-costs-build/$build \
    > /tmp/math-costs-build/$build.csv
done
python3 - "$out/math-costs.csv" /tmp/math-costs-build/default.csv /tmp/math-costs-build/fast.csv <<'PY'
import csv, sys
with open(sys.argv[1], 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['kernel', 'build', 'warp_instructions'])
    for path, build in zip(sys.argv[2:], ('default', 'fast')):
        text = open(path).read()
        rows = list(csv.DictReader(text[text.index('"ID"'):].splitlines()))
        for r in rows:
            if r['Metric Name'] == 'smsp__inst_executed.sum':
                name = r['Kernel Name'].split('(')[0].replace('k_', '', 1)
                w.writerow([name, build, r['Metric Value'].replace(',', '')])
PY
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
nvcc --version | tail -2 >> "$out/gpu.txt"
