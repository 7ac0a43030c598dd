#!/usr/bin/env python3
"""Writes analyzer/frontend/walker/MathCosts.inc, the warp instructions a call
of each CUDA math function issues, from the GPU's counts recorded by
bench-kernels/math-costs/measure.sh
(bench-kernels/results/<gpu>/math-costs/math-costs.csv).

  scripts/math-costs.py [--counts FILE] [--out FILE] [--check]

Each kernel k_<f> of math_costs.cu calls f R = 256 times per lane in a loop
that k_base_<type> runs without the call; a call costs
(instructions(k_<f>) - instructions(k_base_<type>)) / R, for nvcc's default
build and for -use_fast_math. A function whose call folds into another
instruction (fabsf: an operand modifier) costs 0. Costs are rounded to whole
instructions.
--check: fail if the written table differs from the file in the repository.
"""
import argparse
import csv
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTS = os.path.join(ROOT, 'bench-kernels', 'results', 'h200', 'math-costs',
                      'math-costs.csv')
OUT = os.path.join(ROOT, 'analyzer', 'frontend', 'walker', 'MathCosts.inc')
R = 256
# Kernels of math_costs.cu named for what they time rather than a function.
DIVISIONS = {'division_float': 'float', 'division_double': 'double'}


def element_type(kernel):
    """math_costs.cu's float kernels are the functions with an f suffix and
    the intrinsics (all of them float); the rest take doubles."""
    if kernel in DIVISIONS:
        return DIVISIONS[kernel]
    return 'float' if kernel.startswith('__') or kernel.endswith('f') else 'double'


def costs(path):
    counts = {}
    with open(path, newline='') as f:
        for row in csv.DictReader(f):
            counts[(row['kernel'], row['build'])] = int(row['warp_instructions'])
    out = {}
    for (kernel, build), n in sorted(counts.items()):
        if kernel.startswith('base_'):
            continue
        base = counts[('base_' + element_type(kernel), build)]
        out.setdefault(kernel, {})[build] = max(0, round((n - base) / R))
    return out


def render(table):
    lines = ['// Written by scripts/math-costs.py from '
             'bench-kernels/results/h200/math-costs/math-costs.csv;',
             '// do not edit. Warp instructions one call issues: nvcc\'s '
             'default build, -use_fast_math.']
    for kernel in sorted(table):
        if kernel in DIVISIONS:
            continue
        c = table[kernel]
        lines.append('{"%s", %d, %d},' % (kernel, c['default'], c['fast']))
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--counts', default=COUNTS)
    ap.add_argument('--out', default=OUT)
    ap.add_argument('--check', action='store_true')
    args = ap.parse_args()
    table = costs(args.counts)
    text = render(table)
    divisions = os.path.join(os.path.dirname(args.out), 'MathDivisions.inc')
    div = ''.join('{%s, %d, %d},\n' % ('true' if DIVISIONS[k] == 'double' else 'false',
                                        table[k]['default'], table[k]['fast'])
                  for k in sorted(DIVISIONS))
    div = ('// Written by scripts/math-costs.py; do not edit. A floating-point '
           'division: double?, default, -use_fast_math.\n' + div)
    if args.check:
        bad = [p for p, t in ((args.out, text), (divisions, div))
               if not os.path.exists(p) or open(p).read() != t]
        for p in bad:
            print('%s differs from what scripts/math-costs.py writes' % p,
                  file=sys.stderr)
        return 1 if bad else 0
    with open(args.out, 'w') as f:
        f.write(text)
    with open(divisions, 'w') as f:
        f.write(div)
    return 0


if __name__ == '__main__':
    sys.exit(main())
