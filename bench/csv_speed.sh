#!/usr/bin/env bash
# bench/csv_speed.sh - whole-process CSV -> join -> CSV: Relix against DuckDB and Polars, each a
# process that reads the CSV files, joins them and writes the result as CSV; then Relix's CSV
# reading and writing throughput on its own. One command does everything:
#
#   bench/install-peers.sh        once: DuckDB's and Polars' Node packages
#   bench/csv_speed.sh            10M x 10M and 1M x 1M inputs, 3 rounds
#   BIG_ROWS=100000 SMALL_ROWS=100000 ROUNDS=1 bench/csv_speed.sh      a quick check
#
# Data (bench/beyond/gen.c, generated once into DATA, default /tmp/relix-csv-speed): trades
# sym,ts,qty,price and quotes sym,ts,bid,ask, symbols S0000-S4999 as text, ISO-8601 timestamps
# with microseconds (2026-03-02T14:28:40.025454), prices with two decimals, in random order
# (BIG_ROWS, default 10M, each: about 906 MB the pair; and SMALL_ROWS, default 1M); intervals
# id,s,e (SMALL_ROWS each side).
#
# Workloads (every engine writes the same columns):
#   asof BIG, asof SMALL   trades ASOF quotes per sym, latest quote at or before the trade
#                          (left join) -> sym,ts,qty,price,qts,bid,ask
#   intersects SMALL       left IJOIN INTERSECTS right (l.s < r.e, r.s < l.e) -> id,rid
#   during SMALL           left IJOIN DURING right (r.s < l.s, l.e < r.e) -> id,rid
# Engines: build/relix -e SCRIPT (csv() in, the join, `into csv` out); node
# bench/csv_speed/duckdb.mjs (read_csv, the join, COPY TO); node bench/csv_speed/polars.mjs
# (scanCSV, sort, joinAsof, writeCSV; the interval joins as bucketed equi-joins plus a filter).
# Each uses its default number of threads; the peers' times and memory include starting Node.
#
# Runs alternate (relix duckdb polars, relix duckdb polars, ...) ROUNDS times (default 3) per
# workload, each timed from outside as a whole process (wall clock), its peak RSS from
# /usr/bin/time -v. Prints per workload and engine the median seconds, the ratio to Relix's
# median (above 1: slower than Relix), the largest peak RSS in MB and the output's rows (the
# interval joins also a checksum of the sorted id pairs; timestamps print differently in each
# engine, so the AS-OF outputs are compared by row count and matched rows).
# Then Relix alone, medians of ROUNDS: CSV reading (the load of the big trades and quotes files,
# from --timing) and CSV writing (the big trades file read and written back; the whole process
# less its load and run) in MB/s of the file read or written.
# Exit status 1 when a run fails (its stderr is in DATA/ENGINE.WORK.err) or the outputs differ.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
big=${BIG_ROWS:-10000000}
small=${SMALL_ROWS:-1000000}
rounds=${ROUNDS:-3}
data=${DATA:-/tmp/relix-csv-speed}

for t in node python3 /usr/bin/time "${CC:-cc}"; do
  command -v "$t" >/dev/null 2>&1 || { echo "csv_speed.sh: $t is missing" >&2; exit 2; }
done
if [ ! -d "$here/node_modules/@duckdb/node-api" ] || [ ! -d "$here/node_modules/nodejs-polars" ]; then
  echo "csv_speed.sh: DuckDB's and Polars' Node packages are missing: run bench/install-peers.sh" >&2
  exit 2
fi
make -s -C "$root" build/relix
relix=$root/build/relix

mkdir -p "$data"
gen=$data/gen
[ -x "$gen" ] || "${CC:-cc}" -O2 -o "$gen" "$here/beyond/gen.c"
make_file() {  # FILE KIND N SEED: generated once
  [ -f "$1" ] && return 0
  echo "generating $1" >&2
  if [ "$2" = intervals ]; then "$gen" intervals "$3" "$4" "$1.tmp"; else "$gen" "$2" "$3" random "$4" "$1.tmp"; fi
  mv "$1.tmp" "$1"
}
for n in "$big" "$small"; do
  make_file "$data/trades_$n.csv" trades "$n" 1
  make_file "$data/quotes_$n.csv" quotes "$n" 2
done
make_file "$data/left_$small.csv" intervals "$small" 3
make_file "$data/right_$small.csv" intervals "$small" 4

