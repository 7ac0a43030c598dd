#!/usr/bin/env bash
# Builds warplint and runs it on the bundled example kernels.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
echo "== warplint examples/transpose.cu"
build/warplint examples/transpose.cu
