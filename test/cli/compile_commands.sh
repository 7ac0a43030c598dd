# Users' nvcc compile databases (CMake's CUDA language) and "--" arguments.
source "$(dirname "$0")/lib.bash"
mkdir -p "$TMP/src" "$TMP/build"
cat >"$TMP/src/k.cu" <<'CU'
#include <cuda_runtime.h>
#ifndef STRIDE
#error "STRIDE comes from the build"
#endif
__global__ void k(const float *in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g * STRIDE];
}
void launch(const float *a, float *b) { k<<<64, 256>>>(a, b); }
CU
cat >"$TMP/build/compile_commands.json" <<JSON
[{"directory": "$TMP/build",
  "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DSTRIDE=32 -I$TMP/src --generate-code=arch=compute_80,code=[compute_80,sm_80] -Xcompiler=-fPIC -lineinfo --expt-relaxed-constexpr -rdc=true -x cu -c $TMP/src/k.cu -o k.o",
  "file": "$TMP/src/k.cu"}]
JSON
run db -p "$TMP/build" "$TMP/src/k.cu"
expect_rc db 0
expect_in db out "adjacent lanes are 128 bytes apart"

run nodb "$TMP/src/k.cu"
expect_rc nodb 2
expect_in nodb err "STRIDE comes from the build"

run fixed "$TMP/src/k.cu" -- -DSTRIDE=2
expect_rc fixed 0
expect_in fixed out "adjacent lanes are 8 bytes apart"

run extra --extra-arg=-DSTRIDE=4 "$TMP/src/k.cu"
expect_rc extra 0
expect_in extra out "adjacent lanes are 16 bytes apart"

run baddb -p "$TMP/nowhere" "$TMP/src/k.cu"
expect_rc baddb 2
expect_in baddb err "cannot load compile_commands.json"

# --print-parse-commands: the Clang command the file is parsed with, one
# line: nvcc's flags translated (no nvcc spelling left), the build's macros
# and include paths kept, nothing analyzed; clang itself parses the file
# with it (what the speed benchmarks compare warplint's time against).
run print -p "$TMP/build" --print-parse-commands "$TMP/src/k.cu"
expect_rc print 0
[ "$(wc -l <"$TMP/print.out")" = 1 ] || fail "print: not one line: $(cat "$TMP/print.out")"
for want in -DSTRIDE=32 "-I$TMP/src" -fgpu-rdc -D__CUDACC_RELAXED_CONSTEXPR__ \
  --cuda-device-only -fsyntax-only "$TMP/src/k.cu"; do
  expect_in print out " $want"
done
for nvcc_only in --expt-relaxed-constexpr --generate-code -lineinfo \
  -forward-unknown-to-host-compiler -Xcompiler; do
  expect_not_in print out "$nvcc_only"
done
expect_not_in print out "adjacent lanes"
if command -v clang++-22 >/dev/null; then
  python3 - "$TMP/print.out" <<'PY' || fail "print: clang++-22 does not parse the file with the printed command"
import shlex, subprocess, sys
cmd = shlex.split(open(sys.argv[1]).read())
sys.exit(subprocess.run(['clang++-22'] + cmd[1:], capture_output=True).returncode)
PY
  checks=$((checks + 1))
fi
# A command's relative paths are its directory's: the printed command says
# the directory, and runs from anywhere.
mkdir -p "$TMP/rel" "$TMP/inc"
echo '#define STRIDE 8' >"$TMP/inc/stride.h"
printf '#include "stride.h"\n#include "k.cu"\n' >"$TMP/src/relk.cu"
cat >"$TMP/rel/compile_commands.json" <<JSON
[{"directory": "$TMP/rel", "command": "nvcc -I../inc -c ../src/relk.cu", "file": "../src/relk.cu"}]
JSON
run printrel -p "$TMP/rel" --print-parse-commands "$TMP/src/relk.cu"
expect_rc printrel 0
expect_in printrel out " -working-directory=$TMP/rel "
expect_in printrel out " -I../inc "
if command -v clang++-22 >/dev/null; then
  (cd / && python3 - "$TMP/printrel.out" <<'PY') || fail "printrel: clang++-22 does not parse the file from / with the printed command"
import shlex, subprocess, sys
cmd = shlex.split(open(sys.argv[1]).read())
sys.exit(subprocess.run(['clang++-22'] + cmd[1:], capture_output=True).returncode)
PY
  checks=$((checks + 1))
fi
run printbad -p "$TMP/nowhere" --print-parse-commands "$TMP/src/k.cu"
expect_rc printbad 2
expect_in printbad err "cannot load compile_commands.json"

