# The JSON document: fields, figures and where the block shape came from.
source "$(dirname "$0")/lib.bash"
fx=$TESTDIR/fixtures/uncoalesced-global-access

run doc --format=json "$fx/code-shapes.cu" "$fx/blocks-2d.cu" "$fx/assumed-shape.cu"
expect_rc doc 0
json doc "d['tool'] == 'warplint' and d['format_version'] == 1"
json doc "all(f['status'] == 'ok' for f in d['files'])"
# Kernel names are unqualified and carry no template arguments.
json doc "'firstMember' in [k['name'] for k in d['kernels']]"
json doc "all('<' not in k['name'] for k in d['kernels'])"
json doc "[k['block_dim'] for k in d['kernels'] if k['name'] == 'transposeNaive'] == [[16, 16, 1]]"
json doc "[k['block_dim_source'] for k in d['kernels'] if k['name'] == 'transposeNaive'] == ['launch site']"
json doc "[k['block_dim_source'] for k in d['kernels'] if k['name'] == 'stride32'] == ['assumed']"
# Every global access the model evaluated, with its figures.
json doc "all(a['space'] == 'global' and a['op'] in ('load', 'store') for a in d['accesses'])"
json doc "all(set(a) >= {'kernel','file','line','column','element_bytes','active_lanes','sectors_per_request','ideal_sectors_per_request','stride_bytes'} for a in d['accesses'])"
json doc "[(a['sectors_per_request'], a['ideal_sectors_per_request']) for a in d['accesses'] if a['kernel'] == 'transposeNaive' and a['op'] == 'store'] == [(16, 4)]"
json doc "[a['stride_bytes'] for a in d['accesses'] if a['kernel'] == 'rowPerThread' and a['op'] == 'load'] == [256]"
json doc "[a['element_bytes'] for a in d['accesses'] if a['kernel'] == 'pointerWalk' and a['op'] == 'load'] == [8]"
json doc "all(set(x) >= {'rule','file','line','column','kernel','message'} for x in d['diagnostics'])"
json doc "len([x for x in d['diagnostics'] if x['kernel'] == 'firstMember']) == 1"

# What the model could not know is null, with the reason, never a guess.
run unknown --format=json "$fx/negatives.cu"
expect_rc unknown 0
json unknown "d['diagnostics'] == []"
json unknown "[a['sectors_per_request'] for a in d['accesses'] if a['expr'] == 'in[idx[g]]'] == [None]"
json unknown "[a['unknown_reason'] for a in d['accesses'] if a['expr'] == 'in[idx[g]]'] == ['the address depends on data loaded at run time']"
json unknown "[(a['exact'], a['depends_on']) for a in d['accesses'] if a['expr'] == 'in[g >> s]'] == [(False, ['s'])]"

# An unknown stride is a symbol over its realistic range: the warning says
# the dependence and the assumption it rests on; the range covers all values.
run symbolic --format=json "$fx/unknown-values.cu"
expect_rc symbolic 0
json symbolic "[(a['exact'], a['sectors_per_request_range'], a['depends_on']) for a in d['accesses'] if a['expr'] == 'in[g * s]' and a['kernel'] == 'runtimeStride'] == [(False, [4, 32], ['s'])]"
json symbolic "any(\"4*s bytes apart\" in x['message'] and \"assuming 's' >= 32\" in x['message'] for x in d['diagnostics'])"

# A parameter the launch passes as another plus a constant is that sum, and
# the access's assumptions say so and where.
run related --format=json "$fx/launch-relations.cu"
expect_rc related 0
json related "[a['sectors_per_request'] for a in d['accesses'] if a['kernel'] == 'halo' and a['op'] == 'load'] == [9]"
json related "[a['assumptions'][-1] for a in d['accesses'] if a['kernel'] == 'halo' and a['op'] == 'load'] == [\"'start' = 'first' + 2 (the launch at launch-relations.cu:73)\"]"
json related "[a['depends_on'] for a in d['accesses'] if a['kernel'] == 'changed' and a['op'] == 'load'] == [['start', 'first']]"

