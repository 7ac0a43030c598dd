#!/usr/bin/env python3
"""Does every .cu file that nvcc 13 accepts parse in warplint? Measured on the
real-code corpus (HeCBench, ../shared/corpus/hecbench, used in place).

For every .cu file a program's Makefile compiles (its sources, -I, -D and -std
flags, derived as bench-kernels/realcode/compare_real.py does), checks

  nvcc        nvcc -arch=sm_90 -ptx -fdevice-syntax-only <flags> file.cu:
              nvcc's device-side front end (cicc) on the device-side
              translation unit, the same one warplint parses with
              --cuda-device-only: it reports errors in device code and in host
              code outside `#ifndef __CUDA_ARCH__` (which neither parses), and
              stops before ptxas. --nvcc-check=full runs the host-side front
              end too (-cuda -fdevice-syntax-only, no host compiler).
  toolkit     warplint --format=json file.cu -- <flags>: the file's JSON
              status is 'ok' and stderr has no "could not be analyzed
              completely";
  no toolkit  the same with --no-cuda-toolkit (the bundled headers).

A benchmark, not a test: it prints figures and asserts nothing. nvcc's answers
are cached in /tmp (keyed by command and file contents), so reruns cost only
warplint's time; --no-nvcc uses the cache alone. Full listings (they quote
corpus source in error messages) go to /tmp only.

  scripts/corpus-parse.py                       whole corpus, 2 jobs
  scripts/corpus-parse.py --sample 40           40 programs spread over the corpus
  scripts/corpus-parse.py --programs a-cuda,b-cuda --no-nvcc
"""
import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'bench-kernels', 'realcode'))
import compare_real  # noqa: E402  (Makefile reading: program_setup)

DEFAULT_CORPUS = os.path.join(ROOT, '..', 'shared', 'corpus', 'hecbench')
CACHE = '/tmp/warplint-corpus-parse'
NVCC_MODES = {
    'device': ['-ptx', '-fdevice-syntax-only'],
    'full': ['-cuda', '-fdevice-syntax-only'],
}
# Headers of CUDA libraries that the no-toolkit mode cannot stand in for
# (a bundled stand-in covers only part of <cuda_fp16.h>).
LIBRARY_HEADER = re.compile(
    r'^(thrust/|cub/|cuda/|cuda_fp16|cuda_bf16|cuda_fp8|cuda_fp4|mma\.h|'
    r'cooperative_groups/|curand|cuda_pipeline|cuda_awbarrier|cuda_texture|'
    r'texture_|surface_|sm_\d+_intrinsics|nvtx|cuComplex|cuda/std|'
    r'cudaProfiler|nvml|crt/)')
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def run(cmd, cwd, timeout):
    """(returncode or 'timeout', stdout, stderr, seconds)."""
    for attempt in range(60):
        try:
            t0 = time.time()
            p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True,
                                 errors='replace', start_new_session=True)
            break
        except OSError as e:  # the binary is being relinked: wait for it
            if attempt == 59:
                return 'not-started', '', str(e), 0.0
            time.sleep(5)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return 'timeout', out, err, time.time() - t0
    return p.returncode, out, err, time.time() - t0


def nvcc_check(nvcc, mode, path, flags, cwd, timeout, use_cache, only_cache):
    cmd = [nvcc, '-arch=sm_90'] + NVCC_MODES[mode] + ['-o', '/dev/null'] + \
        flags + [path]
    h = hashlib.sha256(json.dumps(cmd).encode())
    h.update(open(path, 'rb').read())
    key = os.path.join(CACHE, 'nvcc', h.hexdigest()[:32] + '.json')
    if use_cache and os.path.exists(key):
        try:
            return json.load(open(key))
        except ValueError:
            pass
    if only_cache:
        return None
    rc, out, err, secs = run(cmd, cwd, timeout)
    errors = [l for l in (out + err).splitlines()
              if re.search(r'\berror\b', l, re.I)]
    res = dict(ok=rc == 0, rc=rc, seconds=round(secs, 2),
               error=errors[0] if errors else ('' if rc == 0 else
                                               'exit %s' % rc))
    if rc != 'timeout':  # a timeout may be the machine being busy
        os.makedirs(os.path.dirname(key), exist_ok=True)
        tmp = key + '.%d' % os.getpid()
        json.dump(res, open(tmp, 'w'))
        os.replace(tmp, key)
    return res