# run ENGINE WORK N: one timed run; appends "seconds rss_kb" to DATA/ENGINE.WORK_N.runs.
run() {
  local engine=$1 work=$2 n=$3 out="$data/$1.$2_$3.csv" a b cmd
  case $work in
    asof) a=$data/trades_$n.csv b=$data/quotes_$n.csv ;;
    *) a=$data/left_$n.csv b=$data/right_$n.csv ;;
  esac
  case "$engine.$work" in
    relix.asof) cmd=("$relix" -e "T := csv('$a'); Q := csv('$b');
query { π sym, ts, qty, price, ts_r → qts, bid, ask (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) } into csv('$out');") ;;
    relix.intersects) cmd=("$relix" -e "L := csv('$a'); R := csv('$b');
query { π id, id_r → rid (L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) R) } into csv('$out');") ;;
    relix.during) cmd=("$relix" -e "L := csv('$a'); R := csv('$b');
query { π id, id_r → rid (L IJOIN DURING (L.s, L.e, R.s, R.e) R) } into csv('$out');") ;;
    *) cmd=(node "$here/csv_speed/$engine.mjs" "$work" "$a" "$b" "$out") ;;
  esac
  rm -f "$out"
  local t0 t1 rss
  t0=$(date +%s.%N)
  if ! (cd "$here" && /usr/bin/time -v -o "$data/$engine.${work}_$n.time" "${cmd[@]}" \
        > /dev/null 2> "$data/$engine.${work}_$n.err"); then
    echo "csv_speed.sh: $engine $work $n failed:" >&2
    tail -n 5 "$data/$engine.${work}_$n.err" >&2
    exit 1
  fi
  t1=$(date +%s.%N)
  rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$data/$engine.${work}_$n.time")
  echo "$t0 $t1 $rss" | awk '{ printf "%.4f %d\n", $2 - $1, $3 }' >> "$data/$engine.${work}_$n.runs"
}

engines=(relix duckdb polars)
echo "relix $("$relix" --version | awk '{print $2}'), DuckDB $(node -p "require('$here/node_modules/@duckdb/node-api/package.json').version"), nodejs-polars $(node -p "require('$here/node_modules/nodejs-polars/package.json').version"); node $(node --version); $(nproc) cores; $rounds rounds, alternating"
status=0
for spec in "asof $big" "asof $small" "intersects $small" "during $small"; do
  set -- $spec
  work=$1 n=$2
  for e in "${engines[@]}"; do rm -f "$data/$e.${work}_$n.runs"; done
  for ((i = 0; i < rounds; i++)); do
    for e in "${engines[@]}"; do run "$e" "$work" "$n"; done
  done
  python3 - "$data" "$work" "$n" "${engines[@]}" <<'PY' || status=1
import csv, hashlib, statistics, sys
data, work, n, engines = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
res = {}
for e in engines:
    runs = [line.split() for line in open(f"{data}/{e}.{work}_{n}.runs")]
    secs = statistics.median(float(r[0]) for r in runs)
    rss = max(int(r[1]) for r in runs) / 1024
    rows, check = 0, ""
    with open(f"{data}/{e}.{work}_{n}.csv", newline="") as f:
        rd = csv.reader(f)
        next(rd, None)
        if work == "asof":
            matched = 0
            for r in rd:
                rows += 1
                matched += r[5] != ""
            check = f"{matched} matched"
        else:
            pairs = sorted((int(r[0]), int(r[1])) for r in rd)
            rows = len(pairs)
            check = hashlib.sha256(repr(pairs).encode()).hexdigest()[:16]
    res[e] = (secs, rss, rows, check)
label = f"{work} {n}"
print(f"{label:<18} {'engine':<7} {'median_s':>9} {'vs_relix':>9} {'peak_MB':>8} {'rows':>10}  check")
base = res[engines[0]][0]
for e in engines:
    secs, rss, rows, check = res[e]
    print(f"{label:<18} {e:<7} {secs:>9.3f} {secs / base:>8.2f}x {rss:>8.0f} {rows:>10}  {check}")
same = len({(rows, check) for (_, _, rows, check) in res.values()}) == 1
print(f"{label:<18} outputs {'agree' if same else 'DIFFER'}")
sys.exit(0 if same else 1)
PY
done

# Relix alone: reading (load of each big file) and writing (the big trades file back out).
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mb() { echo "$(stat -c %s "$1") / 1000000" | bc -l; }
echo
printf '%-40s %9s %9s\n' "relix alone (medians of $rounds)" seconds MB/s
for f in "$data/trades_$big.csv" "$data/quotes_$big.csv"; do
  loads=()
  for ((i = 0; i < rounds; i++)); do
    loads+=("$("$relix" --timing --count -e "X := csv('$f'); query { X };" 2>&1 >/dev/null |
              sed -n 's/^timing: load \([0-9.]*\) s.*/\1/p')")
  done
  l=$(med "${loads[@]}")
  printf '%-40s %9.3f %9.0f\n' "read $(basename "$f")" "$l" "$(echo "$(mb "$f") / $l" | bc -l)"
done
f=$data/trades_$big.csv
out=$data/relix.write.csv
writes=()
for ((i = 0; i < rounds; i++)); do
  t0=$(date +%s.%N)
  tm=$("$relix" --timing -e "X := csv('$f'); query { X } into csv('$out');" 2>&1 >/dev/null)
  t1=$(date +%s.%N)
  writes+=("$(printf '%s\n' "$tm" | sed -n 's/^timing: load \([0-9.]*\) s, analyze \([0-9.]*\) s, run \([0-9.]*\) s.*/\1 \2 \3/p' |
             awk -v w="$(echo "$t1 - $t0" | bc -l)" '{ printf "%.4f\n", w - $1 - $2 - $3 }')")
done
w=$(med "${writes[@]}")
printf '%-40s %9.3f %9.0f\n' "write $(basename "$out") (process less load)" "$w" "$(echo "$(mb "$out") / $w" | bc -l)"
rm -f "$out"
exit "$status"
