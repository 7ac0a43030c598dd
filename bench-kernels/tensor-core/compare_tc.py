#!/usr/bin/env python3
"""warplint's figures for the tensor-core and asynchronous-copy reference
kernels (tc_cases.cu, frag_cases.cu) against the GPU's, per SASS instruction.

  compare_tc.py --warplint build/warplint [--gpu h100] [--check]

The measurement (measure.sh, recorded in bench-kernels/results/<gpu>/
tensor-core/tc.tar.gz) lists every memory instruction of every case kernel
with its shared wavefronts or global sectors. Each access warplint reports for
an intrinsic is matched with the instructions nvcc made of it (by opcode:
ldmatrix -> LDSM, stmatrix -> STSM, wmma fragment loads from shared memory ->
LDSM or LD, wmma stores -> STS.64 / STG.E.64, fragment loads from global
memory -> LDG, cp.async and its wrappers -> LDGSTS) and the per-request
figures compared (mean over the kernel's instructions of that kind; within
0.5). The shared side of LDGSTS is not compared: its L1 wavefronts also count
the global side's (docs/model.md, "Intrinsics"). --check fails when fewer
accesses match than --min-match (the recorded count), or when an intrinsic
access is not modelled in a case the CASE table gives a prediction for
(-1: measured only). In frag_cases.cu, whose kernels do nothing but the
fragment load or store under test, the number of instructions must match
too: each access warplint reports is one SASS instruction.
Exit 77 when there is no CUDA toolkit to parse the cases with.
"""
import argparse
import io
import json
import os
import re
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import summarize  # noqa: E402

TOLERANCE = 0.5


def normalize(sig):
    sig = sig.replace('void ', '').replace('(int)', '')
    sig = sig.replace('(bool)0', 'false').replace('(bool)1', 'true')
    sig = sig.replace('nvcuda::wmma::', '').replace('wmma::', '')
    return sig.split('(')[0].strip()


def opcode_pattern(a):
    """The SASS opcodes an intrinsic access becomes, or None (not compared)."""
    i, space = a['intrinsic'], a['space']
    if i.startswith('ldmatrix'):
        return r'^LDSM'
    if i.startswith('stmatrix'):
        return r'^STSM'
    if i == 'wmma::load_matrix_sync':
        # Operands: LDSM (half), LD.E (tf32), LDG.E; accumulators: 64-bit.
        return (r'^(LDSM|LD\.E$|LDS\.64)' if space == 'shared'
                else r'^LDG\.E(\.64)?$')
    if i == 'wmma::store_matrix_sync':
        return r'^STS\.64' if space == 'shared' else r'^STG\.E\.64'
    if space == 'global':  # cp.async, __pipeline_memcpy_async, cuda::memcpy_async
        return r'^LDGSTS'
    return None


def frag_pattern(a):
    """frag_cases.cu: any load or store opcode (generic LD/ST included); the
    instruction's address space and execution count pick the ones under
    test."""
    return r'^(LDSM|LDS|LDG|LD\.)' if a['intrinsic'].startswith(
        'wmma::load') else r'^(STS|STG|ST\.)'


# frag_cases.cu: REPS accesses a warp, 4 warps a block, BLOCKS blocks.
FRAG_EXECUTED = 64 * 4 * 264


def measured(gpu, suite, path=None):
    path = path or os.path.join(HERE, '..', 'results', gpu, 'tensor-core',
                                suite + '.tar.gz')
    if not os.path.exists(path):
        return None
    with tarfile.open(path) as t:
        text = t.extractfile(suite + '.source.csv').read().decode()
    ks = summarize.kernels(io.StringIO(text, newline=''))
    out = {}
    for k, v in ks.items():
        half = len(v) // 2  # ncu's source page lists a kernel twice
        out[normalize(k)] = v[:half] if len(v) % 2 == 0 and v[:half] == v[half:] else v
    return out


