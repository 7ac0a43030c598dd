#!/usr/bin/env python3
"""The generated adversarial inputs (generate.py) at small sizes: warplint
must finish each with a complete report, never crash.

  check_generated.py <warplint> [--scale K]

Each input's run must exit 0 with a JSON report that names every kernel of
the file; the time bound is the ctest TIMEOUT (test/CMakeLists.txt).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('warplint')
    ap.add_argument('--scale', type=float, default=0.25)
    args = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for shape in generate.SHAPES:
            n = max(1, int(generate.BASE[shape] * args.scale))
            path = generate.write(tmp, shape, n)
            kernels = set(re.findall(r'__global__ void (\w+)\(',
                                     open(path).read()))
            p = subprocess.run([args.warplint, '--format=json', path],
                               capture_output=True, text=True)
            name = os.path.basename(path)
            if p.returncode != 0:
                failures.append('%s: exit %d: %s' % (name, p.returncode,
                                                     p.stderr[-1500:]))
                continue
            d = json.loads(p.stdout)
            got = {k['name'] for k in d['kernels']}
            if got != kernels:
                failures.append('%s: kernels %s, expected %s' %
                                (name, sorted(got), sorted(kernels)))
            elif any(f['status'] != 'ok' for f in d['files']):
                failures.append('%s: file status %s' % (name, d['files']))
            else:
                print('ok: %s (%d kernels, %d accesses)' %
                      (name, len(got), len(d['accesses'])))
    for f in failures:
        print('FAIL: ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
