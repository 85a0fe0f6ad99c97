#!/usr/bin/env bash
# The test runner: unit test binaries, then every golden case in tests/cases.
#
# A golden case is tests/cases/NNN-topic.rx with its expected output in NNN-topic.expected:
# standard output, then (when not empty) a line "--- stderr" and standard error, then (when not
# zero) a line "--- exit N". The first line of a case may be "-- args: ..." with options for
# relix (for instance --format csv or --explain). Cases run from the repository root, so paths
# in messages are stable.
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
for rx in tests/cases/*.rx; do
  name=$(basename "$rx" .rx)
  [ -n "$pattern" ] && [[ "$name" != *"$pattern"* ]] && continue
  exp="tests/cases/$name.expected"
  args=()
  first=$(head -n 1 "$rx")
  if [[ "$first" == "-- args:"* ]]; then
    read -r -a args <<< "${first#-- args:}"
  fi
  stdin=/dev/null
  [ -f "tests/cases/$name.stdin" ] && stdin="tests/cases/$name.stdin"
  if [ -f "tests/cases/$name.sh" ]; then
    RELIX="$RELIX" bash "tests/cases/$name.sh" > "$tmp/out" 2> "$tmp/err" < "$stdin"
  else
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
