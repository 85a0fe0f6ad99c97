#!/bin/bash
# bench/parquet/run.sh - Parquet reading and the whole Parquet -> ASOF -> Parquet run, by hand
# (not part of the test suite; the lead runs it on a quiet machine):
#
#   bench/parquet/run.sh          PQ_N=10000000 PQ_DATA=/tmp/relix-parquet-bench PQ_REPS=3
#
# Generates the AS-OF benchmark's ticks (bench/asof/gen.c: trades and quotes of PQ_N rows,
# sorted by (sym, ts)) once as CSV, and has DuckDB write each as Parquet (Snappy, DuckDB's
# default) so that both engines read the same files. Then, medians of PQ_REPS runs:
#   read      quotes.parquet into memory, every column: relix (whole process, and its own
#             "load" time) and DuckDB (CREATE TABLE AS SELECT * FROM read_parquet, in the
#             same node process each time)
#   pipeline  the whole relix process for trades ASOF quotes, from Parquet into Parquet
#             (zstd), next to the same run from CSV into CSV
# Prints one table with the ratios the issue asks for: DuckDB's read over Relix's (>= 2 wanted)
# and the CSV run over the Parquet run (> 1 wanted).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=${PQ_DATA:-/tmp/relix-parquet-bench}
n=${PQ_N:-10000000}
reps=${PQ_REPS:-3}
sh "$root/bench/install-peers.sh" >&2
make -s -C "$root" build/relix
mkdir -p "$data"
cc=${CC:-gcc}
[ -x "$data/gen" ] || $cc -O2 -o "$data/gen" "$root/bench/asof/gen.c"
[ -f "$data/quotes_${n}_sorted.csv" ] || { echo "generating $n" >&2; "$data/gen" "$data" "$n"; }
for t in trades quotes; do
    [ -f "$data/${t}_${n}.parquet" ] ||
        node "$here/duckdb.mjs" write "$data/${t}_${n}_sorted.csv" "$data/${t}_${n}.parquet" >&2
done
med() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
wall() {  # seconds of the whole command
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > /dev/null
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l | sed 's/^\./0./'
}
R="$root/build/relix"
q="$data/quotes_${n}.parquet"
read_w=() read_l=() pq_w=() csv_w=()
for i in $(seq "$reps"); do
    read_w+=("$(wall "$R" --count -e "Q := parquet('$q'); query { Q };")")
    read_l+=("$("$R" --timing --count -e "Q := parquet('$q'); query { Q };" 2>&1 | sed -n 's/^timing: load \([0-9.]*\) s.*/\1/p')")
    pq_w+=("$(wall "$R" -e "T := parquet('$data/trades_${n}.parquet'); Q := parquet('$q');
query { T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q } into parquet('$data/out.parquet');")")
    csv_w+=("$(wall "$R" -e "T := csv('$data/trades_${n}_sorted.csv'); Q := csv('$data/quotes_${n}_sorted.csv');
query { T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q } into csv('$data/out.csv');")")
done
duck=$(node "$here/duckdb.mjs" read "$q" "$reps")
rw=$(med "${read_w[@]}") rl=$(med "${read_l[@]}") pw=$(med "${pq_w[@]}") cw=$(med "${csv_w[@]}")
printf '%-44s %10s\n' "measure (${n} rows, median of $reps)" seconds
printf '%-44s %10s\n' "read quotes.parquet: relix, whole process" "$rw"
printf '%-44s %10s\n' "read quotes.parquet: relix, load" "$rl"
printf '%-44s %10s\n' "read quotes.parquet: duckdb" "$duck"
printf '%-44s %10.2f\n' "  duckdb / relix (whole process)" "$(echo "$duck / $rw" | bc -l)"
printf '%-44s %10s\n' "trades ASOF quotes, parquet -> parquet" "$pw"
printf '%-44s %10s\n' "trades ASOF quotes, csv -> csv" "$cw"
printf '%-44s %10.2f\n' "  csv / parquet" "$(echo "$cw / $pw" | bc -l)"
