# relix.query's AS-OF join gives pandas.merge_asof's rows on 1M random rows a side with many
# rows per symbol, tied quote timestamps, exact matches, quotes without a symbol, NaN, NaT, a
# zoned timestamp and NULL text, the symbols crossing as strings and as Categoricals and coming
# back as objects, Categoricals and numpy arrays (tests/python/test_asof_rows.py). Under the
# sanitizer build the instrumented library is loaded with the sanitizer runtimes preloaded.
set -u
root=$PWD
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
"$py" -c 'import numpy, pandas' 2>/dev/null || { echo "python3-numpy and python3-pandas are missing (scripts/deps.sh test installs them)"; exit 1; }
lib=$root/$(dirname "$RELIX")/librelix.so.0
[ -f "$lib" ] || { echo "no $lib (make builds it)"; exit 1; }
pre=
rows=1000000
if nm -D "$lib" 2>/dev/null | grep -q __asan_init; then
  pre="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99
  rows=200000   # the instrumented build is several times slower
fi
LD_PRELOAD=$pre PYTHONPATH=$root/python RELIX_LIB=$lib "$py" "$root/tests/python/test_asof_rows.py" "$rows" 2>&1
echo "exit $?"
