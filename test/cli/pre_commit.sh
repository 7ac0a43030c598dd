# The pre-commit hook end to end with Debian's pre-commit: this checkout is
# the hook repository of a scratch git repository; a commit of a bad kernel
# fails with warplint's message, a clean one passes.
source "$(dirname "$0")/lib.bash"
checkout=$(cd "$TESTDIR/.." && pwd)
if ! command -v pre-commit >/dev/null || ! command -v git >/dev/null; then
  echo "SKIP: pre-commit or git not installed (scripts/setup.sh installs them)"
  exit 77
fi
if ! rev=$(git -C "$checkout" rev-parse HEAD 2>/dev/null) ||
   ! git -C "$checkout" cat-file -e "$rev:.pre-commit-hooks.yaml" 2>/dev/null; then
  echo "SKIP: $checkout is not a git checkout with .pre-commit-hooks.yaml committed"
  exit 77
fi
export PATH="$(cd "$(dirname "$WARPLINT")" && pwd):$PATH"
export PRE_COMMIT_HOME="$TMP/cache" HOME="$TMP"
repo="$TMP/repo"
git init -q "$repo"
cd "$repo"
git config user.email t@example.invalid
git config user.name test
git config commit.gpgsign false
cat >.pre-commit-config.yaml <<Y
repos:
  - repo: $checkout
    rev: $rev
    hooks:
      - id: warplint
Y
git add .pre-commit-config.yaml
git commit -q -m config --no-verify
pre-commit install >"$TMP/install.out" 2>&1 || fail "pre-commit install: $(cat "$TMP/install.out")"

# A strided load: the hook fails and shows the finding.
cat >k.cu <<'CU'
__global__ void copy(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
}
void launch(const float *in, float *out) { copy<<<64, 256>>>(in, out, 0); }
CU
git add k.cu
start=$(date +%s.%N)
git commit -q -m bad >"$TMP/bad.out" 2>&1
rc=$?
end=$(date +%s.%N)
[ $rc -ne 0 ] || fail "the commit of a bad kernel passed: $(cat "$TMP/bad.out")"
checks=$((checks + 1))
expect_in bad out "warplint"
expect_in bad out "Failed"
expect_in bad out "k.cu:3:12: warning: global load is uncoalesced"
[ -z "$(git log --oneline -1 -- k.cu)" ] || fail "the bad kernel was committed"
checks=$((checks + 1))

# Fixed: the hook passes and the commit lands.
sed -i 's/in\[i \* 32\]/in[i]/' k.cu
git add k.cu
git commit -q -m good >"$TMP/good.out" 2>&1 || fail "the commit of a clean kernel failed: $(cat "$TMP/good.out")"
checks=$((checks + 1))
expect_in good out "Passed"
# Files the hook does not match are not analyzed.
echo "int main() { return 0; }" >host.cpp
git add host.cpp
git commit -q -m host >"$TMP/host.out" 2>&1 || fail "a commit without CUDA files failed: $(cat "$TMP/host.out")"
expect_in host out "(no files to check)Skipped"
echo "hook on one bad file: $(echo "$end - $start" | bc 2>/dev/null || echo "?") s (git commit included)"
done_checks
