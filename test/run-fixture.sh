#!/usr/bin/env bash
# Runs one fixture through warplint in clang's -verify mode: every
# expected-warning / expected-remark in the file must appear, and nothing else
# may (notes are checked only where a fixture asks for them).
# A line "// warplint-args: ..." adds options; only the rule named by the
# fixture's folder runs, unless those options name --rules. The fixture runs twice: with the
# CUDA toolkit when there is one, and with the bundled header (--no-cuda-toolkit).
set -u
warplint=$1
fixture=$2
args=$(sed -n 's|^// warplint-args: *||p' "$fixture" | head -n 1)
# A fixture tests the rule its folder is named after, unless it says otherwise.
case "$args" in
*--rules=*) ;;
*) args="$args --rules=$(basename "$(dirname "$fixture")")" ;;
esac
verify=(--extra-arg=-Xclang --extra-arg=-verify
        --extra-arg=-Xclang --extra-arg=-verify-ignore-unexpected=note)
status=0
modes=("--no-cuda-toolkit")
[ -f /usr/local/cuda/include/cuda_runtime.h ] && modes+=("")
for mode in "${modes[@]}"; do
  # shellcheck disable=SC2086
  if ! out=$("$warplint" $mode $args "${verify[@]}" "$fixture" 2>&1); then
    echo "FAIL (${mode:-toolkit}): $fixture"
    echo "$out"
    status=1
  fi
done
exit $status
