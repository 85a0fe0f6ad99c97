# relix.dask.read_csv: a CSV file cut into blocks at record boundaries that respect quoted
# fields and parsed by Relix's own reader per block gives Relix's rows whatever the block size;
# a value of another type after the sample is an error naming the file's line; an ASOF over two
# files read so equals relix.query's (tests/python/test_dask_read_csv.py, on Dask's local
# threads: the reading runs the same functions in a worker).
set -u
root=$PWD
py=/usr/bin/python3
"$py" -c 'import dask.dataframe, pandas' 2>/dev/null || { echo "python3-dask is missing (scripts/deps.sh test installs it)"; exit 1; }
lib=$root/$(dirname "$RELIX")/librelix.so.0
[ -f "$lib" ] || { echo "no $lib (make builds it)"; exit 1; }
pre=
if nm -D "$lib" 2>/dev/null | grep -q __asan_init; then
  pre="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PYTHONPATH=$root/python RELIX_LIB=$lib
LD_PRELOAD=$pre timeout 600 "$py" "$root/tests/python/test_dask_read_csv.py" "$tmp" > "$tmp/out" 2> "$tmp/err"
rc=$?
echo "exit $rc"
sed "s|$tmp/||g" "$tmp/out"
[ "$rc" -ne 0 ] && sed "s|$tmp/||g" "$tmp/err"
exit 0
