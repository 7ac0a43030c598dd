#!/usr/bin/env python3
"""Plots for docs/validation.md from results/comparison.json (written by
compare.py --write): predicted vs measured per rule, and kernel time vs
predicted cost within each sweep. Needs matplotlib (Debian: python3-matplotlib);
compare.py runs it with whichever Python has it."""
import json
import os
import sys

import matplotlib

matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def main():
    rows = json.load(open(os.path.join(HERE, 'results', 'comparison.json')))
    out = os.path.join(ROOT, 'docs', 'img')
    os.makedirs(out, exist_ok=True)

    # Predicted vs measured, one panel per quantitative rule.
    rules = [('uncoalesced-global-access', 'sectors / request'),
             ('smem-bank-conflict', 'wavefronts / request'),
             ('constant-nonuniform-access', 'addresses / request')]
    fig, axes = plt.subplots(1, len(rules), figsize=(15, 4.6))
    markers = {'h200': 'o', 'h100': 'x'}
    for ax, (rule, unit) in zip(axes, rules):
        lim = 1
        for gpu in sorted({r['gpu'] for r in rows}):
            pts = [(r['predicted'], r['measured']) for r in rows
                   if r['rule'] == rule and r['gpu'] == gpu and
                   r['predicted'] is not None and r['measured'] is not None]
            if not pts:
                continue
            lim = max(lim, max(max(p) for p in pts))
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=28,
                       marker=markers.get(gpu, 'o'), label=gpu.upper(),
                       alpha=0.75)
        ax.plot([0.5, lim * 1.3], [0.5, lim * 1.3], color='grey', lw=0.8,
                label='predicted = measured')
        ax.set_xscale('log', base=2)
        ax.set_yscale('log', base=2)
        ax.set_xlabel('warplint: ' + unit)
        ax.set_ylabel('Nsight Compute: ' + unit)
        ax.set_title(rule)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, 'predicted-vs-measured.png'), dpi=110)

    # Time vs predicted cost within the sweeps where the cost varies.
    sys.path.insert(0, HERE)
    from compare import SWEEPS
    gpu = 'h200' if any(r['gpu'] == 'h200' for r in rows) else rows[0]['gpu']
    sweeps = {}
    for r in rows:
        if (r['gpu'] == gpu and r['time'] and r['predicted'] and r['ideal'] and
                r['sweep'] in SWEEPS):
            sweeps.setdefault((r['rule'], r['sweep']), []).append(
                (r['predicted'] / r['ideal'], r['time']))
    fig, ax = plt.subplots(figsize=(8, 5.5))
    for (rule, sweep), pts in sorted(sweeps.items()):
        if len({p[0] for p in pts}) < 3:
            continue
        pts.sort()
        base = min(t for _, t in pts)
        ax.plot([p[0] for p in pts], [t / base for _, t in pts], marker='o',
                label='%s (%s)' % (sweep, rule))
    ax.set_xscale('log', base=2)
    ax.set_xlabel('predicted cost (actual / ideal)')
    ax.set_ylabel('kernel time / fastest in the sweep (%s)' % gpu.upper())
    ax.set_title('Time follows the predicted cost')
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, 'time-vs-cost.png'), dpi=110)
    print('wrote docs/img/predicted-vs-measured.png, docs/img/time-vs-cost.png')
    return 0


if __name__ == '__main__':
    sys.exit(main())
