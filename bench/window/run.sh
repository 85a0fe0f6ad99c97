#!/usr/bin/env bash
# bench/window/run.sh [ROWS] - issue 26's time-series workloads, Relix against DuckDB, each as a
# whole process (reading the CSV, the query, the result materialized; Relix counts it with
# --count), on the same generated ticks (gen.py, default 10M rows over 1,000 symbols):
#   window   ω PER sym BY ts: lag, row_number, sum and max over a 5-minute range
#   bucket   γ sym, time_bucket(PT1M, ts): last price and volume per minute
#   gapfill  one-minute bars per symbol, then FILL … USING close => previous (DuckDB: a
#            generate_series grid, a left join and last_value IGNORE NULLS)
# Medians of 3 wall-clock runs and the median's peak RSS (/usr/bin/time), and the ratio DuckDB
# time / Relix time (above 1: Relix is faster). Run by hand; the suite never runs it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rows=${1:-10000000}
data=${BENCH_DATA:-/tmp/relix-bench-window}
mkdir -p "$data"
csv="$data/ticks-$rows.csv"
make -s -C "$root" build/relix
[ -f "$csv" ] || python3 "$here/gen.py" "$csv" "$rows"
"$root/bench/install-peers.sh" >/dev/null

declare -A RX
RX[window]="T := csv('$csv'); query { ω PER sym BY ts; lag(price) → prev, row_number() → n,
  sum(qty) OVER DURATION 'PT5M' PRECEDING → q5m, max(price) OVER DURATION 'PT5M' PRECEDING → hi5m (T) };"
RX[bucket]="T := csv('$csv'); query { γ sym, time_bucket(DURATION 'PT1M', ts) → b; last(price) → close, sum(qty) → qty (T) };"
RX[gapfill]="T := csv('$csv'); query { FILL b EVERY DURATION 'PT1M' PER sym USING close => previous (
  γ sym, time_bucket(DURATION 'PT1M', ts) → b; max(price) → close (T)) };"

measure() {  # command... -> "median_seconds peak_kb rows"
  local lines=()
  for i in 1 2 3; do
    local out
    out=$( { /usr/bin/time -f 'TIME %e %M' "$@" > "$data/out.txt"; } 2>&1 | grep '^TIME' )
    lines+=("$(echo "$out" | awk '{print $2, $3}') $(grep -o '[0-9]*' "$data/out.txt" | tail -n 1)")
  done
  printf '%s\n' "${lines[@]}" | sort -g | sed -n 2p
}

printf '%-8s %9s %9s %8s %11s %11s %10s %10s\n' workload relix_s duckdb_s ratio relix_MB duckdb_MB relix_rows duckdb_rows
for w in window bucket gapfill; do
  read -r rt rm rn <<< "$(measure "$root/build/relix" --count -e "${RX[$w]}")"
  read -r dt dm dn <<< "$(cd "$root/bench" && measure node "$here/duckdb.mjs" "$w" "$csv")"
  printf '%-8s %9s %9s %7.2fx %11d %11d %10s %10s\n' "$w" "$rt" "$dt" "$(echo "$dt / $rt" | bc -l)" \
    $((rm / 1024)) $((dm / 1024)) "$rn" "$dn"
done
echo "(ratio = DuckDB time / Relix time; above 1 means Relix is faster; MB = peak RSS)"
