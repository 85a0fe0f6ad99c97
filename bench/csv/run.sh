#!/usr/bin/env bash
# bench/csv/run.sh - CSV reading speed and memory, by hand: bench/csv/run.sh [ROWS]
#
# Relix against DuckDB's (2 threads) and Polars' readers in the same run, medians of 3 rounds
# (each round runs the three engines one after the other), on:
#   trades_ROWS.csv   bench/gen_csv.py: id INT, sym TEXT, ts TIMESTAMP, price FLOAT (~408 MB at
#                     the default 10M rows), then σ price > 990 ∧ sym = 'PHKV';
#   the AS-OF benchmark's two CSV files, trades_10000000_rand.csv and quotes_10000000_rand.csv
#                     (bench/asof/gen.c: sym TEXT, ts INT, id INT, val FLOAT; 347 + 379 MB), then
#                     σ val > 190 ∧ sym = 'S0042'; the "both" line adds the two up.
# Then the peak resident memory (/usr/bin/time -v) of Relix loading a ~1 GB file of the first
# kind (26M rows) and running σ over it, against the size of its column data (44 bytes a row:
# id 8, sym 16 plus a 4-byte dictionary code, ts 8, price 8): once with a predicate on price
# only, once also comparing sym, which reads the TEXT bytes (slices into the file's mapping).
#
# Data: BENCH_DATA (default /tmp/csvb); the AS-OF files are read from ASOF_DATA (default
# /tmp/asofb) when they are there, else generated into BENCH_DATA with bench/asof/gen.c.
# MEM_ROWS=0 skips the memory measurement.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rows=${1:-10000000}
mem_rows=${MEM_ROWS:-26000000}
data=${BENCH_DATA:-/tmp/csvb}
asof=${ASOF_DATA:-/tmp/asofb}
mkdir -p "$data"
make -s -C "$root" build/relix
"$root/bench/install-peers.sh" >/dev/null

trades="$data/trades_$rows.csv"
[ -f "$trades" ] || python3 "$root/bench/gen_csv.py" "$rows" "$trades"
if [ ! -f "$asof/trades_10000000_rand.csv" ] || [ ! -f "$asof/quotes_10000000_rand.csv" ]; then
  asof=$data
  if [ ! -f "$asof/quotes_10000000_rand.csv" ]; then
    ${CC:-cc} -O2 -o "$data/asof-gen" "$root/bench/asof/gen.c"
    "$data/asof-gen" "$data" 10000000
  fi
fi

med() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

# relix_once FILE NUM THRESHOLD TEXT VALUE -> "load_s select_s"
relix_once() {
  "$root/build/relix" --timing --format csv -e "X := csv('$1'); query { σ $2 > $3 ∧ $4 = '$5' (X) };" \
    2>&1 >/dev/null |
    sed -n 's/^timing: load \([0-9.]*\) s, analyze [0-9.]* s, run \([0-9.]*\) s.*/\1 \2/p'
}

printf '%-24s %-8s %8s %9s %8s %14s\n' file engine load_s select_s rows "load vs relix"
declare -A sum
# Three rounds of Relix, DuckDB and Polars one after the other (so that a busy machine slows
# them alike), then each engine's medians.
bench_file() {  # FILE NUM THRESHOLD TEXT VALUE
  local name=$(basename "$1") eng l s c rl n
  declare -A loads sels rows
  for i in 1 2 3; do
    read -r l s <<< "$(relix_once "$@")"
    loads[relix]+=" $l"; sels[relix]+=" $s"
    while read -r eng l s c; do
      loads[$eng]+=" $l"; sels[$eng]+=" $s"; rows[$eng]=$c
    done <<< "$(cd "$here/.." && node "$here/peers.mjs" "$@" 1)"
  done
  rows[relix]=$("$root/build/relix" --format csv -e "X := csv('$1'); query { σ $2 > $3 ∧ $4 = '$5' (X) };" | tail -n +2 | wc -l)
  rl=$(med ${loads[relix]})
  for eng in relix duckdb polars; do
    l=$(med ${loads[$eng]})
    printf '%-24s %-8s %8s %9s %8s %13.2fx\n' "$name" "$eng" "$l" "$(med ${sels[$eng]})" \
      "${rows[$eng]}" "$(echo "$l / $rl" | bc -l)"
    sum[$eng]=$(echo "${sum[$eng]:-0} + $l" | bc -l)
  done
}
bench_file "$trades" price 990 sym PHKV
sum=()
bench_file "$asof/trades_10000000_rand.csv" val 190 sym S0042
bench_file "$asof/quotes_10000000_rand.csv" val 190 sym S0042
for eng in relix duckdb polars; do
  printf '%-24s %-8s %8.3f %9s %8s %13.2fx\n' "both AS-OF files" "$eng" "${sum[$eng]}" - - \
    "$(echo "${sum[$eng]} / ${sum[relix]}" | bc -l)"
done
echo "files: $trades ($(du -m "$trades" | cut -f1) MB), $asof/{trades,quotes}_10000000_rand.csv" \
     "($(du -mc "$asof"/trades_10000000_rand.csv "$asof"/quotes_10000000_rand.csv | tail -1 | cut -f1) MB)"

if [ "$mem_rows" -gt 0 ]; then
  big="$data/trades_$mem_rows.csv"
  [ -f "$big" ] || python3 "$root/bench/gen_csv.py" "$mem_rows" "$big"
  file_mb=$(( $(stat -c %s "$big") / 1000000 ))
  col_mb=$(( mem_rows * 44 / 1000000 ))
  echo "memory: $big ($file_mb MB, column data $col_mb MB), peak RSS (/usr/bin/time -v):"
  for pred in "price > 990" "price > 990 ∧ sym = 'PHKV'"; do
    kb=$( { /usr/bin/time -v "$root/build/relix" --count \
              -e "X := csv('$big'); query { σ $pred (X) };" >/dev/null; } 2>&1 |
          sed -n 's/.*Maximum resident set size (kbytes): //p')
    printf '  σ %-28s %6d MB (%.2fx the column data)\n' "$pred" $(( kb * 1024 / 1000000 )) \
      "$(echo "$kb * 1024 / 1000000 / $col_mb" | bc -l)"
  done
fi