# An entry with no command at all (found by fuzzing: it aborted) is an
# error for its file.
mkdir -p "$TMP/emptycmd"
cat >"$TMP/emptycmd/compile_commands.json" <<JSON
[{"directory": "$TMP/emptycmd", "arguments": [], "file": "$TMP/src/k.cu"}]
JSON
run emptycmd -p "$TMP/emptycmd" "$TMP/src/k.cu"
expect_rc emptycmd 2
expect_in emptycmd err "the compile database's command for this file is empty"
run emptycmd_print -p "$TMP/emptycmd" --print-parse-commands "$TMP/src/k.cu"
expect_rc emptycmd_print 2
expect_in emptycmd_print err "error: $TMP/src/k.cu: the compile database's command for this file is empty"
[ -s "$TMP/emptycmd_print.out" ] && fail "emptycmd_print: printed a command: $(cat "$TMP/emptycmd_print.out")"
checks=$((checks + 1))

# CMake's Makefiles generator passes include paths and definitions in an
# options file (relative to the entry's directory); nvcc options CUDA 13
# lists, in their long, short and joined forms, are all understood.
mkdir -p "$TMP/mk/CMakeFiles/k.dir"
cat >"$TMP/mk/CMakeFiles/k.dir/includes_CUDA.rsp" <<RSP
-I"$TMP/src" -DSTRIDE=16
RSP
cat >"$TMP/mk/compile_commands.json" <<JSON
[{"directory": "$TMP/mk",
  "command": "/usr/local/cuda/bin/nvcc --options-file CMakeFiles/k.dir/includes_CUDA.rsp -Xcudafe --diag_suppress=177 -ftz=true --fmad false --split-compile 4 -dopt on -Werror all-warnings -t 8 -Xptxas=-v --keep-dir /tmp -Ofc max --std c++17 -x cu -c $TMP/src/k.cu -o k.o",
  "file": "$TMP/src/k.cu"}]
JSON
run optf -p "$TMP/mk" "$TMP/src/k.cu"
expect_rc optf 0
expect_in optf out "adjacent lanes are 64 bytes apart"

# An options file that is not there is an error, not a silent parse without
# its include paths.
sed 's/includes_CUDA.rsp/missing.rsp/' "$TMP/mk/compile_commands.json" >"$TMP/mk/cc.json"
mkdir -p "$TMP/mk2" && mv "$TMP/mk/cc.json" "$TMP/mk2/compile_commands.json"
run optf_missing -p "$TMP/mk2" "$TMP/src/k.cu"
expect_rc optf_missing 2
expect_in optf_missing err "cannot read options file"

# An options file or response file that is not text (found by fuzzing: a
# command naming the nvcc program as its options file) is an error for its
# file, not thousands of garbage arguments and minutes of compiler errors.
mkdir -p "$TMP/binopt"
printf 'ELF\0\001\002-I/x\0--weird\n' >"$TMP/binopt/prog"
cat >"$TMP/binopt/compile_commands.json" <<JSON
[{"directory": "$TMP/binopt", "arguments": ["/usr/local/cuda/bin/nvcc", "--options-file", "prog", "-c", "$TMP/src/k.cu"], "file": "$TMP/src/k.cu"},
 {"directory": "$TMP/binopt", "arguments": ["clang++", "-x", "cuda", "@prog", "-c", "$TMP/src/k2.cu"], "file": "$TMP/src/k2.cu"}]
JSON
cp "$TMP/src/k.cu" "$TMP/src/k2.cu"
run binopt -p "$TMP/binopt" "$TMP/src/k.cu" "$TMP/src/k2.cu"
expect_rc binopt 2
expect_in binopt err "options file '$TMP/binopt/prog' is not a text file"
expect_in binopt err "response file '$TMP/binopt/prog' is not a text file"
expect_not_in binopt err "unknown argument"
rm "$TMP/src/k2.cu"

# A header that is not in the database gets the command of a neighbouring
# entry (Clang's interpolation, whose command ends in "-- file"): warplint's
# own flags still come before the "--".
cat >"$TMP/src/k2.cuh" <<'CU'
#include <cuda_runtime.h>
__global__ void h(const float *in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g * STRIDE];
}
inline void launchH(const float *a, float *b) { h<<<64, 256>>>(a, b); }
CU
run header -p "$TMP/build" "$TMP/src/k2.cuh"
expect_rc header 0
expect_in header out "adjacent lanes are 128 bytes apart"

# The same for a database whose include paths and macros are in an options
# file (CMake's Makefiles generator): the header's inferred command reads it
# too, relative to the entry's directory.
cat >"$TMP/src/k3.cuh" <<'CU'
#include "k2.cuh"
__global__ void h3(const float *in, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g * STRIDE];
}
inline void launchH3(const float *a, float *b) { h3<<<64, 256>>>(a, b); }
CU
run optf_header -p "$TMP/mk" "$TMP/src/k3.cuh"
expect_rc optf_header 0
expect_not_in optf_header err "options file"
expect_in optf_header out "k3.cuh:4:12: warning: global load is uncoalesced: adjacent lanes are 64 bytes apart"

