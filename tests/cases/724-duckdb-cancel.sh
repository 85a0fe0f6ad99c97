# Ctrl-C stops a running DuckDB statement (duckdb_interrupt through db_cancel_running): relix
# reads a view whose query would run for many minutes, gets SIGINT once, and ends within a few
# seconds with exit 130 and DuckDB's interruption reported; without the interrupt it would wait
# for the statement.
root=$PWD
RELIX=$root/$RELIX
RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) || { echo "no libduckdb.so"; exit 1; }
export RELIX_LIBDUCKDB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 tests/duckdb/ddb.py "$tmp/d.db" <<'SQL' || exit 1
CREATE VIEW slow AS SELECT sum(i) AS id FROM range(1000000000000) AS r(i);
SQL
cd "$tmp"
"$RELIX" -e "D := connect('duckdb:d.db'); query { D.slow };" > out 2> err &
pid=$!
sleep 3
start=$(date +%s)
kill -INT $pid
for i in $(seq 1 200); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
if kill -0 $pid 2>/dev/null; then
  echo "still running 20 s after SIGINT"
  kill -KILL $pid
fi
wait $pid
echo "exit $?"
[ $(( $(date +%s) - start )) -le 15 ] && echo "stopped within 15 s"
cat out
sed 's/^\(.*error: \).*\(nterrupt\).*$/\1... \2 .../' err | head -1
