# What warplint never does with the code and build files it reads
# (docs/security.md): it runs no command of a compile database, loads no
# plugin they name, and writes no file their content names.
source "$(dirname "$0")/lib.bash"
mkdir -p "$TMP/src" "$TMP/build"
printf '__global__ void k(float *o) { o[threadIdx.x * 32] = 1.f; }\nvoid l(float *o) { k<<<1, 64>>>(o); }\n' >"$TMP/src/k.cu"

# A compile command is read, never run: its compiler would create a file.
cat >"$TMP/fakecc" <<SH
#!/bin/sh
touch "$TMP/ran"
SH
chmod +x "$TMP/fakecc"
cat >"$TMP/build/compile_commands.json" <<JSON
[{"directory": "$TMP/build",
  "command": "$TMP/fakecc -c $TMP/src/k.cu -o $TMP/written.o",
  "file": "$TMP/src/k.cu"}]
JSON
run db -p "$TMP/build" "$TMP/src/k.cu"
expect_rc db 0
expect_in db out "k.cu:1:31: warning: global store is uncoalesced"
[ ! -e "$TMP/ran" ] && [ ! -e "$TMP/written.o" ] || fail "a compile command was run or its output written"
checks=$((checks + 1))

# An nvcc command's host compiler named by path (-ccbin) is not run to list
# its include directories unless the user allows it with --query-driver: a
# note, and the analysis as without it. (One named by plain name, g++, is the
# user's own on PATH: that one is asked.)
mkdir -p "$TMP/hostcc"
cat >"$TMP/hostcc/g++" <<SH
#!/bin/sh
touch "$TMP/hostcc-ran"
SH
chmod +x "$TMP/hostcc/g++"
cat >"$TMP/hostcc/compile_commands.json" <<JSON
[{"directory": "$TMP/hostcc",
  "command": "nvcc -ccbin $TMP/hostcc/g++ -c $TMP/src/k.cu -o $TMP/written.o",
  "file": "$TMP/src/k.cu"}]
JSON
run hostcc -p "$TMP/hostcc" "$TMP/src/k.cu"
expect_rc hostcc 0
expect_in hostcc err "host compiler '$TMP/hostcc/g++' not asked for its include directories"
expect_in hostcc out "k.cu:1:31: warning: global store is uncoalesced"
[ ! -e "$TMP/hostcc-ran" ] || fail "a host compiler a compile database names was run"
checks=$((checks + 1))
run hostcc_allowed -p "$TMP/hostcc" --query-driver="$TMP/hostcc/*" "$TMP/src/k.cu"
expect_rc hostcc_allowed 0
[ -e "$TMP/hostcc-ran" ] || fail "--query-driver did not allow the host compiler"
checks=$((checks + 1))
expect_in hostcc_allowed err "did not list its include directories"
rm -f "$TMP/hostcc-ran"

# Plugins named in a command (-fplugin, -Xclang -load) are not loaded: the
# library's constructor would create a file.
if command -v g++ >/dev/null; then
  printf '#include <stdio.h>\n__attribute__((constructor)) static void hit() { FILE *f = fopen("%s/loaded", "w"); if (f) fclose(f); }\n' "$TMP" >"$TMP/plugin.c"
  g++ -x c -shared -fPIC -o "$TMP/plugin.so" "$TMP/plugin.c"
  run plugin "$TMP/src/k.cu" -- -fplugin="$TMP/plugin.so" -Xclang -load -Xclang "$TMP/plugin.so" -fpass-plugin="$TMP/plugin.so"
  expect_rc plugin 0
  [ ! -e "$TMP/loaded" ] || fail "a plugin named on the command line was loaded"
  checks=$((checks + 1))
fi

# Output goes to stdout and stderr only (and where --write-baseline says):
# nothing new appears next to the sources or in the working directory.
before=$(cd "$TMP" && find . | sort)
(cd "$TMP/src" && "$WARPLINT" --format=json k.cu >/dev/null 2>&1)
(cd "$TMP/src" && "$WARPLINT" --format=sarif k.cu >/dev/null 2>&1)
after=$(cd "$TMP" && find . | sort)
[ "$before" = "$after" ] || fail "files appeared: $(diff <(echo "$before") <(echo "$after"))"
checks=$((checks + 1))
done_checks
