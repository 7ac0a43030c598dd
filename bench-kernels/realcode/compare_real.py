#!/usr/bin/env python3
"""Replays per-line GPU measurements of real programs (HeCBench) against
warplint's predictions, and reports how well they agree.

  compare_real.py                          print the table
  compare_real.py --details lines.tsv      also list every measured line
  compare_real.py --json summary.json      machine-readable summary
  compare_real.py --misses /tmp/misses.md  misses and false warnings by cause,
                                           quoting corpus source lines (keep
                                           it out of the repository)
  compare_real.py --record                 write results/baseline.json
  compare_real.py --check                  exit 1 when a figure fell below the
                                           baseline or warplint crashed (CI)

The measurements are results/<gpu>.json (per program, per kernel, per source
line: sectors and ideal sectors of global accesses, wavefronts and ideal
wavefronts of shared ones, summed over the line's SASS instructions; see
README.md). The programs' sources are read in place from the corpus
(--corpus, default ../shared/corpus/hecbench from the repository root);
nothing from them is copied here.

Per (file, line, space) the measured excess is sum(actual) / sum(ideal) over
all kernels (template instantiations included) that ran the line. A template
instantiation warplint analyzed that did not run is left out of the
predictions (instances_not_run()). warplint
is run once per program over the .cu files its Makefile compiles, with the
Makefile's -D and -I flags; its accesses on the same line are folded into one
predicted excess, sum(cost)/sum(ideal) as the GPU's figure is
(predicted_excess()).

Figures, per space (global: uncoalesced-global-access, shared:
smem-bank-conflict):
  recall     lines the GPU shows at >= BAD x ideal (in the sum, or in one of
             the kernels that ran the line) that carry the rule's warning,
             over all such lines;
  precision  warned lines the GPU shows at >= PRECISION_BAR x ideal (in the
             sum, or in the kernel instantiation the warning names), or with
             one instruction at >= BAD x ideal (an unrolled loop's worst
             iteration is an instruction of its own, which the line's sum
             averages away), over all warned lines that ran (warnings on
             lines that never ran, or were not measured, are counted apart);
  agreement  executed lines whose predicted excess is within TOLERANCE of the
             measured one (a line without an evaluated access disagrees).
Exit codes: 0 fine, 1 regression or crash, 77 corpus or measurements missing
(CTest skips).
"""
import argparse
import collections
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RESULTS = os.path.join(HERE, 'results')
BASELINE = os.path.join(RESULTS, 'baseline.json')
DEFAULT_CORPUS = os.path.join(ROOT, '..', 'shared', 'corpus', 'hecbench')
# The bench comparison's statistics (bench-kernels/compare.py).
sys.path.insert(0, os.path.dirname(HERE))
import compare as bench_compare  # noqa: E402

SKIP = 77

BAD = 2.0            # a line the GPU shows at >= BAD x ideal is a bad line
PRECISION_BAR = 1.5  # a warning is right when the GPU shows >= this x ideal
TOLERANCE = 0.10     # figure agreement: |pred - meas| <= TOLERANCE * meas
# A bad line worth a warning (issue 47's cost principle for the memory rules,
# rules/KernelShare.h): in some kernel its extra sectors (wavefronts) are at
# least MIN_TRAFFIC_SHARE of the kernel's measured sectors (wavefronts), or
# it runs at least RARE_RUNS as often as the kernel's busiest line of that
# space (its busiest instruction's executions against theirs).
MIN_TRAFFIC_SHARE = 0.02
RARE_RUNS = 1.0 / 8

SPACES = collections.OrderedDict([
    ('global', dict(rule='uncoalesced-global-access', cost='sectors_per_request',
                    ideal='ideal_sectors_per_request', actual='sectors',
                    what='uncoalesced')),
    ('shared', dict(rule='smem-bank-conflict', cost='wavefronts_per_request',
                    ideal='ideal_wavefronts_per_request', actual='wavefronts',
                    what='bank-conflicted')),
])


# --------------------------------------------------------------------------
# Makefiles: which .cu files a program compiles, with which -D/-I flags.

MAKE_OVERRIDES = {'ARCH': 'sm_90', 'EXTRA_CFLAGS': '-lineinfo', 'CC': 'nvcc'}
ASSIGN_RE = re.compile(
    r'^(?:override\s+|export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*(\+=|\?=|:::=|::=|:=|!=|=)\s*(.*)$')


def _find_close(s, i):
    """Index of the parenthesis closing the one opened before s[i]."""
    depth = 1
    while i < len(s):
        if s[i] in '({':
            depth += 1
        elif s[i] in ')}':
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(s)


def make_expand(s, env, cwd, depth=0):
    """Expands $(VAR), ${VAR}, $(VAR:a=b), $(wildcard ...), $(patsubst ...),
    $(addprefix ...); $(shell ...) and other functions expand to nothing."""
    if depth > 20 or '$' not in s:
        return s
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c != '$' or i + 1 >= len(s):
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        if n == '$':
            out.append('$')
            i += 2
            continue
        if n not in '({':
            out.append(env.get(n, ''))
            i += 2
            continue
        end = _find_close(s, i + 2)
        body = s[i + 2:end]
        i = end + 1
        m = re.match(r'(\w+)\s+(.*)$', body, re.S)
        if m and m.group(1) in ('wildcard', 'patsubst', 'addprefix', 'shell',
                                'addsuffix', 'filter', 'filter-out', 'notdir',
                                'basename', 'subst', 'strip', 'sort', 'dir',
                                'foreach', 'if', 'call', 'origin', 'firstword'):
            fn, arg = m.group(1), make_expand(m.group(2), env, cwd, depth + 1)
            if fn == 'wildcard':
                res = []
                for pat in arg.split():
                    res += sorted(os.path.relpath(p, cwd) for p in
                                  glob.glob(os.path.join(cwd, pat)))
                out.append(' '.join(res))
            elif fn == 'patsubst':
                parts = arg.split(',', 2)
                if len(parts) == 3:
                    pat, rep, words = parts
                    out.append(' '.join(_patsubst(pat.strip(), rep.strip(), w)
                                        for w in words.split()))
            elif fn in ('addprefix', 'addsuffix'):
                parts = arg.split(',', 1)
                if len(parts) == 2:
                    fix, words = parts[0].strip(), parts[1].split()
                    out.append(' '.join((fix + w) if fn == 'addprefix' else
                                        (w + fix) for w in words))
            elif fn == 'subst':
                parts = arg.split(',', 2)
                if len(parts) == 3:
                    out.append(parts[2].replace(parts[0], parts[1]))
            elif fn in ('strip', 'sort'):
                w = arg.split()
                out.append(' '.join(sorted(set(w)) if fn == 'sort' else w))
            elif fn in ('filter', 'filter-out'):
                parts = arg.split(',', 1)
                if len(parts) == 2:
                    pats = parts[0].split()
                    keep = [w for w in parts[1].split()
                            if any(_patmatch(p, w) for p in pats) == (fn == 'filter')]
                    out.append(' '.join(keep))
            continue
        m = re.match(r'([^:]+):([^=]*)=(.*)$', body)
        if m:  # substitution reference $(VAR:a=b)
            val = make_expand(env.get(m.group(1), ''), env, cwd, depth + 1)
            a, b = m.group(2), m.group(3)
            if '%' not in a:
                a, b = '%' + a, '%' + b
            out.append(' '.join(_patsubst(a, b, w) for w in val.split()))
            continue
        name = make_expand(body, env, cwd, depth + 1)
        out.append(make_expand(env.get(name, ''), env, cwd, depth + 1))
    return ''.join(out)


def _patmatch(pat, word):
    if '%' not in pat:
        return pat == word
    pre, post = pat.split('%', 1)
    return word.startswith(pre) and word.endswith(post) and \
        len(word) >= len(pre) + len(post)


def _patsubst(pat, rep, word):
    if not _patmatch(pat, word):
        return word
    if '%' not in pat:
        return rep
    pre, post = pat.split('%', 1)
    stem = word[len(pre):len(word) - len(post)]
    return rep.replace('%', stem, 1)


