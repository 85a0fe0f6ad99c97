# docs/embedding.md's prepared-query and Arrow example as a user builds it
# (examples/prepared_arrow.c against the static library), and the C API's programs under
# valgrind: that example, examples/host_columns.c, and the unit tests of prepared queries and
# of the Arrow interface (test_arrow with 100,000 rows instead of 10M), each with no memory
# error and no leak (--error-exitcode). The sanitizer build checks the same with ASan instead
# (valgrind cannot run its programs).
set -u
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build=$(dirname "$RELIX")
san=
case "$build" in *san*) san="-fsanitize=address,undefined" ;; esac
libs=$(make -s --no-print-directory print-libs)
for ex in prepared_arrow host_columns; do
  cc -std=c11 -Wall -Wextra $san -Iinclude -o "$tmp/$ex" "examples/$ex.c" "$build/librelix.a" $libs || exit 1
done
echo "== examples/prepared_arrow.c"
"$tmp/prepared_arrow"; echo "exit $?"
if [ -n "$san" ]; then
  # ASan and LeakSanitizer instead of valgrind
  n=0
  for p in "$tmp/prepared_arrow" "$tmp/host_columns" "$build/tests/test_prepare" "$build/tests/test_arrow 100000"; do
    if $p > /dev/null 2>"$tmp/err"; then n=$((n + 1)); else echo "FAILED under ASan: ${p#$tmp/}"; cat "$tmp/err"; fi
  done
  echo "== valgrind: $n programs clean"
  exit 0
fi
command -v valgrind > /dev/null || { echo "valgrind is missing (scripts/deps.sh test installs it)"; exit 1; }
n=0
for p in "$tmp/prepared_arrow" "$tmp/host_columns" "$build/tests/test_prepare" "$build/tests/test_arrow 100000"; do
  valgrind -q --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --show-leak-kinds=definite,indirect $p > /dev/null 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 0 ]; then echo "FAILED under valgrind (exit $rc): ${p#$tmp/}"; cat "$tmp/err"; else n=$((n + 1)); fi
done
echo "== valgrind: $n programs clean"
