#!/usr/bin/env python3
"""Runs warplint on one stress fixture and checks what it must report.

  check.py <warplint> <fixture.cu>

The bound on time is the ctest TIMEOUT of the test (test/CMakeLists.txt):
an exponential or quadratic regression runs into it; the checks here make
sure the analysis is complete (nothing dropped, nothing crashed).
"""
import json
import os
import subprocess
import sys

warplint, fixture = sys.argv[1], sys.argv[2]
p = subprocess.run([warplint, '--format=json', fixture], capture_output=True,
                   text=True)
if p.returncode != 0:
    sys.exit('warplint exited %d: %s' % (p.returncode, p.stderr[-2000:]))
d = json.loads(p.stdout)
acc = d['accesses']
name = os.path.basename(fixture)
failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)


if name == 'conditional-chain.cu':
    loads = [a for a in acc if a['op'] == 'load']
    expect(len(loads) == 1 and loads[0]['evaluated'],
           'the load after 24 conditional updates is evaluated')
elif name == 'big-kernel.cu':
    expect(len(acc) == 4500, 'all 4,500 accesses reported (got %d)' % len(acc))
    expect(all(k['accesses_left_out'] == 0 for k in d['kernels']),
           'nothing left out')
    expect(all(a['evaluated'] for a in acc), 'every access evaluated')
elif name == 'binary-search.cu':
    probes = [a for a in acc if a['space'] == 'shared' and a['op'] == 'load']
    expect(len(probes) >= 2, 'the shared probes are reported')
    expect(any(not a['evaluated'] and 'loop changes' in a['unknown_reason']
               for a in probes), 'the carried probe is "not evaluated"')
elif name == 'nested-loop-values.cu':
    stored = [a for a in acc if a['op'] == 'store']
    expect(len(stored) == 1 and stored[0]['evaluated'],
           'the store at the lane\'s own index is evaluated')
    loads = [a for a in acc if a['op'] == 'load']
    expect(len(loads) == 7 and all(not a['evaluated'] and a['unknown_reason']
                                   for a in loads),
           'the 7 loads at the unranked element are reported, "not '
           'evaluated" with a reason')
elif name == 'straight-stores.cu':
    stores = [a for a in acc if a['op'] == 'store']
    loads = [a for a in acc if a['op'] == 'load']
    expect(len(stores) == 3000, 'all 3,000 stores reported (got %d)' % len(stores))
    expect(len(loads) == 3000 and all(a['array'] == 'in' for a in loads),
           'the 3,000 loads of in reported, every reload of out forwarded '
           '(got %d loads)' % len(loads))
elif name == 'data-chain.cu':
    loads = [a for a in acc if a['op'] == 'load']
    stores = [a for a in acc if a['op'] == 'store']
    expect(len(loads) == 401, 'all 401 loads reported (got %d)' % len(loads))
    expect(sum(1 for a in loads if not a['evaluated'] and a['unknown_reason'])
           == 400, 'the 400 chained loads are "not evaluated" with a reason')
    expect(len(stores) == 2 and all(a['evaluated'] for a in stores),
           'the two stores of x are evaluated')
elif name == 'shared-values.cu':
    stores = [a for a in acc if a['op'] == 'store']
    expect(len(stores) == 3 and all(a['evaluated'] for a in stores),
           'the three stores at values of 60 shared levels are evaluated')
else:
    sys.exit('no expectations for ' + name)
for f in failures:
    print('FAIL: %s: %s' % (name, f))
if not failures:
    print('ok: %s (%d accesses)' % (name, len(acc)))
sys.exit(1 if failures else 0)
