# The Python module (python/relix) over the shared library: tests/python/test_relix.py runs an
# AS-OF join of two 1M-row DataFrames through relix.query and compares it with
# pandas.merge_asof row for row, and checks types, NULLs, NaT, time zones and errors both
# ways. Under the sanitizer build the instrumented library is loaded into Python with the
# sanitizer runtimes preloaded (leak checking off: the interpreter keeps its own memory).
set -u
root=$PWD
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
"$py" -c 'import numpy, pandas' 2>/dev/null || { echo "python3-numpy and python3-pandas are missing (scripts/deps.sh test installs them)"; exit 1; }
lib=$root/$(dirname "$RELIX")/librelix.so.0
[ -f "$lib" ] || { echo "no $lib (make builds it)"; exit 1; }
pre=
if nm -D "$lib" 2>/dev/null | grep -q __asan_init; then
  pre="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows=1000000
[ -n "$pre" ] && rows=200000   # the instrumented build is several times slower
LD_PRELOAD=$pre PYTHONPATH=$root/python RELIX_LIB=$lib "$py" "$root/tests/python/test_relix.py" "$rows" > "$tmp/out" 2>&1
echo "exit $?"
sed -E 's/^asof [0-9]+ x [0-9]+: [0-9]+ unmatched, .*/asof: rows as merge_asof/' "$tmp/out"
# installed without the repository: make install-python into a folder of its own
PYTHON=$py PYTHON_SITE="$tmp/site" BUILD=$(dirname "$RELIX") scripts/install-python.sh > /dev/null || echo "install failed"
(cd "$tmp" && env -u RELIX_LIB LD_PRELOAD="$pre" PYTHONPATH="$tmp/site" "$py" -c 'import relix, numpy; print("installed:", relix.version().count("."), relix.query("query { γ sum(x) → s (A) };", as_numpy=True, A={"x": numpy.arange(10)})["s"][0])')
