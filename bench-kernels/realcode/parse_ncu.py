#!/usr/bin/env python3
"""Turns the raw Nsight Compute output of measure.sh into results/<gpu>.json.

  parse_ncu.py RAW_DIR [RAW_DIR...] [-o results/h200.json] [--gpu-tag h200]
               [--programs programs.tsv] [--sass SASS_DIR]
  parse_ncu.py RAW_DIR [RAW_DIR...] --merge-into results/h200.json
               [--programs programs.tsv] [--ok-after-limit PROG,PROG]

RAW_DIR is the 'raw' folder of measure.sh's raw.tar.gz: per program <prog>.status,
<prog>.source.csv (ncu --page source --csv --print-source cuda,sass, kernel names
mangled), <prog>.kernels.csv (ncu --page raw --csv), <prog>.run.log, plus
meta.txt, programs.tsv and demangled.tsv. With several RAW_DIRs (runs on the same
GPU), a program measured in a later one replaces its earlier measurement.
SASS_DIR holds <prog>.sass.txt.gz (measure.sh's sass.tar.NN); default: the RAW_DIR
that measured the program.

--merge-into FILE adds the RAW_DIRs, as new runs, to an existing results file (the
raw folders of its earlier runs need not be kept): only the programs measured in
the RAW_DIRs (those with a <prog>.status there, taken in the order of --programs,
default the RAW_DIRs' own programs.tsv) are parsed; each RAW_DIR's date is
appended to the file's "runs", and each measured program's entry is replaced (in
place; a program not yet in the file is appended) by the new one, with its new
"args", "run" (index into "runs"), "status", "reason", "wall_s" and "kernels".
Every other program and every other top-level field is kept unchanged. The
listed arguments must be those measured (as with several RAW_DIRs), and the
merge is refused when gpu, driver, nvcc or ncu differ from the file's.
--ok-after-limit records a `timeout` of the named programs that kept kernels as
`ok`, its reason saying where the limit stopped it (for programs whose distinct
kernels were all profiled before a long limit, as was done by hand for
epistasis, storeKVCache, laplace and attentionMultiHeadKVCache).

The source page is a series of blocks, one per (kernel, source file):
  "File Path","<absolute path on the GPU machine>"
  "Function Name","<mangled kernel name>"
  "Line No","Source","Address","Source",<metric columns...>
  a row per CUDA line ("<n>","<source text>","-","-",<line totals>)
  followed by that line's SASS rows ("","","0x<address>","<sass text>",<metrics>)
  ("...","..." rows mark gaps in the address range).
The metric columns differ between blocks (Divergent Branches and the L1 Wavefronts
Shared columns only appear where the kernel has branches / shared accesses), so
columns are looked up by name in each block's header. One instruction can be
listed twice under one line.

ncu's own listing is not a partition of the instructions: an instruction inlined
from another function is listed under its own line and under some of its call-site
lines, not consistently (in one kernel two instructions with the same inline chain
are listed once under the callee line and once under both), and an instruction
inlined from a CUDA header (wmma::load_matrix_sync, __ldg, atomicAdd, cub) is
listed under the header's line only. So where measure.sh's disassembly
(<prog>.sass.txt.gz: nvdisasm -g -gi, same compiler, same flags) matches the
profiled SASS opcode for opcode, each instruction is attributed once, to the
innermost frame of its inline chain that lies in the corpus: its own line for the
program's code, the program's call-site line for code inlined from a CUDA header.
Instructions with no frame in the corpus (library kernels such as cub's) go to
"external_lines" under their innermost location. Where no disassembly matches, the
kernel keeps ncu's listing (each line summed over its distinct addresses) and says
"attribution": "ncu".

No source text and no SASS operands are written: per instruction only its opcode
(e.g. "LDG.E.64") and its offset in the kernel ("pc").

Standard library only. Sources with CRLF line ends put a carriage return inside the
quoted source column, so the CSV is split on "\\n" only, one csv row per line.
"""
import argparse
import collections
import csv
import json
import os
import re
import sys

