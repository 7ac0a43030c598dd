#!/usr/bin/env python3
"""How warplint grows along each dimension of its input, against clang.

Generates every shape of generate.py at n, 2n and 4n (n: its base size
times --scale) and runs, on each file, warplint and clang's own device-side
parse (`clang++-22 -fsyntax-only --cuda-device-only` with the flags of
scripts/bench-speed.py) under /usr/bin/time -v, --runs times each,
interleaved, and prints the medians of wall time and peak memory, their
ratios to clang's, and how warplint's time grows from n to 4n (linear: 4x).
A benchmark: it prints figures and asserts nothing.

  test/stress/bench.py [--warplint build/analyzer/warplint] [--runs 3]
                       [--scale 1] [--shapes sum,nest,...] [--timeout 300]
                       [--format text]

--format runs warplint with that output format (sarif, json, ...): the CI
formats hold every finding of the file at once, and `many` has one per line.
"""
import argparse
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import generate  # noqa: E402

spec = importlib.util.spec_from_file_location(
    'bench_speed', os.path.join(ROOT, 'scripts', 'bench-speed.py'))
bench_speed = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_speed)


def timed(cmd, timeout):
    """(wall seconds, peak RSS MiB, exit code) from /usr/bin/time -v."""
    try:
        p = subprocess.run(['/usr/bin/time', '-v'] + cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return float('inf'), float('nan'), 'timeout'
    wall = re.search(r'Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)',
                     p.stderr)
    rss = re.search(r'Maximum resident set size \(kbytes\): (\d+)', p.stderr)
    code = re.search(r'Exit status: (\d+)', p.stderr)
    h, m, s = wall.groups()
    seconds = int(h or 0) * 3600 + int(m) * 60 + float(s)
    return seconds, int(rss.group(1)) / 1024.0, int(code.group(1)) if code else p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--warplint',
                    default=os.path.join(ROOT, 'build', 'warplint'))
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--scale', type=float, default=1)
    ap.add_argument('--shapes', default=','.join(generate.SHAPES))
    ap.add_argument('--timeout', type=float, default=300)
    ap.add_argument('--format', default='text')
    args = ap.parse_args()
    cuda = '/usr/local/cuda' if os.path.exists(
        '/usr/local/cuda/include/cuda_runtime.h') else None
    wl_extra = ([] if cuda else ['--no-cuda-toolkit']) + [
        '--format=' + args.format]
    print('mode: %s, warplint --format=%s, %d runs each, interleaved; medians '
          'of wall time and peak RSS (/usr/bin/time -v)' %
          ('CUDA toolkit ' + cuda if cuda else 'bundled header', args.format,
           args.runs))
    print('%-16s %9s %9s %6s %9s %9s %6s %8s' % (
        'input', 'clang s', 'wl s', 'ratio', 'clang MiB', 'wl MiB', 'ratio',
        'wl x/n'))
    with tempfile.TemporaryDirectory() as tmp:
        for shape in args.shapes.split(','):
            n0 = max(1, int(generate.BASE[shape] * args.scale))
            first = None
            for mult in (1, 2, 4):
                path = generate.write(tmp, shape, n0 * mult)
                c_t, w_t, c_m, w_m, codes = [], [], [], [], set()
                clang = bench_speed.clang_command(path, cuda,
                                                  warplint=args.warplint)
                for _ in range(args.runs):
                    t, m, rc = timed(clang, args.timeout)
                    c_t.append(t)
                    c_m.append(m)
                    t, m, rc2 = timed([args.warplint] + wl_extra + [path],
                                      args.timeout)
                    w_t.append(t)
                    w_m.append(m)
                    codes.add((rc, rc2))
                ct, wt = statistics.median(c_t), statistics.median(w_t)
                cm, wm = statistics.median(c_m), statistics.median(w_m)
                if first is None:
                    first = wt
                print('%-16s %9.2f %9.2f %6.2f %9.0f %9.0f %6.2f %8.2f  exit %s'
                      % (os.path.basename(path)[:-3], ct, wt, wt / ct, cm, wm,
                         wm / cm, wt / first,
                         ', '.join('clang %s warplint %s' % c
                                   for c in sorted(codes, key=str))))
                sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())
