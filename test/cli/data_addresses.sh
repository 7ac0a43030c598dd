# Addresses built from data: not evaluated, with an estimate in JSON; by
# default (narrow) a warning for global elements of 1 or 2 bytes and for
# addresses that take a field of data's bits, a remark or a warning for every element when asked for (--data-addresses,
# DataAddresses).
source "$(dirname "$0")/lib.bash"
fx=$TESTDIR/fixtures/uncoalesced-global-access/data-addresses.cu

# By default only the segment spmv's lanes each walk (`val[n]` from
# `rowp[i]` to `rowp[i + 1]`) and the gather through it (`x[col[n]]`) are
# warnings.
run default --fail-on=remark "$fx"
expect_rc default 1
expect_in default out "warning: global load depends on data: if 'rowp[i]' and 'rowp[i + 1]' differ at random between lanes"
expect_not_in default out "if 'label"
expect_in default out "warning: global load depends on data: if 'col[n]' differs at random between lanes"
expect_in default err "2 warnings in 1 file"

bytes=$TESTDIR/fixtures/uncoalesced-global-access/data-bytes.cu
run narrow --fail-on-warnings "$bytes"
expect_rc narrow 1
expect_in narrow out "warning: global load depends on data: if 'in[t]' differs at random between lanes"
expect_in narrow out "if 'state[0]' differs at random between lanes, 7.9 sectors per request"
expect_not_in narrow out "'state[1]' differs"
# An eight-byte table picked by a message word's low byte: a field of data.
expect_in narrow out "if 'msg[t]' differs at random between lanes, 25.5 sectors per request where 8 would do"
# A lattice cell computed in floating point is no such field.
expect_not_in narrow out "perm[cell]"
expect_in narrow err "4 warnings in 1 file"
run narrow_off --data-addresses=off --fail-on-warnings "$bytes"
expect_rc narrow_off 0
expect_not_in narrow_off out "depends on data"
run narrow_named --data-addresses=narrow --fail-on-warnings "$bytes"
expect_rc narrow_named 1

run json --format=json "$fx"
expect_rc json 0
json json "[x['kernel'] for x in d['diagnostics']] == ['spmv', 'spmv']"
# The gather's estimate: scattered at random, one element where lanes agree.
json json "[a['data_estimate']['random']['sectors_per_request'] > 20 and a['data_estimate']['agree']['sectors_per_request'] == 1 for a in d['accesses'] if a['expr'] == 'x[col[n]]'] == [True]"
json json "[a['data_estimate']['data'] for a in d['accesses'] if a['expr'] == 'x[col[n]]'] == [['col[n]']]"
json json "[a['data_estimate']['element_offset'] for a in d['accesses'] if a['expr'] == 'out[offsets[k & 15] + t]'] == [True]"
json json "all(not a['evaluated'] for a in d['accesses'] if 'data_estimate' in a)"
# The figure taken: the random one for the segment's gather, the one where
# the lanes agree for a row picked by a label and for a partitioned scatter.
json json "[a['data_estimate']['expected'] for a in d['accesses'] if a['expr'] == 'x[col[n]]'] == ['random']"
json json "{a['data_estimate']['expected'] for a in d['accesses'] if a['expr'].startswith('table[row')} == {'agree'}"
json json "[a['data_estimate']['expected'] for a in d['accesses'] if a['expr'] == 'out[offsets[k & 15] + t]'] == ['agree']"
run json_all --format=json --data-addresses=warning "$fx"
json json_all "{a['data_estimate']['expected'] for a in d['accesses'] if a['expr'].startswith('table[row')} == {'random'}"
json json_all "[a['data_estimate']['expected'] for a in d['accesses'] if a['expr'] == 'out[offsets[k & 15] + t]'] == ['agree']"
# --remarks says which figure is taken and on what assumption.
run remarks --remarks "$fx"
expect_in remarks out "the figure taken is the one where they agree (assumed: neighbouring lanes' data close together)"
expect_in remarks out "the figure taken is the random one"

run remark --data-addresses=remark --fail-on-warnings "$fx"
expect_rc remark 0
expect_in remark out "remark: global load depends on data: if 'col[n]' differs at random between lanes"
expect_in remark err "0 warnings and 3 remarks"

run warning --data-addresses=warning --fail-on-warnings "$fx"
expect_rc warning 1
expect_in warning out "warning: global load depends on data"

mkdir -p "$TMP/p"
cp "$fx" "$TMP/p/k.cu"
printf 'DataAddresses: remark\n' >"$TMP/p/.warplint.yaml"
run config "$TMP/p/k.cu"
expect_rc config 0
expect_in config out "remark: global load depends on data"
run config_off --data-addresses=off "$TMP/p/k.cu"
expect_not_in config_off out "depends on data"

printf 'DataAddresses: sometimes\n' >"$TMP/p/.warplint.yaml"
run config_bad "$TMP/p/k.cu"
expect_rc config_bad 2
expect_in config_bad err "DataAddresses wants narrow, remark, warning or off, not 'sometimes'"

# A generated chain of loads, each addressed by the one before: past 64 such
# loads each estimate samples fewer warps, and the kernel's report says so.
chain() { # chain N FILE
  { printf '__global__ void chain(const int *a, int *out, int m) {\n'
    printf '  int x = a[blockIdx.x * blockDim.x + threadIdx.x];\n'
    printf '  for (int i = 0; i < m; ++i) {\n'
    for k in $(seq 1 "$1"); do printf '    x = a[x + %d];\n' "$k"; done
    printf '  }\n  out[threadIdx.x] = x;\n}\n'; } >"$2"
}
chain 200 "$TMP/chain200.cu"
run chain200 --format=json "$TMP/chain200.cu"
expect_rc chain200 0
json chain200 "sum(1 for a in d['accesses'] if 'data_estimate' in a) == 200"
run chain200_text --data-addresses=remark "$TMP/chain200.cu"
expect_in chain200_text out "this kernel has 200 loads whose address reads data loaded before; warplint estimates each access whose address depends on data on 20 warps a draw instead of 64"
chain 60 "$TMP/chain60.cu"
run chain60 --data-addresses=remark "$TMP/chain60.cu"
expect_rc chain60 0
expect_in chain60 out "remark: global load depends on data"
expect_not_in chain60 out "warps a draw"

run bad --data-addresses=maybe "$fx"
expect_rc bad 2
expect_in bad err "--data-addresses wants narrow, remark, warning or off"
run bad_masks --data-masks=narrow "$fx"
expect_rc bad_masks 2
expect_in bad_masks err "--data-masks wants auto, remark, warning or off, not 'narrow'"
done_checks
