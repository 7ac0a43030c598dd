# .warplint.yaml: found like .clang-tidy, merged with InheritParentConfig,
# overridden by options; bad files are errors with their line.
source "$(dirname "$0")/lib.bash"
proj="$TMP/proj"
mkdir -p "$proj/src/sub" "$proj/src/own"
# A strided global load (8x) and a 2-way shared conflict in one kernel, and a
# kernel with no launch whose figure depends on its block shape and on 'd'.
cat >"$proj/src/k.cu" <<'CU'
__global__ void both(const float *in, float *out) {
  __shared__ float s[512];
  int t = threadIdx.x;
  s[2 * t] = in[t * 8];
  __syncthreads();
  out[t] = s[t];
}
void launch(const float *in, float *out) { both<<<64, 256>>>(in, out); }
CU
cat >"$proj/src/sub/p.cu" <<'CU'
__global__ void rows(const float *in, float *out, int d) {
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  out[t] = in[t * d];
}
CU
cp "$proj/src/sub/p.cu" "$proj/src/own/p.cu"
cat >"$proj/.warplint.yaml" <<'Y'
# the project's choices
Rules: '-*,smem-bank-conflict,uncoalesced-global-access'
Thresholds:
  uncoalesced-global-access: 10
Y
cat >"$proj/src/sub/.warplint.yaml" <<'Y'
InheritParentConfig: true
Params: {d: 64}
BlockDim: [32, 4]
Y
cat >"$proj/src/own/.warplint.yaml" <<'Y'
Params:
  d: 1
Y
cd "$proj"

# The root's configuration: the 8x load is under the threshold of 10.
run root src/k.cu
expect_rc root 0
expect_in root out "warning: shared store has a 2-way bank conflict"
expect_not_in root out "uncoalesced"
# Options win over the file.
run rootcli --threshold=2 src/k.cu
expect_in rootcli out "global load is uncoalesced"
# Inherited: the root's rules and threshold, the sub directory's value of
# 'd' and block shape (32 sectors where 4: 8x, under the inherited 10).
run sub --format=json src/sub/p.cu
expect_rc sub 0
json sub "d['kernels'][0]['block_dim'] == [32, 4, 1] and [a['sectors_per_request'] for a in d['accesses'] if a['op'] == 'load'] == [32]"
json sub "d['diagnostics'] == []"
run subcli --threshold=2 src/sub/p.cu
expect_in subcli out "adjacent lanes are 256 bytes apart; 32 sectors per request where 4 would do"
# Not inherited: the defaults again, with d = 1 (coalesced).
run own --format=json src/own/p.cu
json own "[a['sectors_per_request'] for a in d['accesses'] if a['op'] == 'load'] == [4] and d['diagnostics'] == []"

# --dump-config and --verify-config.
run dump --dump-config src/sub/p.cu
expect_rc dump 0
expect_in dump out "# warplint configuration for src/sub/p.cu (from $proj/src/sub/.warplint.yaml, $proj/.warplint.yaml)"
expect_in dump out "Rules:           '-*,smem-bank-conflict,uncoalesced-global-access'"
expect_in dump out "BlockDim:        [ 32, 4, 1 ]"
expect_in dump out "d:               64"
expect_in dump out "uncoalesced-global-access: 10"
run dumpcli --dump-config --param=d=8 src/sub/p.cu
expect_in dumpcli out "with the command line's options"
expect_in dumpcli out "d:               8"
run verify --verify-config src/k.cu src/sub/p.cu src/own/p.cu
expect_rc verify 0
expect_in verify out "src/own/p.cu: configuration ok ($proj/src/own/.warplint.yaml)"

# --config and --config-file replace the files.
run inline --config="{Rules: 'uncoalesced-*'}" --format=json src/k.cu
json inline "[x['rule'] for x in d['diagnostics']] == ['uncoalesced-global-access']"
printf 'Rules: "smem-*"\n' >"$TMP/c.yaml"
run cfile --config-file="$TMP/c.yaml" --format=json src/k.cu
json cfile "[x['rule'] for x in d['diagnostics']] == ['smem-bank-conflict']"
run both --config="{}" --config-file="$TMP/c.yaml" src/k.cu
expect_rc both 2
expect_in both err "--config and --config-file do not go together"

