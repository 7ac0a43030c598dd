#!/usr/bin/env python3
"""How long the editor waits: `warplint --lsp` from an edit to its diagnostics.

For each file, starts `warplint --lsp`, opens the file, and times the first
publishDiagnostics after didOpen; then makes --edits edits below the includes
(a comment line added at the end of the file, one at a time, each awaited)
and times each from didChange to the publishDiagnostics of that version;
then types --bursts bursts of 6 edits 100 ms apart (a typist's pace) and
times each from its last didChange to the publication of its last version
(the pause that waits for typing to stop is in this one).
Beside it, `clang++-22 -fsyntax-only --cuda-device-only` on the same file
(median of --runs), the time a full parse costs. A benchmark, not a test: it
prints figures and asserts nothing.

  scripts/bench-lsp.py [--warplint build/warplint] [--edits N] [FILES...]

Without files it measures examples/transpose.cu.
"""
import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# clang's command and a timed run, as scripts/bench-speed.py makes them.
_spec = importlib.util.spec_from_file_location(
    'bench_speed', os.path.join(ROOT, 'scripts', 'bench-speed.py'))
bench_speed = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_speed)


def clang_seconds(path, runs, warplint):
    """Median wall time of clang's device-only parse of `path`."""
    cuda = '/usr/local/cuda' if os.path.isdir('/usr/local/cuda/include') else ''
    cmd = bench_speed.clang_command(path, cuda, ['-I', os.path.dirname(path)],
                                    warplint)
    return statistics.median(bench_speed.measure(cmd)[0] for _ in range(runs))


class Server:
    """A `warplint --lsp` process; publishDiagnostics are queued with the
    time they arrived."""

    def __init__(self, warplint, args=()):
        self.proc = subprocess.Popen([warplint, '--lsp'] + list(args),
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=open(os.environ.get("BENCH_LSP_LOG", os.devnull), "a"))
        self.cond = threading.Condition()
        self.published = []
        self.replies = {}
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 1

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b'content-length:'):
                    length = int(line.split(b':')[1])
            message = json.loads(out.read(length))
            now = time.perf_counter()
            with self.cond:
                if message.get('method') == 'textDocument/publishDiagnostics':
                    self.published.append((now, message['params']))
                elif 'id' in message:
                    self.replies[message['id']] = message
                self.cond.notify_all()

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({'jsonrpc': '2.0', 'id': rid, 'method': method,
                   'params': params})
        with self.cond:
            self.cond.wait_for(lambda: rid in self.replies, timeout=60)
            return self.replies.get(rid)

    def notify(self, method, params):
        self.send({'jsonrpc': '2.0', 'method': method, 'params': params})

    def wait_version(self, uri, version, timeout=120):
        """The arrival time and params of the publication of `version`."""
        def found():
            for t, p in self.published:
                if p['uri'] == uri and p.get('version') == version:
                    return t, p
            return None
        with self.cond:
            self.cond.wait_for(lambda: found() is not None, timeout=timeout)
            return found()

    def close(self):
        try:
            self.request('shutdown', None)
            self.notify('exit', None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def measure(warplint, path, edits, bursts):
    path = os.path.abspath(path)
    uri = 'file://' + path
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    if not text.endswith('\n'):
        text += '\n'
    lines = text.count('\n')
    # A compile database of the one file, as a project would give it (and so
    # that no other database above the file is found).
    db = tempfile.mkdtemp(prefix='bench-lsp-')
    with open(os.path.join(db, 'compile_commands.json'), 'w') as f:
        json.dump([{'directory': os.path.dirname(path), 'file': path,
                    'arguments': ['nvcc', '-std=c++17', '-arch=sm_90', '-I',
                                  os.path.dirname(path), '-c', path]}], f)
    s = Server(warplint, ['-p', db])
    s.request('initialize', {'processId': os.getpid(), 'rootUri': None,
                             'capabilities': {}})
    s.notify('initialized', {})
    start = time.perf_counter()
    s.notify('textDocument/didOpen', {'textDocument': {
        'uri': uri, 'languageId': 'cuda', 'version': 1, 'text': text}})
    got = s.wait_version(uri, 1)
    opened = got[0] - start if got else float('nan')
    count = len(got[1]['diagnostics']) if got else -1
    def insert(version, line, text):
        """didChange: `text` inserted as line `line`; the time it was sent."""
        sent = time.perf_counter()
        s.notify('textDocument/didChange', {
            'textDocument': {'uri': uri, 'version': version},
            'contentChanges': [{'range': {
                'start': {'line': line, 'character': 0},
                'end': {'line': line, 'character': 0}},
                'text': text}]})
        return sent

    latencies = []
    for k in range(edits):
        version = k + 2
        start = insert(version, lines + k, '// edit %d\n' % k)
        got = s.wait_version(uri, version)
        if not got:
            break
        latencies.append(got[0] - start)
        time.sleep(0.3)
    typed = []
    version = edits + 1
    for b in range(bursts):
        for k in range(6):
            version += 1
            last = insert(version, lines + edits + b * 6 + k,
                          '// typed %d %d\n' % (b, k))
            if k < 5:
                time.sleep(0.1)
        got = s.wait_version(uri, version)
        if not got:
            break
        typed.append(got[0] - last)
        time.sleep(0.5)
    s.close()
    shutil.rmtree(db, ignore_errors=True)
    return opened, latencies, count, lines, typed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('files', nargs='*')
    ap.add_argument('--warplint', default=os.path.join(ROOT, 'build', 'warplint'))
    ap.add_argument('--edits', type=int, default=15)
    ap.add_argument('--bursts', type=int, default=5)
    ap.add_argument('--runs', type=int, default=3)
    args = ap.parse_args()
    files = args.files or [os.path.join(ROOT, 'examples', 'transpose.cu')]
    print('%-40s %6s %9s %9s %9s %9s %9s %6s' % (
        'file', 'lines', 'open s', 'edit med', 'edit max', 'typed med',
        'clang s', 'diags'))
    for f in files:
        opened, lat, count, lines, typed = measure(args.warplint, f,
                                                   args.edits, args.bursts)
        clang = clang_seconds(os.path.abspath(f), args.runs, args.warplint)
        med = statistics.median(lat) if lat else float('nan')
        print('%-40s %6d %9.3f %9.3f %9.3f %9.3f %9.3f %6d' % (
            os.path.relpath(f)[-40:], lines, opened, med,
            max(lat) if lat else float('nan'),
            statistics.median(typed) if typed else float('nan'), clang,
            count))
        sys.stdout.flush()


if __name__ == '__main__':
    main()
