# DuckDB through libduckdb.so (loaded at run time; tests/duckdb/lib.sh finds or installs it and
# RELIX_LIBDUCKDB names it): a database file made by tests/duckdb/ddb.py, read with every type
# Relix maps, in its primary key's order (else rowid's: insertion order, not the values'), a path
# relative to the script, and the errors: LIST, STRUCT and MAP columns named, values out of
# range, no such table, no such file, a secret in the string, a library that is not there.
root=$PWD
RELIX=$root/$RELIX
RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) || { echo "no libduckdb.so"; exit 1; }
export RELIX_LIBDUCKDB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 tests/duckdb/ddb.py "$tmp/d.db" <<'SQL' || exit 1
CREATE TYPE mood AS ENUM ('sad', 'ok');
CREATE TABLE trades(id INTEGER PRIMARY KEY, sym VARCHAR, ts TIMESTAMPTZ, qty SMALLINT);
INSERT INTO trades VALUES (3, 'B', '2026-01-01 10:00:05+00', 20), (1, 'A', '2026-01-01 12:00:03+02', 10), (2, 'A', NULL, 5);
CREATE TABLE kinds(b BOOLEAN, i8 TINYINT, u4 UINTEGER, ub UBIGINT, h HUGEINT, f FLOAT, d DOUBLE, dec DECIMAL(18,3),
  wide DECIMAL(38,10), s VARCHAR, m mood, dt DATE, t TIME, ts TIMESTAMP, tsz TIMESTAMPTZ, ts_ms TIMESTAMP_MS,
  ts_ns TIMESTAMP_NS, iv INTERVAL);
INSERT INTO kinds VALUES (true, -128, 4294967295, 9223372036854775807, -9223372036854775808, 0.1, -0.0, -1234.567,
  12345678901234567890.0123456789, 'a longer string than twelve bytes, é', 'ok', '2026-03-01', '23:59:59.999999',
  '1969-12-31 23:59:59.5', '2026-06-01 00:00:00+05:30', '2026-01-01 00:00:00.123', '2026-01-01 00:00:00.123456',
  INTERVAL '1 month 2 days 3.5 seconds');
INSERT INTO kinds VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '', 'sad', NULL, NULL, NULL, NULL, NULL, NULL,
  INTERVAL '-36 hours');
CREATE TABLE heap(v VARCHAR, n BIGINT);
INSERT INTO heap VALUES ('z', 3), ('a', 1), ('m', 2);
INSERT INTO heap SELECT 'r' || i, i FROM range(10, 5000) AS r(i);
CREATE TABLE big_u(ub UBIGINT);
INSERT INTO big_u VALUES (1), (18446744073709551615);
CREATE TABLE ns(t TIMESTAMP_NS);
INSERT INTO ns VALUES ('2026-01-01 00:00:00.000000001');
CREATE TABLE nested(id INTEGER, l INTEGER[]);
CREATE TABLE st(id INTEGER, s STRUCT(a INTEGER));
CREATE TABLE mp(id INTEGER, m MAP(VARCHAR, INTEGER));
CREATE VIEW v AS SELECT sym, qty FROM trades;
SQL
cd "$tmp"
cat > q.rx <<'RX'
D := connect('duckdb:d.db');
query { D.trades };
query { D.kinds };
query { TOP 4 (D.heap) };
query { γ v = 'a'; count(*) → n, sum(n) → s (D.heap) };
query { D.v };
RX
"$RELIX" q.rx; echo "exit $?"
for t in big_u ns nested st mp missing; do
  "$RELIX" -e "D := connect('duckdb:d.db'); query { D.$t };"; echo "exit $?"
done
"$RELIX" -e "D := connect('duckdb:nope.db'); query { D.x };" 2>&1 | sed "s|$tmp|TMP|g"
"$RELIX" -e "D := connect('duckdb:d.db?password=hunter2'); query { D.x };"; echo "exit $?"
RELIX_LIBDUCKDB=$tmp/none/libduckdb.so "$RELIX" -e "D := connect('duckdb:d.db'); query { D.trades };" 2>&1 | sed "s|$tmp|TMP|g"
"$RELIX" -e "D := connect('duckdb::memory:'); query { D.x };"; echo "exit $?"
