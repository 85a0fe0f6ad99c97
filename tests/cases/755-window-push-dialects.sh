# Issue #26: the SQL of each pushed ω shape in every dialect (--sql-dialect, shown under EXPLAIN
# next to the statement run on DuckDB), over a table and columns named with quotes, brackets,
# backquotes and a semicolon: ROW_NUMBER/RANK over the PER keys and the total order (BY keys, then
# the table's key), LAG with a default, FIRST_VALUE/LAST_VALUE/count/min over running and ROWS
# frames, RANGE frames over a TIMESTAMP (an interval in PostgreSQL's and DuckDB's spelling;
# elsewhere none is claimed exact), sum of INT (exact only where the database adds integers
# without overflow: PostgreSQL, DuckDB, Citus), an INT order (SQLite's shapes: it has no
# TIMESTAMP), and where each stays as it is run: MariaDB's and Redshift's lag take no default, a
# RANGE frame needs NULLS FIRST/LAST (not SQL Server's, MariaDB's or MySQL's), H2 is given no
# window functions.
root=$PWD
RELIX=$root/$RELIX
RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) || { echo "no libduckdb.so"; exit 1; }
export RELIX_LIBDUCKDB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 tests/duckdb/ddb.py "$tmp/d.duckdb" <<'SQL' || exit 1
CREATE TABLE "t;""x" (id BIGINT PRIMARY KEY, "k]""`" VARCHAR, ts TIMESTAMP, n BIGINT, "v w" DOUBLE);
INSERT INTO "t;""x" VALUES (1, 'a', '2026-01-02 09:00:00', 5, 1.5), (2, 'b', '2026-01-02 09:00:00', NULL, 2),
  (3, 'a', '2026-01-02 09:01:00', 7, NULL), (4, 'a', NULL, 1, 0), (5, NULL, '2026-01-02 09:03:00', 3, 4);
SQL
cd "$tmp"
head="D := connect('duckdb:d.duckdb');"
T='D."t;""x"'
K='"k]""`"'
queries=(
  "ω PER $K BY ts, n DESC; row_number() → rn, rank() → r, lag(n, 2, -1) → lg ($T)"
  "ω BY ts NULLS FIRST; first_value(\"v w\") → f, last_value(\"v w\") OVER 2 ROWS PRECEDING → l, count(*) → c, min($K) → m ($T)"
  "ω PER $K BY ts; count(n) OVER DURATION 'PT5M' PRECEDING → c5, max(n) OVER DURATION 'PT5M' PRECEDING → m5 ($T)"
  "ω BY ts; sum(n) OVER 1 ROWS PRECEDING → s ($T)"
  "ω PER $K BY n DESC; dense_rank() → dr, lead(\"v w\", 1) → nx, count(\"v w\") OVER 2 ROWS PRECEDING → c ($T)"
)
for q in "${queries[@]}"; do
  echo "== $q"
  [ "$("$RELIX" -e "$head query { $q };" 2>&1)" = "$("$RELIX" --no-pushdown -e "$head query { $q };" 2>&1)" ] ||
    echo "THE ENGINE DIFFERS"
  for d in postgresql sqlite duckdb mariadb mysql h2 sqlserver db2 citus greenplum redshift spark trino; do
    "$RELIX" --explain --sql-dialect "$d" -e "$head query { $q };" 2>&1 | grep -o ' | as .*' | sed 's/  ~[0-9]* rows$//'
  done
done
