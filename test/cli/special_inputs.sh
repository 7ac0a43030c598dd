# Inputs that are not regular files are read once, bounded by
# --max-file-size: a device that never ends (/dev/zero) is refused when it
# passes the limit, a FIFO is read once (a second read would wait for a
# writer forever), and `-` reads the source from stdin, as clang does, with
# --stdin-filename naming it for diagnostics and the compile database.
source "$(dirname "$0")/lib.bash"
ok=$TMP/ok.cu
cat >"$ok" <<'CU'
__global__ void strided(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x * 32];
}
CU
finding="warning: global load is uncoalesced"

# /dev/zero: refused at the limit, in moments, not read to the end.
SECONDS=0
run zero --max-file-size=1 /dev/zero
expect_rc zero 2
expect_in zero err "too large"
[ "$SECONDS" -lt 30 ] || fail "zero: took ${SECONDS}s"

# A FIFO: read once, analyzed.
mkfifo "$TMP/pipe.cu"
cat "$ok" >"$TMP/pipe.cu" &
timeout 60 "$WARPLINT" "$TMP/pipe.cu" >"$TMP/fifo.out" 2>"$TMP/fifo.err"
echo $? >"$TMP/fifo.rc"
wait
expect_rc fifo 0
expect_in fifo out "pipe.cu:2:"

# stdin as `-`, and as /dev/stdin.
"$WARPLINT" - <"$ok" >"$TMP/dash.out" 2>"$TMP/dash.err"
echo $? >"$TMP/dash.rc"
expect_rc dash 0
expect_in dash out "<stdin>:2:"
cat "$ok" | timeout 60 "$WARPLINT" /dev/stdin >"$TMP/devstdin.out" 2>"$TMP/devstdin.err"
echo $? >"$TMP/devstdin.rc"
expect_rc devstdin 0
expect_in devstdin out "$finding"
expect_not_in devstdin err "no __global__ function"

# --stdin-filename: the diagnostics' file, and the compile database's
# command for it (a macro only the database defines; the file on disk is
# not read: an editor's unsaved buffer).
mkdir -p "$TMP/proj/src"
printf 'this file on disk is not the one analyzed\n' >"$TMP/proj/src/k.cu"
cat >"$TMP/proj/compile_commands.json" <<JSON
[{"directory": "$TMP/proj", "file": "src/k.cu",
  "command": "nvcc -DSTRIDE=32 -c src/k.cu -o k.o"}]
JSON
printf '__global__ void s(const float *in, float *out) {\n  out[threadIdx.x] = in[threadIdx.x * STRIDE];\n}\n' |
  "$WARPLINT" -p "$TMP/proj" --stdin-filename="$TMP/proj/src/k.cu" - \
    >"$TMP/named.out" 2>"$TMP/named.err"
echo $? >"$TMP/named.rc"
expect_rc named 0
expect_in named out "src/k.cu:2:"
# As JSON, the file is the name given.
cat "$ok" | "$WARPLINT" --format=json --stdin-filename=src/ok.cu - \
  >"$TMP/namedjson.out" 2>"$TMP/namedjson.err"
echo $? >"$TMP/namedjson.rc"
expect_rc namedjson 0
json namedjson "d['files'][0]['path'].endswith('src/ok.cu') and len(d['diagnostics']) == 1"

# stdin past the limit, and stdin beside a regular file.
head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' ' ' |
  "$WARPLINT" --max-file-size=1 - >"$TMP/bigstdin.out" 2>"$TMP/bigstdin.err"
echo $? >"$TMP/bigstdin.rc"
expect_rc bigstdin 2
expect_in bigstdin err "too large"
cat "$ok" | "$WARPLINT" - "$ok" >"$TMP/both.out" 2>"$TMP/both.err"
echo $? >"$TMP/both.rc"
expect_rc both 0
expect_in both out "<stdin>:2:"
expect_in both out "ok.cu:2:"

# Misuse: `-` twice, --stdin-filename without `-`.
run twice - -
expect_rc twice 2
expect_in twice err "'-' (stdin) can be given once"
run nodash --stdin-filename=x.cu "$ok"
expect_rc nodash 2
expect_in nodash err "--stdin-filename needs '-'"
done_checks
