#!/usr/bin/env python3
"""Speed and memory of warplint against clang's own device-side parse.

For each file, runs `clang++-22 -fsyntax-only --cuda-device-only` with the same
flags warplint uses, and warplint itself, interleaved, N times each; reports the
median wall time and peak RSS of each and their ratio. A benchmark, not a test:
it prints figures and asserts nothing.

  scripts/bench-speed.py [--runs N] [--warplint build/warplint] [FILES or DIRS...]

Without paths it measures the repository's own .cu files (examples,
bench-kernels, test fixtures).
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def clang_command(path, cuda, extra=()):
    cmd = ['clang++-22', '-x', 'cuda', '-std=c++17', '--cuda-device-only',
           '--cuda-gpu-arch=sm_90', '-fsyntax-only', '-Wno-unknown-cuda-version',
           '-w']
    if cuda:
        cmd += ['--cuda-path=' + cuda, '-isystem', cuda + '/include/cccl']
    else:
        stub = os.path.join(ROOT, 'analyzer', 'include-stub')
        cmd += ['-nocudainc', '-nocudalib', '-isystem',
                os.path.join(stub, 'cuda_stub_sys'), '-include',
                os.path.join(stub, 'warplint_cuda.h')]
    return cmd + list(extra) + [path]


def measure(cmd):
    """Wall seconds and peak RSS (MiB) of one run of cmd."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--warplint', default=os.path.join(ROOT, 'build', 'warplint'))
    ap.add_argument('--no-cuda-toolkit', action='store_true')
    ap.add_argument('--extra-arg', action='append', default=[],
                    help='compiler argument for both commands (e.g. -I...)')
    ap.add_argument('paths', nargs='*')
    args = ap.parse_args()
    cuda = None
    if not args.no_cuda_toolkit and os.path.exists(
            '/usr/local/cuda/include/cuda_runtime.h'):
        cuda = '/usr/local/cuda'
    files = []
    for p in args.paths or [os.path.join(ROOT, d) for d in
                            ('examples', 'bench-kernels', 'test/fixtures')]:
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, '**', '*.cu'),
                                      recursive=True))
        else:
            files.append(p)
    wl_extra = ([] if cuda else ['--no-cuda-toolkit']) + [
        '--extra-arg=' + a for a in args.extra_arg]
    print('mode: %s, %d runs each, interleaved; medians' %
          ('CUDA toolkit ' + cuda if cuda else 'bundled header', args.runs))
    print('%-58s %9s %9s %6s %9s %9s %6s' % ('file', 'clang s', 'warplint',
                                             'ratio', 'clang MiB', 'wl MiB',
                                             'ratio'))
    ratios, mem_ratios, tot_c, tot_w = [], [], 0.0, 0.0
    for f in files:
        c_t, w_t, c_m, w_m = [], [], [], []
        ok = True
        for _ in range(args.runs):
            t, m, rc = measure(clang_command(f, cuda, args.extra_arg))
            c_t.append(t)
            c_m.append(m)
            t, m, rc2 = measure([args.warplint] + wl_extra + [f])
            w_t.append(t)
            w_m.append(m)
            # A file clang cannot parse fails both ways; report, don't hide.
            ok = ok and rc == rc2 or (rc != 0 and rc2 == 2)
        ct, wt = statistics.median(c_t), statistics.median(w_t)
        cm, wm = statistics.median(c_m), statistics.median(w_m)
        tot_c += ct
        tot_w += wt
        ratios.append(wt / ct)
        mem_ratios.append(wm / cm)
        name = os.path.relpath(f, ROOT) if f.startswith(ROOT) else f
        print('%-58s %9.3f %9.3f %6.2f %9.1f %9.1f %6.2f%s' % (
            name[-58:], ct, wt, wt / ct, cm, wm, wm / cm,
            '' if ok else '  (a run failed)'))
    if ratios:
        print()
        print('files: %d; median time ratio warplint/clang %.2f (min %.2f, max '
              '%.2f); total %.2f s vs %.2f s (%.2f); median memory ratio %.2f'
              % (len(ratios), statistics.median(ratios), min(ratios),
                 max(ratios), tot_w, tot_c, tot_w / tot_c,
                 statistics.median(mem_ratios)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
