#!/usr/bin/env python3
"""How warplint scales with the size of one file, against clang's own parse.

Generates the stress inputs of the scale targets into a temporary folder and
measures each with scripts/bench-speed.py's method (clang++-22 -fsyntax-only
--cuda-device-only with the same flags, interleaved, medians of N runs, wall
time and peak RSS):

  - a file of K small kernels (default 10,000 and 50,000), each with a
    coalesced load and store and one strided one;
  - one kernel of S statements (default 6,000) of shared and global accesses
    and conditional updates;
  - a file of W small kernels (default 5,000) that each get a warning (one
    strided load): the cost of reporting, NOLINT checks included.

A benchmark: it prints figures and asserts nothing.

  scripts/bench-scale.py [--runs N] [--warplint build/warplint]
                         [--kernels 10000,50000] [--statements 6000]
                         [--warned 5000]
"""
import argparse
import importlib.util
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location(
    'bench_speed', os.path.join(ROOT, 'scripts', 'bench-speed.py'))
bench_speed = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_speed)


def kernel_file(n, statement):
    """n small kernels whose one statement (after the global index i) is
    statement(k) for kernel k."""
    out = ['#include <cuda_runtime.h>']
    for k in range(n):
        out.append(
            '__global__ void k%d(const float *in, float *out, int n) {\n'
            '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
            '  %s\n'
            '}' % (k, statement(k)))
    return '\n'.join(out) + '\n'


def many_kernels(n):
    return kernel_file(n, lambda k: 'if (i < n) out[i] = in[i] * %d.0f + '
                       'in[i * %d %% n];' % (k % 7 + 1, k % 5 + 1))


def warned_kernels(n):
    return kernel_file(n, lambda k: 'out[i] = in[i * 32] + %d.0f;' % k)


def long_kernel(statements):
    body = []
    for s in range(statements):
        r = s % 4
        if r == 0:
            body.append('  acc += in[(t * %d + %d) %% n];' % (s % 9 + 1, s))
        elif r == 1:
            body.append('  tile[(t * %d) %% 1024] = acc;' % (s % 33 + 1))
        elif r == 2:
            body.append('  if (acc > %d.0f) acc -= tile[(t + %d) %% 1024];'
                        % (s % 13, s % 31))
        else:
            body.append('  acc = acc * 0.5f + %d.0f;' % (s % 11))
    return ('#include <cuda_runtime.h>\n'
            '__global__ void big(const float *in, float *out, int n) {\n'
            '  __shared__ float tile[1024];\n'
            '  int t = blockIdx.x * blockDim.x + threadIdx.x;\n'
            '  float acc = 0;\n' + '\n'.join(body) + '\n'
            '  out[t] = acc;\n}\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--warplint', default=os.path.join(ROOT, 'build', 'warplint'))
    ap.add_argument('--kernels', default='10000,50000')
    ap.add_argument('--statements', default='6000')
    ap.add_argument('--warned', default='5000')
    args = ap.parse_args()
    cuda = '/usr/local/cuda' if os.path.exists(
        '/usr/local/cuda/include/cuda_runtime.h') else None
    wl_extra = [] if cuda else ['--no-cuda-toolkit']
    cases = [('%s kernels' % k, many_kernels(int(k)))
             for k in filter(None, args.kernels.split(','))]
    cases += [('one kernel of %s statements' % s, long_kernel(int(s)))
              for s in filter(None, args.statements.split(','))]
    cases += [('%s kernels with a warning' % w, warned_kernels(int(w)))
              for w in filter(None, args.warned.split(','))]
    print('mode: %s, %d runs each, interleaved; medians' %
          ('CUDA toolkit ' + cuda if cuda else 'bundled header', args.runs))
    print('%-32s %9s %9s %6s %9s %9s %6s' % ('input', 'clang s', 'warplint',
                                             'ratio', 'clang MiB', 'wl MiB',
                                             'ratio'))
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in cases:
            path = os.path.join(tmp, name.replace(' ', '-') + '.cu')
            with open(path, 'w') as f:
                f.write(text)
            c_t, w_t, c_m, w_m, codes = [], [], [], [], set()
            clang = bench_speed.clang_command(path, cuda,
                                              warplint=args.warplint)
            for _ in range(args.runs):
                t, m, rc = bench_speed.measure(clang)
                c_t.append(t)
                c_m.append(m)
                t, m, rc2 = bench_speed.measure([args.warplint] + wl_extra +
                                                [path])
                w_t.append(t)
                w_m.append(m)
                codes.add((rc, rc2))
            ct, wt = statistics.median(c_t), statistics.median(w_t)
            cm, wm = statistics.median(c_m), statistics.median(w_m)
            print('%-32s %9.2f %9.2f %6.2f %9.0f %9.0f %6.2f  exit %s' % (
                name, ct, wt, wt / ct, cm, wm, wm / cm,
                ', '.join('clang %d warplint %d' % c for c in sorted(codes))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
