# warplint --lsp end to end through the client library of VS Code's language
# clients (npm's vscode-languageserver-protocol over vscode-jsonrpc): the
# diagnostics of open, change and save (rule, range in UTF-16 and negotiated
# UTF-8, figures, rule page, notes), hovers with the --explain picture, stale
# runs dropped, the precompiled preamble (reused below the #includes, rebuilt
# when they or a header change, its header messages kept), the compile
# database found as clangd finds it, a file that
# does not parse, malformed messages, shutdown and exit (test/lsp/client.js).
source "$(dirname "$0")/lib.bash"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "SKIP: node and npm are not installed (scripts/setup.sh installs them)"
  exit 77
fi
# The client's packages, from the lock file, in the build directory (never in
# the source tree); installed again only when the lock file changes.
client="$(cd "$(dirname "$WARPLINT")" && pwd)/lsp-client"
mkdir -p "$client"
if ! cmp -s "$TESTDIR/lsp/package-lock.json" "$client/package-lock.json" ||
   [ ! -d "$client/node_modules/vscode-languageserver-protocol" ]; then
  cp "$TESTDIR/lsp/package.json" "$TESTDIR/lsp/package-lock.json" "$client/"
  if ! (cd "$client" && npm ci --no-audit --no-fund --loglevel=error) >"$TMP/npm.log" 2>&1; then
    rm -f "$client/package-lock.json"
    echo "SKIP: npm ci could not install the client's packages:"
    cat "$TMP/npm.log"
    exit 77
  fi
fi
cp "$TESTDIR/lsp/client.js" "$client/"
timeout 300 node "$client/client.js" "$WARPLINT" "$TMP/work" "$TESTDIR/.." ||
  fail "the vscode-languageserver-protocol client's checks failed"