def read_makefile(path):
    """Variables of a Makefile after its conditionals, with the command line
    the measurements were built with (MAKE_OVERRIDES)."""
    cwd = os.path.dirname(path)
    env = dict(MAKE_OVERRIDES)
    text = open(path, errors='replace').read().replace('\\\r\n', ' ').replace(
        '\\\n', ' ')
    stack = []  # (active, any branch taken)

    def active():
        return all(a for a, _ in stack)

    def cond(line):
        m = re.match(r'(ifeq|ifneq)\s*(.*)$', line)
        if m:
            arg = m.group(2).strip()
            if arg.startswith('('):
                inner = arg[1:arg.rfind(')')]
                # split at the top-level comma
                d, cut = 0, None
                for k, ch in enumerate(inner):
                    if ch in '({':
                        d += 1
                    elif ch in ')}':
                        d -= 1
                    elif ch == ',' and d == 0:
                        cut = k
                        break
                a, b = (inner, '') if cut is None else (inner[:cut], inner[cut + 1:])
            else:
                q = re.findall(r'"([^"]*)"|\'([^\']*)\'', arg)
                a, b = ([x or y for x, y in q] + ['', ''])[:2]
            a = make_expand(a, env, cwd).strip()
            b = make_expand(b, env, cwd).strip()
            return (a == b) == (m.group(1) == 'ifeq')
        m = re.match(r'(ifdef|ifndef)\s+(\S+)', line)
        if m:
            defined = bool(env.get(make_expand(m.group(2), env, cwd), ''))
            return defined == (m.group(1) == 'ifdef')
        return None

    for raw in text.split('\n'):
        if raw.startswith('\t'):
            continue  # a recipe
        line = re.sub(r'(?<!\\)#.*', '', raw).strip()
        if not line:
            continue
        word = line.split()[0]
        if word in ('ifeq', 'ifneq', 'ifdef', 'ifndef') or re.match(
                r'(ifeq|ifneq)\(', line):
            stack.append((bool(cond(line)) if active() else False, False))
            stack[-1] = (stack[-1][0], stack[-1][0])
            continue
        if word == 'else':
            if stack:
                _, taken = stack.pop()
                rest = line[4:].strip()
                outer = active()
                if rest:
                    c = (not taken) and outer and bool(cond(rest))
                else:
                    c = (not taken) and outer
                stack.append((c, taken or c))
            continue
        if word == 'endif':
            if stack:
                stack.pop()
            continue
        if not active():
            continue
        m = ASSIGN_RE.match(line)
        if not m:
            continue
        name, op, val = m.group(1), m.group(2), m.group(3).strip()
        if name in MAKE_OVERRIDES:
            continue  # the command line wins
        if op in (':=', '::=', ':::='):
            env[name] = make_expand(val, env, cwd)
        elif op == '+=':
            env[name] = (env.get(name, '') + ' ' + val).strip()
        elif op == '?=':
            env.setdefault(name, val)
        elif op == '!=':
            env[name] = ''
        else:
            env[name] = val
    return env, cwd


def program_setup(progdir, corpus):
    """(.cu files, compiler arguments) for warplint on one program."""
    mk = os.path.join(progdir, 'Makefile')
    env, cwd = read_makefile(mk) if os.path.exists(mk) else ({}, progdir)
    files = []
    src = make_expand(env.get('source', ''), env, cwd).split()
    for s in src:
        p = os.path.normpath(os.path.join(progdir, s))
        if p.endswith('.cu') and os.path.exists(p):
            files.append(p)
    if not files:
        files = sorted(glob.glob(os.path.join(progdir, '*.cu')) +
                       glob.glob(os.path.join(progdir, '*', '*.cu')))
    flags = []
    for var in sorted(env):
        if var == 'CFLAGS' or (var != 'LDFLAGS' and ('FLAGS' in var or
                                                     var.startswith('INC'))):
            flags += _compile_flags(make_expand(env[var], env, cwd), progdir)
    if not any(f.startswith('-std=') for f in flags):
        flags.insert(0, '-std=c++17')
    incs = ['-I' + progdir, '-I' + os.path.join(corpus, 'include')]
    incs += ['-I' + d for d in sorted({os.path.dirname(f) for f in files})
             if d != progdir]
    seen, out = set(), []
    for f in incs + flags:
        if f not in seen or not f.startswith(('-I', '-D', '-U')):
            out.append(f)
            seen.add(f)
    return files, out


def _compile_flags(text, progdir):
    try:
        toks = shlex.split(text)
    except ValueError:
        toks = text.split()
    out = []
    i = 0
    while i < len(toks):
        t = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t in ('-D', '-U', '-I') and nxt is not None:
            t = t + nxt
            i += 1
        if t.startswith('-I'):
            d = t[2:]
            if d:
                out.append('-I' + os.path.normpath(os.path.join(progdir, d)))
        elif t.startswith(('-D', '-U')) and len(t) > 2:
            out.append(t)
        elif t.startswith('-std=') or t in (
                '--expt-relaxed-constexpr', '-expt-relaxed-constexpr',
                '--extended-lambda', '--expt-extended-lambda'):
            out.append(t)
        i += 1
    return out


# --------------------------------------------------------------------------
# warplint

def run_warplint(warplint, progdir, corpus, timeout, extra):
    files, flags = program_setup(progdir, corpus)
    res = dict(program=os.path.basename(progdir), files=files, flags=flags,
               status='ok', returncode=None, seconds=None, doc=None, error='')
    if not files:
        res.update(status='no-sources')
        return res
    cmd = [warplint, '--format=json'] + extra + files + ['--'] + flags
    res['command'] = cmd
    t0 = time.time()
    try:
        p = subprocess.Popen(cmd, cwd=progdir, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             errors='replace', start_new_session=True)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            res.update(status='timeout', seconds=time.time() - t0,
                       error='no answer in %d s' % timeout)
            return res
    except OSError as e:  # e.g. the binary is being relinked
        res.update(status='not-started', error=str(e))
        return res
    res['seconds'] = time.time() - t0
    res['returncode'] = p.returncode
    if p.returncode < 0:
        try:
            name = signal.Signals(-p.returncode).name
        except ValueError:
            name = 'signal %d' % -p.returncode
        res.update(status='crash', error='%s; %s' % (name, _tail(err)))
        return res
    try:
        res['doc'] = json.loads(out)
    except ValueError:
        res.update(status='crash' if p.returncode not in (0, 2) else 'no-json',
                   error='exit %d, no JSON report; %s' % (p.returncode, _tail(err)))
        return res
    if p.returncode not in (0, 2):
        res.update(status='crash', error='exit %d; %s' % (p.returncode, _tail(err)))
    return res


def _tail(err, n=300):
    err = (err or '').strip().replace('\n', ' | ')
    return err[-n:]


# --------------------------------------------------------------------------
# Measurements

def load_measurements(path):
    doc = json.load(open(path))
    if isinstance(doc, dict) and 'programs' in doc:
        progs = doc['programs']
    elif isinstance(doc, list):
        progs = doc
    elif isinstance(doc, dict):
        progs = [dict(v, program=v.get('program', k)) for k, v in doc.items()
                 if isinstance(v, dict) and 'kernels' in v]
    else:
        progs = []
    if isinstance(progs, dict):
        progs = [dict(v, program=v.get('program', k)) for k, v in progs.items()]
    return doc if isinstance(doc, dict) else {}, progs


def resolve(progdir, f):
    if os.path.isabs(f):
        if os.path.exists(f):
            return os.path.realpath(f)
        # a path from the GPU machine: keep what follows the program's folder
        name = os.path.basename(progdir)
        k = f.find('/' + name + '/')
        if k >= 0:
            f = f[k + len(name) + 2:]
        else:
            k = f.find('/hecbench/')
            if k >= 0:
                return os.path.realpath(os.path.join(
                    os.path.dirname(progdir), f[k + len('/hecbench/'):]))
            f = os.path.basename(f)
    return os.path.realpath(os.path.join(progdir, f))


def kernel_base_name(demangled):
    """'void ns::k<float, (int)2>(T1 *, int)' -> 'k'."""
    depth, cut = 0, len(demangled)
    for i, ch in enumerate(demangled):
        if ch == '<':
            depth += 1
        elif ch == '>':
            depth -= 1
        elif ch == '(' and depth == 0:
            cut = i
            break
    name = demangled[:cut]
    # drop template arguments
    out, depth = [], 0
    for ch in name:
        if ch == '<':
            depth += 1
        elif ch == '>':
            depth -= 1
        elif depth == 0:
            out.append(ch)
    name = ''.join(out).strip()
    return name.split('::')[-1].split()[-1] if name else demangled


