#!/usr/bin/env bash
# bench/pushdown.sh - issue #30's measurements: every ASOF variant and every IJOIN relation over
# PostgreSQL tables with a (sym, ts) or (k, s) index, pushed in the form Relix chooses, pushed in
# each form forced, and pulled (--no-pushdown: both tables fetched, the join in the engine).
#
#   bench/pushdown.sh                                  every case at 1M x 1M (alone on the machine)
#   ROWS=50000 ROUNDS=1 bench/pushdown.sh              a quick check that everything works
#   CASES="asof ijoin" bench/pushdown.sh               only the cases named (see `CASES=list`)
#   CASES=list bench/pushdown.sh                       prints the case names and exits
#
# Cases: asof (backward, >=), asof-forward (<=), asof-strict (>), asof-strict-forward (<),
# asof-inner, asof-within (WITHIN DURATION 'PT1S'), asof-ties-first; ijoin (INTERSECTS) and
# ijoin-<relation> for the twelve other Allen relations but PRECEDES/PRECEDED_BY, COVERS and
# COVERED_BY, each with the key equality; ijoin-precedes and ijoin-preceded-by against a table
# of ROWS/10000 rows at the axis' start (over two large tables their result is quadratic
# whichever way it runs); ijoin-left, ijoin-semi, ijoin-anti (INTERSECTS) and ijoin-at (a point
# in an interval); ijoin-nokey (INTERSECTS without a key: the bins are the only equality) and
# ijoin-nokey-sub (the same with a σ on the left, a subquery whose size the database does not
# tell, which is pushed without comparing costs). MODES overrides the modes run per case (default: auto, each form, off).
#
# Starts a throwaway PostgreSQL cluster (scripts/pg.sh) on PORT (default 55990) in DATA (default
# /tmp/relix-pushdown), fills it with bench/pushdown/gen.sql (ROWS rows per table: trades and
# quotes of 200 symbols over one trading day, 1% NULL bids; intervals with 20 keys, lengths
# 1-300 over [0, 1e9]) and stops it at the end. Each case runs ROUNDS times (default 3) as a
# whole relix process counting the result (--count); TIMEOUT (seconds, default 600) stops a run
# that takes longer (printed as "timeout"; a forced plain inequality join at 1M runs for hours).
# Prints per case and mode the median wall seconds and the result's row count (equal across
# modes, or the script says so), then the ratio of each pushed mode to pulling, and "OVER 2x"
# where the chosen mode took more than twice as long as pulling (issue #30's bound); exits 1
# when row counts differ or a chosen mode is over the bound.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
RELIX=${RELIX:-$root/build/relix}
ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-3}
TIMEOUT=${TIMEOUT:-600}
PORT=${PORT:-55990}
DATA=${DATA:-/tmp/relix-pushdown}
# case name -> the query's body (over the connection PG)
declare -A Q=()
asof_q() { echo "PG.trades T ASOF $1 PG.quotes Q"; }
Q[asof]=$(asof_q "T.sym = Q.sym ∧ T.ts >= Q.ts")
Q[asof-forward]=$(asof_q "T.sym = Q.sym ∧ T.ts <= Q.ts")
Q[asof-strict]=$(asof_q "T.sym = Q.sym ∧ T.ts > Q.ts")
Q[asof-strict-forward]=$(asof_q "T.sym = Q.sym ∧ T.ts < Q.ts")
Q[asof-inner]=$(asof_q "INNER T.sym = Q.sym ∧ T.ts >= Q.ts")
Q[asof-within]=$(asof_q "T.sym = Q.sym ∧ T.ts >= Q.ts WITHIN DURATION 'PT1S'")
Q[asof-ties-first]=$(asof_q "T.sym = Q.sym ∧ T.ts >= Q.ts TIES(FIRST)")
ij_q() { echo "σ L.k = R.k (PG.$3 L IJOIN $1 (L.s, L.e, R.s, R.e) PG.$4 R)"; }
Q[ijoin]=$(ij_q INTERSECTS x ivl_l ivl_r)
order="asof asof-forward asof-strict asof-strict-forward asof-inner asof-within asof-ties-first ijoin"
for rel in MEETS MET_BY OVERLAPS OVERLAPPED_BY STARTS STARTED_BY DURING CONTAINS FINISHES FINISHED_BY EQUALS COVERS COVERED_BY; do
  name=ijoin-$(echo "$rel" | tr 'A-Z_' 'a-z-')
  Q[$name]=$(ij_q "$rel" x ivl_l ivl_r)
  order="$order $name"
