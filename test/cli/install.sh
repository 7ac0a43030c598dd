# `cmake --install` puts a relocatable warplint under a prefix, and the
# Debian package installs the same files: each runs from outside the source
# and build trees, with the bundled headers found next to it.
source "$(dirname "$0")/lib.bash"
BUILD=$(dirname "$WARPLINT")
SRC=$(cd "$(dirname "$0")/../.." && pwd)
cp "$SRC/examples/transpose.cu" "$TMP/transpose.cu"

cmake --install "$BUILD" --prefix "$TMP/prefix" >"$TMP/install.log" 2>&1 ||
  fail "cmake --install failed: $(cat "$TMP/install.log")"
# The prefix can move.
mv "$TMP/prefix" "$TMP/moved"
[ -f "$TMP/moved/share/warplint/include-stub/warplint_cuda.h" ] ||
  fail "bundled headers not installed"
cd "$TMP" || fail "no $TMP"
WARPLINT="$TMP/moved/bin/warplint"
run installed --no-cuda-toolkit "$TMP/transpose.cu"
expect_rc installed 0
expect_in installed out "[uncoalesced-global-access]"
expect_in installed out "[smem-bank-conflict]"

# It reads the headers next to it, not the source tree's: without them it
# says so and stops.
mv "$TMP/moved/share/warplint/include-stub/warplint_cuda.h" "$TMP/aside.h"
run headers_gone --no-cuda-toolkit "$TMP/transpose.cu"
expect_rc headers_gone 2
expect_in headers_gone err "bundled CUDA headers not found in '$TMP/moved/share/warplint/include-stub'"

# The Debian package: built with cpack, unpacked into a scratch root.
if command -v dpkg-deb >/dev/null; then
  (cd "$TMP" && cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$TMP/deb" \
     >"$TMP/cpack.log" 2>&1) || fail "cpack failed: $(cat "$TMP/cpack.log")"
  deb=$(ls "$TMP"/deb/warplint_*.deb)
  dpkg-deb -f "$deb" Depends | grep -q "libclang-cpp22" ||
    fail "package does not depend on libclang-cpp22"
  # Its dependencies resolve to Debian's packages: apt would install it
  # (simulated: nothing on this machine changes).
  if command -v apt-get >/dev/null; then
    apt-get install -s "$deb" >"$TMP/apt.log" 2>&1 ||
      fail "apt-get cannot install the package: $(tail -5 "$TMP/apt.log")"
    grep -q "^Inst warplint" "$TMP/apt.log" ||
      fail "apt-get would not install warplint: $(tail -5 "$TMP/apt.log")"
    checks=$((checks + 1))
  fi
  dpkg-deb -x "$deb" "$TMP/root"
  WARPLINT="$TMP/root/usr/bin/warplint"
  run deb --no-cuda-toolkit "$TMP/transpose.cu"
  expect_rc deb 0
  expect_in deb out "[uncoalesced-global-access]"
fi
done_checks
