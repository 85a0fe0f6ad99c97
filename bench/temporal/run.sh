#!/bin/bash
# run.sh - the new temporal join forms against DuckDB and Polars, whole process (load, join,
# a count of the result), by hand, not part of the test suite:
#
#   bench/temporal/run.sh [N ...]      (default 1000000; TEMPORAL_DATA=/tmp/relix-temporal;
#                                      ONLY='IJOIN (*' runs only the workloads whose name matches)
#
# Workloads (gen.py): NEAREST by symbol (DuckDB: two ASOF joins, backward and forward, and a
# CASE choosing the nearer; Polars: joinAsof strategy 'nearest'), the 3 nearest (DuckDB: a
# LATERAL subquery ordered by distance with LIMIT 3), IJOIN COVERS (DuckDB: the range join), IJOIN AT of readings in windows
# (DuckDB: a range join s <= ts AND ts < e), IJOIN SEMI and ANTI of the same (DuckDB: [NOT]
# EXISTS), a set of relations (INTERSECTS | MEETS | MET_BY) (DuckDB: the non-strict range
# join), IJOIN SEMI INTERSECTS (DuckDB: EXISTS), IJOIN LEFT INTERSECTS of bookings and stays (DuckDB: LEFT JOIN ON s < e AND s < e),
# and the hand-written range join of the same pairs as σ over × (which the optimizer rewrites
# to the IJOIN; timed beside the IJOIN it becomes). Every engine prints its row count; each
# time is the median of 3 runs of a fresh process. Ratios are DuckDB's (or Polars') seconds
# over Relix's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=${TEMPORAL_DATA:-/tmp/relix-temporal}
sizes=${*:-1000000}
PY=/usr/bin/python3
sh "$root/bench/install-peers.sh" >&2
mkdir -p "$data"
relix=$root/build/relix

# median of 3 wall-clock seconds of "$@"; the command's last output line goes to $data/out.
# A run over TIMEOUT seconds (default 300) is stopped and the workload's time printed as the
# bound itself with the rows "timeout", so a peer's quadratic plan cannot stall the table.
TIMEOUT=${TIMEOUT:-300}
ONLY=${ONLY:-*}   # a shell pattern: only the workloads whose name matches it
med() {
  local ts=()
  for r in 1 2 3; do
    local t0=$(date +%s.%N)
    timeout "$TIMEOUT" bash -c '"$@"' _ "$@" 2>/dev/null | tail -n 1 > "$data/out"
    local t=$(echo "$(date +%s.%N) - $t0" | bc)
    if [ "$(echo "$t >= $TIMEOUT" | bc)" = 1 ]; then
      # a DuckDB stopped mid-query leaves its spill files behind (bench/.tmp): remove them
      rm -rf "$root/bench/.tmp"
      echo timeout > "$data/out"; echo "$TIMEOUT"; return
    fi
    ts+=("$t")
  done
  printf '%s\n' "${ts[@]}" | sort -n | sed -n 2p
}