done
Q[ijoin-precedes]=$(ij_q PRECEDES x ivl_l ivl_few)
Q[ijoin-preceded-by]=$(ij_q PRECEDED_BY x ivl_few ivl_r)
Q[ijoin-left]="π L.id, R.id → rid (PG.ivl_l L IJOIN LEFT INTERSECTS (L.s, L.e, R.s, R.e) PG.ivl_r R)"
Q[ijoin-semi]="PG.ivl_l L IJOIN SEMI INTERSECTS (L.s, L.e, R.s, R.e) PG.ivl_r R"
Q[ijoin-anti]="PG.ivl_l L IJOIN ANTI INTERSECTS (L.s, L.e, R.s, R.e) PG.ivl_r R"
Q[ijoin-at]="PG.ivl_l L IJOIN AT (L.s, R.s, R.e) PG.ivl_r R"
Q[ijoin-nokey]="π L.id, R.id → rid (PG.ivl_l L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) PG.ivl_r R)"
Q[ijoin-nokey-sub]="π L.id, R.id → rid (σ L.k < 10 (PG.ivl_l L) IJOIN INTERSECTS (L.s, L.e, R.s, R.e) PG.ivl_r R)"
order="$order ijoin-precedes ijoin-preceded-by ijoin-left ijoin-semi ijoin-anti ijoin-at ijoin-nokey ijoin-nokey-sub"
CASES=${CASES:-$order}
if [ "$CASES" = list ]; then echo "$order" | tr ' ' '\n'; exit 0; fi
for case in $CASES; do
  [ -n "${Q[$case]:-}" ] || { echo "bench/pushdown.sh: no case '$case' (CASES=list names them)" >&2; exit 1; }
done
[ -x "$RELIX" ] || { echo "bench/pushdown.sh: build relix first (make)" >&2; exit 1; }
mkdir -p "$DATA"
chmod 755 "$DATA"
"$root/scripts/pg.sh" stop "$DATA/pg"
trap '"$root/scripts/pg.sh" stop "$DATA/pg"' EXIT
"$root/scripts/pg.sh" start "$DATA/pg" "$PORT" || exit 1
uri="postgresql://postgres@127.0.0.1:$PORT/postgres"
echo "generating $ROWS rows per table ..."
psql -q -v ON_ERROR_STOP=1 -v rows="$ROWS" "$uri" -f "$root/bench/pushdown/gen.sql" >/dev/null 2>&1 || { echo "gen.sql failed" >&2; exit 1; }
# one run: prints "seconds rows" or "timeout -"
one() {
  local t0 t1 out
  t0=$(date +%s.%N)
  out=$(timeout "$TIMEOUT" "$RELIX" --count "$@" 2>&1)
  case $? in
    0) ;;
    124) echo "timeout -"; return ;;
    *) echo "$out" | head -n 3 >&2; echo "timeout -"; return ;;  # a failure is shown, and counts as no time
  esac
  t1=$(date +%s.%N)
  printf '%.2f %s\n' "$(echo "$t1 - $t0" | bc)" "$(echo "$out" | grep -o '[0-9]* rows' | head -n 1 | cut -d' ' -f1)"
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else print a[int((NR + 1) / 2)]}'; }
status=0
for case in $CASES; do
  script="PG := connect('$uri'); query { ${Q[$case]} };"
  modes=${MODES:-"auto window lateral off"}
  case $case in ijoin*) modes=${MODES:-"auto binned plain off"} ;; esac
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
    printf '%-20s %-8s %10s s  %s rows\n' "$case" "$label" "$m" "$rows"
    if [ -n "$rows" ] && [ "$rows" != "-" ]; then
      if [ -n "$rows_seen" ] && [ "$rows_seen" != "$rows" ]; then echo "$case: row counts differ ($rows_seen, $rows)"; status=1; fi
      rows_seen=$rows
    fi
  done
  for mode in $modes; do
    [ "$mode" = off ] && continue
    if [ "${med[$mode]}" != timeout ] && [ "${med[off]}" != timeout ] && [ "${med[off]}" != "-" ]; then
      ratio=$(echo "scale=2; ${med[$mode]} / ${med[off]}" | bc)
      over=""
      if [ "$mode" = auto ] && [ "$(echo "$ratio > 2" | bc)" = 1 ]; then over="  OVER 2x"; status=1; fi
      printf '%-20s %-8s %10s x pulled%s\n' "$case" "$mode" "$ratio" "$over"
    elif [ "$mode" = auto ] && [ "${med[auto]}" = timeout ]; then
      echo "$case auto: timeout  OVER 2x"; status=1
    fi
  done
  # the choice as EXPLAIN gives it, over a count of the result (so that no rows are printed)
  counted=$(echo "$script" | sed 's/query { \(.*\) };$/query { γ count(*) → n (\1) };/')
  echo "$case: chosen: $("$RELIX" --explain -e "$counted" 2>&1 | grep -o 'PUSH-SQL-00[1-4].*' | head -n 1)"
  unset med
done
exit $status
