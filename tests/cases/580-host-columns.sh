# docs/embedding.md's two examples, as a user runs them: examples/host_columns.c (C arrays
# registered in place, an AS-OF join, results column at a time) built against the library,
# and examples/pandas_asof.py (the same join on DataFrames through the Python module).
set -u
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build=$(dirname "$RELIX")
san=
case "$build" in *san*) san="-fsanitize=address,undefined" ;; esac
echo "== examples/host_columns.c"
cc -std=c11 -Wall -Wextra $san -Iinclude -o "$tmp/host" examples/host_columns.c "$build/librelix.a" \
  $(make -s --no-print-directory print-libs) || exit 1
"$tmp/host" | sed 's/^relix [0-9.]*$/relix N/'; echo "exit $?"
echo "== examples/pandas_asof.py"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
lib=$root/$build/librelix.so.0
pre=
if nm -D "$lib" 2>/dev/null | grep -q __asan_init; then
  pre="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS=detect_leaks=0
fi
LD_PRELOAD=$pre PYTHONPATH=$root/python RELIX_LIB=$lib "$py" examples/pandas_asof.py; echo "exit $?"
