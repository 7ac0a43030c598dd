# The kernel's work estimate (`issue` in JSON): warp instructions a launch
# issues, the lanes that run them, and what the figure rests on.
source "$(dirname "$0")/lib.bash"

cat >"$TMP/work.cu" <<'CU'
// Harris' interleaved reduction and the sequential one: the same loads and
// stores, but the interleaved test (tid % (2*s), a division by a variable)
// and its predicated body keep every warp issuing at every step.
__global__ void interleaved(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    if (tid % (2 * st) == 0)
      s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
__global__ void sequential(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st)
      s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
// Lane k runs k iterations: the warp runs 31, at 16 lanes on average.
__global__ void laneLoop(float *out) {
  float x = 0;
  for (int k = 0; k < (threadIdx.x & 31); ++k)
    x += out[k];
  out[threadIdx.x] = x;
}
// A trip count the launch does not show.
__global__ void sized(float *out, int n) {
  for (int k = 0; k < n; ++k)
    out[k * blockDim.x + threadIdx.x] += 1;
}
// Loops with constant bounds: nvcc unrolls them, so they have no test or
// update, and v[i] is a register. `#pragma unroll 1` keeps the loop.
__global__ void unrolled(const float *in, float *out) {
  float v[8];
  for (int i = 0; i < 8; ++i)
    v[i] = in[threadIdx.x * 8 + i];
  float s = 0;
  for (int i = 0; i < 8; ++i)
    s += v[i];
  out[threadIdx.x] = s;
}
__global__ void rolled(const float *in, float *out) {
  float v[8];
#pragma unroll 1
  for (int i = 0; i < 8; ++i)
    v[i] = in[threadIdx.x * 8 + i];
  float s = 0;
#pragma unroll 1
  for (int i = 0; i < 8; ++i)
    s += v[i];
  out[threadIdx.x] = s;
}
// Two counters stepped together: the trip count comes from the one the
// condition tests (48 iterations), whichever is declared first.
__global__ void twoCounters(float *out, int w) {
  int off = threadIdx.x;
#pragma unroll 1
  for (int t = 0; t < 48; ++t, off += w)
    out[off] += 1;
}
static const unsigned N = 1u << 20;
void run(const float *in, float *out, int n) {
  interleaved<<<N / 256, 256>>>(in, out);
  sequential<<<N / 256, 256>>>(in, out);
  laneLoop<<<8, 64>>>(out);
  sized<<<n, 128>>>(out, n);
  unrolled<<<1, 256>>>(in, out);
  rolled<<<1, 256>>>(in, out);
  twoCounters<<<1, 256>>>(out, n);
}
CU

run w --format=json "$TMP/work.cu"
expect_rc w 0
json w "all(k['issue'] is not None for k in d['kernels'])"
json w "all(set(k['issue']) == {'warp_instructions_per_block', 'warp_instructions_per_launch', 'grid_dim', 'grid_dim_source', 'active_lanes', 'assumptions'} for k in d['kernels'])"
# The grid of the launch, where it is, and the launch's total.
json w "[(k['issue']['grid_dim'], k['issue']['grid_dim_source']) for k in d['kernels'] if k['name'] == 'interleaved'] == [([4096, 1, 1], 'the launch at work.cu:74')]"
json w "all(k['issue']['warp_instructions_per_launch'] == k['issue']['warp_instructions_per_block'] * 4096 for k in d['kernels'] if k['name'] in ('interleaved', 'sequential'))"
# The interleaved reduction issues at least twice the sequential one (the
# GPU: 2.4x the warp instructions, 2.0x the time), at fewer lanes.
json w "(lambda i, s: i['warp_instructions_per_launch'] >= 2 * s['warp_instructions_per_launch'] and i['active_lanes'] < 32)(*[k['issue'] for n in ('interleaved', 'sequential') for k in d['kernels'] if k['name'] == n])"
json w "[k['issue']['assumptions'] for k in d['kernels'] if k['name'] in ('interleaved', 'sequential', 'laneLoop')] == [[], [], []]"
# A lane-dependent trip count: 2 warps run 31 iterations at 16 lanes each
# (the loop's body, next to the straight-line code at 32).
json w "[16 < k['issue']['active_lanes'] < 20 for k in d['kernels'] if k['name'] == 'laneLoop'] == [True]"
json w "[k['issue']['warp_instructions_per_block'] > 2 * 31 * 3 for k in d['kernels'] if k['name'] == 'laneLoop'] == [True]"
# Per warp: 8 loads at 4 instructions (the address's multiply and add, the
# element's address and load), 8 register adds, three declarations with a
# value (s and the two loop counters: 1 each), the store (2); a kept loop
# adds its test, update and branch (3) to each iteration.
json w "[k['issue']['warp_instructions_per_block'] for k in d['kernels'] if k['name'] == 'unrolled'] == [8 * (8 * 4 + 8 * 1 + 3 + 2)]"
json w "[k['issue']['warp_instructions_per_block'] for k in d['kernels'] if k['name'] == 'rolled'] == [8 * (8 * 4 + 8 * 1 + 3 + 2 + 2 * 8 * 3)]"
# 8 warps, 48 iterations of a load, an add, a store, the address's update
# and the loop's test, update and branch: no assumption on 'w', which only
# the other counter uses, and no loop left running to the cap.
json w "[k['issue']['assumptions'] for k in d['kernels'] if k['name'] == 'twoCounters'] == [[]]"
json w "[8 * 48 * 5 < k['issue']['warp_instructions_per_block'] < 8 * 48 * 10 for k in d['kernels'] if k['name'] == 'twoCounters'] == [True]"
# A grid and a trip count the project does not show: per block only, with
# the value it assumed.
json w "[(k['issue']['warp_instructions_per_launch'], k['issue']['grid_dim'], k['issue']['grid_dim_source']) for k in d['kernels'] if k['name'] == 'sized'] == [(None, None, '')]"
json w "[k['issue']['assumptions'] for k in d['kernels'] if k['name'] == 'sized'] == [[\"'n' = 1024 (not known)\"]]"

# A value given for the unknown replaces the assumption.
run p --format=json --param=n=8 "$TMP/work.cu"
expect_rc p 0
json p "[k['issue']['assumptions'] for k in d['kernels'] if k['name'] == 'sized'] == [[]]"
# 8 iterations instead of 1024: the loop's share of the work scales down.
python3 - "$TMP/w.out" "$TMP/p.out" <<'PY' || fail "the work of 'sized' does not follow n"
import json, sys
w, p = ([k['issue']['warp_instructions_per_block'] for k in
         json.load(open(f))['kernels'] if k['name'] == 'sized'][0]
        for f in sys.argv[1:])
sys.exit(0 if 100 < w / p < 128 else 1)
PY
checks=$((checks + 1))
done_checks