def warplint_check(warplint, path, flags, cwd, timeout, no_toolkit):
    cmd = [warplint, '--format=json'] + \
        (['--no-cuda-toolkit'] if no_toolkit else []) + [path, '--'] + flags
    rc, out, err, secs = run(cmd, cwd, timeout)
    res = dict(ok=False, rc=rc, seconds=round(secs, 2), error='', diags=None)
    if rc == 'timeout':
        res['error'] = 'timeout after %d s' % timeout
        return res
    if isinstance(rc, int) and rc < 0:
        res['error'] = 'crash (signal %d)' % -rc
        return res
    try:
        doc = json.loads(out)
    except ValueError:
        res['error'] = 'no JSON report (exit %s): %s' % (rc, err.strip()[-200:])
        return res
    files = doc.get('files') or [{}]
    status = files[0].get('status')
    res['error'] = files[0].get('error', '') or ''
    incomplete = 'could not be analyzed completely' in err
    res['ok'] = status == 'ok' and not incomplete and rc in (0, 1)
    if not res['ok'] and not res['error']:
        first = [l for l in err.splitlines() if ': error: ' in l]
        res['error'] = first[0] if first else 'status %s, exit %s' % (status, rc)
    res['diags'] = sorted('%s:%s:%s' % (os.path.basename(d.get('file', '')),
                                        d.get('line'), d.get('rule'))
                          for d in doc.get('diagnostics', []))
    return res


def library_headers(path, incdirs, seen=None):
    """Library headers (LIBRARY_HEADER) that path includes, directly or
    through the program's own headers."""
    seen = set() if seen is None else seen
    if path in seen:
        return set()
    seen.add(path)
    try:
        text = open(path, errors='replace').read()
    except OSError:
        return set()
    found = set()
    for kind, name in INCLUDE_RE.findall(text):
        if LIBRARY_HEADER.match(name):
            found.add(name.split('/')[0] if '/' in name else name)
            continue
        for d in ([os.path.dirname(path)] if kind == '"' else []) + incdirs:
            p = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(p):
                found |= library_headers(p, incdirs, seen)
                break
    return found


def cause(msg):
    """A failure's cause: its first error without the location."""
    m = re.sub(r'^.*?:\d+:\d+: (error: )?', '', msg.strip())
    m = re.sub(r'^\S+\(\d+\): error: ', '', m)
    m = re.sub(r'; did you mean .*$', '', m)
    return m[:110]


