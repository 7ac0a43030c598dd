#!/usr/bin/env python3
"""Replays the per-line GPU measurement of branch and loop bodies against
warplint's `active_lanes` (docs/rules/idle-lanes.md).

  compare_lanes.py --warplint build/warplint            print the table
  compare_lanes.py --warplint build/warplint --check    exit 1 when fewer
                                                        bodies agree than recorded
  compare_lanes.py --warplint build/warplint --record   write the baseline
  (--gpu h100 or h200: which recorded measurement; default h100)

For each branch or loop marked "branch under test" in the case files, the
body is the line marked "body under test" under it (else the next line). The
GPU's figure for the body is Predicated-On Thread Instructions Executed over
Instructions Executed on that line (results/<gpu>/idle-lanes.lines.json,
recorded by the command in that file's "method"). A body agrees when
warplint's figure is within 1 lane or 10% of it. Bodies warplint gives no
figure for (a condition every lane agrees on, a switch) are listed apart.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
RESULTS = os.path.join(BENCH, 'results')
BASELINE = os.path.join(RESULTS, 'idle-lanes.baseline.json')


def base_name(sig):
    sig = re.sub(r'^void\s+', '', sig)
    sig = sig.split('(')[0]
    return sig.split('<')[0].split('::')[-1].strip()


def bodies(path):
    """[(branch line, body line)] of the marked branches in a case file."""
    lines = open(path).read().split('\n')
    out = []
    for i, l in enumerate(lines):
        if 'branch under test' not in l:
            continue
        body = i + 2
        for j in range(i + 1, min(i + 4, len(lines))):
            if 'body under test' in lines[j]:
                body = j + 1
                break
        out.append((i + 1, body))
    return out


def compare(warplint, gpu):
    meas = json.load(open(os.path.join(RESULTS, gpu, 'idle-lanes.lines.json')))
    rows = []
    for rel, recs in sorted(meas['files'].items()):
        path = os.path.join(BENCH, rel)
        p = subprocess.run([warplint, '--format=json', '--rules=idle-lanes', path],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            sys.exit('warplint failed on %s (exit %d): %s' % (rel, p.returncode, p.stderr[-2000:]))
        doc = json.loads(p.stdout)
        by_line = {}
        for b in doc['branches']:
            by_line.setdefault(b['line'], []).append(b)
        warned = {(d['line'], d['kernel']) for d in doc['diagnostics']
                  if d['rule'] == 'idle-lanes'}
        for branch, body in bodies(path):
            for b in by_line.get(branch, []):
                m = [r for r in recs if r['line'] == body
                     and base_name(r['kernel']) == b['kernel']]
                if not m:
                    continue
                inst = sum(r['inst_executed'] for r in m)
                pred = sum(r['pred_on_threads'] for r in m)
                measured = pred / inst if inst else None
                predicted = b['active_lanes']
                agree = (predicted is not None and measured is not None and
                         abs(predicted - measured) <= max(1.0, 0.1 * measured))
                rows.append(dict(file=rel, kernel=b['kernel'], line=body,
                                 kind=b['kind'], predicated=b['predicated'],
                                 measured=measured, predicted=predicted,
                                 spread=b['lane_spread'], agree=agree,
                                 warned=(branch, b['kernel']) in warned))
    return meas, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--warplint', default=os.path.join(BENCH, '..', 'build', 'warplint'))
    ap.add_argument('--gpu', default='h100')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--record', action='store_true')
    a = ap.parse_args()
    meas, rows = compare(a.warplint, a.gpu)
    print('%s (%s): active lanes per warp instruction of branch and loop bodies' %
          (a.gpu, meas['gpu']))
    print('%-40s %-5s %-7s %5s %9s %9s %6s %s' % ('kernel', 'line', 'kind', 'pred?',
                                                   'measured', 'warplint', 'spread', ''))
    for r in rows:
        print('%-40s %-5d %-7s %5s %9.2f %9s %6s %s%s' % (
            r['kernel'][:40], r['line'], r['kind'], 'yes' if r['predicated'] else 'no',
            r['measured'], '-' if r['predicted'] is None else '%.2f' % r['predicted'],
            '-' if r['spread'] is None else '%.2f' % r['spread'],
            'agree' if r['agree'] else ('no figure' if r['predicted'] is None else 'DIFFERS'),
            ', warns' if r['warned'] else ''))
    figured = [r for r in rows if r['predicted'] is not None]
    agree = sum(r['agree'] for r in figured)
    print('bodies with a figure: %d of %d; within 1 lane or 10%%: %d of %d (%d%%)' % (
        len(figured), len(rows), agree, len(figured),
        round(100 * agree / len(figured)) if figured else 0))
    summary = {'bodies': len(rows), 'with_figure': len(figured), 'agree': agree}
    recorded = json.load(open(BASELINE)) if os.path.exists(BASELINE) else {}
    if a.record:
        recorded[a.gpu] = summary
        json.dump(recorded, open(BASELINE, 'w'), indent=1, sort_keys=True)
        print('recorded', BASELINE)
    if a.check:
        base = recorded[a.gpu]
        if agree < base['agree'] or len(figured) < base['with_figure']:
            print('FAIL: %d agree (%d with a figure); recorded %d (%d)' % (
                agree, len(figured), base['agree'], base['with_figure']))
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
