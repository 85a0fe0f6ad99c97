#!/usr/bin/env bash
# bench/csv/run.sh - loading a 10M-row x 4-column CSV (id INT, sym TEXT, ts TIMESTAMP,
# price FLOAT; ~408 MB) and running one σ over it: Relix against DuckDB's and Polars' readers
# in the same run. Run by hand: bench/csv/run.sh [ROWS]. Medians of 3 runs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rows=${1:-10000000}
data=${BENCH_DATA:-/tmp/relix-bench-csv}
mkdir -p "$data"
file="$data/trades_$rows.csv"
[ -f "$file" ] || python3 "$root/bench/gen_csv.py" "$rows" "$file"
make -s -C "$root" build/relix
"$root/bench/install-peers.sh" >/dev/null

q="X := csv('$file'); query { σ price > 990 ∧ sym = 'PHKV' (X) };"
loads=(); sels=(); n=0
for i in 1 2 3; do
  t=$("$root/build/relix" --timing --format csv -e "$q" 2>&1 >/dev/null | sed -n 's/^timing: load \([0-9.]*\) s, analyze [0-9.]* s, run \([0-9.]*\) s.*/\1 \2/p')
  loads+=("${t% *}"); sels+=("${t#* }")
done
n=$("$root/build/relix" --format csv -e "$q" | tail -n +2 | wc -l)
med() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
rl=$(med "${loads[@]}"); rs=$(med "${sels[@]}")
peers=$(cd "$here/.." && node "$here/peers.mjs" "$file")
printf '%-8s %10s %10s %8s %14s\n' engine load_s select_s rows "load vs relix"
printf '%-8s %10s %10s %8s %14s\n' relix "$rl" "$rs" "$n" "1.00x"
while read -r eng l s c; do
  printf '%-8s %10s %10s %8s %13.2fx\n' "$eng" "$l" "$s" "$c" "$(echo "$l / $rl" | bc -l)"
done <<< "$peers"
echo "file: $file ($(du -m "$file" | cut -f1) MB, $rows rows)"