def report(rows, modes, corpus, args, wall):
    """Prints the figures and the cause tables."""
    unchecked = [r for r in rows if r.get('nvcc') is None]
    accepted = [r for r in rows if r.get('nvcc') and r['nvcc']['ok']]
    rejected = [r for r in rows if r.get('nvcc') and not r['nvcc']['ok']]
    print('\nnvcc 13 accepts %d of %d files (%d rejected%s)' % (
        len(accepted), len(rows), len(rejected),
        ', %d not checked (no cached answer)' % len(unchecked) if unchecked else ''))
    for kind in modes:
        ok = [r for r in accepted if r[kind]['ok']]
        slow = max((r[kind]['seconds'] for r in rows), default=0)
        print('warplint, %-10s parses %d of %d (%.1f%%); slowest file %.1f s' % (
            kind, len(ok), len(accepted), 100.0 * len(ok) / max(1, len(accepted)),
            slow))
    if len(modes) == 2:
        both = [r for r in accepted if r['toolkit']['ok'] and r['no-toolkit']['ok']]
        same = [r for r in both if r['toolkit']['diags'] == r['no-toolkit']['diags']]
        tk_only = [r for r in accepted if r['toolkit']['ok'] and not r['no-toolkit']['ok']]
        lib = [r for r in tk_only if r['libraries']]
        print('parsed in both modes: %d, with the same findings: %d' % (len(both), len(same)))
        print('parsed with the toolkit only: %d, of which %d include CUDA library '
              'headers (%s)' % (
                  len(tk_only), len(lib), ', '.join('%s %d' % kv for kv in collections.Counter(
                      h for r in lib for h in r['libraries']).most_common(8))))
        nvcc_rej_ok = [r for r in rejected if r['toolkit']['ok']]
        print('nvcc rejects, warplint (toolkit) parses: %d' % len(nvcc_rej_ok))

    def table(title, sel, kind):
        c = collections.Counter(cause(r[kind]['error']) for r in sel)
        if not sel:
            return
        print('\n%s: %d files, first error by cause' % (title, len(sel)))
        for msg, n in c.most_common(args.top):
            progs_ = sorted({r['program'] for r in sel
                             if cause(r[kind]['error']) == msg})
            print('  %4d  %-110s %s' % (n, msg, ','.join(progs_[:3]) +
                                        (',...' if len(progs_) > 3 else '')))
        if len(c) > args.top:
            print('  %4d  (%d other causes)' % (
                sum(n for _, n in c.most_common()[args.top:]), len(c) - args.top))

    for kind in modes:
        table('nvcc accepts, warplint %s fails' % kind,
              [r for r in accepted if not r[kind]['ok']], kind)
    if len(modes) == 2:
        table('toolkit parses, no toolkit fails, no library header',
              [r for r in accepted if r['toolkit']['ok'] and not r['no-toolkit']['ok']
               and not r['libraries']], 'no-toolkit')
    table('nvcc rejects', rejected, 'nvcc')
    if wall is not None:
        print('\n%.0f s wall, %d jobs; listings: %s.json, %s.tsv' % (
            wall, args.jobs, args.out, args.out))


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--warplint', default=os.path.join(ROOT, 'build', 'warplint'))
    ap.add_argument('--nvcc', default='/usr/local/cuda/bin/nvcc')
    ap.add_argument('--corpus', default=DEFAULT_CORPUS)
    ap.add_argument('--programs', default='', help='comma-separated programs')
    ap.add_argument('--sample', type=int, default=0,
                    help='only N programs, evenly spread over the corpus')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=int, default=180, help='seconds per file')
    ap.add_argument('--no-nvcc', action='store_true',
                    help="use cached nvcc answers only (files without one are "
                    "left out)")
    ap.add_argument('--nvcc-check', choices=sorted(NVCC_MODES), default='device')
    ap.add_argument('--only', choices=('all', 'toolkit', 'no-toolkit'),
                    default='all', help='which warplint modes to run')
    ap.add_argument('--top', type=int, default=25, help='rows per cause table')
    ap.add_argument('--out', default=os.path.join(CACHE, 'listing'),
                    help='prefix of the full listings (.json, .tsv); keep it '
                    'out of the repository')
    ap.add_argument('--from-listing', metavar='JSON',
                    help='print the figures of a saved listing; run nothing')
    args = ap.parse_args()
    if args.from_listing:
        rows = json.load(open(args.from_listing))
        modes = tuple(k for k in ('toolkit', 'no-toolkit') if all(k in r for r in rows))
        report(rows, modes, None, args, None)
        return 0

    # Each check runs in its program's folder: a relative path to warplint
    # would name nothing there (and each start would wait for a relink).
    if os.sep in args.warplint:
        args.warplint = os.path.abspath(args.warplint)
        if not os.access(args.warplint, os.X_OK):
            sys.exit('corpus-parse: no warplint at %s' % args.warplint)
    corpus = os.path.realpath(args.corpus)
    if not os.path.isdir(corpus):
        sys.exit('corpus-parse: no corpus at %s' % args.corpus)
    progs = sorted(d for d in os.listdir(corpus)
                   if os.path.isfile(os.path.join(corpus, d, 'Makefile')))
    if args.programs:
        wanted = args.programs.split(',')
        progs = [p for p in progs if p in wanted]
    if args.sample and args.sample < len(progs):
        step = len(progs) / args.sample
        progs = [progs[int(i * step)] for i in range(args.sample)]

    units = []  # (program, file, flags)
    for p in progs:
        files, flags = compare_real.program_setup(os.path.join(corpus, p), corpus)
        units += [(p, f, flags) for f in files]
    print('%d programs, %d .cu files; nvcc check: %s (%s)' % (
        len(progs), len(units), args.nvcc_check, ' '.join(NVCC_MODES[args.nvcc_check])))
    sys.stdout.flush()

    modes = {'all': ('toolkit', 'no-toolkit'), 'toolkit': ('toolkit',),
             'no-toolkit': ('no-toolkit',)}[args.only]
    results = {u[1]: dict(program=u[0], file=u[1]) for u in units}

    def task(kind, unit):
        p, f, flags = unit
        cwd = os.path.join(corpus, p)
        if kind == 'nvcc':
            return nvcc_check(args.nvcc, args.nvcc_check, f, flags, cwd,
                              args.timeout, True, args.no_nvcc)
        return warplint_check(args.warplint, f, flags, cwd, args.timeout,
                              kind == 'no-toolkit')

    t0 = time.time()
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futs = {}
        for u in units:
            for kind in ('nvcc',) + modes:
                futs[pool.submit(task, kind, u)] = (kind, u[1])
        for fut in concurrent.futures.as_completed(futs):
            kind, f = futs[fut]
            results[f][kind] = fut.result()
            done += 1
            if done % 100 == 0:
                print('  %d of %d checks, %.0f s' % (done, len(futs), time.time() - t0),
                      file=sys.stderr)
    wall = time.time() - t0

    for u in units:
        incdirs = [x[2:] for x in u[2] if x.startswith('-I')]
        results[u[1]]['libraries'] = sorted(library_headers(u[1], incdirs))

    rows = [results[u[1]] for u in units]
    report(rows, modes, corpus, args, wall)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    json.dump(rows, open(args.out + '.json', 'w'), indent=1)
    with open(args.out + '.tsv', 'w') as f:
        f.write('program\tfile\tnvcc\ttoolkit\tno-toolkit\tlibraries\terror\n')
        for r in rows:
            def st(k):
                return '-' if not r.get(k) else ('ok' if r[k]['ok'] else 'FAIL')
            err = next((r[k]['error'] for k in ('nvcc',) + modes
                        if r.get(k) and not r[k]['ok']), '')
            f.write('\t'.join([r['program'], os.path.relpath(r['file'], corpus),
                               st('nvcc')] + [st(k) for k in ('toolkit', 'no-toolkit')] +
                              [','.join(r['libraries']), err.replace('\t', ' ')]) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
