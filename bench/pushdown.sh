#!/usr/bin/env bash
# bench/pushdown.sh - issue #30's measurements: ASOF and IJOIN INTERSECTS over PostgreSQL tables
# with a (sym, ts) index, pushed in the form Relix chooses, pushed in each form forced, and
# pulled (--no-pushdown: both tables fetched, the join in the engine).
#
#   bench/pushdown.sh                    1M x 1M (the issue's size; alone on the machine)
#   ROWS=50000 ROUNDS=1 bench/pushdown.sh    a quick check that everything works
#
# Starts a throwaway PostgreSQL cluster (scripts/pg.sh) on PORT (default 55990) in DATA (default
# /tmp/relix-pushdown), fills it with bench/pushdown/gen.sql (ROWS rows per table: trades and
# quotes of 200 symbols over one trading day, 1% NULL bids; intervals with 20 keys, lengths
# 1-300 over [0, 1e9]) and stops it at the end. Each case runs ROUNDS times (default 3) as a
# whole relix process counting the result (--count); TIMEOUT (seconds, default 1800) stops a run
# that takes longer (printed as "timeout"). Prints per case and mode the median wall seconds and
# the result's row count (equal across modes, or the script says so and exits 1), then the
# ratio of each pushed mode to pulling.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
RELIX=${RELIX:-$root/build/relix}
ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-3}
TIMEOUT=${TIMEOUT:-1800}
PORT=${PORT:-55990}
DATA=${DATA:-/tmp/relix-pushdown}
[ -x "$RELIX" ] || { echo "bench/pushdown.sh: build relix first (make)" >&2; exit 1; }
mkdir -p "$DATA"
chmod 755 "$DATA"
"$root/scripts/pg.sh" stop "$DATA/pg"
trap '"$root/scripts/pg.sh" stop "$DATA/pg"' EXIT
"$root/scripts/pg.sh" start "$DATA/pg" "$PORT" || exit 1
uri="postgresql://postgres@127.0.0.1:$PORT/postgres"
echo "generating $ROWS rows per table ..."
psql -q -v ON_ERROR_STOP=1 -v rows="$ROWS" "$uri" -f "$root/bench/pushdown/gen.sql" >/dev/null 2>&1 || { echo "gen.sql failed" >&2; exit 1; }
asof="PG := connect('$uri'); query { PG.trades T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts PG.quotes Q };"
ijoin="PG := connect('$uri'); query { σ L.k = R.k (PG.ivl_l L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) PG.ivl_r R) };"
# one run: prints "seconds rows" or "timeout -"
one() {
  local t0 t1 out
  t0=$(date +%s.%N)
  out=$(timeout "$TIMEOUT" "$RELIX" --count "$@" 2>&1) || { echo "timeout -"; return; }
  t1=$(date +%s.%N)
  printf '%.2f %s\n' "$(echo "$t1 - $t0" | bc)" "$(echo "$out" | grep -o '[0-9]* rows' | head -n 1 | cut -d' ' -f1)"
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else print a[int((NR + 1) / 2)]}'; }
status=0
for case in asof ijoin; do
  script=$asof
  modes="auto window lateral off"
  if [ "$case" = ijoin ]; then script=$ijoin; modes="auto binned plain off"; fi
  declare -A med=()
  rows_seen=""
  for mode in $modes; do
    times=""
    rows=""
    for r in $(seq 1 "$ROUNDS"); do
      read -r s n <<<"$(one --pushdown "$mode" -e "$script")"
      times="$times $s"
      rows=$n
      [ "$s" = timeout ] && break
    done
    m=$(echo "$times" | tr ' ' '\n' | grep -v '^$' | grep -v timeout | median)
    echo "$times" | grep -q timeout && m="timeout"
    med[$mode]=$m
    label=$mode
    [ "$mode" = off ] && label="pulled"
    [ "$mode" = auto ] && label="chosen"
    printf '%-6s %-8s %10s s  %s rows\n' "$case" "$label" "$m" "$rows"
    if [ -n "$rows" ] && [ "$rows" != "-" ]; then
      if [ -n "$rows_seen" ] && [ "$rows_seen" != "$rows" ]; then echo "$case: row counts differ ($rows_seen, $rows)"; status=1; fi
      rows_seen=$rows
    fi
  done
  for mode in $modes; do
    [ "$mode" = off ] && continue
    if [ "${med[$mode]}" != timeout ] && [ "${med[off]}" != timeout ] && [ "${med[off]}" != "-" ]; then
      printf '%-6s %-8s %10s x pulled\n' "$case" "$mode" "$(echo "scale=2; ${med[$mode]} / ${med[off]}" | bc)"
    fi
  done
  # the choice as EXPLAIN gives it, over a count of the result (so that no rows are printed)
  counted=$(echo "$script" | sed 's/query { \(.*\) };$/query { γ count(*) → n (\1) };/')
  echo "$case: chosen: $("$RELIX" --explain -e "$counted" 2>&1 | grep -o 'PUSH-SQL-00[1-4].*' | head -n 1)"
  unset med
done
exit $status
