#!/usr/bin/env bash
# bench/e2e.sh - the joins through the whole engine (relix --timing), on the data that
# bench/ijoin/run.sh and bench/asof/run.sh generate: the time the query runs on loaded
# columns (keys, kernel and the materialized output), next to the kernel's own time ("join").
# Run those two harnesses first (they also time DuckDB, Polars, pandas, bedtools and
# PostgreSQL on the same data); then: bench/e2e.sh [IJOIN_DATA] [ASOF_DATA]. Medians of 3.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ij=${1:-/tmp/relix_ijoin_bench}
as=${2:-/tmp/relix-asof-bench}
make -s -C "$root" build/relix
med() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
time_query() {  # name script
  local runs=() joins=() rows=""
  for i in 1 2 3; do
    out=$("$root/build/relix" --timing --count -e "$2" 2>&1)
    runs+=("$(printf '%s\n' "$out" | sed -n 's/^timing: .* run \([0-9.]*\) s.*/\1/p')")
    joins+=("$(printf '%s\n' "$out" | sed -n 's/^timing: .*(join \([0-9.]*\) s).*/\1/p')")
    rows=$(printf '%s\n' "$out" | sed -n 's/^(\([0-9]*\) rows*)$/\1/p' | tail -n 1)
  done
  printf '%-28s %10s %10s %12s\n' "$1" "$(med "${runs[@]}")" "$(med "${joins[@]}")" "$rows"
}
printf '%-28s %10s %10s %12s\n' workload run_s join_s rows
for rel in intersects meets overlaps during precedes equals; do
  [ -f "$ij/${rel}_l.csv" ] || continue
  R=$(echo "$rel" | tr a-z A-Z)
  time_query "ijoin $rel 1Mx1M" "L := csv('$ij/${rel}_l.csv'); R := csv('$ij/${rel}_r.csv');
query { L IJOIN $R (L.s, L.e, R.s, R.e) R };"
done
for kind in rand sorted; do
  for n in 1000000 10000000; do
    [ -f "$as/trades_${n}_${kind}.csv" ] || continue
    time_query "asof $kind ${n}x${n}" "T := csv('$as/trades_${n}_${kind}.csv'); Q := csv('$as/quotes_${n}_${kind}.csv');
query { T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q };"
  done
done
