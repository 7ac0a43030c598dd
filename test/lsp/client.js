// End-to-end test of `warplint --lsp` through the client library VS Code's
// language clients use (vscode-languageserver-protocol over vscode-jsonrpc),
// talking to the real server over its stdin and stdout.
//
// Usage: node client.js <warplint> <scratch dir> <source tree>
// Exits non-zero on the first failed check; prints the number of checks.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter,
  InitializeRequest, InitializedNotification, ShutdownRequest, ExitNotification,
  DidOpenTextDocumentNotification, DidChangeTextDocumentNotification,
  DidSaveTextDocumentNotification, DidCloseTextDocumentNotification,
  PublishDiagnosticsNotification, HoverRequest, CodeActionRequest, ErrorCodes,
} = require('vscode-languageserver-protocol/node');

const [warplint, scratch, tree] = process.argv.slice(2);
let checks = 0;
function check(cond, what, detail) {
  if (!cond) {
    console.error('FAIL: ' + what + (detail === undefined ? '' :
      '\n' + (typeof detail === 'string' ? detail : JSON.stringify(detail, null, 1))));
    process.exit(1);
  }
  checks++;
}

/// A server process and a connection to it; every publishDiagnostics and
/// every error the connection logs are kept.
function startServer(args, encodings, env = {}) {
  const proc = spawn(warplint, ['--lsp', ...args],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const s = { proc, stderr: '', published: [], logged: [], waiters: [] };
  proc.stderr.on('data', (d) => { s.stderr += d; });
  s.exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
  const logger = {
    error: (m) => s.logged.push(m), warn: (m) => s.logged.push(m),
    info: () => {}, log: () => {},
  };
  s.conn = createProtocolConnection(new StreamMessageReader(proc.stdout),
    new StreamMessageWriter(proc.stdin), logger);
  s.conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    s.published.push(p);
    s.waiters = s.waiters.filter((w) => !w(p));
  });
  s.conn.listen();
  s.init = s.conn.sendRequest(InitializeRequest.type, {
    processId: process.pid, rootUri: pathToFileURL(scratch).href,
    capabilities: {
      general: { positionEncodings: encodings },
      textDocument: {
        hover: { contentFormat: ['markdown', 'plaintext'] },
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
      },
    },
  });
  return s;
}

/// The next publication for `uri` that satisfies `pred` (those already in
/// count too), or a failure after `ms`.
function published(s, uri, pred, ms = 60000) {
  const done = s.published.find((p) => p.uri === uri && pred(p));
  if (done) return Promise.resolve(done);
  return new Promise((resolve) => {
    const timer = setTimeout(() => check(false, `no diagnostics for ${uri} ` +
      'as expected in time; published: ', s.published.concat([s.stderr])), ms);
    s.waiters.push((p) => {
      if (p.uri !== uri || !pred(p)) return false;
      clearTimeout(timer);
      resolve(p);
      return true;
    });
  });
}