def num(s):
    """ncu prints integers with thousands separators; '-' and '' mean none."""
    if s is None:
        return 0
    s = s.strip().replace(',', '')
    if s in ('', '-', 'n/a', 'N/A'):
        return 0
    try:
        v = float(s)
    except ValueError:
        return 0
    return int(v) if v == int(v) else v


def read_csv_lines(path):
    """csv rows of a file, splitting records on '\\n' only."""
    with open(path, 'rb') as f:
        data = f.read().decode('utf-8', errors='replace')
    rows = []
    for ln in data.split('\n'):
        if ln.endswith('"\r'):
            ln = ln[:-1]
        if not ln:
            continue
        try:
            rows.extend(csv.reader([ln]))
        except csv.Error:
            rows.append(None)  # counted as unparsable
    return rows


def opcode(sass):
    toks = [t for t in sass.strip().split() if not t.startswith('@')]
    return toks[0].rstrip(';') if toks else '?'


def rel_file(path, program):
    """(file relative to the program folder, external?)"""
    k = path.find('/hecbench/')
    if k >= 0:
        rest = path[k + len('/hecbench/'):]
        prog, _, sub = rest.partition('/')
        if prog == program:
            return sub, False
        return '../' + rest, False
    k = path.find('/include/')
    if k >= 0:
        return '<cuda>' + path[k:], True
    return path, True


def parse_source_csv(path, program):
    """{mangled: {(file, line, external): linedata}}, {mangled: {addr: metrics}}, stats"""
    rows = read_csv_lines(path)
    kernels = collections.OrderedDict()
    pcs = collections.defaultdict(dict)
    stats = collections.Counter()
    cur_file = cur_func = None
    idx = None
    line_key = None
    for r in rows:
        if r is None:
            stats['unparsable rows'] += 1
            continue
        if not r:
            continue
        if r[0] == 'File Path' and len(r) == 2:
            cur_file = r[1]
            idx = None
            line_key = None
            continue
        if r[0] == 'Function Name' and len(r) == 2:
            cur_func = r[1]
            kernels.setdefault(cur_func, collections.OrderedDict())
            pcs[cur_func]
            continue
        if r[0] == 'Line No':
            idx = {h: i for i, h in enumerate(r)}
            # the second 'Source' column is the SASS text
            idx['SASS'] = [i for i, h in enumerate(r) if h == 'Source'][-1]
            continue
        if idx is None or cur_func is None:
            stats['rows outside a block'] += 1
            continue
        if len(r) <= max(idx['Address'], idx['SASS']):
            stats['short rows'] += 1
            continue

        def col(name):
            i = idx.get(name)
            return r[i] if i is not None and i < len(r) else ''

        if r[0] != '':
            f, ext = rel_file(cur_file, program)
            line_key = (f, int(r[0]), ext)
            ld = kernels[cur_func].setdefault(line_key, dict(sass={}, ncu_inst=0))
            ld['ncu_inst'] += num(col('Instructions Executed'))
            continue
        addr = col('Address')
        if addr in ('', '...', '-') or line_key is None:
            continue
        ld = kernels[cur_func][line_key]
        if addr in ld['sass']:
            stats['repeated listings'] += 1
            continue
        ld['sass'][addr] = pcs[cur_func].get(addr) or dict(
            op=opcode(r[idx['SASS']]),
            executed=num(col('Instructions Executed')),
            pred_on=num(col('Predicated-On Thread Instructions Executed')),
            div=num(col('Divergent Branches')),
            space=col('Address Space').strip(),
            access=col('Access Operation').strip(),
            sectors=num(col('L2 Theoretical Sectors Global')),
            sectors_ideal=num(col('L2 Theoretical Sectors Global Ideal')),
            wavefronts=num(col('L1 Wavefronts Shared')),
            wavefronts_ideal=num(col('L1 Wavefronts Shared Ideal')),
        )
        pcs[cur_func][addr] = ld['sass'][addr]
    return kernels, pcs, stats


