#!/usr/bin/env python3
"""Per case kernel, the memory instructions measure.sh profiled: opcode,
warp-level executions, and per execution the shared wavefronts (and ideal) or
the global sectors (and ideal). Reads tc.source.csv (ncu --page source --csv
--print-source sass) from a results folder.

  summarize.py bench-kernels/results/h100/tensor-core [--json]
"""
import csv
import json
import os
import sys


def num(s):
    s = (s or '').strip().replace(',', '')
    try:
        return float(s)
    except ValueError:
        return 0.0


def col(r, hdr, name):
    """A metric column; ncu leaves out the columns a kernel has no use for."""
    return num(r[hdr[name]]) if name in hdr else 0.0


def kernels(lines):
    """{kernel: [instruction records]} of the memory instructions executed,
    from the lines of tc.source.csv."""
    out, cur, hdr = {}, None, None
    for r in csv.reader(lines):
        if not r:
            continue
        if r[0] == 'Kernel Name':
            cur = r[1]
            out.setdefault(cur, [])
            continue
        if r[0] == 'Address':
            hdr = {h: i for i, h in enumerate(r)}
            continue
        if cur is None or hdr is None or len(r) < len(hdr):
            continue
        space = r[hdr['Address Space']].strip()
        executed = num(r[hdr['Instructions Executed']])
        if space in ('-', '') or executed == 0:
            continue
        op = r[hdr['Source']].split()
        op = [w for w in op if not w.startswith('@')]
        out[cur].append(dict(
            op=op[0] if op else '?', space=space,
            access=r[hdr['Access Operation']].strip(), executed=executed,
            wavefronts=col(r, hdr, 'L1 Wavefronts Shared'),
            wavefronts_ideal=col(r, hdr, 'L1 Wavefronts Shared Ideal'),
            sectors=col(r, hdr, 'L2 Theoretical Sectors Global'),
            sectors_ideal=col(r, hdr, 'L2 Theoretical Sectors Global Ideal')))
    return out


def short(name):
    name = name.replace('void ', '').replace('(int)', '').replace('(bool)', '')
    name = name.replace('nvcuda::wmma::', '')
    return name.split('(')[0]


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, 'tc.source.csv'), newline='') as f:
        ks = kernels(f)
    rows = []
    for k, ins in ks.items():
        # The instructions of the loop under test run REPS (64) times as often
        # as the set-up ones: keep those executed most.
        top = max((i['executed'] for i in ins), default=0)
        for i in ins:
            if i['executed'] < top / 4:
                continue
            e = i['executed']
            rows.append(dict(kernel=short(k), op=i['op'], space=i['space'],
                             access=i['access'], executed=e,
                             wavefronts=i['wavefronts'] / e,
                             wavefronts_ideal=i['wavefronts_ideal'] / e,
                             sectors=i['sectors'] / e,
                             sectors_ideal=i['sectors_ideal'] / e))
    if '--json' in sys.argv:
        json.dump(rows, sys.stdout, indent=1)
        return
    for r in rows:
        print(f"{r['kernel']:48} {r['op']:18} {r['space']:7} "
              f"wf {r['wavefronts']:5.2f}/{r['wavefronts_ideal']:5.2f}  "
              f"sec {r['sectors']:5.2f}/{r['sectors_ideal']:5.2f}")


if __name__ == '__main__':
    main()