_CAST_RE = re.compile(r'\((?:unsigned |signed )?(?:int|long|short|char|bool|long long)\)(?=-?\d)')
_ENUM_CAST_RE = re.compile(r'\((?:[A-Za-z_]\w*::)+[A-Za-z_]\w*\)-?\d+')
_QUALIFIED_RE = re.compile(r'(?<=[<,])(?:[A-Za-z_]\w*::)+[A-Za-z_]\w*(?=[,>])')
_SUFFIX_RE = re.compile(r'(?<=\d)(?:[uU](?:[lL]{1,2})?|[lL]{1,2}[uU]?)\b')


def canonical_instance(sig):
    """A kernel instantiation's name comparable between warplint's
    kernel_signature ('k<float, 4U>') and the demangled name the GPU
    measured ('void ns::k<float, (unsigned int)4>(float *, int)'): the last
    name component with its template arguments, casts, integer suffixes and
    spaces dropped. None when it is not a template instantiation."""
    head, depth = sig, 0
    for i, ch in enumerate(sig):
        if ch == '<':
            depth += 1
        elif ch == '>':
            depth -= 1
        elif ch == '(' and depth == 0:
            head = sig[:i]
            break
    lt = head.find('<')
    if lt < 0:
        return None
    name = head[:lt].split('::')[-1].split()[-1] if head[:lt].strip() else ''
    args = _SUFFIX_RE.sub('', _CAST_RE.sub('', head[lt:]))
    args = re.sub(r'\s+', '', args)
    # An enumerator: the demangler writes '(ns::Mode)0', Clang 'ns::Mode::kNone'.
    # Both become '#' (as does a qualified type without template arguments,
    # on both sides alike), so instantiations that differ only there match
    # together: their predictions are kept rather than wrongly left out.
    args = _ENUM_CAST_RE.sub('#', args)
    args = _QUALIFIED_RE.sub('#', args)
    # Booleans: '(bool)0' (its cast dropped above) in one, 'false' in the other.
    args = re.sub(r'(?<=[<,])false(?=[,>])', '0', args)
    args = re.sub(r'(?<=[<,])true(?=[,>])', '1', args)
    return name + args


def instances_not_run(prog, doc):
    """warplint's kernel signatures of template instantiations that did not
    run on the GPU: a kernel whose measured instantiations can be matched to
    warplint's by canonical_instance(), and this instantiation is not one of
    them. What a template instantiation that never ran would cost is not
    measured, so its predictions are neither right nor wrong. Where no
    instantiation of a kernel matches (the demangler and Clang spell an
    argument differently), all are kept."""
    ran = collections.defaultdict(set)
    for k in prog.get('kernels', []):
        c = canonical_instance(k.get('demangled') or '')
        if c:
            ran[c.split('<', 1)[0]].add(c)
    sigs = {k.get('signature') or '' for k in doc.get('kernels', [])}
    by_name = collections.defaultdict(set)
    for sig in sigs:
        c = canonical_instance(sig)
        if c:
            by_name[c.split('<', 1)[0]].add((sig, c))
    out = set()
    for name, insts in by_name.items():
        measured = ran.get(name)
        if measured and any(c in measured for _, c in insts):
            out |= {sig for sig, c in insts if c not in measured}
    return out


def kernel_key(name):
    """One kernel (template instantiation) comparable between the GPU's
    demangled names and warplint's kernel signatures."""
    return canonical_instance(name) or kernel_base_name(name)


def new_line():
    return dict(actual=0, ideal=0, inst=0, kernels=set(), sass=0, per_inst=[],
                kinds=set(), by_kernel={}, worth=False)


def mark_worth(kernel, progdir, lines):
    """Marks the lines of `kernel` worth a warning in it (MIN_TRAFFIC_SHARE,
    RARE_RUNS): line entries of `lines` are created as measured_lines makes
    them."""
    for space, spec in SPACES.items():
        per = collections.defaultdict(lambda: [0, 0, 0])
        for l in kernel.get('lines', []):
            m = l.get(space)
            if not m:
                continue
            e = per[(resolve(progdir, l['file']), int(l['line']))]
            e[0] += m.get(spec['actual'], 0) or 0
            e[1] += m.get('ideal', 0) or 0
            e[2] = max([e[2]] + [i.get('executed') or 0
                                 for i in m.get('instructions', []) or []])
        total = sum(e[0] for e in per.values())
        busiest = max((e[2] for e in per.values()), default=0)
        if not total or not busiest:
            continue
        for (path, line), (actual, ideal, runs) in per.items():
            if ((actual - ideal) / total >= MIN_TRAFFIC_SHARE or
                    runs / busiest >= RARE_RUNS):
                lines.setdefault((path, line, space), new_line())['worth'] = True


def measured_lines(prog, progdir):
    """{(abs file, line, space): dict(actual, ideal, inst, kernels, sass,
    by_kernel: {kernel_key(): [actual, ideal]})}, and
    {(abs file, line): instructions executed} for every line that ran."""
    lines = {}
    ran = collections.Counter()
    for k in prog.get('kernels', []):
        kname = k.get('demangled') or k.get('mangled') or '?'
        mark_worth(k, progdir, lines)
        for l in k.get('lines', []):
            path = resolve(progdir, l['file'])
            inst = l.get('inst_executed') or 0
            ran[(path, int(l['line']))] += inst
            for space, spec in SPACES.items():
                m = l.get(space)
                if not m:
                    continue
                key = (path, int(l['line']), space)
                e = lines.setdefault(key, new_line())
                actual = m.get(spec['actual'], 0) or 0
                ideal = m.get('ideal', 0) or 0
                e['actual'] += actual
                e['ideal'] += ideal
                pk = e['by_kernel'].setdefault(kernel_key(kname), [0, 0])
                pk[0] += actual
                pk[1] += ideal
                e['inst'] += inst
                e['kernels'].add(kernel_base_name(kname))
                for ins in m.get('instructions', []) or []:
                    if ins.get('executed'):
                        e['sass'] += 1
                        e['kinds'].add(ins.get('access') or '?')
                        if ins.get('from'):
                            e['from_header'] = True
                        if ins.get('ideal'):
                            e['per_inst'].append(
                                round((ins.get(spec['actual']) or 0) / ins['ideal'], 2))
    return lines, ran


# --------------------------------------------------------------------------
# The join

def predicted_excess(accesses, space, how='ratio'):
    """One predicted excess for a line from warplint's evaluated accesses on
    it (all kernels and instantiations): sum(cost)/sum(ideal) ('ratio', the
    default: the GPU's per-line figure is that ratio over the line's
    instructions), or the mean of cost/ideal, each access weighted alike
    ('mean'). None when no access on the line was evaluated."""
    spec = SPACES[space]
    pairs = [(a[spec['cost']], a[spec['ideal']]) for a in accesses
             if a.get('evaluated') and a.get(spec['cost']) is not None
             and a.get(spec['ideal'])]
    if not pairs:
        return None
    if how == 'ratio':
        return sum(c for c, _ in pairs) / sum(i for _, i in pairs)
    return sum(c / i for c, i in pairs) / len(pairs)


def estimated_excess(accesses, space):
    """The figure warplint takes for a line whose addresses depend on data:
    each access's estimate of the kind it expects (JSON data_estimate.
    expected: the random draw for the kinds it warns on by default, the
    lanes agreeing otherwise), as one ratio. None when no access on the
    line has one."""
    spec = SPACES[space]
    ests = [a.get('data_estimate') or {} for a in accesses
            if not a.get('evaluated')]
    pairs = [(d[spec['cost']], d[spec['ideal']]) for d in
             (e.get(e.get('expected', 'random')) for e in ests)
             if d and d.get(spec['cost']) is not None and d.get(spec['ideal'])]
    if not pairs:
        return None
    return sum(c for c, _ in pairs) / sum(i for _, i in pairs)


def excess_of(a):
    """An evaluated access's cost over ideal, or 0."""
    for spec in SPACES.values():
        if a.get(spec['cost']) is not None and a.get(spec['ideal']):
            return a[spec['cost']] / a[spec['ideal']]
    return 0.0


def agrees(pred, meas):
    return pred is not None and abs(pred - meas) <= TOLERANCE * meas