# Make + Bear and Bazel write "arguments" arrays; nvcc reads options from an
# "@file" response file too, and a clang-cuda entry is passed through.
mkdir -p "$TMP/bear/sub"
printf -- '-DSTRIDE=8 -I%s\n' "$TMP/src" >"$TMP/bear/sub/flags.rsp"
cat >"$TMP/bear/compile_commands.json" <<JSON
[{"directory": "$TMP/bear", "arguments": ["/usr/local/cuda/bin/nvcc", "@sub/flags.rsp", "-arch=sm_90", "-c", "$TMP/src/k.cu", "-o", "k.o"], "file": "$TMP/src/k.cu"}]
JSON
run bear -p "$TMP/bear" "$TMP/src/k.cu"
expect_rc bear 0
expect_in bear out "adjacent lanes are 32 bytes apart"
mkdir -p "$TMP/clangdb"
cat >"$TMP/clangdb/compile_commands.json" <<JSON
[{"directory": "$TMP/clangdb", "arguments": ["clang++", "-x", "cuda", "--cuda-gpu-arch=sm_80", "-DSTRIDE=4", "-c", "$TMP/src/k.cu"], "file": "$TMP/src/k.cu"}]
JSON
run clangdb -p "$TMP/clangdb" "$TMP/src/k.cu"
expect_rc clangdb 0
expect_in clangdb out "adjacent lanes are 16 bytes apart"

# One file's parse errors are its own: the next file is analyzed in full.
printf '__global__ void bad(float *o) { o[0] = undeclared; }\n' >"$TMP/src/bad.cu"
run errors_stay "$TMP/src/bad.cu" "$TMP/src/k.cu" -- -DSTRIDE=32
expect_rc errors_stay 2
expect_in errors_stay err "bad.cu could not be analyzed completely (1 error)"
expect_not_in errors_stay err "k.cu could not be analyzed"
expect_in errors_stay out "adjacent lanes are 128 bytes apart"

# Without a toolkit: the bundled header gives the same findings.
run stub --cuda-path="$TMP/no-cuda-here" "$TMP/src/k.cu" -- -DSTRIDE=32
expect_rc stub 0
expect_in stub err "no CUDA toolkit"
expect_in stub out "adjacent lanes are 128 bytes apart"

# A kernel launched from device code needs relocatable device code, with nvcc
# as with Clang: each of nvcc's spellings of it (and -ewp) is Clang's
# -fgpu-rdc, so the file parses; without any, the error stays.
cat >"$TMP/src/dp.cu" <<'CU'
__global__ void child(float *o, int s) { o[threadIdx.x * s] = 1; }
__global__ void parent(float *o) {
  if (threadIdx.x == 0)
    child<<<1, 32>>>(o, 32);
}
CU
mkdir -p "$TMP/rdc"
for flags in "-rdc=true" "-rdc true" "--relocatable-device-code=true" "-dc" "-ewp"; do
  cat >"$TMP/rdc/compile_commands.json" <<JSON
[{"directory": "$TMP/rdc", "command": "nvcc -arch=sm_80 $flags -c $TMP/src/dp.cu -o dp.o", "file": "$TMP/src/dp.cu"}]
JSON
  run rdc -p "$TMP/rdc" --format=json "$TMP/src/dp.cu"
  expect_rc rdc 0
  json rdc "[f['status'] for f in d['files']] == ['ok'] and 'uncoalesced-global-access' in [x['rule'] for x in d['diagnostics']]"
done
sed -i 's/ -ewp / -rdc=false /' "$TMP/rdc/compile_commands.json"
run nordc -p "$TMP/rdc" "$TMP/src/dp.cu"
expect_rc nordc 2
expect_in nordc err "requires relocatable device code"
# nvcc's macros for its modes: -G, -default-stream per-thread, -rdc, -ewp.
cat >"$TMP/src/modes.cu" <<'CU'
#if !defined(__CUDACC_DEBUG__) || CUDA_API_PER_THREAD_DEFAULT_STREAM != 1 || !defined(__CUDACC_RDC__)
#error nvcc mode macros missing
#endif
__global__ void k(float *o) { o[threadIdx.x] = 1; }
CU
cat >"$TMP/rdc/compile_commands.json" <<JSON
[{"directory": "$TMP/rdc", "command": "nvcc -G -default-stream per-thread -dc -allow-unsupported-compiler -std c++17 --extended-lambda -c $TMP/src/modes.cu", "file": "$TMP/src/modes.cu"}]
JSON
run modes -p "$TMP/rdc" "$TMP/src/modes.cu"
expect_rc modes 0
done_checks
