#!/usr/bin/env bash
# The test runner: unit test binaries, then every golden case in tests/cases.
#
# A golden case is named NNN-topic (three digits, a dash, words joined by dashes) and is found by
# either of two files in tests/cases:
#   NNN-topic.rx  a script; the case is `relix NNN-topic.rx`. Its first line may be
#                 "-- args: ..." with options for relix (for instance --format csv or --explain).
#   NNN-topic.sh  a bash script that drives the case (it gets $RELIX, the binary to test); when
#                 it is present it is what runs, and a NNN-topic.rx beside it exists only when
#                 the .sh reads it.
# NNN-topic.stdin, when present, is the case's standard input (otherwise /dev/null). The
# expected output is NNN-topic.expected: standard output, then (when not empty) a line
# "--- stderr" and standard error, then (when not zero) a line "--- exit N". Cases run from the
# repository root, so paths in messages are stable. A .rx or .sh whose name is not NNN-topic
# is a failed case, so that a misnamed case is not silently skipped.
#
#   tests/run.sh              run everything (BUILD=build-san for the sanitizer build)
#   tests/run.sh --update     rewrite the .expected files from the current output (review the
#                             diff before committing: the expected files are the interface)
#   tests/run.sh PATTERN      only cases whose name contains PATTERN
#
# The last line is "N passed, N failed"; the exit status is non-zero when anything failed.
set -u
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
RELIX="$BUILD/relix"
update=0
pattern=""
for a in "$@"; do
  case "$a" in
    --update) update=1 ;;
    *) pattern="$a" ;;
  esac
done
passed=0
failed=0
failures=()

if [ -z "$pattern" ]; then
  for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    if out=$("$t" 2>&1); then
      passed=$((passed + 1))
      printf '  unit  %-40s %s\n' "$(basename "$t")" "$(printf '%s\n' "$out" | tail -n 1)"
    else
      failed=$((failed + 1))
      failures+=("unit $(basename "$t")")
      printf '%s\n' "$out" | tail -n 20
    fi
  done
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every case name once, in byte order, whether it has a .rx, a .sh or both.
mapfile -t names < <(
  for f in tests/cases/*.rx tests/cases/*.sh; do
    [ -f "$f" ] && basename "${f%.*}"
  done | LC_ALL=C sort -u
)
for name in "${names[@]}"; do
  [ -n "$pattern" ] && [[ "$name" != *"$pattern"* ]] && continue
  if ! [[ "$name" =~ ^[0-9]{3}-[a-z0-9]+(-[a-z0-9]+)*$ ]]; then
    failed=$((failed + 1))
    failures+=("$name")
    echo "FAIL $name"
    echo "  (tests/cases/$name: a case is named NNN-topic, for instance 123-csv-quotes)"
    continue
  fi
  rx="tests/cases/$name.rx"
  exp="tests/cases/$name.expected"
  stdin=/dev/null
  [ -f "tests/cases/$name.stdin" ] && stdin="tests/cases/$name.stdin"
  if [ -f "tests/cases/$name.sh" ]; then
    RELIX="$RELIX" bash "tests/cases/$name.sh" > "$tmp/out" 2> "$tmp/err" < "$stdin"
  else
    args=()
    first=$(head -n 1 "$rx")
    if [[ "$first" == "-- args:"* ]]; then
      read -r -a args <<< "${first#-- args:}"
    fi
    "$RELIX" "${args[@]}" "$rx" > "$tmp/out" 2> "$tmp/err" < "$stdin"
  fi
  rc=$?
  {
    cat "$tmp/out"
    if [ -s "$tmp/err" ]; then echo "--- stderr"; cat "$tmp/err"; fi
    if [ "$rc" -ne 0 ]; then echo "--- exit $rc"; fi
  } > "$tmp/actual"
  if [ "$update" = 1 ]; then
    cp "$tmp/actual" "$exp"
    passed=$((passed + 1))
    continue
  fi
  if [ -f "$exp" ] && cmp -s "$tmp/actual" "$exp"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "FAIL $name"
    if [ -f "$exp" ]; then diff -u "$exp" "$tmp/actual" | head -n 40; else echo "  (no $exp)"; fi
  fi
done
if [ "${#failures[@]}" -gt 0 ]; then
  echo "failed: ${failures[*]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
