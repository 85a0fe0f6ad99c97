# Issue #26: ω pushed down to DuckDB in-process (libduckdb) gives the bytes the engine gives:
# tests/diff/window_push.py's random ω queries (as case 753 runs them on PostgreSQL) pushed and
# with --no-pushdown, each pushed whole exactly where DuckDB has an exact form of every function
# in it (not avg of INT, whose HUGEINT sum DuckDB converts to a double its own way, nor a RANGE
# frame over an INT order, whose bound may overflow there). Then the SQL of the forms.
root=$PWD
RELIX=$root/$RELIX
RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) || { echo "no libduckdb.so"; exit 1; }
export RELIX_LIBDUCKDB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$root/tests/diff/window_push.py" "$RELIX" "duckdb:$tmp/w.duckdb" 25 20 || exit 1
/usr/bin/python3 tests/duckdb/ddb.py "$tmp/case.duckdb" <<'SQL' || exit 1
CREATE TABLE "t;""x" (id BIGINT PRIMARY KEY, "s y" VARCHAR, ts TIMESTAMP, n BIGINT);
INSERT INTO "t;""x" VALUES (1, 'a', '2026-01-02 09:00:00', 5), (2, 'b', '2026-01-02 09:00:00', NULL),
  (3, 'a', '2026-01-02 09:01:00', 7), (4, 'a', NULL, 1), (5, NULL, '2026-01-02 09:03:00', 3);
SQL
cd "$tmp"
q() {
  "$RELIX" --explain -e "D := connect('duckdb:case.duckdb'); query { $1 };" 2>&1 | sed -n '/Rewrites applied/,$p' | grep -v '^ *$'
  a=$("$RELIX" -e "D := connect('duckdb:case.duckdb'); query { $1 };" 2>&1) b=$("$RELIX" --no-pushdown -e "D := connect('duckdb:case.duckdb'); query { $1 };" 2>&1)
  [ "$a" = "$b" ] && echo "(the engine prints the same)" || printf 'THE ENGINE DIFFERS:\n%s\n%s\n' "$a" "$b"
}
q "ω PER \"s y\" BY ts; row_number() → r, sum(n) OVER DURATION 'PT2M' PRECEDING → s2, lead(n, 1, -1) → nx (D.\"t;\"\"x\")"
q "ω BY ts; avg(n) → a (D.\"t;\"\"x\")"
q "ω BY n; count(*) OVER 2 PRECEDING → c (D.\"t;\"\"x\")"