function withCode(p, code) { return p.diagnostics.filter((d) => d.code === code); }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  fs.mkdirSync(scratch, { recursive: true });
  // transpose.cu with a character outside the Basic Multilingual Plane before
  // the flagged shared load: two UTF-16 units, four UTF-8 bytes.
  const source = fs.readFileSync(path.join(tree, 'examples', 'transpose.cu'), 'utf8')
    .replace('  out[y * N + x] = tile[threadIdx.x][threadIdx.y];\n}\n\n// The fix',
      '  /*\u{1F600}*/ out[y * N + x] = tile[threadIdx.x][threadIdx.y];\n}\n\n// The fix');
  check(source.includes('\u{1F600}'), 'the example still has the line the test marks');
  const file = path.join(scratch, 'transpose.cu');
  fs.writeFileSync(file, source);
  const uri = pathToFileURL(file).href;
  const lines = source.split('\n');
  const smemLine = lines.findIndex((l) => l.includes('/*\u{1F600}*/'));
  const naiveLine = lines.findIndex((l) => l.includes('out[x * N + y] = in[y * N + x]'));
  const tileDecl = lines.findIndex((l) => l.includes('__shared__ float tile[TILE][TILE];'));

  // --- UTF-16 (the default) ----------------------------------------------------
  const s = startServer([], ['utf-16']);
  const init = await s.init;
  check(init.capabilities.positionEncoding === 'utf-16', 'position encoding utf-16', init);
  check(init.capabilities.hoverProvider === true, 'hover provider', init);
  check(init.capabilities.textDocumentSync.change === 2, 'incremental sync', init);
  check(init.serverInfo.name === 'warplint', 'server name', init);
  s.conn.sendNotification(InitializedNotification.type, {});

  // Open, then change while the first run is under way (the server logs
  // its start): that run is dropped, never published.
  s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'cuda', version: 1, text: source } });
  for (let waited = 0; !s.stderr.includes(`analyzing ${file} version 1`); waited += 10) {
    check(waited < 30000, 'the server starts analyzing version 1', s.stderr);
    await sleep(10);
  }
  const v2 = source + '\n// edited\n';
  s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: { line: lines.length - 1, character: 0 },
      end: { line: lines.length - 1, character: 0 } }, text: '\n// edited\n' }] });
  // A hover sent now is answered before the new run ends: typing never
  // waits for an analysis.
  const hoverEarly = s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri }, position: { line: smemLine, character: 20 } });
  let hoverAnswered = false;
  hoverEarly.then(() => { hoverAnswered = true; });
  const first = await published(s, uri, (p) => p.version === 2);
  check(hoverAnswered, 'a hover during an analysis is answered before it ends');
  check(!s.published.some((p) => p.uri === uri && p.version === 1),
    'the run of version 1 is not published once version 2 exists', s.published);
  check(/dropped the results for .* version 1/.test(s.stderr),
    'the server says it dropped the stale run', s.stderr);

  // The findings: rule, place (UTF-16 columns), figures, links, notes.
  const smem = withCode(first, 'smem-bank-conflict');
  check(smem.length === 1, 'one bank-conflict diagnostic', first);
  const d = smem[0];
  const smemCol = lines[smemLine].indexOf('tile[threadIdx.x]'); // UTF-16 units
  check(d.range.start.line === smemLine && d.range.start.character === smemCol,
    `bank conflict at ${smemLine}:${smemCol} (UTF-16)`, d);
  check(d.range.end.line === smemLine &&
    d.range.end.character === smemCol + 'tile[threadIdx.x][threadIdx.y]'.length,
  'the range covers the access', d);
  check(d.severity === 2 && d.source === 'warplint', 'a warning from warplint', d);
  check(d.message.includes('32-way bank conflict') &&
    d.message.includes('32 wavefronts where 1 would do'), 'the figures', d);
  check(!d.message.includes('[smem-bank-conflict]'), 'the rule is the code, not in the message', d);
  check(d.codeDescription && d.codeDescription.href.endsWith('/rules/smem-bank-conflict.md'),
    'the rule page link', d);
  const page = decodeURIComponent(new URL(d.codeDescription.href).pathname);
  check(fs.existsSync(page), 'the linked rule page exists: ' + page);
  const pad = (d.relatedInformation || []).find((r) =>
    r.message.includes("declare it as 'float tile[32][33]'"));
  check(pad && pad.location.uri === uri && pad.location.range.start.line === smemLine,
    'the verified padding fix is a related note', d);

  const unc = withCode(first, 'uncoalesced-global-access');
  check(unc.length === 2, 'two uncoalesced diagnostics', first);
  const naive = unc.find((x) => x.range.start.line === naiveLine);
  check(naive && naive.message.includes('adjacent lanes are 16384 bytes apart') &&
    naive.message.includes('32 sectors per request where 4 would do'), 'the store figures', unc);
  const why = naive.relatedInformation.find((r) => r.message.startsWith("'x * N' makes"));
  const xN = lines[naiveLine].indexOf('x * N');
  check(why && why.location.range.start.character === xN &&
    why.location.range.end.character === xN + 5, "the note points at 'x * N'", naive);

  // Hover on the flagged load: the lane/bank picture of --explain.
  const h = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri }, position: { line: smemLine, character: smemCol + 3 } });
  check(h && h.contents.kind === 'markdown', 'a markdown hover', h);
  const hv = h.contents.value;
  check(hv.includes("explain: shared load 'tile[threadIdx.x][threadIdx.y]' in transposeTile"),
    'the hover names the access', hv);
  check(hv.includes('32 wavefronts per request on average, ideal 1'), 'the hover figures', hv);
  check(hv.includes('  wavefront 32 31  .'), 'the hover draws the banks', hv);
  check(hv.includes('smem-bank-conflict'), 'the hover names the rule', hv);
  check(h.range.start.line === smemLine && h.range.start.character === smemCol,
    'the hover range is the finding', h);
  const hNaive = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri }, position: { line: naiveLine, character: 4 } });
  check(hNaive && hNaive.contents.value.includes('sector +0'), 'the hover draws sectors', hNaive);
  const none = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri }, position: { line: 0, character: 3 } });
  check(none === null, 'no hover on an unflagged line', none);

  // The verified fix as a quick fix: it pads the tile's declaration.
  check(init.capabilities.codeActionProvider &&
    init.capabilities.codeActionProvider.codeActionKinds.includes('quickfix'),
  'code action provider', init);
  const actions = await s.conn.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: { start: { line: smemLine, character: 0 }, end: { line: smemLine, character: 0 } },
    context: { diagnostics: [d] } });
  check(actions.length === 1 && actions[0].kind === 'quickfix' && actions[0].isPreferred &&
    actions[0].title === "pad the inner dimension: declare it as 'float tile[32][33]'",
  'one preferred quick fix: the padding', actions);
  check(actions[0].diagnostics.length === 1 &&
    actions[0].diagnostics[0].code === 'smem-bank-conflict', 'the fix names its diagnostic', actions);
  const edits = actions[0].edit.changes[uri];
  const tileAt = lines[tileDecl].indexOf('[TILE];') + 1;
  check(edits && edits.length === 1 && edits[0].newText === 'TILE + 1' &&
    edits[0].range.start.line === tileDecl && edits[0].range.start.character === tileAt &&
    edits[0].range.end.character === tileAt + 4, "the edit turns the extent 'TILE' into 'TILE + 1'", edits);
  const noActions = await s.conn.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [] } });
  check(Array.isArray(noActions) && noActions.length === 0, 'no quick fix on an unflagged line', noActions);

  // Applying it: a new result is published without the conflict; the other
  // findings stay.
  s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 3 },
    contentChanges: [{ range: edits[0].range, text: edits[0].newText }] });
  const fixed = await published(s, uri, (p) => p.version === 3);
  check(withCode(fixed, 'smem-bank-conflict').length === 0, 'the padded tile has no conflict', fixed);
  check(withCode(fixed, 'uncoalesced-global-access').length === 2, 'the other findings stay', fixed);
  const gone = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri }, position: { line: smemLine, character: smemCol + 3 } });
  check(gone === null, 'no hover once the finding is gone', gone);

  // Several edits in a row: only the last is published.
  const countBefore = s.published.length;
  for (let v = 4; v <= 6; v++)
    s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: v },
      contentChanges: [{ text: v === 6 ? source : source + `\n// v${v}\n` }] });
  const last = await published(s, uri, (p) => p.version === 6);
  check(s.published.slice(countBefore).every((p) => p.version === 6),
    'versions 4 and 5 are never published', s.published.slice(countBefore));
  check(withCode(last, 'smem-bank-conflict').length === 1, 'the whole-text change is analyzed', last);

  // Save: analyzed again, same result.
  s.published.length = 0;
  s.conn.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri }, text: source });
  const saved = await published(s, uri, () => true);
  check(saved.diagnostics.length === 3, 'save publishes again', saved);

  // A file that does not parse: errors, not an empty list; an error in an
  // included header shows on the #include line; the kernel that parsed is
  // still analyzed.
  fs.writeFileSync(path.join(scratch, 'bad.h'), 'inline int f() { return 1 +; }\n');
  const broken = path.join(scratch, 'broken.cu');
  const brokenText = '#include "not-there.h"\n#include "bad.h"\n' +
    '__global__ void k(float *p) {\n  p[threadIdx.x] = ;\n}\n' +
    '__global__ void ok(float *p) { p[threadIdx.x * 4] = 0; }\n';
  const blines = brokenText.split('\n');
  fs.writeFileSync(broken, brokenText);
  const buri = pathToFileURL(broken).href;
  s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: buri, languageId: 'cuda', version: 1, text: brokenText } });
  const b = await published(s, buri, () => true);
  const missing = b.diagnostics.find((x) => x.message.includes("'not-there.h' file not found"));
  check(missing && missing.severity === 1 && missing.range.start.line === 0,
    'the missing header is an error on line 1', b);
  const inHeader = b.diagnostics.find((x) => x.message.startsWith('in included file') &&
    x.message.endsWith('bad.h:1: expected expression'));
  check(inHeader && inHeader.severity === 1 && inHeader.range.start.line === 1 &&
    inHeader.range.start.character === blines[1].indexOf('"bad.h"'),
  "the header's error is on its #include line", b);
  const expr = b.diagnostics.find((x) => x.message === 'expected expression');
  check(expr && expr.severity === 1 && expr.range.start.line === 3 &&
    expr.range.start.character === blines[3].indexOf(';'),
  'the syntax error is an error where it is', b);
  const parsed = withCode(b, 'uncoalesced-global-access');
  check(parsed.length === 1 && parsed[0].range.start.line === 5 &&
    parsed[0].message.includes('16 bytes apart'), 'the kernel that parsed is analyzed', b);

  // An error in host-only code (nvcc with gcc accepts much Clang's CUDA mode
  // does not) is information that says it was not checked, as the command
  // line's note; the file's findings are whole and it is no failure.
  const host = path.join(scratch, 'host.cu');
  const hostText = '__global__ void k(float *p) { p[threadIdx.x * 4] = 0; }\n' +
    'void report() { undeclared_helper(); }\n';
  fs.writeFileSync(host, hostText);
  const hosturi = pathToFileURL(host).href;
  s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: hosturi, languageId: 'cuda', version: 1, text: hostText } });
  const hostPub = await published(s, hosturi, () => true);
  const hostErr = hostPub.diagnostics.find((x) => x.message.includes('undeclared_helper'));
  check(hostErr && hostErr.severity === 3 && hostErr.range.start.line === 1 &&
    hostErr.message.startsWith('host code not checked: '),
  'a host-only error is information, not an error', hostPub);
  check(!hostPub.diagnostics.some((x) => x.severity === 1), 'no error for host-only code', hostPub);
  check(withCode(hostPub, 'uncoalesced-global-access').length === 1, "the kernel's finding is there", hostPub);

  // The compile database, found as clangd finds it: build/ next to the
  // source's directory's parent. STRIDE is defined only there.
  const proj = path.join(scratch, 'proj');
  fs.mkdirSync(path.join(proj, 'src'), { recursive: true });
  fs.mkdirSync(path.join(proj, 'build'), { recursive: true });
  const strided = path.join(proj, 'src', 'strided.cu');
  const stridedText = '__global__ void k(float *p) {\n  p[threadIdx.x * STRIDE] = 0;\n}\n' +
    'void run(float *p) { k<<<1, 32>>>(p); }\n';
  fs.writeFileSync(strided, stridedText);
  fs.writeFileSync(path.join(proj, 'build', 'compile_commands.json'), JSON.stringify([{
    directory: path.join(proj, 'build'), file: strided,
    command: `clang++ -x cuda -DSTRIDE=32 -c ${strided} -o strided.o` }]));
  const suri = pathToFileURL(strided).href;
  s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: suri, languageId: 'cuda', version: 1, text: stridedText } });
  const sp = await published(s, suri, () => true);
  const st = withCode(sp, 'uncoalesced-global-access');
  check(st.length === 1 && st[0].message.includes('adjacent lanes are 128 bytes apart'),
    'the compile database defines STRIDE', sp);
  check(!sp.diagnostics.some((x) => x.severity === 1), 'no errors with the database', sp);

  // The document's #includes are precompiled once (the preamble): the runs
  // of transpose.cu above read it after the first built it.
  const builtFor = (f) => s.stderr.split('\n').filter((l) =>
    l.startsWith(`warplint --lsp: built the preamble of ${f} `)).length;
  check(builtFor(file) === 1, 'one preamble built for transpose.cu over its edits', s.stderr);
  check(!s.stderr.includes(`parsed ${file} without a preamble`),
    'every run of transpose.cu read its preamble', s.stderr);

  // A header's text is in the preamble: an edit below the #includes keeps
  // its macros and its compiler messages (a host-only error in it stays a
  // note on the #include line); a change of the header on disk is seen at
  // the next edit, and so is an edit of the #include lines.
  const hdr = path.join(scratch, 'stride.cuh');
  fs.writeFileSync(hdr, '#define STRIDE 8\ninline void hostOnly() { undeclared_thing(); }\n');
  const pre = path.join(scratch, 'preamble.cu');
  const preText = '#include "stride.cuh"\n' +
    '__global__ void k(float *p) {\n  p[threadIdx.x * STRIDE] = 0;\n}\n';
  fs.writeFileSync(pre, preText);
  const puri = pathToFileURL(pre).href;
  const preLines = preText.split('\n').length;
  const bytesApart = (p) => withCode(p, 'uncoalesced-global-access').map((x) =>
    (x.message.match(/adjacent lanes are (\d+) bytes apart/) || [])[1]);
  const hostNote = (p) => p.diagnostics.filter((x) => x.severity === 3 &&
    x.range.start.line === 0 && x.message.startsWith('in included file') &&
    x.message.includes('undeclared_thing'));
  s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: puri, languageId: 'cuda', version: 1, text: preText } });
  const p1 = await published(s, puri, (p) => p.version === 1);
  check(bytesApart(p1).join() === '32', "the header's STRIDE (8) is used", p1);
  check(hostNote(p1).length === 1, "the header's host-only error is a note on its #include", p1);
  const editBelow = (v, text) => s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri: puri, version: v },
    contentChanges: [{ range: { start: { line: preLines - 1, character: 0 },
      end: { line: preLines - 1, character: 0 } }, text }] });
  editBelow(2, '// below the includes\n');
  const p2 = await published(s, puri, (p) => p.version === 2);
  check(builtFor(pre) === 1, 'an edit below the #includes reuses the preamble', s.stderr);
  check(bytesApart(p2).join() === '32' && hostNote(p2).length === 1,
    "the preamble's macros and messages are kept", p2);
  fs.writeFileSync(hdr, '#define STRIDE 16\n');
  editBelow(3, '// the header changed\n');
  const p3 = await published(s, puri, (p) => p.version === 3);
  check(builtFor(pre) === 2 && bytesApart(p3).join() === '64' && hostNote(p3).length === 0,
    'a changed header rebuilds the preamble', { log: s.stderr, p3 });
  s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri: puri, version: 4 },
    contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      text: '#define EXTRA 1\n' }] });
  const p4 = await published(s, puri, (p) => p.version === 4);
  check(builtFor(pre) === 3 && bytesApart(p4).join() === '64' &&
    withCode(p4, 'uncoalesced-global-access')[0].range.start.line === 3,
  'an edit of the #include lines rebuilds the preamble', { log: s.stderr, p4 });

  // A divergent branch: the hover draws which lanes take it, per iteration
  // of the loop around it.
  const lanes = path.join(scratch, 'lanes.cu');
  const lanesText = fs.readFileSync(path.join(tree, 'test', 'fixtures', 'idle-lanes',
    'positives.cu'), 'utf8');
  fs.writeFileSync(lanes, lanesText);
  const luri = pathToFileURL(lanes).href;
  s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: luri, languageId: 'cuda', version: 1, text: lanesText } });
  const lp = await published(s, luri, () => true);
  const branchLine = lanesText.split('\n').findIndex((l) => l.includes('if (tid % (2 * st) == 0)'));
  const idle = withCode(lp, 'idle-lanes').find((x) => x.range.start.line === branchLine);
  check(idle && idle.message.includes('branch body runs at 3.98 of 32 lanes on average'),
    'the idle-lanes finding', lp);
  const hb = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: luri }, position: { line: branchLine, character: 10 } });
  check(hb && hb.contents.value.includes("explain: if 'tid % (2 * st) == 0' in interleaved") &&
    hb.contents.value.includes('  st = 1          X.X.X.X.X.X.X.X.X.X.X.X.X.X.X.X.  16 of 32'),
  'the hover draws the lanes that take the branch', hb);

  // A kernel launched from another file of the project (the example CMake
  // project): the launch in main.cu binds rowSum's cols, as on the command
  // line, through the compile database's files.
  const cm = path.join(scratch, 'cmproj');
  for (const f of ['src/reduce.cu', 'src/main.cu', 'include/matops/matops.cuh',
    'include/matops/transpose.cuh']) {
    fs.mkdirSync(path.dirname(path.join(cm, f)), { recursive: true });
    fs.copyFileSync(path.join(tree, 'examples', 'cmake-project', f), path.join(cm, f));
  }
  fs.mkdirSync(path.join(cm, 'build'));
  fs.writeFileSync(path.join(cm, 'build', 'compile_commands.json'), JSON.stringify(
    ['reduce.cu', 'main.cu'].map((f) => ({
      directory: path.join(cm, 'build'), file: `../src/${f}`,
      arguments: ['clang++', '-x', 'cuda', '-std=c++17', '-I../include', '-c', `../src/${f}`],
    }))));
  const reduce = path.join(cm, 'src', 'reduce.cu');
  const reduceText = fs.readFileSync(reduce, 'utf8');
  const ruri = pathToFileURL(reduce).href;
  s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: ruri, languageId: 'cuda', version: 1, text: reduceText } });
  const rp = await published(s, ruri, () => true);
  const rowLine = reduceText.split('\n').findIndex((l) => l.includes('s += in[r * cols + c]; // BUG'));
  const row = withCode(rp, 'uncoalesced-global-access');
  check(row.length === 1 && row[0].range.start.line === rowLine &&
    row[0].message.includes('adjacent lanes are 4096 bytes apart') &&
    /'cols' = 1024 \(the launch at main\.cu:\d+\)/.test(row[0].message),
  "main.cu's launch binds rowSum's cols", rp);
  check(!rp.diagnostics.some((x) => x.severity === 1), 'the project parses', rp);

  // A header whose kernel template it does not instantiate: analyzed as
  // main.cu, which includes it, instantiates it (transposeTile<float, 32>),
  // with the editor's text of the header.
  const header = path.join(cm, 'include', 'matops', 'transpose.cuh');
  const headerText = fs.readFileSync(header, 'utf8');
  const hlines = headerText.split('\n');
  const huri = pathToFileURL(header).href;
  s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: huri, languageId: 'cuda', version: 1, text: headerText } });
  const hp = await published(s, huri, () => true);
  const readLine = hlines.findIndex((l) => l.includes('tile[threadIdx.x][threadIdx.y]; // BUG'));
  const hs = withCode(hp, 'smem-bank-conflict');
  check(hs.length === 1 && hs[0].range.start.line === readLine &&
    hs[0].range.start.character === hlines[readLine].indexOf('tile[threadIdx.x]') &&
    hs[0].message.includes('32-way bank conflict'), "the header's bank conflict", hp);
  const inst = hs[0].relatedInformation.find((r) => r.message.includes('in kernel instantiation') &&
    r.message.includes('transposeTile<float, 32>'));
  check(inst && inst.location.uri === pathToFileURL(path.join(cm, 'src', 'main.cu')).href,
    'a note points at the instantiation in main.cu', hs[0]);
  const hh = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: huri }, position: { line: readLine, character: 30 } });
  check(hh && hh.contents.value.includes('  wavefront 32 31  .'),
    "the header's hover draws the banks", hh);
  // Padding the tile in the editor, unsaved: the including file's parse sees
  // the new text and the conflict is gone.
  const declLine = hlines.findIndex((l) => l.includes('__shared__ T tile[TILE][TILE];'));
  const declAt = hlines[declLine].indexOf('[TILE];') + '[TILE'.length;
  s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri: huri, version: 2 },
    contentChanges: [{ range: { start: { line: declLine, character: declAt },
      end: { line: declLine, character: declAt } }, text: ' + 1' }] });
  const hp2 = await published(s, huri, (p) => p.version === 2);
  check(withCode(hp2, 'smem-bank-conflict').length === 0, 'the padded header has no conflict', hp2);
  check(fs.readFileSync(header, 'utf8') === headerText, 'the header on disk is untouched');

  // Malformed input: the server answers with JSON-RPC errors and goes on.
  s.proc.stdin.write('Content-Length: 9\r\n\r\n{not json');
  s.proc.stdin.write('Content-Length: 2\r\n\r\n[]');
  await sleep(200);
  check(s.logged.some((m) => /-32700/.test(m) && /message is not JSON/.test(m)),
    'a parse error (-32700) answers the broken message', s.logged);
  check(s.logged.some((m) => /-32600/.test(m) && /a message must be a JSON object/.test(m)),
    'an invalid request error (-32600) answers a non-object', s.logged);
  let err = null;
  try {
    await s.conn.sendRequest('warplint/noSuchMethod', {});
  } catch (e) { err = e; }
  check(err && err.code === ErrorCodes.MethodNotFound, 'unknown method: MethodNotFound', err);
  err = null;
  try {
    await s.conn.sendRequest(HoverRequest.type, { textDocument: {} });
  } catch (e) { err = e; }
  check(err && err.code === ErrorCodes.InvalidParams, 'bad hover params: InvalidParams', err);
  const still = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri }, position: { line: smemLine, character: smemCol } });
  check(still && still.contents.value.includes('wavefront'), 'the server still answers', still);

  // Close: the document's diagnostics are cleared.
  s.published.length = 0;
  s.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  await published(s, uri, (p) => p.diagnostics.length === 0);
  check(true, 'closing clears the diagnostics');

  // Shutdown, then exit: code 0. A request after shutdown is refused.
  const sd = await s.conn.sendRequest(ShutdownRequest.type);
  check(sd === null, 'shutdown answers null', sd);
  err = null;
  try {
    await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } });
  } catch (e) { err = e; }
  check(err && err.code === ErrorCodes.InvalidRequest, 'requests after shutdown are refused', err);
  s.conn.sendNotification(ExitNotification.type);
  const code = await s.exited;
  check(code === 0, 'exit after shutdown: status 0', s.stderr);
  s.conn.dispose();

  // The server wrote nothing next to the sources (docs/security.md).
  const listed = [];
  const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).forEach((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p); else listed.push(path.relative(scratch, p));
  });
  walk(scratch);
  check(JSON.stringify(listed.sort()) === JSON.stringify(['bad.h', 'broken.cu',
    'cmproj/build/compile_commands.json', 'cmproj/include/matops/matops.cuh',
    'cmproj/include/matops/transpose.cuh', 'cmproj/src/main.cu', 'cmproj/src/reduce.cu', 'host.cu',
    'lanes.cu', 'preamble.cu', 'proj/build/compile_commands.json', 'proj/src/strided.cu',
    'stride.cuh', 'transpose.cu']),
  'no file written next to the sources', listed);

  // --- UTF-8, negotiated ---------------------------------------------------------
  const u = startServer([], ['utf-8', 'utf-16']);
  const init8 = await u.init;
  check(init8.capabilities.positionEncoding === 'utf-8', 'utf-8 negotiated', init8);
  u.conn.sendNotification(InitializedNotification.type, {});
  u.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'cuda', version: 1, text: source } });
  const p8 = await published(u, uri, () => true);
  const d8 = withCode(p8, 'smem-bank-conflict')[0];
  const byteCol = Buffer.byteLength(lines[smemLine].slice(0, smemCol), 'utf8');
  check(d8 && d8.range.start.character === byteCol && byteCol === smemCol + 2,
    `utf-8 column ${byteCol}`, d8);
  // An edit in UTF-8 columns: after the emoji, replace 'out' by 'out ' (no
  // change in meaning; the finding moves by one byte).
  const outCol = Buffer.byteLength(lines[smemLine].slice(0, lines[smemLine].indexOf('out')), 'utf8');
  u.conn.sendNotification(DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: { start: { line: smemLine, character: outCol },
      end: { line: smemLine, character: outCol + 3 } }, text: 'out ' }] });
  const p8b = await published(u, uri, (p) => p.version === 2);
  const d8b = withCode(p8b, 'smem-bank-conflict')[0];
  check(d8b && d8b.range.start.character === byteCol + 1, 'a UTF-8 edit lands where meant', p8b);
  // Exit without shutdown: status 1.
  u.conn.sendNotification(ExitNotification.type);
  check(await u.exited === 1, 'exit without shutdown: status 1');
  u.conn.dispose();

  // --- A crash while analyzing --------------------------------------------------
  // WARPLINT_DEBUG_CRASH=<kernel>:<how> crashes the analysis of that kernel on
  // purpose (an abort, a bad address, the stack exhausted). The document says
  // so, the server stays up, and the next run, on a new worker thread (the
  // crashed one's state is not trusted), analyzes the edited text. Under the
  // sanitizers, which own SIGSEGV and the stack's guard, only the abort.
  const crashUri = pathToFileURL(path.join(scratch, 'crash.cu')).href;
  const boom = '__global__ void boom(float *p) { p[threadIdx.x * 32] = 1.f; }\n';
  fs.writeFileSync(path.join(scratch, 'crash.cu'), boom);
  // (What the crashed run had allocated is abandoned with its stack, by
  // design: LeakSanitizer is told not to count it.)
  const sanitized = process.env.ASAN_OPTIONS;
  for (const how of sanitized ? ['abort'] : ['abort', 'segv', 'stack']) {
    const env = { WARPLINT_DEBUG_CRASH: 'boom:' + how };
    if (sanitized) env.ASAN_OPTIONS = sanitized + ':detect_leaks=0';
    const c = startServer([], ['utf-16'], env);
    await c.init;
    c.conn.sendNotification(InitializedNotification.type, {});
    c.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: crashUri, languageId: 'cuda', version: 1, text: boom } });
    const pc = await published(c, crashUri, (p) => p.version === 1);
    check(pc.diagnostics.length === 1 && pc.diagnostics[0].severity === 1 &&
      pc.diagnostics[0].message.includes('warplint crashed while analyzing this file'),
    `${how}: the crashed run is an error on the document`, pc);
    c.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: crashUri, version: 2 },
      contentChanges: [{ text: boom.replace('boom', 'fine') }] });
    const pf = await published(c, crashUri, (p) => p.version === 2);
    check(withCode(pf, 'uncoalesced-global-access').length === 1 &&
      !pf.diagnostics.some((x) => x.severity === 1),
    `${how}: the next run analyzes the edited kernel`, pf);
    check(c.stderr.includes('a run crashed: the analyses continue on a new worker thread'),
      `${how}: a new worker took over`, c.stderr);
    await c.conn.sendRequest(ShutdownRequest.type);
    c.conn.sendNotification(ExitNotification.type);
    check(await c.exited === 0, `${how}: exit after shutdown: status 0`, c.stderr);
    c.conn.dispose();
  }

  console.log(`${checks} passed, 0 failed`);
}

main().catch((e) => {
  console.error('FAIL: ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
