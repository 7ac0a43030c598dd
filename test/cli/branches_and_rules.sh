# JSON branches, rule selection, and the rule list.
source "$(dirname "$0")/lib.bash"
fx=$TESTDIR/fixtures

run br --format=json "$fx/divergent-branch/branches.cu" "$fx/divergent-branch/uniform.cu"
expect_rc br 0
json br "all(set(b) >= {'kernel','file','line','column','kind','divergent','data_dependent','depends_on'} for b in d['branches'])"
json br "[b['split'] for b in d['branches'] if b['kernel'] == 'laneThreshold' and b['kind'] == 'if'] == [{'warp': 0, 'block': [0, 0, 0], 'taken_lanes': '3..31', 'skipped_lanes': '0..2'}]"
json br "[b['divergent'] for b in d['branches'] if b['kernel'] == 'laneLoop' and b['kind'] == 'loop' and b['line'] == 41] == [True]"
# What a divergent body's idle lanes waste of the kernel's issue slots:
# half of the kernel's work runs in a loop at 16 of 32 lanes; a branch that
# does not split has none.
json br "[round(b['waste_share'], 2) for b in d['branches'] if b['kernel'] == 'laneLoop' and b['kind'] == 'loop' and b['line'] == 41] == [0.5]"
json br "all(b['waste_share'] is None for b in d['branches'] if not b['divergent'])"
json br "[b['depends_on'] for b in d['branches'] if b['kernel'] == 'oddLanes' and b['kind'] == 'if'] == [['threadIdx.x']]"
# Uniform, guarded, and data-dependent conditions in uniform.cu.
json br "all(b['divergent'] in (False, None) or b['weight'] < 4 for b in d['branches'] if b['kernel'] == 'uniformBranches')"
json br "[b['divergent'] for b in d['branches'] if b['kernel'] == 'uniformBranches' and b['data_dependent']] == [None]"
json br "any(x['rule'] == 'divergent-branch' for x in d['diagnostics'])"
# How full the warps are that run a body, and where the body is.
json br "[(b['body_lines'], b['active_lanes'], b['predicated'], b['lane_spread']) for b in d['branches'] if b['kernel'] == 'oddLanes' and b['kind'] == 'if'] == [([22, 26], 16, False, 2)]"
json br "[(b['active_lanes'], b['issue_ratio']) for b in d['branches'] if b['kernel'] == 'laneLoop' and b['kind'] == 'loop' and b['line'] == 41][0][0] == 16"
json br "all(b['active_lanes'] is None for b in d['branches'] if b['data_dependent'] or b['kind'] == 'switch')"

run some --rules='*,-divergent-branch' --format=json "$fx/divergent-branch/branches.cu"
expect_rc some 0
json some "all(x['rule'] != 'divergent-branch' for x in d['diagnostics'])"

run only --rules='smem-*' "$fx/smem-bank-conflict/tiles.cu"
expect_in only out "[smem-bank-conflict]"
expect_not_in only out "[uncoalesced-global-access]"

run none --rules='nothing-*' "$fx/smem-bank-conflict/tiles.cu"
expect_rc none 2
expect_in none err "turns on no rule"

run data --warn-data-dependent-branches "$fx/divergent-branch/uniform.cu"
expect_in data out "condition depends on data loaded per lane"

run list --list-rules
expect_rc list 0
for r in uncoalesced-global-access smem-bank-conflict constant-nonuniform-access \
         divergent-branch divergent-syncthreads legacy-warp-intrinsic \
         full-mask-in-divergent-code activemask-as-convergence-mask \
         missing-syncwarp partial-warp-block; do
  expect_in list out "$r"
done
done_checks
