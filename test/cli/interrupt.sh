# SIGINT and SIGTERM end a run with a word on stderr and the shell's codes
# for them (130, 143), never silently. warplint is stopped while it waits
# for a FIFO that no one writes.
source "$(dirname "$0")/lib.bash"
mkfifo "$TMP/never.cu"
python3 - "$WARPLINT" "$TMP/never.cu" <<'PY' || fail "interrupt: see above"
import signal, subprocess, sys, time
warplint, fifo = sys.argv[1], sys.argv[2]
for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
    p = subprocess.Popen([warplint, fifo], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                          signal.SIG_DFL))
    time.sleep(1)
    p.send_signal(sig)
    out, err = p.communicate(timeout=30)
    if p.returncode != code or 'warplint: interrupted' not in err:
        sys.exit('%s: exit %d, stderr %r' % (sig.name, p.returncode, err))
    print('%s: exit %d, %s' % (sig.name, code, err.strip()))
PY
checks=$((checks + 2))
done_checks
