#!/usr/bin/env python3
"""Records the per-line body measurement of the idle-lanes cases from the
folder the device run filled (see docs/rules/idle-lanes.md, "Against the
GPU"):

  record_lines.py <folder with *.source.csv and gpu.txt> <gpu: h100|h200>

writes bench-kernels/results/<gpu>/idle-lanes.lines.json: per case file,
kernel and source line, Instructions Executed and Predicated-On Thread
Instructions Executed, summed over the line's SASS instructions except the
convergence-barrier ones (BSSY, BSYNC, WARPSYNC), which the line table puts
on a body's line but which run at the branch and at the join with every
lane. No source text is recorded.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(BENCH, 'realcode'))
import parse_ncu  # noqa: E402

FILES = {'idle_lanes_cases': 'idle-lanes/idle_lanes_cases.cu',
         'reduction_cases': 'divergent-branch/reduction_cases.cu',
         'branch_cases': 'divergent-branch/branch_cases.cu'}
JOIN = ('BSSY', 'BSYNC', 'WARPSYNC')
COMMAND = ('nvcc -O3 -arch=sm_90 -lineinfo; ncu --kernel-id :::1 --section '
           'SourceCounters --import-source yes on <binary> --profile (the first '
           'launch of each case kernel); ncu -i --page source --csv --print-source '
           'cuda,sass')


def main():
    src, gpu = sys.argv[1], sys.argv[2]
    info = open(os.path.join(src, 'gpu.txt')).read().split('\n')
    out = {'gpu': info[0], 'nvcc': info[1], 'ncu': info[2], 'date': info[3],
           'method': COMMAND + '; per source line of the case file, summed over '
           'its SASS instructions, leaving out ' + ', '.join(JOIN), 'files': {}}
    for name, rel in FILES.items():
        kernels, _, _ = parse_ncu.parse_source_csv(
            os.path.join(src, name + '.source.csv'), name)
        recs = []
        for k, lines in kernels.items():
            for (f, line, _ext), ld in lines.items():
                if os.path.basename(f) != os.path.basename(rel):
                    continue
                body = [s for s in ld['sass'].values()
                        if s['op'].split('.')[0] not in JOIN]
                inst = sum(s['executed'] for s in body)
                if inst:
                    recs.append({'kernel': k, 'line': line, 'inst_executed': inst,
                                 'pred_on_threads': sum(s['pred_on'] for s in body)})
        out['files'][rel] = sorted(recs, key=lambda r: (r['kernel'], r['line']))
    dest = os.path.join(BENCH, 'results', gpu, 'idle-lanes.lines.json')
    json.dump(out, open(dest, 'w'), indent=1)
    print('wrote', dest, {k: len(v) for k, v in out['files'].items()})


if __name__ == '__main__':
    main()