def branch_bodies(run, prog, progdir):
    """warplint's active lanes of one-line branch and loop bodies (JSON
    branches: body_lines, active_lanes) against the GPU's predicated-on
    threads per instruction executed on that line, summed over the kernels
    that ran it. The recorded per-line counts include the convergence-
    barrier instructions (BSSY/BSYNC) of a branched body, which run with
    every lane, so a branched body's GPU figure leans high."""
    lines = collections.defaultdict(lambda: [0, 0])
    for k in prog.get('kernels', []):
        for l in k.get('lines', []):
            key = (resolve(progdir, l['file']), int(l['line']))
            lines[key][0] += l.get('inst_executed') or 0
            lines[key][1] += l.get('pred_on_threads') or 0
    pred = collections.defaultdict(list)
    for b in (run['doc'] or {}).get('branches', []):
        body = b.get('body_lines')
        if (b.get('active_lanes') is None or not body or body[0] != body[1]
                or body[0] == b['line']):
            continue
        pred[(os.path.realpath(b['file']), body[0])].append(b)
    out = []
    for key, bs in sorted(pred.items()):
        inst, on = lines.get(key, (0, 0))
        if not inst:
            continue
        p_ = sum(b['active_lanes'] for b in bs) / len(bs)
        m = on / inst
        out.append(dict(program=run['program'], line=key[1],
                        file=os.path.relpath(key[0], progdir), predicted=p_,
                        measured=m, predicated=all(b['predicated'] for b in bs),
                        agree=abs(p_ - m) <= max(1.0, 0.1 * m)))
    return out


DIVERGENCE_RULES = ('divergent-branch', 'idle-lanes')
# A branch body worth a warning wastes at least this share of its kernel's
# warp instructions (issue 47's measure, as Nsight Compute counts them).
MIN_WASTE_SHARE = 0.02


def divergence_costs(run, prog, progdir):
    """What each divergence warning's body costs on the GPU: the body's warp
    instructions minus its predicated-on threads / 32 (the issue slots its
    idle lanes waste), over its kernel's warp instructions, for the measured
    kernel where that share is largest. The body is the JSON branch's
    body_lines; after an early exit, the kernel's executed lines of the file
    below the branch. A warning whose body no measured kernel ran is left
    out (nothing to weigh). Remarks are listed too (`warning` false)."""
    doc = run['doc'] or {}
    spans = collections.defaultdict(list)
    for b in doc.get('branches', []):
        key = (os.path.realpath(b['file']), b['line'])
        spans[key].append(b.get('body_lines') if b.get('kind') != 'exit'
                          else None)
    # One finding per rule and line: a warning where any configuration's is.
    found = collections.OrderedDict()
    for d in doc.get('diagnostics', []):
        if d.get('rule') not in DIVERGENCE_RULES:
            continue
        key = (d['rule'], os.path.realpath(d['file']), d['line'])
        if (key not in found or
                (d.get('severity', 'warning') == 'warning' and
                 found[key].get('severity', 'warning') != 'warning')):
            found[key] = d
    # Each measured kernel's executed lines, their paths resolved once.
    kernels = [(k.get('inst_executed'),
                [(resolve(progdir, l['file']), int(l['line']), l)
                 for l in k.get('lines', [])])
               for k in prog.get('kernels', [])] if found else []
    out = []
    for (_, f, _), d in found.items():
        bodies = spans.get((f, d['line'])) or [None]
        best = None
        for total, lines in kernels:
            if not total or not any(lf == f and ln == d['line']
                                    for lf, ln, _ in lines):
                continue
            for body in bodies:
                lo, hi = (body if body else (d['line'] + 1, 1 << 30))
                waste = sum((l.get('inst_executed') or 0) -
                            (l.get('pred_on_threads') or 0) / 32.0
                            for lf, ln, l in lines
                            if lf == f and lo <= ln <= hi)
                ran = any((l.get('inst_executed') or 0) > 0
                          for lf, ln, l in lines if lf == f and lo <= ln <= hi)
                if ran and (best is None or waste / total > best):
                    best = waste / total
        if best is None:
            continue
        out.append(dict(program=run['program'], rule=d['rule'],
                        file=os.path.relpath(f, progdir), line=d['line'],
                        warning=d.get('severity', 'warning') == 'warning',
                        message=d.get('message', ''),
                        share=round(best, 4),
                        worth=best >= MIN_WASTE_SHARE))
    return out


def _dims(text):
    """'(256, 1, 1)' -> [256, 1, 1]."""
    return [int(x) for x in re.findall(r'\d+', text or '')]


def kernel_work(run, prog):
    """warplint's work estimate of each measured kernel (JSON kernels:
    issue) against the GPU's warp instructions executed and predicated-on
    threads of that launch: per block (the measured grid's blocks), for the
    configuration warplint analyzed with the measured block shape. Kernels
    are matched by name, and template instantiations by canonical_instance();
    a name with several instantiations and none that matches is left out."""
    out = []
    doc = run['doc'] or {}
    for k in prog.get('kernels', []):
        inst = k.get('inst_executed')
        block, grid = _dims(k.get('block')), _dims(k.get('grid'))
        if not inst or len(block) != 3 or len(grid) != 3:
            continue
        dem = k.get('demangled') or ''
        name, canon = kernel_base_name(dem), canonical_instance(dem)
        cands = [w for w in doc.get('kernels', [])
                 if w['name'] == name and w.get('issue') and
                 w['block_dim'] == block]
        if canon:
            exact = [w for w in cands
                     if canonical_instance(w['signature']) == canon]
            cands = exact or (cands if len({w['signature'] for w in cands}) == 1
                              else [])
        if not cands:
            continue
        w = cands[0]['issue']
        blocks = grid[0] * grid[1] * grid[2]
        on = sum(l.get('pred_on_threads') or 0 for l in k.get('lines', []))
        lines_inst = sum(l.get('inst_executed') or 0 for l in k.get('lines', []))
        out.append(dict(program=run['program'], kernel=dem,
                        predicted=w['warp_instructions_per_block'] * blocks,
                        measured=float(inst),
                        lanes=w['active_lanes'],
                        measured_lanes=on / lines_inst if lines_inst else None,
                        assumed=bool(w['assumptions'])))
    return out


def rank_correlation(xs, ys):
    """Spearman's rho as the bench comparison computes it, rounded."""
    rho = bench_compare.spearman(xs, ys)
    return None if rho is None else round(rho, 3)