def compare(warplint, suite, gpu):
    """Rows (kernel, intrinsic, space, SASS, warplint, GPU, ideal, agrees)
    and failures for one suite's source file against its measurement."""
    src = os.path.join(HERE, suite + '_cases.cu')
    out = subprocess.run([warplint, '--format=json', src],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        return [], ['warplint on %s: exit %d: %s' % (
            src, out.returncode, out.stderr[-2000:])]
    report = json.loads(out.stdout)
    with open(src) as f:
        measured_only = {normalize(sig) for sig, expect in re.findall(
            r'CASE\("([^"]+)", "\w+", "[\w.-]+", (-?[\d.]+)', f.read())
            if float(expect) < 0}
    groups = {}
    failures = []
    for a in report['accesses']:
        if not a.get('intrinsic'):
            continue
        kernel = normalize(a['kernel_signature'])
        if not kernel.startswith('case_'):
            continue
        unit = 'sectors' if a['space'] == 'global' else 'wavefronts'
        figure = a.get(unit + '_per_request')
        if figure is None:
            if (a.get('unknown_reason', '').startswith('unknown: ') and
                    (suite == 'frag' or kernel not in measured_only)):
                failures.append('%s: %s not modelled: %s' % (
                    kernel, a['intrinsic'], a['unknown_reason']))
            continue  # a branch no lane takes (another template argument's)
        pat = frag_pattern(a) if suite == 'frag' else opcode_pattern(a)
        if pat is None:
            continue
        g = groups.setdefault((kernel, a['intrinsic'], a['space'], pat, unit),
                              [])
        g.append(figure)
    rows = []
    for (kernel, intrinsic, space, pat, unit), figs in sorted(groups.items()):
        ins = [i for i in gpu.get(kernel, []) if re.match(pat, i['op'])]
        if suite == 'frag':
            ins = [i for i in ins if i['space'].lower() == space and
                   i['executed'] == FRAG_EXECUTED]
        if not ins:
            failures.append('%s: no %s instruction measured' % (kernel, pat))
            continue
        got = sum(i[unit] / i['executed'] for i in ins) / len(ins)
        ideal = sum(i[unit + '_ideal'] / i['executed'] for i in ins) / len(ins)
        want = sum(figs) / len(figs)
        ok = abs(got - want) <= TOLERANCE
        if suite == 'frag' and len(figs) != len(ins):
            ok = False
            print('differs: %s: %d accesses, %d SASS instructions' % (
                kernel, len(figs), len(ins)))
        rows.append((kernel, intrinsic, space, ins[0]['op'], want, got, ideal, ok))
        if not ok:
            print('differs: %s: %s %s: warplint %.2f, GPU %.2f' % (
                kernel, intrinsic, space, want, got))
    return rows, failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--warplint', required=True)
    ap.add_argument('--gpu', default='h100')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--min-match', type=int, default=0)
    ap.add_argument('--results', help='a measure.sh tarball instead of the '
                    "recorded ones (results/<gpu>/tensor-core/{tc,frag}.tar.gz)")
    args = ap.parse_args()
    if not os.path.exists('/usr/local/cuda/include/cuda_runtime.h'):
        print('no CUDA toolkit: the cases need its <cuda/pipeline> and <mma.h>')
        return 77
    rows, failures = [], []
    for suite in ('tc', 'frag'):
        if args.results and not args.results.endswith(suite + '.tar.gz'):
            continue
        gpu = measured(args.gpu, suite, args.results)
        if gpu is None:
            failures.append('no %s measurement for %s' % (suite, args.gpu))
            continue
        r, f = compare(args.warplint, suite, gpu)
        rows += r
        failures += f
    print('%-46s %-26s %-6s %-20s %8s %8s %6s' % (
        'case', 'intrinsic', 'space', 'SASS', 'warplint', 'GPU', 'ideal'))
    for k, i, s, op, want, got, ideal, ok in rows:
        print('%-46s %-26s %-6s %-20s %8.2f %8.2f %6.2f%s' % (
            k, i, s, op, want, got, ideal, '' if ok else '  MISMATCH'))
    matched = sum(r[-1] for r in rows)
    print('%d of %d intrinsic accesses match the GPU (%s)' % (
        matched, len(rows), args.gpu))
    if matched < args.min_match:
        failures.append('%d match, fewer than the %d recorded' % (
            matched, args.min_match))
    for f in failures:
        print('FAIL: ' + f)
    return 1 if args.check and (failures or not rows) else 0


if __name__ == '__main__':
    sys.exit(main())
