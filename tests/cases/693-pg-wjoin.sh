# WJOIN pushed to PostgreSQL (a throwaway cluster, scripts/pg.sh) as a LEFT JOIN LATERAL of one
# aggregate subquery per left row: on random tables with NULL keys, times and values and tied
# quotes (tests/wjoin_tables.py), windows over timestamptz (before, after and around the row,
# one instant, both ends on one side), int4 and date times, with and without keys, every
# aggregate that pushes (count, count(x), INT sum, min and max of INT and TEXT, first and last),
# each query's pushed answer equals the engine's (--no-pushdown) byte for byte; what stays in
# the engine (PREVAILING, avg, a FLOAT sum) says so in EXPLAIN (PUSH-SQL-005) and agrees too.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/pg.sh stop "$tmp/pg"; rm -rf "$tmp"' EXIT
port=$(scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
export PGPORT=$port
uri="postgresql://postgres@127.0.0.1/postgres"
/usr/bin/python3 tests/wjoin_tables.py postgresql 11 | psql -q -v ON_ERROR_STOP=1 "$uri" || exit 1
C="PG := connect('$uri');"
W="WJOIN T.sym = Q.sym ∧"
pushed=0
check() {  # check QUERY: the pushed answer against the engine's
  a=$("$RELIX" -f csv -e "$C query { $1 };" 2>&1)
  b=$("$RELIX" -f csv --no-pushdown -e "$C query { $1 };" 2>&1)
  "$RELIX" --explain -e "$C query { $1 };" 2>&1 | grep -q 'PUSH-SQL-003.*WJOIN' && pushed=$((pushed + 1))
  if [ "$a" = "$b" ] && [ "$(printf '%s\n' "$a" | wc -l)" -gt 40 ]; then echo "agree"; else echo "differ: $1"; diff <(echo "$a") <(echo "$b") | head -5; fi
}
A="count(*) → c, count(Q.px) → cp, sum(Q.px) → s, min(Q.px) → lo, max(Q.venue) → mv, first(Q.px) → f, last(Q.venue) → lv"
check "PG.t T $W Q.ts BETWEEN T.ts - DURATION 'PT3M' AND T.ts WITH $A PG.q Q"
check "PG.t T $W Q.ts BETWEEN T.ts - DURATION 'PT2M' AND T.ts + DURATION 'PT2M' WITH $A PG.q Q"
check "PG.t T $W Q.ts BETWEEN T.ts + DURATION 'PT1M' AND T.ts + DURATION 'PT4M' WITH $A PG.q Q"
check "PG.t T $W Q.ts BETWEEN T.ts - DURATION 'PT6M' AND T.ts - DURATION 'PT2M' WITH $A PG.q Q"
check "PG.t T $W Q.ts BETWEEN T.ts AND T.ts WITH $A PG.q Q"
check "PG.t T WJOIN Q.ts BETWEEN T.ts - DURATION 'PT1M' AND T.ts WITH $A PG.q Q"
check "PG.t T $W Q.n BETWEEN T.n - 3 AND T.n + 1 WITH $A PG.q Q"
check "PG.t T $W Q.d BETWEEN T.d - DURATION 'P2D' AND T.d WITH $A PG.q Q"
echo "pushed: $pushed of 8"
# these stay in the engine, and say why
for q in "PG.t T WJOIN PREVAILING T.sym = Q.sym ∧ Q.ts BETWEEN T.ts - DURATION 'PT3M' AND T.ts WITH count(*) → c PG.q Q" \
         "PG.t T $W Q.ts BETWEEN T.ts - DURATION 'PT3M' AND T.ts WITH avg(Q.px) → a PG.q Q" \
         "PG.t T $W Q.ts BETWEEN T.ts - DURATION 'PT3M' AND T.ts WITH sum(Q.f) → s PG.q Q"; do
  check "$q"
  "$RELIX" --explain -e "$C query { $q };" 2>&1 | grep -o 'PUSH-SQL-005.*WJOIN[^(]*'
done
"$RELIX" --explain -e "$C query { PG.t T $W Q.ts BETWEEN T.ts - DURATION 'PT3M' AND T.ts + DURATION 'PT30S' WITH count(*) → c, first(Q.px) → f PG.q Q };" 2>&1 | grep -A3 'SQL:\|LATERAL' | head -8
