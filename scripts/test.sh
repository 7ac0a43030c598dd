#!/usr/bin/env bash
# Sets up what is missing, builds once, and runs every test (unit, fixtures,
# command line, and the replay of recorded GPU measurements) with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)"
