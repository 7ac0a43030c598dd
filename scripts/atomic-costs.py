#!/usr/bin/env python3
"""The compare-and-swap loop costs the walker uses for shared-memory atomics
(Walker::casLoop in analyzer/frontend/walker/WalkerMemory.cpp), derived from
the recorded GPU counts (bench-kernels/atomic-costs, recorded in
bench-kernels/results/h200/atomic-costs/atomic-costs.csv).

Each kernel of the bench runs one warp that makes 256 atomics with C lanes
per address; the warp instructions per atomic grow by the loop's round for
each further lane at the address. Prints, per type, the instructions per
atomic at C = 1 and 32 and the round; --check fails unless the walker's
constants are those rounds (rounded) and the native ones stay flat.
"""
import argparse
import csv
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORDING = os.path.join(ROOT, 'bench-kernels', 'results', 'h200',
                         'atomic-costs', 'atomic-costs.csv')
WALKER = os.path.join(ROOT, 'analyzer', 'frontend', 'walker',
                      'WalkerMemory.cpp')
REPS = 256
# The walker's element test for each recorded type.
WALKER_TYPE = {'float': 'Float', 'double': 'Double', 'ull': '64'}


def per_atomic():
    with open(RECORDING) as f:
        rows = {r['kernel']: float(r['warp_instructions'])
                for r in csv.DictReader(f)}
    out = {}
    for space in ('shared', 'global'):
        for t in ('int', 'float', 'double', 'ull'):
            out[(space, t)] = {c: rows['%s_%s_%d' % (space, t, c)] / REPS
                               for c in (1, 2, 4, 8, 16, 32)}
    return out


def walker_rounds():
    text = open(WALKER).read()
    body = text[text.index('void Walker::casLoop'):]
    body = body[:body.index('\n}\n')]
    found = {}
    for m in re.finditer(r'(Float|Double|== 64)\)\)?\s*\n\s*perRound = (\d+);',
                         body):
        found['64' if m.group(1) == '== 64' else m.group(1)] = int(m.group(2))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--check', action='store_true')
    args = ap.parse_args()
    costs = per_atomic()
    rounds = walker_rounds()
    bad = []
    for (space, t), by_c in sorted(costs.items()):
        slope = (by_c[32] - by_c[1]) / 31
        print('%-6s %-6s C=1 %6.1f  C=32 %6.1f  per further lane %4.1f' %
              (space, t, by_c[1], by_c[32], slope))
        if space == 'shared' and t in WALKER_TYPE:
            want = round(slope)
            have = rounds.get(WALKER_TYPE[t])
            if have != want:
                bad.append('shared %s: the walker counts %s a round, the '
                           'recording %d' % (t, have, want))
        elif slope > 0.5:
            bad.append('%s %s grows with contention (%.1f a lane) but the '
                       'walker counts it native' % (space, t, slope))
    if args.check and bad:
        print('\n'.join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
