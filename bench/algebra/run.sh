#!/usr/bin/env bash
# bench/algebra/run.sh - issue 5's workloads, Relix against DuckDB in the same run:
#   hotel     the spec's conflict query (σ room = room_r over an INTERSECTS join) on 1M
#             requests x 1M stays over 10,000 rooms; Relix fuses the σ into a partitioned join
#   hashjoin  10M x 1M equi-join (every fact row finds its dimension row)
#   groupby   γ over 10M rows with 1,000 groups: count, sum, avg, min, max
# Both sides are timed on loaded tables, results materialized (Relix: the query's run time
# from --timing; DuckDB: CREATE TABLE AS). Medians of 3. Run by hand: bench/algebra/run.sh [SCALE]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
scale=${1:-1}
data=${BENCH_DATA:-/tmp/relix-bench-algebra}-$scale
mkdir -p "$data"
make -s -C "$root" build/relix
cc -O2 -o "$data/gen" "$here/gen.c"
[ -f "$data/groups.csv" ] || "$data/gen" "$data" "$scale"
"$root/bench/install-peers.sh" >/dev/null

relix_time() {  # script -> median run seconds, row count
  local runs=() rows=""
  for i in 1 2 3; do
    out=$("$root/build/relix" --timing --count -e "$1" 2>&1)
    runs+=("$(printf '%s\n' "$out" | sed -n 's/^timing: .* run \([0-9.]*\) s.*/\1/p')")
    rows=$(printf '%s\n' "$out" | sed -n 's/^(\([0-9]*\) rows*)$/\1/p' | tail -n 1)
  done
  printf '%s %s\n' "$(printf '%s\n' "${runs[@]}" | sort -g | sed -n 2p)" "$rows"
}

declare -A R
R[hotel]=$(relix_time "Requests := csv('$data/hotel_req.csv'); Confirmed := csv('$data/hotel_conf.csv');
query { σ room = room_r (Requests IJOIN INTERSECTS (Requests.from_date, Requests.to_date, Confirmed.checkin, Confirmed.checkout) Confirmed) };")
R[hashjoin]=$(relix_time "F := csv('$data/fact.csv'); D := csv('$data/dim.csv'); query { F ⨝ F.k = D.k D };")
R[groupby]=$(relix_time "G := csv('$data/groups.csv'); query { γ g; count(*) → n, sum(x) → s, avg(x) → a, min(x) → lo, max(x) → hi (G) };")

printf '%-10s %10s %10s %8s %12s %12s\n' workload relix_s duckdb_s ratio relix_rows duckdb_rows
while read -r name dt dn; do
  read -r rt rn <<< "${R[$name]}"
  printf '%-10s %10s %10s %7.2fx %12s %12s\n' "$name" "$rt" "$dt" "$(echo "$dt / $rt" | bc -l)" "$rn" "$dn"
done < <(cd "$root/bench" && node "$here/duckdb.mjs" "$data")
echo "(ratio = DuckDB time / Relix time; above 1 means Relix is faster)"