GLOBAL_OPS = re.compile(r'^(LDG|STG|ATOMG|REDG|LDGSTS|UBLKCP|UTMALDG|UTMASTG)(\.|$)')
SHARED_OPS = re.compile(r'^(LDS|STS|ATOMS|LDSM|STSM|LDGSTS)(\.|$)')
GENERIC_OPS = re.compile(r'^(LD|ST|ATOM|RED)(\.|$)')
LOCAL_OPS = re.compile(r'^(LDL|STL)(\.|$)')


def classify(s):
    """set of spaces an executed SASS instruction touches"""
    sp = set()
    space = s['space'].lower()
    op = s['op']
    if space == 'global' or s['sectors'] or GLOBAL_OPS.match(op):
        sp.add('global')
    if space == 'shared' or s['wavefronts'] or SHARED_OPS.match(op):
        sp.add('shared')
    if space == 'local' or LOCAL_OPS.match(op):
        sp.add('local')
    if not sp and GENERIC_OPS.match(op):
        sp.add('generic')
    return sp


def build_lines(linemap, base):
    """list of per-line records (inst_executed > 0), and counts"""
    # which addresses are listed under more than one line (inlined code)
    listed = collections.Counter()
    for ld in linemap.values():
        for a in ld['sass']:
            listed[a] += 1
    out, ext_out = [], []
    mismatch = 0
    for (f, line, ext), ld in sorted(linemap.items(), key=lambda kv: (kv[0][2], kv[0][0], kv[0][1])):
        sass = ld['sass']
        inst = sum(s['executed'] for s in sass.values())
        if ld['ncu_inst'] is not None and inst != ld['ncu_inst']:
            mismatch += 1
        if inst <= 0:
            continue
        rec = collections.OrderedDict()
        rec['file'] = f
        rec['line'] = line
        rec['inst_executed'] = inst
        rec['pred_on_threads'] = sum(s['pred_on'] for s in sass.values())
        rec['divergent_branches'] = sum(s['div'] for s in sass.values())
        if ld['ncu_inst'] is not None:
            multi = sum(1 for a, s in sass.items() if s['executed'] and listed[a] > 1)
            if multi:
                rec['multi_listed'] = multi
        frames = ld.get('frames', {})
        spaces = collections.OrderedDict((k, []) for k in ('global', 'shared', 'local', 'generic'))
        for a, s in sorted(sass.items(), key=lambda kv: int(kv[0], 16)):
            if not s['executed']:
                continue
            for sp in classify(s):
                ins = collections.OrderedDict(sass=s['op'], pc=hex(int(a, 16) - base),
                                              executed=s['executed'])
                if sp == 'global':
                    ins['sectors'] = s['sectors']
                    ins['ideal'] = s['sectors_ideal']
                elif sp == 'shared':
                    ins['wavefronts'] = s['wavefronts']
                    ins['ideal'] = s['wavefronts_ideal']
                if s['access'] and s['access'] != '-':
                    ins['access'] = s['access']
                elif s['op'].startswith('RED'):
                    ins['access'] = 'Reduction'  # ncu prints '-' for RED
                elif s['op'].startswith('ATOM'):
                    ins['access'] = 'Atomic'
                ins.update(frames.get(a, {}))
                spaces[sp].append(ins)
        if spaces['global']:
            g = spaces['global']
            rec['global'] = collections.OrderedDict(
                sectors=sum(i['sectors'] for i in g), ideal=sum(i['ideal'] for i in g),
                instructions=g)
        if spaces['shared']:
            sh = spaces['shared']
            rec['shared'] = collections.OrderedDict(
                wavefronts=sum(i['wavefronts'] for i in sh), ideal=sum(i['ideal'] for i in sh),
                instructions=sh)
        if spaces['local']:
            rec['local'] = collections.OrderedDict(instructions=spaces['local'])
        if spaces['generic']:
            rec['generic'] = collections.OrderedDict(instructions=spaces['generic'])
        (ext_out if ext else out).append(rec)
    return out, ext_out, mismatch