# Errors: unknown key with its line, bad values, rules that match nothing.
mkdir -p "$TMP/bad1" "$TMP/bad2" "$TMP/bad3" "$TMP/bad4"
cp src/k.cu "$TMP/bad1/k.cu"; cp src/k.cu "$TMP/bad2/k.cu"
cp src/k.cu "$TMP/bad3/k.cu"; cp src/k.cu "$TMP/bad4/k.cu"
printf 'Rules: "*"\nRulez: "smem-*"\n' >"$TMP/bad1/.warplint.yaml"
printf 'Thresholds:\n  smem-bank-conflict: 0.5\n' >"$TMP/bad2/.warplint.yaml"
printf 'Rules: "nothing-*"\n' >"$TMP/bad3/.warplint.yaml"
printf 'BlockDim: [64, 64]\n' >"$TMP/bad4/.warplint.yaml"
run bad1 "$TMP/bad1/k.cu"
expect_rc bad1 2
expect_in bad1 err "$TMP/bad1/.warplint.yaml:2:1: unknown key 'Rulez'"
expect_in bad1 err "1 of 1 file could not be analyzed"
run bad2 "$TMP/bad2/k.cu"
expect_rc bad2 2
expect_in bad2 err "Thresholds: smem-bank-conflict must be a number greater than 1"
run bad3 "$TMP/bad3/k.cu"
expect_rc bad3 2
expect_in bad3 err "Rules 'nothing-*' turns on no rule"
run bad4 --verify-config "$TMP/bad4/k.cu"
expect_rc bad4 2
expect_in bad4 err "BlockDim: a block has at most 1024 threads"
# --verify-config lists every error of a file, one a line, not only the first.
mkdir -p "$TMP/bad5"
cp src/k.cu "$TMP/bad5/k.cu"
cat >"$TMP/bad5/.warplint.yaml" <<'YAML'
Rules: 'nothing-*'
BlockDim: [64, 64]
Arch: gfx90a
Thresholds:
  smem-bank-conflict: 0.5
DataMasks: sometimes
HeaderFilter: '(['
YAML
run bad5 --verify-config "$TMP/bad5/k.cu"
expect_rc bad5 2
expect_in bad5 err "warplint: error: $TMP/bad5/.warplint.yaml: BlockDim: a block has at most 1024 threads"
expect_in bad5 err "warplint: error: $TMP/bad5/.warplint.yaml: Arch wants sm_NN"
expect_in bad5 err "warplint: error: $TMP/bad5/.warplint.yaml: Thresholds: smem-bank-conflict must be a number greater than 1"
expect_in bad5 err "warplint: error: $TMP/bad5/.warplint.yaml: DataMasks wants auto, remark, warning or off"
[ "$(grep -c '^warplint: error: ' "$TMP/bad5.err")" = 4 ] ||
  fail "bad5: not 4 errors: $(cat "$TMP/bad5.err")"
# Once the file reads, the errors of applying it, all of them too.
mkdir -p "$TMP/bad6"
cp src/k.cu "$TMP/bad6/k.cu"
printf "Rules: 'nothing-*'\nHeaderFilter: '(['\n" >"$TMP/bad6/.warplint.yaml"
run bad6 --verify-config "$TMP/bad6/k.cu"
expect_rc bad6 2
expect_in bad6 err "Rules 'nothing-*' turns on no rule"
expect_in bad6 err "HeaderFilter '([' is not a regular expression"
# CheckOptions: any rule's own option, clang-tidy style; a name no rule
# declares, or a value out of range, is an error naming what there is.
mkdir -p "$TMP/bad7"
cp src/k.cu "$TMP/bad7/k.cu"
printf 'CheckOptions:\n  divergent-branch.MinShare: 3\n  idle-lanes.MinKernelShare: -1\n' >"$TMP/bad7/.warplint.yaml"
run bad7 --verify-config "$TMP/bad7/k.cu"
expect_rc bad7 2
expect_in bad7 err "CheckOptions: no option 'divergent-branch.MinShare' (options: "
expect_in bad7 err "divergent-branch.MinKernelShare"
expect_in bad7 err "CheckOptions: idle-lanes.MinKernelShare must be a number greater than 0"
# A lane-0 epilogue that is most of its kernel: a warning at the default 2%,
# a remark when the project asks for 90% and more.
cat >"$TMP/epilogue.cu" <<'CU'
__global__ void epilogue(const float *in, float *out) {
  if (threadIdx.x == 0) {
    float t = 0;
    for (int w = 0; w < 8; ++w)
      t += in[blockIdx.x * 256 + w * 32];
    out[blockIdx.x] = sqrtf(t);
  }
}
void go(const float *in, float *out) { epilogue<<<64, 256>>>(in, out); }
CU
run share "$TMP/epilogue.cu"
expect_rc share 0
expect_in share out "warning: branch diverges within a warp"
expect_in share out "% of the kernel's issue slots [divergent-branch]"
run share90 --config='CheckOptions: {divergent-branch.MinKernelShare: 90}' "$TMP/epilogue.cu"
expect_rc share90 0
expect_in share90 out "remark: branch diverges within a warp"
expect_in share90 out "note: under 90% (MinKernelShare): a remark, not a warning"
expect_not_in share90 out "warning:"
run sharedump --config='CheckOptions: {divergent-branch.MinKernelShare: 90}' --dump-config "$TMP/epilogue.cu"
expect_in sharedump out "divergent-branch.MinKernelShare: 90"
run badinline --config="Rules: [" src/k.cu
expect_rc badinline 2
expect_in badinline err "--config:1:"
done_checks
