# Shared helpers for the command-line tests: each test is a bash script run as
# `bash test.sh <warplint> <test dir>` that exits non-zero on the first failure.
set -u
WARPLINT=$1
TESTDIR=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
checks=0

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# run <name> <args...>: runs warplint, keeps stdout, stderr and the exit code.
run() {
  local name=$1
  shift
  "$WARPLINT" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
  echo $? >"$TMP/$name.rc"
}
expect_rc() { # <name> <code>
  local got
  got=$(cat "$TMP/$1.rc")
  [ "$got" = "$2" ] || fail "$1: exit code $got, expected $2; stderr: $(cat "$TMP/$1.err")"
  checks=$((checks + 1))
}
expect_in() { # <name> <out|err> <fixed string>
  grep -qF -- "$3" "$TMP/$1.$2" || fail "$1: $2 lacks '$3'; it was: $(cat "$TMP/$1.$2")"
  checks=$((checks + 1))
}
expect_not_in() {
  if grep -qF -- "$3" "$TMP/$1.$2"; then fail "$1: $2 has '$3'"; fi
  checks=$((checks + 1))
}
# json <name> <python expression over `d`, the parsed document>
json() {
  python3 - "$TMP/$1.out" "$2" <<'PY' || fail "$1: JSON check failed: $2"
import json, sys
d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
if not ok:
    print("not true:", sys.argv[2], file=sys.stderr)
    print(json.dumps(d, indent=1)[:3000], file=sys.stderr)
    sys.exit(1)
PY
  checks=$((checks + 1))
}
done_checks() { echo "$checks passed, 0 failed"; }
