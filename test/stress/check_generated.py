#!/usr/bin/env python3
"""The generated adversarial inputs (generate.py) at small sizes: warplint
must finish each with a complete report, never crash.

  check_generated.py <warplint> [--scale K]

Each input's run must exit 0 with a JSON report that names every kernel of
the file, and a SARIF log with one result per finding shown; the time bound
is the ctest TIMEOUT (test/CMakeLists.txt).
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
                # SARIF, written result by result: one per finding shown.
                shown = sum(1 for x in d['diagnostics'] if not x.get('repeat'))
                s = subprocess.run([args.warplint, '--format=sarif', path],
                                   capture_output=True, text=True)
                results = (json.loads(s.stdout)['runs'][0]['results']
                           if s.returncode == 0 else None)
                if results is None or len(results) != shown:
                    failures.append('%s: sarif exit %d, %s results for %d '
                                    'findings' % (name, s.returncode,
                                                  results and len(results),
                                                  shown))
                    continue
                print('ok: %s (%d kernels, %d accesses, %d findings)' %
                      (name, len(got), len(d['accesses']), shown))
    for f in failures:
        print('FAIL: ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
