# Parquet files Relix writes (query { ... } into parquet(...), every codec, small row groups,
# every Relix type but DURATION, NULLs, dictionary and plain text; also a run that streams) read back by DuckDB and by
# Polars give the values Relix wrote, cell for cell, and read back by Relix give the same
# result as the query that wrote them.
root=$PWD
RELIX=$root/$RELIX
tests/parquet/peers.sh || { echo "the peers (node, DuckDB, Polars) are missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/in.csv" <<'PY'
import sys
rows = ["id,big,f,s,t,ok,d,ts,tm"]
syms = ["alpha", "beta", "", "x,y \"q\"", "δέλτα"]
for i in range(2500):
    big = ["9223372036854775807", "-9223372036854775808", str(i * 1000003 - 99999)][i % 3] if i % 11 else ""
    f = ["-0.0", "1e300", "5e-324", "0.1", str(i / 7)][i % 5] if i % 13 else ""
    s = '"%s"' % syms[i % 5].replace('"', '""') if i % 9 else ""
    t = "text %d %s" % (i, "w" * (i % 17))
    ok = ["true", "false", ""][i % 3]
    d = "%04d-%02d-%02d" % (1 + i * 3 % 9999, 1 + i % 12, 1 + i % 28) if i % 4 else ""
    ts = "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ" % (1900 + i % 300, 1 + i % 12, 1 + i % 28, i % 24, i % 60, i * 7 % 60, i * 7919 % 1000000) if i % 6 else ""
    tm = "%02d:%02d:%02d.%03d" % (i % 24, i * 7 % 60, i % 60, i % 1000) if i % 5 else ""
    rows.append(",".join([str(i), big, f, s, t, ok, d, ts, tm]))
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
cd "$tmp"
cat > w.rx <<'RX'
T := csv('in.csv', types => 's TEXT');
query { T } into parquet('zstd.parquet');
query { T } into parquet('snappy.parquet', compression => 'snappy', row_group_size => 1000);
query { T } into parquet('gzip.parquet', compression => 'gzip', row_group_size => 999);
query { T } into parquet('none.parquet', compression => 'none', row_group_size => 1);
query { σ id < 0 (T) } into parquet('empty.parquet');
RX
"$RELIX" w.rx; echo "exit $?"
# run chunk by chunk, the file written a chunk at a time
"$RELIX" --stream -e "T := csv('in.csv', types => 's TEXT'); query { σ id >= 0 (T) } into parquet('streamed.parquet', row_group_size => 700);"; echo "exit $?"
"$RELIX" -f jsonl -e "T := csv('in.csv', types => 's TEXT'); query { T };" > want.jsonl
"$RELIX" -f jsonl -e "T := csv('in.csv', types => 's TEXT'); query { σ id < 0 (T) };" > empty.jsonl
for f in zstd snappy gzip none streamed empty; do
    w=want.jsonl
    [ "$f" = empty ] && w=empty.jsonl
    "$RELIX" -f jsonl -e "P := parquet('$f.parquet'); query { P };" > "$f.jsonl"
    cmp -s "$f.jsonl" "$w" && echo "$f.parquet: Relix reads back what it wrote" || echo "$f.parquet: Relix reads back something else"
    node "$root/tests/parquet/oracle.mjs" check "$f.parquet" "$w"
    node "$root/tests/parquet/oracle.mjs" polars "$f.parquet" "$w" | sed 's/$/ (polars)/'
done
