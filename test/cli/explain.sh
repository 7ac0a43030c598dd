# --explain FILE:LINE draws one warp's request for the accesses on that line,
# and one warp's lanes for the branches and loops on it.
source "$(dirname "$0")/lib.bash"
fx=$TESTDIR/fixtures

run tile --explain="$fx/smem-bank-conflict/tiles.cu:14"
expect_rc tile 0
expect_in tile out "explain: shared load 'tile[threadIdx.x][threadIdx.y]' in transposeUnpadded, block 32x32x1 (launch site)"
expect_in tile out "32 wavefronts per request on average, ideal 1"
expect_in tile out "  wavefront 32 31  ."
expect_in tile out "explain: global store 'out[y * N + x]'"

run aos --explain="$fx/uncoalesced-global-access/structs-and-masks.cu:11" \
  "$fx/uncoalesced-global-access/structs-and-masks.cu"
expect_rc aos 0
expect_in aos out "12 sectors per request on average, ideal 4"
expect_in aos out "sector +0       [....####........####........####] lanes 0-2"

run gather --explain="$fx/uncoalesced-global-access/negatives.cu:22"
expect_rc gather 0
expect_in gather out "not drawn: the address depends on data loaded at run time"

# A branch: one warp's lanes, by iteration of the loop around it.
run branch --explain="$fx/idle-lanes/positives.cu:12"
expect_rc branch 0
expect_in branch out "explain: if 'tid % (2 * st) == 0' in interleaved, block 256x1x1 (launch site)"
expect_in branch out "  st = 1          X.X.X.X.X.X.X.X.X.X.X.X.X.X.X.X.  16 of 32"
expect_in branch out "  st = 128        X...............................  1 of 32"
expect_in branch out "3.98 lanes per warp instruction (predicated"
# A loop with a lane-dependent trip count: the lanes still in, by iteration.
run loop --explain="$fx/idle-lanes/positives.cu:24"
expect_in loop out "explain: loop 'k < (threadIdx.x & 31)' in laneLoop"
expect_in loop out "  iteration 0     .XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX  31 of 32"
expect_in loop out "(16 iterations drawn; more follow)"

# An address built from data is not drawn; the figure taken for it is
# named, with its assumption.
run data --explain="$fx/uncoalesced-global-access/data-addresses.cu:33" \
  "$fx/uncoalesced-global-access/data-addresses.cu"
expect_in data out "explain: global load 'table[row * width + x]' in pick"
expect_in data out "  not drawn: the address depends on data loaded at run time"
expect_in data out "  figure taken: 4 sectors per request, ideal 4, with the lanes of a warp agreeing on the data (assumed: neighbouring lanes' data close together)"
run datarandom --explain="$fx/uncoalesced-global-access/data-addresses.cu:20" \
  "$fx/uncoalesced-global-access/data-addresses.cu"
expect_in datarandom out ", with each lane's data drawn at random"

# Where the figure is an upper bound, the drawing (the figure's) says whose
# lanes the GPU runs instead: under a condition on data, with the figure for
# a few random lanes; past a bounds guard's bound, the crossing warp's.
run datamask --explain="$fx/uncoalesced-global-access/data-masks.cu:18" \
  "$fx/uncoalesced-global-access/data-masks.cu"
