# Issue #26: time_bucket and date_bin pushed down. A TIMESTAMP by a fixed width, without a zone,
# from an origin whose buckets are those laid from 0001-01-01T00:00:00Z (the default Monday
# 2000-01-03 is one for every width that divides a week) is PostgreSQL's date_bin and DuckDB's
# time_bucket from 0001-01-01, so no time in Relix's range precedes the origin (PostgreSQL 14's
# date_bin rounds toward the origin there) and no bucket leaves the range; in a π, in γ over
# buckets and in a σ, on DuckDB in-process and as every dialect would get it (--sql-dialect),
# over a table and column with hostile names, the first and last instants of the range among the
# rows. Widths in months, a zone, an origin off those buckets and a DATE stay in the engine.
root=$PWD
RELIX=$root/$RELIX
RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) || { echo "no libduckdb.so"; exit 1; }
export RELIX_LIBDUCKDB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 tests/duckdb/ddb.py "$tmp/d.duckdb" <<'SQL' || exit 1
CREATE TABLE "b;""x" (id BIGINT PRIMARY KEY, "t s" TIMESTAMP, q BIGINT, d DATE);
INSERT INTO "b;""x" VALUES (1, '2026-01-02 09:07:13.5', 10, '2026-01-02'), (2, '1969-12-31 23:59:59.999999', 20, '1969-12-31'),
  (3, '0001-01-01 00:00:00', 30, '0001-01-01'), (4, NULL, 40, NULL), (5, '9999-12-31 23:59:59.999999', 50, '9999-12-31'),
  (6, '2026-01-02 09:04:59.999999', 60, '2026-01-05');
SQL
cd "$tmp"
head="D := connect('duckdb:d.duckdb');"
T='D."b;""x"'
queries=(
  "π id, time_bucket(DURATION 'PT5M', \"t s\") → b5, time_bucket(DURATION 'P7D', \"t s\") → wk ($T)"
  "γ time_bucket(DURATION 'PT5M', \"t s\") → b; count(*) → n, max(q) → q (σ q ≠ 40 ($T))"
  "σ date_bin(DURATION 'PT1H', \"t s\", TIMESTAMP '2026-01-01T00:00:00Z') = TIMESTAMP '2026-01-02T09:00:00Z' ($T)"
  "π id, time_bucket(DURATION 'P1M', \"t s\") → m ($T)"
  "π id, time_bucket(DURATION 'PT1H', \"t s\", 'Asia/Kolkata') → h (σ id ≠ 3 ($T))"
  "π id, date_bin(DURATION 'PT1H', \"t s\", TIMESTAMP '2026-01-01T00:30:00Z') → h (σ id ≠ 3 ($T))"
  "π id, time_bucket(DURATION 'P7D', d) → wk ($T)"
)
for q in "${queries[@]}"; do
  echo "== $q"
  a=$("$RELIX" -e "$head query { $q };" 2>&1) b=$("$RELIX" --no-pushdown -e "$head query { $q };" 2>&1)
  echo "$a"
  [ "$a" = "$b" ] && echo "(the engine prints the same)" || printf 'THE ENGINE DIFFERS:\n%s\n' "$b"
  "$RELIX" --explain -e "$head query { $q };" 2>&1 | sed -n '/^Physical plan/,$p' | sed -n '2,3p' | cut -c1-60
  for d in postgresql sqlite duckdb mariadb mysql h2 sqlserver db2 citus greenplum redshift spark trino; do
    "$RELIX" --explain --sql-dialect "$d" -e "$head query { $q };" 2>&1 | grep -o ' | as .*' | sed 's/  ~[0-9]* rows$//'
  done
done