duck() {  # duck SQL: run in DuckDB (2 threads) from the bench folder, print the count
  (cd "$root/bench" && node --input-type=module -e "
import { DuckDBInstance } from '@duckdb/node-api';
const i = await DuckDBInstance.create(':memory:', { threads: '2' });
const c = await i.connect();
const r = await c.runAndReadAll(\`$1\`);
console.log(String(r.getRows()[0][0]));")
}

printf '%-28s %10s %10s %10s %8s %s\n' workload relix duckdb polars ratio rows
for n in $sizes; do
  [ -f "$data/trades_$n.csv" ] || $PY "$here/gen.py" "$data" "$n"
  T="T := csv('$data/trades_$n.csv'); Q := csv('$data/quotes_$n.csv');"
  W="Rd := csv('$data/readings_$n.csv'); W := csv('$data/windows_$n.csv');"
  B="B := csv('$data/bookings_$n.csv'); S := csv('$data/stays_$n.csv');"
  rt() { "$relix" --count -e "$1"; }
  export -f rt duck; export relix root
  run_one() {  # name relix-script duckdb-sql [polars-js]
    local r d p="-" pr
    case "$1" in $ONLY) ;; *) return 0 ;; esac
    r=$(med rt "$2"); pr=$(cat "$data/out")
    d=$(med duck "$3")
    if [ -n "${4:-}" ]; then
      p=$(printf '%.3f' "$(med node --input-type=module -e "$4")")
    fi
    printf '%-28s %10.3f %10.3f %10s %8.1f %s\n' "$1 ($n)" "$r" "$d" "$p" "$(echo "$d / $r" | bc -l)" "$pr"
  }
  rd="read_csv('$data"
  run_one "ASOF NEAREST" "$T query { T ASOF NEAREST T.sym = Q.sym ∧ T.ts >= Q.ts Q };" \
    "WITH b AS (SELECT t.id, t.ts, q.ts AS bts, q.id AS bid FROM ${rd}/trades_$n.csv') t ASOF LEFT JOIN ${rd}/quotes_$n.csv') q ON t.sym = q.sym AND t.ts >= q.ts),
          f AS (SELECT t.id, q.ts AS fts, q.id AS fid FROM ${rd}/trades_$n.csv') t ASOF LEFT JOIN ${rd}/quotes_$n.csv') q ON t.sym = q.sym AND t.ts < q.ts)
     SELECT count(CASE WHEN fid IS NOT NULL AND (bid IS NULL OR fts - b.ts < b.ts - bts) THEN fid ELSE bid END) FROM b JOIN f USING (id)" \
    "import pl from '$root/bench/node_modules/nodejs-polars/bin/index.js';
     const t = pl.readCSV('$data/trades_$n.csv').sort('ts'); const q = pl.readCSV('$data/quotes_$n.csv').sort('ts');
     console.log(t.joinAsof(q, { on: 'ts', by: 'sym', strategy: 'nearest' }).height);"
  run_one "ASOF 3 NEAREST" "$T query { T ASOF 3 NEAREST T.sym = Q.sym ∧ T.ts >= Q.ts Q };" \
    "SELECT count(*) FROM ${rd}/trades_$n.csv') t, LATERAL (SELECT q.id FROM ${rd}/quotes_$n.csv') q
       WHERE q.sym = t.sym ORDER BY abs(q.ts - t.ts), q.ts LIMIT 3) k"
  run_one "IJOIN AT" "$W query { Rd IJOIN AT (Rd.ts, W.s, W.e) W };" \
    "SELECT count(*) FROM ${rd}/readings_$n.csv') r JOIN ${rd}/windows_$n.csv') w ON w.s <= r.ts AND r.ts < w.e"
  run_one "IJOIN SEMI AT" "$W query { Rd IJOIN SEMI AT (Rd.ts, W.s, W.e) W };" \
    "SELECT count(*) FROM ${rd}/readings_$n.csv') r WHERE EXISTS (SELECT 1 FROM ${rd}/windows_$n.csv') w WHERE w.s <= r.ts AND r.ts < w.e)"
  run_one "IJOIN ANTI AT" "$W query { Rd IJOIN ANTI AT (Rd.ts, W.s, W.e) W };" \
    "SELECT count(*) FROM ${rd}/readings_$n.csv') r WHERE NOT EXISTS (SELECT 1 FROM ${rd}/windows_$n.csv') w WHERE w.s <= r.ts AND r.ts < w.e)"
  run_one "IJOIN LEFT INTERSECTS" "$B query { B IJOIN LEFT INTERSECTS (B.s, B.e, S.s, S.e) S };" \
    "SELECT count(*) FROM ${rd}/bookings_$n.csv') b LEFT JOIN ${rd}/stays_$n.csv') s ON b.s < s.e AND s.s < b.e"
  # a set of relations, "touches or shares time": for gen.py's proper intervals exactly the
  # non-strict range join
  run_one "IJOIN (INTERSECTS|MEETS|MET_BY)" "$B query { B IJOIN (INTERSECTS | MEETS | MET_BY) (B.s, B.e, S.s, S.e) S };" \
    "SELECT count(*) FROM ${rd}/bookings_$n.csv') b JOIN ${rd}/stays_$n.csv') s ON b.s <= s.e AND s.s <= b.e"
  run_one "IJOIN SEMI INTERSECTS" "$B query { B IJOIN SEMI INTERSECTS (B.s, B.e, S.s, S.e) S };" \
    "SELECT count(*) FROM ${rd}/bookings_$n.csv') b WHERE EXISTS (SELECT 1 FROM ${rd}/stays_$n.csv') s WHERE b.s < s.e AND s.s < b.e)"
  run_one "IJOIN COVERS" "$B query { B IJOIN COVERS (B.s, B.e, S.s, S.e) S };" \
    "SELECT count(*) FROM ${rd}/bookings_$n.csv') b JOIN ${rd}/stays_$n.csv') s ON b.s <= s.s AND s.e <= b.e"
  run_one "IJOIN INTERSECTS" "$B query { B IJOIN INTERSECTS (B.s, B.e, S.s, S.e) S };" \
    "SELECT count(*) FROM ${rd}/bookings_$n.csv') b JOIN ${rd}/stays_$n.csv') s ON b.s < s.e AND s.s < b.e"
  run_one "σ over × (hand-written)" "$B query { σ B.s < S.e ∧ S.s < B.e (B × S) };" \
    "SELECT count(*) FROM ${rd}/bookings_$n.csv') b, ${rd}/stays_$n.csv') s WHERE b.s < s.e AND s.s < b.e"
done