expect_in datamask out "  drawn with every lane taking it, the upper bound: which lanes do depends on data loaded at run time; with 4 of them (at random) 4 sectors per request, ideal 1"
tg="$fx/uncoalesced-global-access/tail-guards.cu"
run tail --explain="$tg:30" "$tg"
expect_in tail out "  warp 4, blockIdx 62, where the index crosses the bound of a guard, the conditions as written (at 'n' = 16000 (the launch at tail-guards.cu:66)): 32 of its lanes run it"
expect_in tail out "  the figure, 32 sectors per request on average (ideal 4), is a whole warp's, an upper bound"
expect_not_in tail out "drawn as if a whole warp ran it"
# A scalar tail after a vectorized body (the else of `(i + 1) * 4 <= n`):
# one lane of the grid runs its loop, three iterations; drawn so, not as 32
# lanes looping for ever.
line=$(grep -n 'for (int j = i \* 4; j < n; ++j)' "$tg" | cut -d: -f1)
run tailloop --explain="$tg:$line" "$tg"
expect_in tailloop out "  warp 7, blockIdx 63; X: still in the loop"
expect_in tailloop out "  drawn where the index crosses the bound of a guard, the conditions as written (at 'n' = 65535 (the launch at tail-guards.cu:65))"
expect_in tailloop out "  iteration 2                                    X  1 of 32"
expect_not_in tailloop out "iteration 3"
expect_not_in tailloop out "more follow"
run tailload --explain="$tg:$((line + 1))" "$tg"
expect_in tailload out "(the launch at tail-guards.cu:65)): 1 of its lanes runs it"
expect_in tailload out "  sector +0       [................####............] lanes 31"
# A loop that runs while its lanes are past a bound the project does not
# give: drawn with the bound set inside warp 0, and said so.
line=$(grep -n 'while ((i + 1) \* 4 > n)' "$tg" | cut -d: -f1)
run countdown --explain="$tg:$line" "$tg"
expect_in countdown out "  drawn with 'n' set to 64, so that the bound of a guard falls inside this warp (at run time the value decides which warp it falls in)"
expect_in countdown out "  iteration 0     ................XXXXXXXXXXXXXXXX  16 of 32"
expect_not_in countdown out "iteration 1 "
run countload --explain="$tg:$((line + 1))" "$tg"
expect_in countload out "  warp 0, blockIdx 0, with 'n' set to 64 so that the bound of a guard falls inside it (at run time the value decides which warp it falls in): 16 of its lanes run it"

run badexplain --explain=nowhere
expect_rc badexplain 2
expect_in badexplain err "--explain wants FILE:LINE"
# A line number past what a line can be is an error, not an abort.
run hugeline --explain="$fx/idle-lanes/positives.cu:99999999999999999999"
expect_rc hugeline 2
expect_in hugeline err "with a line number from 1 to 4294967295"
run nofile --explain=:24 "$fx/idle-lanes/positives.cu"
expect_rc nofile 2
expect_in nofile err "--explain wants FILE:LINE"

# A causal loop: the warp drawn is the one the warning names, in a block of
# median work (not block 0, whose row runs one lane once), with the rows
# ending just past its split.
causal=$(grep -n 'for (int col = threadIdx.x; col <= row' "$fx/divergent-branch/cost.cu" | cut -d: -f1)
run causal --remarks --explain="$fx/divergent-branch/cost.cu:$causal" "$fx/divergent-branch/cost.cu"
expect_rc causal 0
expect_in causal out "  warp 0, blockIdx 255; X: still in the loop"
expect_in causal out "  (iterations 0..48 not drawn: the rows end past the split)"
expect_in causal out "  iteration 63    XXXXXXXXXXXXXXXXXXXXXXXXX.......  25 of 32"

# Where iterations differ (an unrolled network, a butterfly's strides), the
# request drawn is the worst iteration's, the one a finding names, with the
# mean beside it.
un="$fx/smem-bank-conflict/unrolled-iterations.cu"
run unrolled --explain="$un:21" "$un"
expect_rc unrolled 0
expect_in unrolled out "  warp 0 (first to issue it), blockIdx 0, at 'j' = 16, the worst of its 8 unrolled iterations (2 wavefronts per request, ideal 1); 1.62 on average over the iterations, ideal 1"
expect_in unrolled out "  wavefront  2 16 17 18 19"
ps="$fx/smem-bank-conflict/parameter-sizes.cu"
looped=$(grep -n 's\[i0 + stride\] = a + b;' "$ps" | cut -d: -f1)
run looped --explain="$ps:$looped" "$ps"
expect_rc looped 0
expect_in looped out "the worst of its 5 iterations (4 wavefronts per request, ideal 1); 2.4 on average over the iterations, ideal 1"
expect_in looped out "  wavefront  4"
expect_not_in looped out "first iteration"
done_checks