def load_sass_map(path):
    """{mangled: {offset: (opcode, frames)}} from nvdisasm -g -gi output; frames are
    [(path, line)], innermost first, the last one in the kernel itself."""
    import gzip
    funcs = {}
    cur = None
    pending, last = [], []
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', errors='replace') as f:
        for ln in f:
            st = ln.strip()
            m = re.match(r'^\.text\.(\S+):$', st)
            if m:
                cur = funcs.setdefault(m.group(1), {})
                pending, last = [], []
                continue
            if st.startswith('//## File'):
                fr = re.findall(r'"([^"]*)", line (\d+)', st)
                if fr:
                    pending.append((fr[0][0], int(fr[0][1])))
                continue
            m = re.match(r'^/\*([0-9a-f]{4,})\*/\s+(.*)$', st)
            if m and cur is not None:
                if pending:
                    last, pending = pending, []
                cur[int(m.group(1), 16)] = (opcode(m.group(2)), last)
    return funcs


def match_sass(pcs, smap):
    """(base address, None) when every profiled instruction has the same opcode at the
    same offset in the disassembly, else (None, reason)"""
    if not smap:
        return None, 'no disassembly of the kernel'
    if not pcs:
        return None, 'no instructions'
    base = min(int(a, 16) for a in pcs)
    bad = sum(1 for a, met in pcs.items() if smap.get(int(a, 16) - base, ('',))[0] != met['op'])
    if bad:
        return None, '%d of %d opcodes differ from the disassembly' % (bad, len(pcs))
    return base, None


def attribute(pcs, smap, base, program):
    """linemap {(file, line, external): dict(sass={addr: metrics}, frames={addr: info})}"""
    linemap = collections.OrderedDict()
    unattributed = 0
    for a, met in pcs.items():
        op, frames = smap[int(a, 16) - base]
        rel = [rel_file(p, program) + (ln,) for p, ln in frames]  # (file, external, line)
        own = [i for i, r in enumerate(rel) if not r[1]]
        if own:
            i = own[0]
            key = (rel[i][0], rel[i][2], False)
        elif rel:
            i = 0
            key = (rel[0][0], rel[0][2], True)
        else:
            unattributed += 1
            continue
        info = {}
        if i > 0:
            info['from'] = '%s:%d' % (rel[0][0], rel[0][2])
        outer = ['%s:%d' % (r[0], r[2]) for r in rel[i + 1:]]
        if outer:
            info['inlined_at'] = outer
        ld = linemap.setdefault(key, dict(sass={}, frames={}, ncu_inst=None))
        ld['sass'][a] = met
        if info:
            ld['frames'][a] = info
    return linemap, unattributed


def parse_kernels_csv(path):
    """[{id, mangled, block, grid, registers}] in profiling order"""
    if not os.path.exists(path):
        return []
    rows = [r for r in read_csv_lines(path) if r]
    if not rows:
        return []
    hdr = {h: i for i, h in enumerate(rows[0])}
    out = []
    for r in rows[1:]:
        if len(r) != len(hdr) or not r[hdr['ID']].strip().isdigit():
            continue
        out.append(dict(id=int(r[hdr['ID']]), mangled=r[hdr['Kernel Name']],
                        block=r[hdr['Block Size']], grid=r[hdr['Grid Size']],
                        registers=num(r[hdr['launch__registers_per_thread']])
                        if 'launch__registers_per_thread' in hdr else None))
    return out


