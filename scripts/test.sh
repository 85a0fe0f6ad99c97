#!/usr/bin/env bash
# Builds everything and runs the whole test suite twice: with the optimized build and under
# AddressSanitizer + UndefinedBehaviorSanitizer (any report fails), then a short run of the
# libFuzzer targets (tests/fuzz/run.sh). Installs what it needs.
# The last line is the total: "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
scripts/deps.sh test || exit 1
total_pass=0
total_fail=0
run_suite() {
  local label=$1; shift
  echo "== $label"
  if ! make -s -j2 "$@" all unit; then
    echo "build failed ($label)"
    total_fail=$((total_fail + 1))
    return
  fi
  local out
  out=$(BUILD=$BUILD_DIR ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98 tests/run.sh 2>&1)
  printf '%s\n' "$out" | grep -v '^[0-9]* passed, [0-9]* failed$'
  local line p f
  line=$(printf '%s\n' "$out" | tail -n 1)
  p=$(printf '%s' "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
  f=$(printf '%s' "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
  if [ -z "$p" ]; then p=0; f=1; fi
  echo "$label: $p passed, $f failed"
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
}
BUILD_DIR=build run_suite "optimized build"
BUILD_DIR=build-san run_suite "sanitizer build (ASan + UBSan)" SAN=1
# A short bounded fuzzing run (tests/fuzz/run.sh: every target for 20 s, with its seed corpus
# and every past reproducer), counted as one test.
echo "== fuzzing (20 s per target)"
if FUZZ_SECONDS=20 tests/fuzz/run.sh; then
  echo "fuzzing: 1 passed, 0 failed"
  total_pass=$((total_pass + 1))
else
  echo "fuzzing: 0 passed, 1 failed"
  total_fail=$((total_fail + 1))
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
