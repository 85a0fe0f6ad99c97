# The pushdown differential (tests/diff/pushdown.py) on DuckDB through libduckdb: random trees of
# every pushable operator over DuckDB tables (BIGINT, INTEGER, DOUBLE, VARCHAR, VARCHAR COLLATE
# NOCASE, BOOLEAN, TIMESTAMPTZ, DATE, TIME, INTERVAL, a table and columns with hostile names),
# and on the first two seeds every ASOF and IJOIN case of the spec, pushed and in the engine:
# the same bytes, and EXPLAIN showing each query pushed (or, for the constructs that must not
# push, run in the engine). With cases 060 (SQLite) and 061 (PostgreSQL) every ASOF and IJOIN
# case runs four ways. A few seeds here; more by hand:
#   RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) tests/diff/pushdown.py build/relix /tmp/x.db duckdb:/tmp/x.duckdb 40 40
root=$PWD
RELIX=$root/$RELIX
RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) || { echo "no libduckdb.so"; exit 1; }
export RELIX_LIBDUCKDB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$root/tests/diff/pushdown.py" "$RELIX" "$tmp/other.db" "duckdb:$tmp/diff.duckdb" 3 30
# what the differential found: DuckDB's upper and lower map every letter ('é' to 'É'), the
# engine's only ASCII ones, so they stay in the engine there
/usr/bin/python3 tests/duckdb/ddb.py "$tmp/case.duckdb" <<'SQL' || exit 1
CREATE TABLE t(id INTEGER PRIMARY KEY, k VARCHAR);
INSERT INTO t VALUES (1, 'é'), (2, 'a'), (3, 'Ä');
SQL
q="D := connect('duckdb:case.duckdb'); query { π id, upper(k) → u, lower(k) → l (D.t) };"
cd "$tmp"
"$RELIX" -e "$q"
[ "$("$RELIX" -e "$q")" = "$("$RELIX" --no-pushdown -e "$q")" ] && echo "(the engine prints the same)"
"$RELIX" --explain -e "$q" | sed -n '/^Physical plan/,$p'
