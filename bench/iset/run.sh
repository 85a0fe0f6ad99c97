#!/usr/bin/env bash
# bench/iset/run.sh [ROWS] [ROUNDS] - the interval-set operators against bedtools (merge,
# complement, subtract, intersect against the merged right side) and DuckDB (PACK as a
# gaps-and-islands window query), each as a whole process from the BED files to an output file,
# on the same generated data (gen.py: ROWS intervals in a.bed, ROWS/2 in b.bed; default 1M).
# Prints per workload and engine the median wall time of ROUNDS runs (default 5), the ratio of
# the peer's median to Relix's (above 1: Relix is faster), the largest peak RSS (/usr/bin/time)
# and the output's row count, which must agree across engines. Run by hand; not part of the
# tests.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rows=${1:-1000000}
rounds=${2:-5}
data=${BENCH_DATA:-/tmp/relix-bench-iset}-$rows
mkdir -p "$data"
for t in bedtools node /usr/bin/time; do command -v "$t" >/dev/null || { echo "missing: $t" >&2; exit 1; }; done
make -s -C "$root" build/relix
[ -f "$data/a.bed" ] || /usr/bin/python3 "$here/gen.py" "$data" "$rows"
"$root/bench/install-peers.sh" >/dev/null
relix=$root/build/relix
defs="A := csv('$data/a.bed', delimiter => '\t', header => FALSE, schema => 'chrom TEXT, s INT, e INT, name TEXT');
B := csv('$data/b.bed', delimiter => '\t', header => FALSE, schema => 'chrom TEXT, s INT, e INT, name TEXT');"
declare -A RX=(
  [merge]="PACK (s, e) BY chrom WITH count(*) → n (A)"
  [complement]="GAPS (s, e) BY chrom WITHIN 0 TO 100000000 (A)"
  [subtract]="A IMINUS (A.s, A.e, B.s, B.e) ON A.chrom = B.chrom B"
  [intersect]="A IINTERSECT (A.s, A.e, B.s, B.e) ON A.chrom = B.chrom B"
)
bedtools merge -i "$data/b.bed" > "$data/b.merged.bed"
declare -A BT=(
  [merge]="bedtools merge -i $data/a.bed -c 2 -o count"
  [complement]="bedtools complement -i $data/a.bed -g $data/genome.txt"
  [subtract]="bedtools subtract -a $data/a.bed -b $data/b.bed"
  [intersect]="bedtools intersect -a $data/a.bed -b $data/b.merged.bed"
)
measure() {  # measure NAME OUT CMD...: appends "seconds peak_kb" of ROUNDS runs to $data/NAME.times
  local name=$1 out=$2; shift 2
  : > "$data/$name.times"
  for ((i = 0; i < rounds; i++)); do
    /usr/bin/time -f '%e %M' -o "$data/$name.t" "$@" > "$out"
    cat "$data/$name.t" >> "$data/$name.times"
  done
}
summary() {  # summary NAME: "median_s peak_MB"
  sort -g "$data/$1.times" | awk '{t[NR] = $1; if ($2 > m) m = $2} END {printf "%.3f %.0f\n", t[int((NR + 1) / 2)], m / 1024}'
}
printf '%-11s %-9s %9s %9s %8s %10s\n' workload engine median_s vs_relix peak_MB rows
for op in merge complement subtract intersect; do
  measure "relix-$op" "$data/$op.relix" "$relix" -f tsv -e "$defs query { ${RX[$op]} };"
  read -r rt rm <<< "$(summary "relix-$op")"
  printf '%-11s %-9s %9s %9s %8s %10s\n' "$op" relix "$rt" 1.00x "$rm" "$(($(wc -l < "$data/$op.relix") - 1))"
  measure "bedtools-$op" "$data/$op.bedtools" sh -c "${BT[$op]}"
  read -r bt bm <<< "$(summary "bedtools-$op")"
  printf '%-11s %-9s %9s %8.2fx %8s %10s\n' "" bedtools "$bt" "$(echo "$bt / $rt" | bc -l)" "$bm" "$(wc -l < "$data/$op.bedtools")"
  if [ "$op" = merge ]; then
    measure "duckdb-$op" /dev/null node "$here/duckdb.mjs" "$data" "$op" "$data/$op.duckdb"
    read -r dt dm <<< "$(summary "duckdb-$op")"
    printf '%-11s %-9s %9s %8.2fx %8s %10s\n' "" duckdb "$dt" "$(echo "$dt / $rt" | bc -l)" "$dm" "$(wc -l < "$data/$op.duckdb")"
  fi
done
echo "(vs_relix = the engine's median / Relix's; above 1 means Relix is faster; whole processes, $rounds rounds)"