# No lane runs it at the representative offset: the figures are a sample's,
# and the assumptions say which.
run dead --format=json "$fx/dead-at-representative.cu"
expect_rc dead 0
json dead "all(\"figures at 'offset_i' = 1\" in a['assumptions'][-1] for a in d['accesses'])"
json dead "[round(a['sectors_per_request'], 2) for a in d['accesses']] == [31.94, 31.94]"
# A verified fix as an edit of the source: the tile's inner extent, a
# literal replaced, a macro extended; clang-style text shows it as a fix-it
# under the declaration. Layouts with no verified fix carry none.
cat >"$TMP/pad.cu" <<'CU'
#define TILE 32
__global__ void literal(float *o) {
  __shared__ float s[32][32];
  s[threadIdx.x][threadIdx.y] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.y] = s[threadIdx.y][threadIdx.x];
}
__global__ void named(float *o) {
  __shared__ float s[TILE][TILE];
  s[threadIdx.x][threadIdx.y] = o[threadIdx.x];
  __syncthreads();
  o[threadIdx.y] = s[threadIdx.y][threadIdx.x];
}
__global__ void flat(float *o) {
  __shared__ float s[32 * 32];
  s[threadIdx.x * 32] = o[threadIdx.x];
}
void go(float *o) { literal<<<1, dim3(32, 32)>>>(o); named<<<1, dim3(32, 32)>>>(o); flat<<<1, 32>>>(o); }
CU
run fixes --format=json "$TMP/pad.cu"
json fixes "[(x['kernel'], [(f['line'], f['column'], f['end_line'], f['end_column'], f['replacement']) for f in x['fixes']]) for x in d['diagnostics']] == [('literal', [(3, 26, 3, 28, '33')]), ('named', [(9, 28, 9, 32, 'TILE + 1')]), ('flat', [])]"
json fixes "all(f['description'] == \"pad the inner dimension: declare it as 'float s[32][33]'\" for x in d['diagnostics'] for f in x['fixes'])"
run fixes_text "$TMP/pad.cu"
expect_in fixes_text out "    9 |   __shared__ float s[TILE][TILE];"
expect_in fixes_text out "      |                            TILE + 1"
# The fix-it is on a note at the declaration: each warning's snippet stays
# its own access line, with its own line number.
expect_in fixes_text out "/pad.cu:9:28: note: the array is declared here"
grep -A1 "pad.cu:10:3: warning" "$TMP/fixes_text.out" |
  grep -qF "   10 |   s[threadIdx.x][threadIdx.y] = o[threadIdx.x];" ||
  fail "fixes_text: the warning at line 10 does not show its own line"
checks=$((checks + 1))
# An offset of unknown alignment (a halo origin added to the lane index):
# the figure takes it unaligned, rows of 8 floats straddle two sectors;
# the aligned case is realistic too, so no warning; a value given aligns it.
cat >"$TMP/offset.cu" <<'CU'
__global__ void halo(const float *u, float *v, int z3, int ld) {
  int k = z3 + blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  v[j * ld + k] = u[j * ld + k];
}
void go(const float *u, float *v, int z3, int ld) {
  halo<<<dim3(4, 4), dim3(8, 4)>>>(u, v, z3, ld);
}
CU
run offset --format=json "$TMP/offset.cu"
expect_rc offset 0
json offset "[(a['sectors_per_request'], a['ideal_sectors_per_request'], a['exact']) for a in d['accesses']] == [(8, 4, False)] * 2"
json offset "d['diagnostics'] == []"
run offset_given --format=json --param z3=16 "$TMP/offset.cu"
json offset_given "[a['sectors_per_request'] for a in d['accesses']] == [4, 4]"
done_checks
