# WJOIN pushed to DuckDB as a LEFT JOIN LATERAL of one aggregate subquery per left row, where
# the aggregates have exact forms there (count, count(x), min and max; DuckDB's sums and
# ordered aggregates are not the engine's, so those stay): on random tables with NULLs and ties
# (tests/wjoin_tables.py) each pushed answer equals the engine's (--no-pushdown).
root=$PWD
RELIX=$root/$RELIX
RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) || { echo "no libduckdb.so"; exit 1; }
export RELIX_LIBDUCKDB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 tests/wjoin_tables.py duckdb 12 | /usr/bin/python3 tests/duckdb/ddb.py "$tmp/d.db" || exit 1
cd "$tmp"
C="D := connect('duckdb:d.db');"
pushed=0
check() {
  a=$("$RELIX" -f csv -e "$C query { $1 };" 2>&1)
  b=$("$RELIX" -f csv --no-pushdown -e "$C query { $1 };" 2>&1)
  "$RELIX" --explain -e "$C query { $1 };" 2>&1 | grep -q 'PUSH-SQL-003.*WJOIN' && pushed=$((pushed + 1))
  if [ "$a" = "$b" ] && [ "$(printf '%s\n' "$a" | wc -l)" -gt 40 ]; then echo "agree"; else echo "differ: $1"; diff <(echo "$a") <(echo "$b") | head -5; fi
}
A="count(*) → c, count(Q.px) → cp, min(Q.px) → lo, max(Q.venue) → mv, max(Q.ts) → last_ts"
check "D.t T WJOIN T.sym = Q.sym ∧ Q.ts BETWEEN T.ts - DURATION 'PT3M' AND T.ts WITH $A D.q Q"
check "D.t T WJOIN T.sym = Q.sym ∧ Q.ts BETWEEN T.ts + DURATION 'PT1M' AND T.ts + DURATION 'PT4M' WITH $A D.q Q"
check "D.t T WJOIN Q.ts BETWEEN T.ts - DURATION 'PT6M' AND T.ts - DURATION 'PT2M' WITH $A D.q Q"
check "D.t T WJOIN T.sym = Q.sym ∧ Q.n BETWEEN T.n - 3 AND T.n + 1 WITH $A D.q Q"
check "D.t T WJOIN T.sym = Q.sym ∧ Q.d BETWEEN T.d - DURATION 'P2D' AND T.d WITH $A D.q Q"
echo "pushed: $pushed of 5"
q="D.t T WJOIN T.sym = Q.sym ∧ Q.ts BETWEEN T.ts - DURATION 'PT3M' AND T.ts WITH sum(Q.px) → s, first(Q.px) → f D.q Q"
check "$q"
"$RELIX" --explain -e "$C query { $q };" 2>&1 | grep -o 'PUSH-SQL-005.*WJOIN[^(]*'
