#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test warplint:
# Clang/LLVM 22 (older Clang cannot parse CUDA 13 headers), CMake, GoogleTest,
# python3 (the CLI tests read JSON with it) and its jsonschema, git and
# pre-commit (the hook's end-to-end test), libmimalloc-dev (the allocator the
# warplint binary links; docs/performance.md), ninja-build (the example CMake
# project's test configures it with both Makefiles and Ninja), clang-tidy-22
# (the clang-tidy module's end-to-end test), neovim, node and npm (the
# language server's end-to-end tests with Neovim's LSP client and npm's
# vscode-languageserver-protocol), bear (the host-leniency test records a
# Makefile project's compile database with `bear -- make`). Run as root;
# idempotent.
set -euo pipefail
need=()
for pkg in clang-22 libclang-22-dev llvm-22-dev cmake make g++ libgtest-dev \
           python3 git pre-commit ninja-build clang-tidy-22 neovim \
           libmimalloc-dev bear; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
    need+=("$pkg")
done
# The SARIF test validates with jsonschema (Debian's python3-jsonschema, or
# any the python3 on PATH already has).
python3 -c 'import jsonschema' 2>/dev/null || need+=(python3-jsonschema)
# node and npm: Debian's, unless the machine has its own on PATH.
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to install packages (or install them yourself)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