def work_summary(works):
    """How the work estimates compare with the GPU over real kernels: the
    ratio measured/predicted, how many are within 2x, the rank correlation
    across kernels, and the lanes within 1 lane or 10%."""
    def stats(ws):
        if not ws:
            return None
        r = sorted(w['measured'] / w['predicted'] for w in ws if w['predicted'])
        lanes = [w for w in ws if w['measured_lanes'] is not None]
        return collections.OrderedDict(
            kernels=len(ws),
            ratio=[round(r[len(r) // 10], 3), round(r[len(r) // 2], 3),
                   round(r[(9 * len(r)) // 10], 3)] if r else None,
            within_2x=sum(0.5 <= x <= 2 for x in r),
            spearman=rank_correlation([w['predicted'] for w in ws],
                                      [w['measured'] for w in ws]),
            lanes=len(lanes),
            lanes_agree=sum(abs(w['lanes'] - w['measured_lanes']) <=
                            max(1.0, 0.1 * w['measured_lanes'])
                            for w in lanes))
    return collections.OrderedDict(
        all=stats(works), no_assumption=stats([w for w in works
                                               if not w['assumed']]))


def join(run, prog, progdir, how):
    """Rows, one per measured executed (file, line, space), plus the
    diagnostics that fall on no executed line."""
    meas, ran = measured_lines(prog, progdir)
    doc = run['doc'] or {}
    skip = instances_not_run(prog, doc)
    run['instances_not_run'] = len(skip)
    acc = collections.defaultdict(list)
    other = collections.defaultdict(list)
    for a in doc.get('accesses', []):
        if a.get('kernel_signature') in skip:
            continue
        key = (os.path.realpath(a['file']), a['line'])
        if a.get('space') in SPACES:
            acc[key + (a['space'],)].append(a)
        other[key].append(a.get('space'))
    by_file = collections.defaultdict(list)
    for (f, l, s) in acc:
        by_file[(f, s)].append(l)
    kaccesses = collections.Counter()
    for k in doc.get('kernels', []):
        kaccesses[k['name']] += k.get('accesses', 0) or 0
    parse_failed = any(f.get('status') == 'error' for f in doc.get('files', []))
    warned = collections.defaultdict(list)
    remarked = collections.defaultdict(list)
    for d in doc.get('diagnostics', []):
        # warplint reports a message once per line, under the first kernel
        # that has it: a skipped instantiation's warning stays when a kept
        # one's access on that line is as bad.
        if d.get('kernel_signature') in skip and not any(
                excess_of(a) >= 2.0
                for space in SPACES
                for a in acc.get((os.path.realpath(d['file']), d['line'], space), [])):
            continue
        for space, spec in SPACES.items():
            if d['rule'] == spec['rule']:
                key = (os.path.realpath(d['file']), d['line'], space)
                # A finding the rule weighs as negligible for its kernel is
                # a remark, not a warning (rules/KernelShare.h).
                if d.get('severity', 'warning') == 'warning':
                    warned[key].append(d)
                else:
                    remarked[key].append(d)
    rows = []
    executed = set()
    corpus = os.path.dirname(os.path.realpath(progdir)) + os.sep
    for key, m in sorted(meas.items()):
        path, line, space = key
        if not (m['inst'] > 0 and m['ideal'] > 0):
            continue
        if not path.startswith(corpus):
            # toolkit headers (cub, thrust, cuda_fp16): not the program's code
            rows.append(dict(program=run['program'], path=path, line=line,
                             space=space, outside=True))
            continue
        executed.add(key)
        excess = m['actual'] / m['ideal']
        # A line that runs in several kernels (template instantiations, or a
        # device function inlined into more than one) is measured per kernel
        # too: it is bad when it is bad in one of them, and a warning is
        # right when the kernel it names shows the excess, whatever the
        # other kernels mix into the line's sum.
        per_kernel = {k: a / i for k, (a, i) in m['by_kernel'].items() if i}
        worst = max(per_kernel.values(), default=excess)
        named = [per_kernel.get(kernel_key(d.get('kernel_signature') or
                                           d.get('kernel') or ''))
                 for d in warned.get(key, [])]
        named = max([x for x in named if x is not None], default=excess)
        # An instruction of its own at >= BAD x ideal on the line (an
        # unrolled loop's worst iteration, one SASS instruction each): a
        # warning is right about it even where the line's sum, which
        # averages the iterations, stays under the bar.
        worst_inst = max(m['per_inst'], default=excess)
        accs = acc.get(key, [])
        pred = predicted_excess(accs, space, how)
        pred_alt = predicted_excess(accs, space, 'ratio' if how == 'mean' else 'mean')
        w = bool(warned.get(key))
        # A line whose addresses depend on data has the estimate warplint
        # takes for them as its figure (stated in its report), the random
        # one where it warns.
        estimate = estimated_excess(accs, space) if pred is None else None
        estimated = estimate is not None
        if estimated:
            pred = pred_alt = estimate
        row = dict(program=run['program'], file=os.path.relpath(path, progdir),
                   path=path, line=line, space=space, measured=round(excess, 4),
                   actual=m['actual'], ideal=m['ideal'], sass=m['sass'],
                   per_inst=m['per_inst'][:16], kernels=len(m['kernels']),
                   kernel_names=sorted(m['kernels'])[:4],
                   access_kinds=sorted(m['kinds']),
                   from_header=bool(m.get('from_header')),
                   predicted=None if pred is None else round(pred, 4),
                   predicted_alt=None if pred_alt is None else round(pred_alt, 4),
                   warned=w, diagnostics=len(warned.get(key, [])),
                   remarked=not w and bool(remarked.get(key)),
                   worth=m['worth'],
                   estimated=estimated,
                   accesses=len(accs),
                   evaluated=sum(1 for a in accs if a.get('evaluated')),
                   agree=agrees(pred, excess),
                   agree_alt=agrees(pred_alt, excess),
                   worst_kernel=round(worst, 4), named_kernel=round(named, 4),
                   worst_instruction=round(worst_inst, 4),
                   bad=excess >= BAD or worst >= BAD,
                   bad_instruction=worst_inst >= BAD,
                   right=w and (max(excess, named) >= PRECISION_BAR or
                                worst_inst >= BAD))
        row.update(describe(accs, space))
        if not accs:
            ks = sorted(m['kernels'])
            if run['status'] != 'ok' or not doc:
                row['kernel_status'] = 'warplint ' + run['status']
            elif all(k not in kaccesses for k in ks):
                row['kernel_status'] = 'kernel not in the report' + (
                    ' (a file failed to parse)' if parse_failed else '')
            elif all(kaccesses.get(k, 0) == 0 for k in ks):
                row['kernel_status'] = 'warplint found no access in the kernel'
            else:
                row['kernel_status'] = ''
            near = sorted(by_file.get((path, space), []),
                          key=lambda l: abs(l - line))
            row['nearest_access_line'] = near[0] if near else None
            row['other_space'] = sorted({s for s in other.get((path, line), [])
                                         if s != space})
        row['classification'] = classify(row)
        rows.append(row)
    stray = []
    for key, ds in sorted(warned.items()):
        if key in executed:
            continue
        path, line, space = key
        if not ran.get((path, line)):
            c = 'warning-not-executed'
        elif key not in meas:
            # the line ran, but nvcc put no access of this space on it (merged
            # into a neighbour's wide access, or kept in registers)
            c = 'warning-no-%s-instruction' % space
        else:
            c = 'warning-ideal-zero'
        stray.append(dict(program=run['program'], file=os.path.relpath(path, progdir),
                          path=path, line=line, space=space, warned=True,
                          measured=None, predicted=None, classification=c,
                          count=len(ds)))
    return rows, stray


def describe(accs, space):
    """What the accesses on a line depend on, for the miss analysis."""
    reasons = sorted({a.get('unknown_reason') or '?' for a in accs
                      if not a.get('evaluated')})
    assumptions = sorted({s for a in accs for s in a.get('assumptions', [])})
    depends = sorted({s for a in accs for s in (a.get('depends_on') or [])})
    inexact = any(a.get('evaluated') and not a.get('exact', True) for a in accs)
    spec = SPACES[space]
    figs = sorted({'%s/%s' % (a.get(spec['cost']), a.get(spec['ideal']))
                   for a in accs if a.get('evaluated')})
    ex = [a[spec['cost']] / a[spec['ideal']] for a in accs if a.get('evaluated')
          and a.get(spec['cost']) is not None and a.get(spec['ideal'])]
    below_ideal = any(a.get('evaluated') and a.get(spec['cost']) is not None
                      and a.get(spec['ideal']) and a[spec['cost']] < a[spec['ideal']]
                      for a in accs)
    wide = max([a.get('element_bytes') or 0 for a in accs] or [0])
    shape_assumed = any(s.startswith('block shape') and s.endswith('(assumed)')
                        for s in assumptions)
    est = [(a.get('data_estimate') or {}) for a in accs if not a.get('evaluated')]
    def est_ratio(which):
        xs = [e[which][spec['cost']] / e[which][spec['ideal']] for e in est
              if e.get(which) and e[which].get(spec['ideal'])]
        return round(max(xs), 3) if xs else None
    return dict(unknown_reasons=reasons, assumptions=assumptions,
                estimate_random=est_ratio('random'),
                estimate_agree=est_ratio('agree'),
                shape_assumed=shape_assumed, below_ideal=below_ideal,
                element_bytes=wide,
                max_access_excess=round(max(ex), 3) if ex else None,
                depends_on=depends, inexact=inexact, figures=figs[:8],
                # (warplint's wording: "active lanes depend on data; all assumed
                # active".)
                data_dependent_mask=any('data-dependent' in s or
                                        'active lanes depend on data' in s
                                        for s in assumptions),
                parameter_dependent=inexact and bool(depends))


def classify(row):
    meas = row['measured']
    if row['warned'] and not row['right']:
        return 'false-warning'
    if row['agree']:
        return 'hit'
    if row['accesses'] == 0:
        return 'miss-no-access'
    if row['evaluated'] == 0:
        return 'miss-not-evaluated(%s)' % '; '.join(row['unknown_reasons'])
    return 'miss-figure'


# --------------------------------------------------------------------------
# Figures

def summarize(rows, stray, runs):
    s = collections.OrderedDict()
    outside = [x for x in rows if x.get('outside')]
    rows = [x for x in rows if not x.get('outside')]
    for space, spec in SPACES.items():
        r = [x for x in rows if x['space'] == space]
        bad = [x for x in r if x['bad']]
        found = [x for x in bad if x['warned']]
        worth = [x for x in bad if x['worth']]
        light = [x for x in bad if not x['worth']]
        warned = [x for x in r if x['warned']]
        right = [x for x in warned if x['right']]
        # Lines bad in one instruction only (their sum under BAD).
        by_inst = [x for x in r if x['bad_instruction'] and not x['bad']]
        st = [x for x in stray if x['space'] == space]
        s[space] = collections.OrderedDict(
            rule=spec['rule'], lines=len(r), bad_lines=len(bad),
            bad_found=len(found),
            recall=round(len(found) / len(bad), 4) if bad else 1.0,
            worth_lines=len(worth),
            worth_found=sum(1 for x in worth if x['warned']),
            worth_recall=round(sum(1 for x in worth if x['warned']) / len(worth), 4)
            if worth else 1.0,
            worth_remarked=sum(1 for x in worth if x['remarked']),
            light_lines=len(light),
            light_warned=sum(1 for x in light if x['warned']),
            light_remarked=sum(1 for x in light if x['remarked']),
            warned_lines=len(warned), warned_right=len(right),
            precision=round(len(right) / len(warned), 4) if warned else 1.0,
            precision_bar=PRECISION_BAR,
            right_by_instruction=sum(
                1 for x in right
                if max(x['measured'], x['named_kernel']) < PRECISION_BAR),
            bad_instruction_lines=len(by_inst),
            bad_instruction_found=sum(1 for x in by_inst if x['warned']),
            diagnostics=sum(x['diagnostics'] for x in warned),
            diagnostics_right=sum(x['diagnostics'] for x in right),
            warned_not_executed=len(st),
            warned_never_ran=sum(1 for x in st
                                 if x['classification'] == 'warning-not-executed'),
            diagnostics_not_executed=sum(x['count'] for x in st),
            agree=sum(1 for x in r if x['agree']),
            with_figure=sum(1 for x in r if x['predicted'] is not None),
            agree_rate=round(sum(1 for x in r if x['agree']) / len(r), 4) if r else 1.0,
            agree_alt=sum(1 for x in r if x['agree_alt']),
            agree_estimated=sum(1 for x in r if x['agree'] and x['estimated']),
            agree_estimated_warned=sum(1 for x in r if x['agree'] and x['estimated']
                                       and x['warned']),
            no_access=sum(1 for x in r if x['accesses'] == 0),
            outside_corpus=sum(1 for x in outside if x['space'] == space),
            not_evaluated=sum(1 for x in r if x['accesses'] and not x['evaluated']))
    n = sum(v['lines'] for v in s.values())
    a = sum(v['agree'] for v in s.values())
    s['total'] = collections.OrderedDict(
        lines=n, agree=a, agree_rate=round(a / n, 4) if n else 1.0,
        with_figure=sum(v['with_figure'] for v in s.values()),
        agree_alt=sum(v['agree_alt'] for k, v in s.items() if k in SPACES))
    s['runs'] = collections.OrderedDict(
        programs=len(runs),
        crashes=sorted(r['program'] for r in runs if r['status'] == 'crash'),
        timeouts=sorted(r['program'] for r in runs if r['status'] == 'timeout'),
        other_failures=sorted('%s (%s)' % (r['program'], r['status']) for r in runs
                              if r['status'] not in ('ok', 'crash', 'timeout')),
        parse_errors=sorted('%s/%s' % (r['program'], os.path.basename(f['path']))
                            for r in runs if r['doc']
                            for f in r['doc'].get('files', [])
                            if f.get('status') == 'error'),
        instances_not_run=sum(r.get('instances_not_run', 0) for r in runs),
        seconds=round(sum(r['seconds'] or 0 for r in runs), 1),
        slowest=['%s %.1fs' % (r['program'], r['seconds'] or 0) for r in
                 sorted(runs, key=lambda r: -(r['seconds'] or 0))[:5]])
    return s


def pct(a, b):
    return '%d%%' % round(100.0 * a / b) if b else '-'


def print_table(gpu, s, how):
    print('== %s (predicted excess per line: %s of cost/ideal; agreement within %d%%)'
          % (gpu, 'mean' if how == 'mean' else 'sum ratio', round(100 * TOLERANCE)))
    for space, spec in SPACES.items():
        v = s[space]
        print('%-7s %s lines found %d of %d (%s)' % (
            space, spec['what'], v['bad_found'], v['bad_lines'],
            pct(v['bad_found'], v['bad_lines'])))
        print('%-7s   worth a warning (>= %d%% of their kernel\'s %s or run at '
              'least 1/%d as often as its busiest line): found %d of %d (%s), '
              '%d of them remarks; the other %d bad lines: %d warned, %d remarks' % (
                  space, round(100 * MIN_TRAFFIC_SHARE), spec['actual'],
                  round(1 / RARE_RUNS), v['worth_found'], v['worth_lines'],
                  pct(v['worth_found'], v['worth_lines']), v['worth_remarked'],
                  v['light_lines'], v['light_warned'], v['light_remarked']))
        print('%-7s %s warned lines right (GPU >= %.1fx ideal) %d of %d (%s) '
              '[diagnostics: %d of %d]; not counted: %d more lines (%d diagnostics) '
              'without a measured %s access (%d never ran)' % (
                  space, spec['rule'], PRECISION_BAR, v['warned_right'],
                  v['warned_lines'], pct(v['warned_right'], v['warned_lines']),
                  v['diagnostics_right'], v['diagnostics'],
                  v['warned_not_executed'], v['diagnostics_not_executed'], space,
                  v['warned_never_ran']))
        print('%-7s lines with one instruction at >= %.1fx ideal but a line sum '
              'under it (an unrolled loop\'s worst iteration): %d, warned %d; '
              'warnings right by such an instruction alone: %d' % (
                  space, BAD, v['bad_instruction_lines'],
                  v['bad_instruction_found'], v['right_by_instruction']))
        print('%-7s figure within %d%%: %d of %d lines (%s) [other aggregate: %d]; '
              '%d by a data estimate (%d warned); %d without an access, %d not evaluated' % (
                  space, round(100 * TOLERANCE), v['agree'], v['lines'],
                  pct(v['agree'], v['lines']), v['agree_alt'],
                  v['agree_estimated'], v['agree_estimated_warned'], v['no_access'],
                  v['not_evaluated']))
        if v['outside_corpus']:
            print('%-7s (%d executed lines in toolkit headers not counted)' % (
                space, v['outside_corpus']))
    t = s['total']
    print('total   figure within %d%%: %d of %d lines (%s) [other aggregate: %d]' % (
        round(100 * TOLERANCE), t['agree'], t['lines'], pct(t['agree'], t['lines']),
        t['agree_alt']))
    # A line without a figure (no access found, or none evaluated nor
    # estimated) counts against the line above; here it is apart.
    print('total   lines with a figure: %d of %d (%s); of those, within %d%%: '
          '%d (%s)' % (t['with_figure'], t['lines'],
                       pct(t['with_figure'], t['lines']), round(100 * TOLERANCE),
                       t['agree'], pct(t['agree'], t['with_figure'])))
    r = s['runs']
    print('runs    %d programs, %d crashes%s, %d timeouts%s, %d files failed to parse%s'
          % (r['programs'], len(r['crashes']),
             (' (' + ', '.join(r['crashes']) + ')') if r['crashes'] else '',
             len(r['timeouts']),
             (' (' + ', '.join(r['timeouts']) + ')') if r['timeouts'] else '',
             len(r['parse_errors']),
             (' (' + ', '.join(r['parse_errors'][:10]) +
              (', ...' if len(r['parse_errors']) > 10 else '') + ')')
             if r['parse_errors'] else ''))
    if r['other_failures']:
        print('        not analyzed: ' + ', '.join(r['other_failures']))
    if r['instances_not_run']:
        print('        left out: the predictions of %d template instantiations '
              'that did not run on the GPU' % r['instances_not_run'])
    print('        warplint time %.0fs in all; slowest: %s' % (
        r['seconds'], ', '.join(r['slowest'])))


DETAIL_FIELDS = ['program', 'file', 'line', 'space', 'measured', 'predicted',
                 'predicted_alt', 'warned', 'classification', 'accesses',
                 'evaluated', 'estimated', 'estimate_random', 'estimate_agree', 'figures', 'per_inst', 'sass', 'kernels',
                 'unknown_reasons', 'depends_on', 'assumptions',
                 'data_dependent_mask', 'parameter_dependent', 'shape_assumed',
                 'below_ideal', 'element_bytes',
                 'access_kinds', 'from_header', 'nearest_access_line', 'other_space', 'kernel_status',
                 'kernel_names', 'worst_kernel', 'named_kernel', 'bad', 'right',
                 'worth', 'remarked']
# (worst_instruction and bad_instruction are in the JSON summary's rows only,
# so that earlier details files stay comparable line for line.)


def write_details(path, rows):
    with open(path, 'w') as f:
        f.write('\t'.join(DETAIL_FIELDS) + '\n')
        for r in rows:
            vals = []
            for k in DETAIL_FIELDS:
                v = r.get(k)
                if isinstance(v, (list, tuple)):
                    v = ' | '.join(str(x) for x in v)
                vals.append('' if v is None else str(v).replace('\t', ' '))
            f.write('\t'.join(vals) + '\n')


def cause(row):
    """The main reason a line's figure or warning is wrong."""
    if row.get('measured') is None:
        return {'warning-not-executed': 'warning on a line that never ran',
                'warning-ideal-zero': 'warning on a line whose accesses had no active lane'}.get(
                    row['classification'],
                    'warning on a line that ran without a %s instruction' % row['space'])
    if row['accesses'] == 0 and row.get('access_kinds') and set(
            row['access_kinds']) <= {'Atomic', 'Reduction'}:
        return 'no access at that line: atomics only'
    if row['accesses'] == 0 and row.get('from_header'):
        return 'no access at that line: instructions inlined from a CUDA header'
    if row['accesses'] == 0 and row.get('kernel_status'):
        return 'no access at that line: ' + row['kernel_status']
    if row['accesses'] == 0:
        return 'no access at that line' + (
            ' (warplint has a %s access there)' % '/'.join(row['other_space'])
            if row.get('other_space') else '')
    if row['evaluated'] == 0:
        return 'not evaluated: ' + '; '.join(row['unknown_reasons'])
    if row['bad'] and not row['warned'] and (row['agree'] or (
            row['max_access_excess'] or 0) >= BAD):
        return 'an access predicted >= %.1fx but no warning%s%s' % (
            BAD, ', parameter-dependent' if row['parameter_dependent'] else '',
            ', block shape assumed' if row['shape_assumed'] else '')
    if row['below_ideal']:
        return 'figure differs, an access costs less than its ideal (warp-uniform address?)'
    if row['space'] == 'global' and row['element_bytes'] > 16:
        return 'figure differs, element wider than 16 bytes'
    if row['data_dependent_mask']:
        return 'figure differs, data-dependent mask'
    if row['parameter_dependent']:
        return 'figure differs, parameter-dependent'
    return 'figure differs'


def source_line(path, line, width=110):
    try:
        with open(path, errors='replace') as f:
            for i, text in enumerate(f, 1):
                if i == line:
                    text = ' '.join(text.split())
                    return text[:width] + ('...' if len(text) > width else '')
    except OSError:
        pass
    return '?'


def write_misses(path, rows, examples=5):
    """Misses and false warnings grouped by cause, with the source line of a
    few (read from the corpus: for local eyes, not for the repository)."""
    def pick(group):
        group = sorted(group, key=lambda r: -(r['measured'] or 0))
        out, seen = [], set()
        for r in group:  # one per program first
            if r['program'] not in seen:
                out.append(r)
                seen.add(r['program'])
        out += [r for r in group if r not in out]
        return out[:examples]

    def fmt_row(r):
        extra = []
        if r.get('figures'):
            extra.append('warplint ' + ', '.join(r['figures']))
        if r.get('per_inst'):
            extra.append('SASS ' + ', '.join(str(x) for x in r['per_inst'][:8]))
        if r.get('depends_on'):
            extra.append('depends on ' + ', '.join(r['depends_on']))
        if r.get('accesses') == 0 and r.get('nearest_access_line'):
            extra.append('nearest %s access at line %d' % (r['space'], r['nearest_access_line']))
        return '- %s %s:%d (%s) measured %s, predicted %s%s\n  `%s`%s' % (
            r['program'], r['file'], r['line'], r['space'],
            '-' if r['measured'] is None else '%.3g' % r['measured'],
            '-' if r['predicted'] is None else '%.3g' % r['predicted'],
            ', warned' if r['warned'] else '',
            source_line(r['path'], r['line']),
            ('\n  ' + '; '.join(extra)) if extra else '')

    sections = [
        ('Figure misses (executed lines whose predicted excess is not within '
         '%d%% of the measured one)' % round(100 * TOLERANCE),
         [r for r in rows if r.get('measured') is not None and not r['agree']]),
        ('Missed bad lines (GPU >= %.1fx ideal, no warning)' % BAD,
         [r for r in rows if r.get('measured') is not None and r['bad'] and not r['warned']]),
        ('False warnings (warned, GPU < %.1fx ideal)' % PRECISION_BAR,
         [r for r in rows if r.get('measured') is not None and r['warned']
          and not r['right']]),
        ('Warnings on lines without a measured access of that space (not counted in precision)',
         [r for r in rows if r.get('measured') is None]),
    ]
    out = ['# realcode misses', '',
           'Generated by compare_real.py --misses; source lines quoted from the corpus '
           'for reading only.', '']
    wrong = [r for r in rows if r.get('measured') is not None and
             (not r['agree'] or (r['bad'] and not r['warned']) or
              (r['warned'] and not r['right']))]
    kinds = collections.Counter()
    for r in wrong:
        kinds['%s, %s' % (r['space'], re.sub(r"'[^']*'", "'X'", cause(r)))] += 1
    kinds['(lines with a data-dependent mask assumed)'] = sum(
        1 for r in wrong if r.get('data_dependent_mask'))
    kinds['(lines whose figure is parameter-dependent)'] = sum(
        1 for r in wrong if r.get('parameter_dependent'))
    out += ['Lines with a wrong figure, a missed bad line or a false warning, by cause:', '']
    out += ['- %s: %d' % (k, n) for k, n in kinds.most_common()]
    out.append('')
    for title, group in sections:
        out += ['## %s: %d' % (title, len(group)), '']
        by = collections.defaultdict(list)
        for r in group:
            by[(r['space'], cause(r))].append(r)
        for (space, c), g in sorted(by.items(), key=lambda kv: -len(kv[1])):
            out.append('### %s, %s: %d lines in %d programs' % (
                space, c, len(g), len({r['program'] for r in g})))
            out += [fmt_row(r) for r in pick(g)]
            out.append('')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


# --------------------------------------------------------------------------
# Baseline

def baseline_figures(summary):
    out = collections.OrderedDict()
    for space in SPACES:
        v = summary[space]
        out[space] = collections.OrderedDict(
            (k, v[k]) for k in ('recall', 'bad_found', 'bad_lines', 'worth_recall',
                                'worth_found', 'worth_lines', 'precision',
                                'warned_right', 'warned_lines', 'agree', 'lines'))
    out['total'] = collections.OrderedDict(agree=summary['total']['agree'],
                                           lines=summary['total']['lines'])
    out['crashes'] = len(summary['runs']['crashes'])
    dc = summary.get('divergence_cost')
    if dc:
        out['divergence'] = collections.OrderedDict(
            warnings=dc['warnings'], worth=dc['worth'])
    return out


def check(gpu, summary, rec, digest, rec_digest):
    failed = []
    if rec_digest and rec_digest != digest:
        print('note: %s measurements changed since the baseline was recorded; '
              're-record with --record if the change is intended' % gpu,
              file=sys.stderr)
    cur = baseline_figures(summary)
    for space in list(SPACES) + ['total']:
        old, new = rec.get(space, {}), cur[space]
        for k in ('worth_recall', 'precision', 'agree', 'worth_found',
                  'warned_right'):
            if k in old and new.get(k, 0) < old[k] - 1e-9:
                failed.append('%s/%s: %s %s fell below the recorded %s' % (
                    gpu, space, k, new[k], old[k]))
    # Divergence warnings: as many whose body wastes >= MIN_WASTE_SHARE of
    # its kernel on the GPU, and no smaller a share of the warnings.
    old, new = rec.get('divergence'), cur.get('divergence')
    if old and new:
        if new['worth'] < old['worth']:
            failed.append('%s/divergence: %d warnings worth it, fewer than the '
                          'recorded %d' % (gpu, new['worth'], old['worth']))
        elif (old['warnings'] and new['worth'] * old['warnings'] <
              old['worth'] * new['warnings']):
            failed.append('%s/divergence: %d of %d warnings worth it, a smaller '
                          'share than the recorded %d of %d' % (
                              gpu, new['worth'], new['warnings'],
                              old['worth'], old['warnings']))
    r = summary['runs']
    if r['crashes']:
        failed.append('%s: warplint crashed on %s' % (gpu, ', '.join(r['crashes'])))
    if any('not-started' in x for x in r['other_failures']):
        failed.append('%s: warplint could not be started for some programs' % gpu)
    if r['timeouts']:
        print('note: warplint timed out on %s' % ', '.join(r['timeouts']),
              file=sys.stderr)
    return failed


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--warplint', default=os.path.join(ROOT, 'build', 'warplint'))
    ap.add_argument('--corpus', default=DEFAULT_CORPUS)
    ap.add_argument('--results', action='append', default=[],
                    help='measurement file(s) (default: results/*.json '
                    'except baseline.json)')
    ap.add_argument('--programs', default='',
                    help='comma-separated programs to replay (default: all)')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=int, default=120,
                    help='seconds per program')
    ap.add_argument('--aggregate', choices=('mean', 'ratio'), default=None,
                    help="a line's predicted excess: mean of cost/ideal over "
                    "its accesses, or sum(cost)/sum(ideal)")
    ap.add_argument('--warplint-arg', action='append', default=[])
    ap.add_argument('--json', metavar='FILE')
    ap.add_argument('--details', metavar='FILE')
    ap.add_argument('--misses', metavar='FILE',
                    help='misses and false warnings grouped by cause, with '
                    'source lines from the corpus (keep it out of the repository)')
    ap.add_argument('--record', nargs='?', const=BASELINE, metavar='FILE',
                    help='write the figures as the baseline (default '
                    'results/baseline.json)')
    ap.add_argument('--check', action='store_true',
                    help='exit 1 when a figure fell below the baseline or '
                    'warplint crashed')
    ap.add_argument('--baseline', default=BASELINE)
    args = ap.parse_args()

    corpus = os.path.realpath(args.corpus)
    if not os.path.isdir(corpus):
        print('realcode: no corpus at %s: skipped' % args.corpus)
        return SKIP
    paths = args.results or sorted(
        p for p in glob.glob(os.path.join(RESULTS, '*.json'))
        if not os.path.basename(p).startswith('baseline'))
    if not paths:
        print('realcode: no measurements in %s: skipped' % RESULTS)
        return SKIP
    if not os.access(args.warplint, os.X_OK):
        sys.exit('realcode: no warplint at %s' % args.warplint)

    wanted = set(filter(None, args.programs.split(',')))
    measurements = []  # (gpu, digest, [programs])
    needed = set()
    for p in paths:
        gpu = os.path.splitext(os.path.basename(p))[0]
        meta, progs = load_measurements(p)
        progs = [x for x in progs if not wanted or x['program'] in wanted]
        notok = collections.Counter(str(x.get('status', 'ok')).split()[0]
                                    for x in progs if x.get('status', 'ok') != 'ok')
        progs = [x for x in progs if x.get('status', 'ok') == 'ok']
        print('%s: %d programs measured%s' % (
            gpu, len(progs), ''.join('; %d %s' % (n, k) for k, n in sorted(notok.items()))
            + (' (not replayed)' if notok else '')))
        digest = hashlib.sha256(open(p, 'rb').read()).hexdigest()[:16]
        measurements.append((gpu, digest, progs))
        needed |= {x['program'] for x in progs}

    t0 = time.time()
    runs = {}
    missing = sorted(n for n in needed if not os.path.isdir(os.path.join(corpus, n)))
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futs = {pool.submit(run_warplint, args.warplint, os.path.join(corpus, n),
                            corpus, args.timeout, args.warplint_arg): n
                for n in sorted(needed) if n not in missing}
        for f in concurrent.futures.as_completed(futs):
            runs[futs[f]] = f.result()
    wall = time.time() - t0
    for n in missing:
        runs[n] = dict(program=n, status='missing-in-corpus', doc=None,
                       seconds=0, files=[], flags=[])

    report = collections.OrderedDict()
    all_rows = []
    failed = []
    rec = {}
    if args.check:
        if not os.path.exists(args.baseline):
            print('realcode: no baseline at %s (record one with --record)'
                  % args.baseline, file=sys.stderr)
            return 1
        rec = json.load(open(args.baseline))
        if args.aggregate is None:
            args.aggregate = rec.get('aggregate', 'ratio')
    if args.aggregate is None:
        args.aggregate = 'ratio'
    for gpu, digest, progs in measurements:
        rows, stray = [], []
        gruns = []
        bodies = []
        works = []
        costs = []
        for prog in progs:
            run = runs[prog['program']]
            gruns.append(run)
            r, s = join(run, prog, os.path.join(corpus, prog['program']),
                        args.aggregate)
            rows += r
            stray += s
            bodies += branch_bodies(run, prog, os.path.join(corpus, prog['program']))
            works += kernel_work(run, prog)
            costs += divergence_costs(run, prog,
                                      os.path.join(corpus, prog['program']))
        for r in rows + stray:
            r['gpu'] = gpu
        summary = summarize(rows, stray, gruns)
        pb = [b for b in bodies if b['predicated']]
        summary['branch_bodies'] = collections.OrderedDict(
            bodies=len(bodies), agree=sum(b['agree'] for b in bodies),
            predicated=len(pb), predicated_agree=sum(b['agree'] for b in pb))
        print_table(gpu, summary, args.aggregate)
        bb = summary['branch_bodies']
        print('branch  one-line bodies whose active lanes agree within 1 lane or 10%%: '
              '%d of %d (predicated bodies: %d of %d; the GPU\'s per-line figure '
              'includes the convergence-barrier instructions of branched ones)' % (
                  bb['agree'], bb['bodies'], bb['predicated_agree'], bb['predicated']))
        warned = [c for c in costs if c['warning']]
        remarks = [c for c in costs if not c['warning']]
        summary['divergence_cost'] = collections.OrderedDict(
            warnings=len(warned), worth=sum(c['worth'] for c in warned),
            remarks=len(remarks),
            remarks_worth=sum(c['worth'] for c in remarks),
            lines=costs)
        print('branch  divergence warnings whose body ran: %d, wasting >= %d%% '
              'of their kernel\'s warp instructions on the GPU: %d; remarks: '
              '%d, of which %d waste that much' % (
                  len(warned), round(100 * MIN_WASTE_SHARE),
                  summary['divergence_cost']['worth'], len(remarks),
                  summary['divergence_cost']['remarks_worth']))
        summary['work'] = work_summary(works)
        summary['work_kernels'] = works
        for label, ws in summary['work'].items():
            if ws:
                print('work    %s: %d kernels; GPU warp instructions over the '
                      'estimate p10/median/p90 %s, within 2x %d; Spearman %s; '
                      'mean lanes within 1 lane or 10%%: %d of %d' % (
                          label.replace('_', ' '), ws['kernels'],
                          '/'.join(str(x) for x in ws['ratio']),
                          ws['within_2x'], ws['spearman'], ws['lanes_agree'],
                          ws['lanes']))
        report[gpu] = dict(measurements=digest, summary=summary)
        all_rows += [r for r in rows if not r.get('outside')] + stray
        if args.check:
            g = rec.get('gpus', {}).get(gpu)
            if g is None:
                print('note: no baseline for %s' % gpu, file=sys.stderr)
            else:
                failed += check(gpu, summary, g['figures'], digest,
                                g.get('measurements'))
    print('replay took %.0fs (%d programs, %d workers)' % (wall, len(runs), args.jobs))

    if args.json:
        json.dump(dict(aggregate=args.aggregate, bad=BAD,
                       precision_bar=PRECISION_BAR, tolerance=TOLERANCE,
                       seconds=round(wall, 1), gpus=report,
                       runs={n: dict(status=r['status'], seconds=r.get('seconds'),
                                     error=r.get('error', ''),
                                     parse_errors=[f.get('error', '')[:300] for f in
                                                   (r['doc'] or {}).get('files', [])
                                                   if f.get('status') == 'error'],
                                     files=[os.path.relpath(f, corpus) for f in r['files']],
                                     flags=[f.replace(corpus, '<corpus>') for f in r['flags']])
                             for n, r in sorted(runs.items())}),
                  open(args.json, 'w'), indent=1)
    if args.details:
        write_details(args.details, [dict(r, program=r['gpu'] + ':' + r['program'])
                                     if len(measurements) > 1 else r
                                     for r in all_rows])
    if args.misses:
        write_misses(args.misses, all_rows)
    if args.record:
        json.dump(collections.OrderedDict(
            aggregate=args.aggregate, bad=BAD, precision_bar=PRECISION_BAR,
            tolerance=TOLERANCE,
            gpus=collections.OrderedDict(
                (gpu, dict(measurements=v['measurements'],
                           figures=baseline_figures(v['summary'])))
                for gpu, v in report.items())),
            open(args.record, 'w'), indent=2)
        print('recorded %s' % os.path.relpath(args.record, ROOT))
    if args.check:
        for f in failed:
            print('REGRESSION: ' + f, file=sys.stderr)
        return 1 if failed else 0
    return 0


if __name__ == '__main__':
    sys.exit(main())
