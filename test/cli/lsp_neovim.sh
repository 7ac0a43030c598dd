# warplint --lsp in Debian's Neovim, headless, with its built-in LSP client
# (test/lsp/neovim.lua): the diagnostics Neovim shows (rule, place in the
# buffer's bytes, figures, rule page, notes), a hover with the lane/bank
# picture, an edit typed into the buffer and its new result, and a clean
# shutdown when the client stops.
source "$(dirname "$0")/lib.bash"
if ! command -v nvim >/dev/null && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's neovim"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends neovim \
    >"$TMP/apt.log" 2>&1 ||
    { DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends neovim \
        >"$TMP/apt.log" 2>&1; } || cat "$TMP/apt.log"
fi
if ! command -v nvim >/dev/null; then
  echo "SKIP: neovim is not installed and could not be (scripts/setup.sh installs it)"
  exit 77
fi
mkdir -p "$TMP/src"
src="$TMP/src/transpose.cu"
# transpose.cu, with a character outside the Basic Multilingual Plane before
# the flagged shared load of transposeTile: the server counts it as two
# UTF-16 units, Neovim's diagnostics as four bytes.
python3 - "$TESTDIR/../examples/transpose.cu" "$src" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
old = "  out[y * N + x] = tile[threadIdx.x][threadIdx.y];\n}\n\n// The fix"
assert old in text, "examples/transpose.cu changed: update this test"
open(sys.argv[2], "w", encoding="utf-8").write(
    text.replace(old, "  /*\U0001F600*/" + old[1:], 1))
PY
export WARPLINT LSP_SOURCE="$src" LSP_OUT="$TMP/nvim.out"
export XDG_CONFIG_HOME="$TMP/config" XDG_DATA_HOME="$TMP/data" \
  XDG_STATE_HOME="$TMP/state" XDG_CACHE_HOME="$TMP/cache" HOME="$TMP"
timeout 300 nvim --headless --clean -c "luafile $TESTDIR/lsp/neovim.lua" \
  >"$TMP/nvim.log" 2>&1
[ -s "$TMP/nvim.out" ] || fail "neovim wrote no result: $(cat "$TMP/nvim.log")"
json nvim 'd.get("error") is None and d["client"]'
json nvim 'd["steps"]["first"] and d["steps"]["after"] and d["steps"]["stopped"]'
python3 - "$TMP/nvim.out" "$src" <<'PY' || fail "neovim's view of the diagnostics is wrong"
import json, sys
d = json.load(open(sys.argv[1]))
lines = open(sys.argv[2], encoding="utf-8").read().split("\n")
row = next(i for i, l in enumerate(lines) if "/*\U0001F600*/" in l)
col = lines[row].encode("utf-8").index(b"tile[threadIdx.x][threadIdx.y]")
naive = next(i for i, l in enumerate(lines) if "out[x * N + y] = in[y * N + x]" in l)
def show(what):
    print(what, json.dumps(d, indent=1)[:4000], file=sys.stderr)
    sys.exit(1)
first = d["first"]
smem = [x for x in first if x.get("code") == "smem-bank-conflict"]
if len(smem) != 1: show("one bank conflict expected")
s = smem[0]
# Neovim turns the server's UTF-16 characters into byte columns of the buffer.
if (s["lnum"], s["col"], s["end_lnum"]) != (row, col, row): show("place %d:%d" % (row, col))
if s["end_col"] != col + len("tile[threadIdx.x][threadIdx.y]"): show("end column")
if s["severity"] != 2 or s["source"] != "warplint": show("a warning from warplint")
if "32-way bank conflict" not in s["message"] or "32 wavefronts where 1 would do" not in s["message"]:
    show("the figures")
lsp = s["user_data"]["lsp"]
if not lsp["codeDescription"]["href"].endswith("/rules/smem-bank-conflict.md"): show("rule page")
if not any("declare it as 'float tile[32][33]'" in r["message"] for r in lsp["relatedInformation"]):
    show("the padding note")
unc = [x for x in first if x.get("code") == "uncoalesced-global-access"]
if len(unc) != 2 or not any(x["lnum"] == naive and "16384 bytes apart" in x["message"] for x in unc):
    show("the uncoalesced store")
hover = d.get("hover") or {}
value = hover.get("contents", {}).get("value", "")
for want in ["explain: shared load 'tile[threadIdx.x][threadIdx.y]' in transposeTile",
             "32 wavefronts per request on average, ideal 1", "  wavefront 32 31  ."]:
    if want not in value: show("hover lacks %r" % want)
after = d["after"]
if any(x.get("code") == "smem-bank-conflict" for x in after): show("the edit removes the conflict")
if len([x for x in after if x.get("code") == "uncoalesced-global-access"]) != 2:
    show("the other findings stay after the edit")
if d.get("exit_code") != 0: show("the server exits with 0 after shutdown")
print("neovim: %d diagnostics, hover of %d characters, %d after the edit" %
      (len(first), len(value), len(after)))
PY
checks=$((checks + 1))
done_checks
