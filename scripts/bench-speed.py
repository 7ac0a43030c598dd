#!/usr/bin/env python3
"""Speed and memory of warplint against clang's own device-side parse.

For each file, runs `clang++-22 -fsyntax-only --cuda-device-only` with the
command warplint parses the file with (warplint --print-parse-commands: the
same flags, nvcc's translated), and warplint itself, interleaved, N times each; reports the
median wall time and peak RSS of each and their ratio. A benchmark, not a test:
it prints figures and asserts nothing.

  scripts/bench-speed.py [--runs N] [--warplint build/warplint] [FILES or DIRS...]
  scripts/bench-speed.py --corpus ../shared/corpus/hecbench [--programs N]
  scripts/bench-speed.py --jobs 2 [--only-jobs] ...

Without paths it measures the repository's own .cu files (examples,
bench-kernels, test fixtures). --corpus measures the .cu files the corpus
programs' Makefiles compile, each with its program's -I, -D and -std flags
(as bench-kernels/realcode/compare_real.py reads them): every program, or an
evenly spaced sample of N. Reports the median, p90 and worst time ratio, total
time and the median memory ratio.

--jobs N also times one warplint run over all the files (a compile database
written for them, each file with its own flags) with -j 1 and with -j N, and,
for the machine's own ceiling, the same files split over N warplint processes
started together (-j 1 each); it reports files per second and the speed-ups.
--only-jobs skips the per-file comparison with clang.

--instructions counts the instructions each tool executes on each file
instead of timing it (one run each under valgrind's callgrind, K files at
once with --parallel K): the count does not move with the machine's load,
so two builds, or a file's ratio from one day to the next, compare to the
instruction. It leaves out what a count does not see (cache misses, the
page faults of a larger heap), so it complements the timed figures, it does
not replace them. Needs valgrind; about 50x slower than a timed run.
"""
import argparse
import concurrent.futures
import glob
import re
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def clang_command(path, cuda, extra=(), warplint=None):
    """clang's own device-side parse of `path` with exactly the command
    warplint parses it with (its --print-parse-commands: nvcc flags
    translated, its flags added), warnings off."""
    wl = warplint or os.path.join(ROOT, 'build', 'warplint')
    out = subprocess.run(
        [wl, '--print-parse-commands'] +
        ([] if cuda else ['--no-cuda-toolkit']) +
        ['--extra-arg=' + a for a in extra] + [path],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines = out.stdout.splitlines()
    if out.returncode != 0 or len(lines) != 1:
        sys.exit('bench-speed: %s --print-parse-commands %s failed' %
                 (wl, path))
    cmd = shlex.split(lines[0])
    return ['clang++-22'] + cmd[1:-1] + ['-w', cmd[-1]]


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
    ap.add_argument('--corpus', help='a corpus folder of programs with Makefiles')
    ap.add_argument('--programs', type=int, default=0,
                    help='with --corpus: an evenly spaced sample of N programs')
    ap.add_argument('--jobs', type=int, default=0,
                    help='also time a run over all files with -j 1 and -j N')
    ap.add_argument('--only-jobs', action='store_true')
    ap.add_argument('--instructions', action='store_true',
                    help='count instructions (valgrind) instead of timing')
    ap.add_argument('--parallel', type=int, default=1,
                    help='with --instructions: files counted at once')
    ap.add_argument('paths', nargs='*')
    args = ap.parse_args()
    cuda = None
    if not args.no_cuda_toolkit and os.path.exists(
            '/usr/local/cuda/include/cuda_runtime.h'):
        cuda = '/usr/local/cuda'
    files = []  # (path, compiler arguments of its own)
    if args.corpus:
        sys.path.insert(0, os.path.join(ROOT, 'bench-kernels', 'realcode'))
        import compare_real  # noqa: E402  (the Makefile reader)
        corpus = os.path.abspath(args.corpus)
        progs = sorted(d for d in os.listdir(corpus)
                       if os.path.isfile(os.path.join(corpus, d, 'Makefile')))
        if args.programs and args.programs < len(progs):
            step = len(progs) / args.programs
            progs = [progs[int(i * step)] for i in range(args.programs)]
        for prog in progs:
            srcs, flags = compare_real.program_setup(
                os.path.join(corpus, prog), corpus)
            files += [(f, flags) for f in srcs]
    for p in args.paths or ([] if args.corpus else [
            os.path.join(ROOT, d)
            for d in ('examples', 'bench-kernels', 'test/fixtures')]):
        if os.path.isdir(p):
            files += [(f, []) for f in sorted(
                glob.glob(os.path.join(p, '**', '*.cu'), recursive=True))]
        else:
            files.append((p, []))
    wl_extra = ([] if cuda else ['--no-cuda-toolkit']) + [
        '--extra-arg=' + a for a in args.extra_arg]
    if args.instructions:
        print('mode: %s, instructions executed (callgrind), one run each' %
              ('CUDA toolkit ' + cuda if cuda else 'bundled header'))
        instruction_figures(args, files, wl_extra, cuda)
        return 0
    print('mode: %s, %d runs each, interleaved; medians' %
          ('CUDA toolkit ' + cuda if cuda else 'bundled header', args.runs))
    print('%-58s %9s %9s %6s %9s %9s %6s' % ('file', 'clang s', 'warplint',
                                             'ratio', 'clang MiB', 'wl MiB',
                                             'ratio'))
    if args.jobs:
        jobs_figures(args, files, wl_extra)
        if args.only_jobs:
            return 0
    ratios, mem_ratios, tot_c, tot_w, failed = [], [], 0.0, 0.0, 0
    failed_both = 0
    for f, own in files:
        c_t, w_t, c_m, w_m = [], [], [], []
        ok = True
        both = True  # every failed run failed both ways
        clang = clang_command(f, cuda, args.extra_arg + own, args.warplint)
        for _ in range(args.runs):
            t, m, rc = measure(clang)
            c_t.append(t)
            c_m.append(m)
            t, m, rc2 = measure([args.warplint] + wl_extra +
                                ['--extra-arg=' + a for a in own] + [f])
            w_t.append(t)
            w_m.append(m)
            # Counted only where both parsed it (warplint's exit 2: it could
            # not analyze the file). A file clang cannot parse either (a
            # header the program's build makes) stops early both ways, and
            # warplint then also parses its host side to say why: its time
            # says nothing of either tool.
            ok = ok and rc == 0 and rc2 != 2
            both = both and (rc == 0) == (rc2 != 2)
        ct, wt = statistics.median(c_t), statistics.median(w_t)
        cm, wm = statistics.median(c_m), statistics.median(w_m)
        # A file one of the two could not parse is listed, not counted: the
        # failed parse stops early and its time says nothing.
        if ok:
            tot_c += ct
            tot_w += wt
            ratios.append(wt / ct)
            mem_ratios.append(wm / cm)
        else:
            failed += 1
            failed_both += both
        name = os.path.relpath(f, ROOT) if f.startswith(ROOT) else f
        print('%-58s %9.3f %9.3f %6.2f %9.1f %9.1f %6.2f%s' % (
            name[-58:], ct, wt, wt / ct, cm, wm, wm / cm,
            '' if ok else '  (both failed: left out)' if both else
            '  (a run failed: left out)'))
    if ratios:
        srt = sorted(ratios)
        p90 = srt[min(len(srt) - 1, int(round(0.9 * (len(srt) - 1))))]
        print()
        if failed:
            print('%d file%s left out of the figures: %d failed in both '
                  'tools, %d in one run' % (failed, '' if failed == 1 else 's',
                                            failed_both, failed - failed_both))
        print('files: %d; time ratio warplint/clang: median %.2f, p90 %.2f, '
              'worst %.2f (best %.2f); total %.2f s vs %.2f s (%.2f); median '
              'memory ratio %.2f (worst %.2f)'
              % (len(ratios), statistics.median(ratios), p90, max(ratios),
                 min(ratios), tot_w, tot_c, tot_w / tot_c,
                 statistics.median(mem_ratios), max(mem_ratios)))
    return 0


def instructions(cmd):
    """Instructions cmd executes (its processes' sum), its exit code."""
    p = subprocess.run(['valgrind', '--tool=callgrind', '--trace-children=yes',
                        '--callgrind-out-file=/dev/null'] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, errors='replace')
    counts = re.findall(r'==\d+== Collected : (\d+)', p.stderr)
    return sum(int(c) for c in counts), p.returncode


def instruction_figures(args, files, wl_extra, cuda):
    """Per file: instructions of clang's parse and of warplint, their ratio;
    then the median, p90, worst and total ratio."""
    def one(item):
        f, own = item
        clang = clang_command(f, cuda, args.extra_arg + own, args.warplint)
        c, rc = instructions(clang)
        w, rc2 = instructions([args.warplint] + wl_extra +
                              ['--extra-arg=' + a for a in own] + [f])
        return f, c, w, rc == 0 and rc2 != 2 and c > 0 and w > 0
    print('%-58s %11s %11s %6s' % ('file', 'clang Ginst', 'wl Ginst', 'ratio'))
    ratios, tot_c, tot_w, failed = [], 0, 0, 0
    with concurrent.futures.ThreadPoolExecutor(args.parallel) as pool:
        for f, c, w, ok in pool.map(one, files):
            name = os.path.relpath(f, ROOT) if f.startswith(ROOT) else f
            print('%-58s %11.3f %11.3f %6s%s' % (
                name[-58:], c / 1e9, w / 1e9,
                '%.3f' % (w / c) if c else '-',
                '' if ok else '  (a run failed: left out)'), flush=True)
            if ok:
                ratios.append(w / c)
                tot_c += c
                tot_w += w
            else:
                failed += 1
    if ratios:
        srt = sorted(ratios)
        p90 = srt[min(len(srt) - 1, int(round(0.9 * (len(srt) - 1))))]
        print()
        print('files: %d (%d left out); instruction ratio warplint/clang: '
              'median %.3f, p90 %.3f, worst %.3f (best %.3f); total %.3f'
              % (len(ratios), failed, statistics.median(ratios), p90,
                 max(ratios), min(ratios), tot_w / tot_c))


def run_all(cmds):
    """Wall seconds of the commands started together."""
    start = time.perf_counter()
    ps = [subprocess.Popen(c, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL) for c in cmds]
    for p in ps:
        p.wait()
    return time.perf_counter() - start


def jobs_figures(args, files, wl_extra):
    """-j 1 against -j N over every file, and N processes as the ceiling."""
    n = args.jobs
    with tempfile.TemporaryDirectory() as db:
        entries = [{'directory': os.path.dirname(os.path.abspath(f)),
                    'arguments': ['clang++', '-x', 'cuda'] +
                    args.extra_arg + own + ['-c', os.path.abspath(f)],
                    'file': os.path.abspath(f)} for f, own in files]
        with open(os.path.join(db, 'compile_commands.json'), 'w') as out:
            json.dump(entries, out)
        base = [args.warplint] + wl_extra + ['-p', db]
        # The split for N processes: largest first, each to the lightest.
        parts = [[] for _ in range(n)]
        load = [0] * n
        for f, _ in sorted(files, key=lambda x: -os.path.getsize(x[0])):
            i = load.index(min(load))
            parts[i].append(os.path.abspath(f))
            load[i] += os.path.getsize(f) + 32768
        one, many, procs = [], [], []
        for _ in range(args.runs):
            one.append(run_all([base + ['-j1']]))
            many.append(run_all([base + ['-j%d' % n]]))
            procs.append(run_all([base + ['-j1'] + p for p in parts if p]))
    t1, tn, tp = (statistics.median(x) for x in (one, many, procs))
    print('%d files, medians of %d runs: -j1 %.1f s (%.2f files/s), -j%d '
          '%.1f s (%.2f files/s, %.2fx); %d processes of -j1 started together '
          '%.1f s (%.2fx: what the machine gives %d independent runs)' % (
              len(files), args.runs, t1, len(files) / t1, n, tn,
              len(files) / tn, t1 / tn, n, tp, t1 / tp, n))
    print()


if __name__ == '__main__':
    sys.exit(main())
