# The sorted-pass ASOF as one window on DuckDB (and in Trino's and Spark SQL's SQL): each quote
# packed whole into one struct, last_value(struct IGNORE NULLS) over (key, time, side, order)
# hands each trade its quote. The trap it avoids: a per-column last_value(bid IGNORE NULLS)
# gives an older quote's bid where the matched quote's bid is NULL (shown below, run on DuckDB
# directly). Every query runs pushed and in the engine (--no-pushdown), on quotes that tie on
# (sym, ts) with NULL bids, and NULL keys and times on both sides: TIES(LAST) and TIES(FIRST),
# forward and strict, INNER, WITHIN at a bound the data hits; each must print the same rows.
root=$PWD
RELIX=$root/$RELIX
RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) || { echo "no libduckdb.so"; exit 1; }
export RELIX_LIBDUCKDB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ddb() { /usr/bin/python3 tests/duckdb/ddb.py "$tmp/d.duckdb" "$@"; }
ddb <<'SQL' || exit 1
CREATE TABLE trades(id INTEGER PRIMARY KEY, sym VARCHAR, ts TIMESTAMP);
INSERT INTO trades VALUES (1, 'A', '2026-01-05 09:00:03'), (2, 'A', '2026-01-05 09:00:05'), (3, 'B', '2026-01-05 09:00:02');
INSERT INTO trades VALUES (4, NULL, '2026-01-05 09:00:09'), (5, 'A', NULL), (6, 'B', '2026-01-05 09:00:00'), (7, 'A', '2026-01-05 09:00:02');
CREATE TABLE quotes(id INTEGER PRIMARY KEY, sym VARCHAR, ts TIMESTAMP, bid DOUBLE, ask DOUBLE);
INSERT INTO quotes VALUES (1, 'A', '2026-01-05 09:00:01', 1.5, 1.6), (2, 'A', '2026-01-05 09:00:02', NULL, 1.7);
INSERT INTO quotes VALUES (3, 'B', '2026-01-05 09:00:02', 2.5, NULL), (4, 'B', '2026-01-05 09:00:02', NULL, 2.7);
INSERT INTO quotes VALUES (5, NULL, '2026-01-05 09:00:01', 9.5, 9.6), (6, 'A', NULL, 8.5, 8.6), (7, 'A', '2026-01-05 09:00:05', NULL, NULL);
SQL
echo "== the trap: per-column last_value(bid IGNORE NULLS), run on DuckDB directly (trade 1 gets quote 1's bid 1.5, not quote 2's NULL)"
ddb --print <<'SQL'
SELECT id, bid FROM (SELECT id, sd, last_value(bid IGNORE NULLS) OVER (PARTITION BY sym ORDER BY ts, sd, qid ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS bid FROM (SELECT id, sym, ts, 1 AS sd, NULL AS qid, NULL AS bid FROM trades UNION ALL SELECT NULL, sym, ts, 0, id, bid FROM quotes WHERE sym IS NOT NULL AND ts IS NOT NULL) AS u) AS w WHERE sd = 1 AND id = 1;
SQL
head="D := connect('duckdb:d.duckdb');"
run() {
  echo "== $1"
  out=$(cd "$tmp" && "$RELIX" -e "$head query { $1 };" 2>&1)
  echo "$out"
  [ "$out" = "$(cd "$tmp" && "$RELIX" --no-pushdown -e "$head query { $1 };" 2>&1)" ] && echo "(the engine prints the same)"
}
q="π T.id, Q.id → qid, Q.bid, Q.ask"
run "$q (D.trades T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts D.quotes Q)"
run "$q (D.trades T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts TIES(FIRST) D.quotes Q)"
run "$q (D.trades T ASOF T.sym = Q.sym ∧ T.ts > Q.ts D.quotes Q)"
run "$q (D.trades T ASOF T.sym = Q.sym ∧ T.ts <= Q.ts D.quotes Q)"
run "$q (D.trades T ASOF INNER T.sym = Q.sym ∧ T.ts >= Q.ts D.quotes Q)"
run "$q (D.trades T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts WITHIN DURATION 'PT1S' D.quotes Q)"
run "π T.id (D.trades T ASOF INNER T.ts < Q.ts D.quotes Q)"
echo "== the statements: DuckDB's run; Trino's and Spark SQL's shown"
s="$head query { π T.id, Q.bid (D.trades T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts WITHIN DURATION 'PT1S' D.quotes Q) };"
(cd "$tmp" && "$RELIX" --explain -e "$s") | grep -o 'PushedSQL.*'
for d in trino spark; do
  (cd "$tmp" && "$RELIX" --explain --sql-dialect "$d" -e "$s") | grep -o ' | as .*'
done
