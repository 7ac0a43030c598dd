#!/usr/bin/env python3
"""warplint's line for each access of lines.cu against nvcc's line table.

  compare_lines.py --warplint build/warplint [--check]

Prints one row per recorded access (kernel, load/store, nvcc's line,
warplint's); with --check, exits 1 when any differs or is missing.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, '..', 'results', 'h200', 'line-table', 'lines.tsv')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--warplint', required=True)
    ap.add_argument('--check', action='store_true')
    args = ap.parse_args()
    want = []
    for row in open(RECORD):
        if row.startswith('#') or not row.strip():
            continue
        k, op, line = row.split('\t')
        want.append((k, op, int(line)))
    out = subprocess.run([args.warplint, '--format=json', '--no-cuda-toolkit',
                          os.path.join(HERE, 'lines.cu')],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        print(out.stderr, file=sys.stderr)
        return 2
    got = {}
    for a in json.loads(out.stdout)['accesses']:
        if a['space'] == 'global':
            got.setdefault((a['kernel'], a['op']), set()).add(a['line'])
    bad = 0
    for k, op, line in want:
        lines = sorted(got.get((k, op), ()))
        ok = lines == [line]
        bad += not ok
        print('%-4s %-5s nvcc %3d  warplint %s%s' %
              (k, op, line, ','.join(map(str, lines)) or '-',
               '' if ok else '  DIFFERS'))
    print('%d of %d accesses on nvcc\'s line' % (len(want) - bad, len(want)))
    return 1 if args.check and bad else 0


if __name__ == '__main__':
    sys.exit(main())
