#!/bin/bash
# wjoin.sh - the window join (WJOIN) and the AS-OF join written by hand (γ max over a range
# join, which ASOF-001 runs as ASOF INNER) against DuckDB, whole process (load, join, a count
# of the result), by hand, not part of the test suite:
#
#   bench/temporal/wjoin.sh [N ...]      (default 1000000; TEMPORAL_DATA=/tmp/relix-temporal)
#
# Data: gen.py's trades and quotes (integer times, N/1000 symbols, times in [0, 20 N)).
# Workloads:
#   WJOIN              per trade, count, sum and max of its symbol's quote ids with a time in
#                      [ts - 5000, ts] (about 250 quotes per window at any N). DuckDB: the range
#                      join with GROUP BY (a LEFT JOIN keeps the trades with an empty window).
#   WJOIN PREVAILING   the same, with the quote in force at the window's start. DuckDB: the range
#                      join's groups UNION the ASOF join at ts - 5000, minus the quotes at
#                      exactly the start (written as one query; see the SQL below).
#   γ max (written)    γ id; max(Q.ts) over T ⨝ sym = sym ∧ T.ts >= Q.ts: Relix runs it as an
#                      ASOF (ASOF-001); DuckDB runs the range join and GROUP BY as written.
#   ASOF INNER         the AS-OF join it becomes, for comparison (DuckDB: ASOF JOIN).
# Polars has no window join or inequality join (join + filter is the product per symbol: at
# N = 1M some 500M rows), so it is not run. Each time is the median of 3 runs of a fresh
# process; the ratio is DuckDB's seconds over Relix's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=${TEMPORAL_DATA:-/tmp/relix-temporal}
sizes=${*:-1000000}
PY=/usr/bin/python3
sh "$root/bench/install-peers.sh" >&2
mkdir -p "$data"
relix=$root/build/relix

# median of 3 wall-clock seconds of "$@"; the command's last output line goes to $data/out
med() {
  local ts=()
  for r in 1 2 3; do
    local t0=$(date +%s.%N)
    "$@" 2>/dev/null | tail -n 1 > "$data/out"
    ts+=("$(echo "$(date +%s.%N) - $t0" | bc)")
  done
  printf '%s\n' "${ts[@]}" | sort -n | sed -n 2p
}

duck() {  # duck SQL: run in DuckDB (2 threads) from the bench folder, print the first value
  (cd "$root/bench" && node --input-type=module -e "
import { DuckDBInstance } from '@duckdb/node-api';
const i = await DuckDBInstance.create(':memory:', { threads: '2' });
const c = await i.connect();
const r = await c.runAndReadAll(\`$1\`);
console.log(String(r.getRows()[0][0]));")
}

printf '%-28s %10s %10s %8s %s / %s\n' workload relix duckdb ratio relix-result duckdb-result
for n in $sizes; do
  [ -f "$data/trades_$n.csv" ] || $PY "$here/gen.py" "$data" "$n"
  T="T := csv('$data/trades_$n.csv'); Q := csv('$data/quotes_$n.csv');"
  rd="read_csv('$data"
  rt() { "$relix" -e "$1" --format csv | tail -n 1; }
  run_one() {  # name relix-script duckdb-sql: both print one line that must agree
    local r d pr pd
    r=$(med rt "$2"); pr=$(cat "$data/out")
    d=$(med duck "$3"); pd=$(cat "$data/out")
    printf '%-28s %10.3f %10.3f %8.1f %s / %s\n' "$1 ($n)" "$r" "$d" "$(echo "$d / $r" | bc -l)" "$pr" "$pd"
  }
  # one checksum line: the windows' total count and the sum of their sums and maxima
  run_one "WJOIN" "$T query { γ sum(c) → c, sum(s) → s, sum(m) → m (T WJOIN T.sym = Q.sym ∧ Q.ts BETWEEN T.ts - 5000 AND T.ts
      WITH count(*) → c, sum(Q.id) → s, max(Q.id) → m Q) };" \
    "SELECT sum(c)::VARCHAR || ',' || sum(s)::VARCHAR || ',' || sum(m)::VARCHAR FROM (
       SELECT t.id, count(q.id) AS c, sum(q.id) AS s, max(q.id) AS m
       FROM ${rd}/trades_$n.csv') t LEFT JOIN ${rd}/quotes_$n.csv') q ON q.sym = t.sym AND q.ts BETWEEN t.ts - 5000 AND t.ts
       GROUP BY t.id)"
  run_one "WJOIN PREVAILING" "$T query { γ sum(c) → c, sum(s) → s (T WJOIN PREVAILING T.sym = Q.sym ∧ Q.ts BETWEEN T.ts - 5000 AND T.ts
      WITH count(*) → c, sum(Q.id) → s Q) };" \
    "WITH t AS (SELECT * FROM ${rd}/trades_$n.csv')), q AS (SELECT * FROM ${rd}/quotes_$n.csv')),
     w AS (SELECT t.id, q.id AS qid FROM t JOIN q ON q.sym = t.sym AND q.ts BETWEEN t.ts - 5000 AND t.ts),
     p AS (SELECT t.id, q.id AS qid FROM (SELECT id, sym, ts - 5000 AS s0 FROM t) t ASOF JOIN q ON q.sym = t.sym AND q.ts < t.s0
           WHERE NOT EXISTS (SELECT 1 FROM q q2 WHERE q2.sym = t.sym AND q2.ts = t.s0))
     SELECT count(*)::VARCHAR || ',' || sum(qid)::VARCHAR FROM (SELECT * FROM w UNION ALL SELECT * FROM p)"
  run_one "γ max (written)" "$T query { γ count(*) → c, sum(m) → s (γ T.id; max(Q.ts) → m (T ⨝ T.sym = Q.sym ∧ T.ts >= Q.ts Q)) };" \
    "SELECT count(*)::VARCHAR || ',' || sum(m)::VARCHAR FROM (SELECT t.id, max(q.ts) AS m
       FROM ${rd}/trades_$n.csv') t JOIN ${rd}/quotes_$n.csv') q ON t.sym = q.sym AND t.ts >= q.ts GROUP BY t.id)"
  run_one "ASOF INNER" "$T query { γ count(*) → c, sum(ts_r) → s (T ASOF INNER T.sym = Q.sym ∧ T.ts >= Q.ts Q) };" \
    "SELECT count(*)::VARCHAR || ',' || sum(q.ts)::VARCHAR FROM ${rd}/trades_$n.csv') t ASOF JOIN ${rd}/quotes_$n.csv') q ON t.sym = q.sym AND t.ts >= q.ts"
done