def read_meta(raw):
    meta = {}
    p = os.path.join(raw, 'meta.txt')
    if os.path.exists(p):
        for ln in open(p):
            k, _, v = ln.rstrip('\n').partition('=')
            meta[k] = v
    return meta


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('raw', nargs='+', help="measure.sh's raw folder(s), later ones win")
    ap.add_argument('-o', '--output', help='output JSON (default results/<gpu-tag>.json)')
    ap.add_argument('--gpu-tag', help='default: from the GPU name, e.g. h200')
    ap.add_argument('--programs', help="program list (default: the first RAW/programs.tsv; with --merge-into, all RAWs' lists)")
    ap.add_argument('--sass', help='folder of <prog>.sass.txt.gz (default: the RAW folder that measured the program)')
    ap.add_argument('--merge-into', metavar='FILE',
                    help='add the RAW folders as new runs to this results file, replacing the '
                         'entries of the programs they measured and keeping all others')
    ap.add_argument('--ok-after-limit', metavar='PROGS', default='',
                    help='comma list: a timeout of these programs that kept kernels is recorded ok')
    args = ap.parse_args()
    if args.merge_into and args.output:
        sys.exit('--merge-into writes FILE itself; leave -o out')
    ok_after_limit = set(x for x in args.ok_after_limit.split(',') if x)
    raws = args.raw
    metas = [read_meta(r) for r in raws]
    meta = metas[0]
    for m in metas[1:]:
        for k in ('gpu', 'driver', 'nvcc', 'ncu'):
            if m.get(k) != meta.get(k):
                sys.exit('%s differs between runs: %r, %r' % (k, meta.get(k), m.get(k)))
    old = None
    if args.merge_into:
        with open(args.merge_into) as f:
            old = json.load(f, object_pairs_hook=collections.OrderedDict)
        for k in ('gpu', 'driver', 'nvcc', 'ncu'):
            if old.get(k) != meta.get(k):
                sys.exit('%s differs from %s: %r there, %r measured; not merged'
                         % (k, args.merge_into, old.get(k), meta.get(k)))
        run0 = len(old.get('runs') or [old.get('date')])
    tag = args.gpu_tag or (re.findall(r'([A-Za-z]\d{2,4})', meta.get('gpu', 'gpu')) or ['gpu'])[-1].lower()
    out_path = args.merge_into or args.output or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'results', tag + '.json')

    demangled = {}
    for raw in raws:
        dp = os.path.join(raw, 'demangled.tsv')
        if os.path.exists(dp):
            for ln in open(dp, encoding='utf-8', errors='replace'):
                m, _, d = ln.rstrip('\n').partition('\t')
                if m and d:
                    demangled[m] = d

    plists = [args.programs] if args.programs else (
        [os.path.join(r, 'programs.tsv') for r in raws] if old is not None
        else [os.path.join(raws[0], 'programs.tsv')])
    progs = []
    for plist in plists:
        for ln in open(plist):
            ln = ln.rstrip('\n')
            if not ln.strip():
                continue
            p, _, a = ln.partition('\t')
            if p not in (q for q, _ in progs):
                progs.append((p, a))
    if old is not None:  # only the programs these raw folders measured
        progs = [(p, a) for p, a in progs
                 if any(os.path.exists(os.path.join(r, p + '.status')) for r in raws)]
        if not progs:
            sys.exit('no listed program was measured in %s' % ', '.join(raws))

    doc = collections.OrderedDict()
    doc['gpu'] = meta.get('gpu')
    doc['gpu_tag'] = tag
    doc['driver'] = meta.get('driver')
    doc['nvcc'] = meta.get('nvcc')
    doc['ncu'] = meta.get('ncu')
    doc['date'] = meta.get('date_utc')
    if len(raws) > 1:
        doc['runs'] = [m.get('date_utc') for m in metas]
    doc['build'] = 'make ARCH=sm_90 EXTRA_CFLAGS=-lineinfo'
    doc['profile'] = ('ncu --kernel-id :::1 --kernel-name-base mangled --section SourceCounters '
                      '--import-source yes; ncu -i --print-kernel-base mangled --page source '
                      '--csv --print-source cuda,sass')
    doc['programs'] = []
    totals = collections.Counter()
    for p, a in progs:
        e = collections.OrderedDict(program=p, args=a)
        raw = raws[0]
        for r in raws:
            if os.path.exists(os.path.join(r, p + '.status')):
                raw = r
        if len(raws) > 1 or old is not None:
            ra = dict(l.rstrip('\n').partition('\t')[::2] for l in open(os.path.join(raw, 'programs.tsv')) if l.strip())
            if ra.get(p, a) != a:
                sys.exit('%s: measured with %r, listed with %r' % (p, ra.get(p), a))
            e['run'] = raws.index(raw) + (run0 if old is not None else 0)
        st_path = os.path.join(raw, p + '.status')
        st = open(st_path).read().strip() if os.path.exists(st_path) else 'run-failed not run'
        word = st.split()[0] if st else 'run-failed'
        reason = st[len(word):].strip()
        wall = re.search(r'wall (\d+) s', reason)
        reason = re.sub(r';?\s*wall \d+ s', '', reason).strip(' ;')
        log = os.path.join(raw, p + '.run.log')
        logtxt = open(log, errors='replace').read() if os.path.exists(log) else ''
        csvp = os.path.join(raw, p + '.source.csv')
        kernels = []
        stats = collections.Counter()
        if os.path.exists(csvp) and os.path.getsize(csvp) > 0:
            kmap, kpcs, stats = parse_source_csv(csvp, p)
            sp_ = os.path.join(args.sass or raw, p + '.sass.txt.gz')
            smaps = load_sass_map(sp_) if os.path.exists(sp_) else {}
            kinfo = {k['mangled']: k for k in parse_kernels_csv(os.path.join(raw, p + '.kernels.csv'))}
            order = sorted(kmap, key=lambda m: kinfo.get(m, {}).get('id', 1 << 30))
            for m in order:
                linemap = kmap[m]
                base, why = match_sass(kpcs[m], smaps.get(m))
                if base is not None:
                    linemap, unattr = attribute(kpcs[m], smaps[m], base, p)
                    if unattr:
                        stats['instructions without line information'] += unattr
                else:
                    addrs = [int(x, 16) for ld in linemap.values() for x in ld['sass']]
                    base = min(addrs) if addrs else 0
                lines, ext_lines, mism = build_lines(linemap, base)
                stats['line total mismatches'] += mism
                k = collections.OrderedDict(mangled=m)
                if m in demangled:
                    k['demangled'] = demangled[m]
                ki = kinfo.get(m)
                if ki:
                    k['block'] = ki['block']
                    k['grid'] = ki['grid']
                    if ki['registers'] is not None:
                        k['registers'] = ki['registers']
                k['attribution'] = 'nvdisasm' if why is None else 'ncu'
                if why:
                    k['attribution_note'] = why
                k['inst_executed'] = sum(s_['executed'] for s_ in kpcs[m].values())
                k['lines'] = lines
                if ext_lines:
                    k['external_lines'] = ext_lines
                kernels.append(k)
        executed = sum(k['inst_executed'] for k in kernels)
        if word == 'ok':
            if 'LaunchFailed' in logtxt or 'Failed to profile' in logtxt:
                word, reason = 'run-failed', 'a kernel failed under the profiler (%s)' % (
                    'LaunchFailed' if 'LaunchFailed' in logtxt else 'Failed to profile')
            elif not kernels or executed == 0:
                word, reason = 'no-kernels', 'no executed instructions in the report'
            else:
                m = re.search(r'program rc=(\d+)', reason)
                reason = ('the program exited with code %s after its kernels were profiled' % m.group(1)
                          if m else '')
        elif word == 'timeout' and kernels:
            reason = (reason + '; the kernels profiled before the limit are kept').strip('; ')
            if p in ok_after_limit:
                word = 'ok'
        e['status'] = word
        if reason:
            e['reason'] = reason
        if wall:
            e['wall_s'] = int(wall.group(1))
        if kernels:
            e['kernels'] = kernels
        for k, v in stats.items():
            if v and k != 'repeated listings':
                e.setdefault('parse_notes', {})[k] = v
        doc['programs'].append(e)
        totals[word] += 1
    if old is not None:
        new = {e['program']: e for e in doc['programs']}
        kept = [new.pop(e['program'], e) for e in old['programs']]
        old['runs'] = list(old.get('runs') or [old.get('date')]) + [m.get('date_utc') for m in metas]
        old['programs'] = kept + [e for e in doc['programs'] if e['program'] in new]
        doc = old
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    # one program per line: compact, and diffs stay per program
    with open(out_path, 'w') as f:
        head = collections.OrderedDict((k, v) for k, v in doc.items() if k != 'programs')
        f.write(json.dumps(head)[:-1] + ',\n"programs":[\n')
        f.write(',\n'.join(json.dumps(e, separators=(',', ':')) for e in doc['programs']))
        f.write('\n]}\n')
    print('%s: %s' % (out_path, ', '.join('%d %s' % (v, k) for k, v in sorted(totals.items()))))


if __name__ == '__main__':
    main()
