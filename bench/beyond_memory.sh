#!/usr/bin/env bash
# bench/beyond_memory.sh - issue #29's targets: joins over more data than the budget, Relix
# beside DuckDB, each engine a whole process that reads the CSV files, joins them and counts
# the result, with and without a memory budget.
#
#   bench/install-peers.sh          once: DuckDB's Node package (bench/package.json)
#   bench/beyond_memory.sh          the issue's sizes (about 20 GB of CSV; alone on the machine)
#   ROWS=200000 ROUNDS=1 bench/beyond_memory.sh    a quick check that everything works
#
# Cases (generated once into DATA by bench/beyond/gen.c, compiled here; trades sym,ts,qty,price
# and quotes sym,ts,bid,ask with symbols S0000-S4999 and ISO-8601 microsecond timestamps over
# one trading day; intervals id,s,e with starts uniform over [0, 1e9] and lengths 1-300):
#   asof_sorted   trades ASOF quotes (left; per sym, the latest quote at or before the trade),
#                 both files sorted by time; ASOF_SORTED_ROWS (40M) each, budget
#                 ASOF_SORTED_BUDGET (1G); targets: peak RSS <= 1.25 GB, faster than DuckDB
#                 with the same budget, <= 1.3x Relix's own unlimited time
#   asof_random   the same in random time order; ASOF_RANDOM_ROWS (16M), ASOF_RANDOM_BUDGET
#                 (256M); targets: peak RSS <= 0.45 GB, faster than DuckDB with the budget
#   ijoin_random  left IJOIN INTERSECTS right (l.s < r.e and r.s < l.e), counting the pairs;
#                 IJOIN_ROWS (20M) each, IJOIN_BUDGET (512M); targets: peak RSS <= 0.7 GB,
#                 faster than DuckDB with the budget
#   asof_big      asof_sorted at ASOF_BIG_ROWS (100M) each with both engines' default settings;
#                 targets: peak RSS <= 3 GB, <= 0.5x DuckDB's time
# ROWS sets every case's rows at once; CASES (default "asof_sorted asof_random ijoin_random
# asof_big") picks cases; ROUNDS (default 3) runs per engine and mode; DATA (default
# /tmp/relix-beyond) holds inputs and the temporary folder both engines spill to (TMPDIR for
# Relix, temp_directory for DuckDB), emptied after every run; TIMEOUT (seconds, default none)
# stops a run that takes longer (it counts as failed).
#
# Budgets: Relix --memory-limit SIZE, DuckDB SET memory_limit to the same bytes; "unlimited"
# is Relix --memory-limit none and DuckDB's default (80% of RAM). Runs alternate within a
# round (relix unlimited, duckdb unlimited, relix budget, duckdb budget, ...). Each run is timed
# from outside as a whole process (wall clock), its peak RSS from /usr/bin/time -v (pages of a
# mapped input file count once touched). Prints per case and run: the median seconds, the
# ratio to Relix with the budget, the largest peak RSS, and the result (rows and matched rows,
# or pairs); then whether every run's result agrees, and each target met or missed. Exit
# status 1 when a run failed (its stderr is in DATA/CASE.ENGINE.MODE.err) or results differ.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rounds=${ROUNDS:-3}
data=${DATA:-/tmp/relix-beyond}
cases=${CASES:-asof_sorted asof_random ijoin_random asof_big}
timeout_s=${TIMEOUT:-0}

for t in node python3 /usr/bin/time cc timeout; do
  command -v "$t" >/dev/null 2>&1 || { echo "beyond_memory.sh: $t is missing" >&2; exit 2; }
done
if [ ! -d "$here/node_modules/@duckdb/node-api" ]; then
  echo "beyond_memory.sh: DuckDB's Node package is missing: run bench/install-peers.sh" >&2
  exit 2
fi
make -s -C "$root" build/relix
relix=$root/build/relix
mkdir -p "$data/tmp"
gen=$data/gen
if [ ! -x "$gen" ] || [ "$here/beyond/gen.c" -nt "$gen" ]; then
  cc -O2 -o "$gen" "$here/beyond/gen.c"
fi

# SIZE (K/M/G/T, powers of 1024) in bytes
bytes() {
  awk -v s="$1" 'BEGIN { m = 1; u = toupper(substr(s, length(s)))
    if (u == "K") m = 1024; else if (u == "M") m = 1048576; else if (u == "G") m = 1073741824; else if (u == "T") m = 1099511627776
    if (m > 1) s = substr(s, 1, length(s) - 1)
    printf "%.0f\n", s * m }'
}

# case_setup CASE: sets work, order, rows, budget, rss_target_mb, dir (and generates the data)
case_setup() {
  case "$1" in
    asof_sorted) work=asof; order=sorted; rows=${ROWS:-${ASOF_SORTED_ROWS:-40000000}}; budget=${ASOF_SORTED_BUDGET:-1G}; rss_target_mb=1250 ;;
    asof_random) work=asof; order=random; rows=${ROWS:-${ASOF_RANDOM_ROWS:-16000000}}; budget=${ASOF_RANDOM_BUDGET:-256M}; rss_target_mb=450 ;;
    ijoin_random) work=ijoin; order=random; rows=${ROWS:-${IJOIN_ROWS:-20000000}}; budget=${IJOIN_BUDGET:-512M}; rss_target_mb=700 ;;
    asof_big) work=asof; order=sorted; rows=${ROWS:-${ASOF_BIG_ROWS:-100000000}}; budget=default; rss_target_mb=3000 ;;
    *) echo "beyond_memory.sh: unknown case '$1'" >&2; exit 2 ;;
  esac
  dir=$data/$work-$order-$rows
  mkdir -p "$dir"
  if [ "$work" = asof ] && [ ! -f "$dir/quotes.csv" ]; then
    echo "generating $rows trades and quotes ($order) in $dir" >&2
    "$gen" trades "$rows" "$order" 1 "$dir/trades.csv.part" && mv "$dir/trades.csv.part" "$dir/trades.csv"
    "$gen" quotes "$rows" "$order" 2 "$dir/quotes.csv.part" && mv "$dir/quotes.csv.part" "$dir/quotes.csv"
  elif [ "$work" = ijoin ] && [ ! -f "$dir/right.csv" ]; then
    echo "generating $rows left and right intervals in $dir" >&2
    "$gen" intervals "$rows" 3 "$dir/left.csv.part" && mv "$dir/left.csv.part" "$dir/left.csv"
    "$gen" intervals "$rows" 4 "$dir/right.csv.part" && mv "$dir/right.csv.part" "$dir/right.csv"
  fi
}

# run CASE ENGINE MODE: one timed run; appends "seconds rss_kb result" (result "failed" when
# the run failed) to DATA/CASE.ENGINE.MODE.runs.
run() {
  local c=$1 engine=$2 mode=$3 base="$data/$1.$2.$3" cmd script limit
  case "$mode" in
    unlimited) limit=none ;;
    budget) limit=$budget ;;
    default) limit=default ;;
  esac
  if [ "$engine" = relix ]; then
    if [ "$work" = asof ]; then
      script="T := csv('$dir/trades.csv'); Q := csv('$dir/quotes.csv');
query { γ count(*) → n, count(ts_r) → matched (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) };"
    else
      script="L := csv('$dir/left.csv'); R := csv('$dir/right.csv');
query { γ count(*) → n (L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) R) };"
    fi
    cmd=(env TMPDIR="$data/tmp" "$relix" --format csv)
    [ "$limit" = default ] || cmd+=(--memory-limit "$limit")
    cmd+=(-e "$script")
  else
    local b=none
    [ "$limit" = none ] || [ "$limit" = default ] || b=$(bytes "$limit")
    cmd=(node "$here/beyond/duckdb.mjs" "$work" "$dir" "$b" "$data/tmp")
  fi
  local t0 t1 rc=0
  t0=$(date +%s.%N)
  timeout "$timeout_s" /usr/bin/time -v -o "$base.time" "${cmd[@]}" > "$base.out" 2> "$base.err" || rc=$?
  t1=$(date +%s.%N)
  rm -rf "${data:?}/tmp" && mkdir -p "$data/tmp"
  local rss result
  rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$base.time" 2>/dev/null)
  if [ "$rc" -ne 0 ]; then
    result=failed
    echo "beyond_memory.sh: $c: $engine ($mode) failed (exit $rc): $(grep -v '^[[:space:]]*$' "$base.err" | head -n 1)" >&2
  elif [ "$engine" = relix ]; then
    result=$(tail -n 1 "$base.out" | tr ',' ' ')
  else
    result=$(tail -n 1 "$base.out")
  fi
  echo "$t0 $t1 ${rss:-0} $result" | awk '{ r = $4; for (i = 5; i <= NF; i++) r = r " " $i; printf "%.4f %d %s\n", $2 - $1, $3, r }' >> "$base.runs"
}

echo "relix $("$relix" --version | awk '{print $2}'), DuckDB $(node -p "require('$here/node_modules/@duckdb/node-api/package.json').version"); node $(node --version); $(nproc) cores, $(awk '/^MemTotal:/ { printf "%.1f GB", $2 / 1e6 }' /proc/meminfo) of memory"
echo "$rounds rounds per engine and mode, alternating; peak RSS from /usr/bin/time -v"
status=0
for c in $cases; do
  case_setup "$c"
  if [ "$budget" = default ]; then modes=(default); else modes=(unlimited budget); fi
  for m in "${modes[@]}"; do for e in relix duckdb; do rm -f "$data/$c.$e.$m.runs"; done; done
  for ((i = 0; i < rounds; i++)); do
    for m in "${modes[@]}"; do for e in relix duckdb; do run "$c" "$e" "$m"; done; done
  done
  python3 - "$data" "$c" "$rows" "$budget" "$rss_target_mb" "${modes[@]}" <<'PY' || status=1
import statistics, sys
data, case, rows, budget, rss_target, modes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), sys.argv[6:]
res = {}
for m in modes:
    for e in ('relix', 'duckdb'):
        runs = [line.rstrip('\n').split(' ', 2) for line in open(f'{data}/{case}.{e}.{m}.runs')]
        ok = [r for r in runs if r[2] != 'failed']
        secs = statistics.median(float(r[0]) for r in ok) if ok else None
        rss = max(int(r[1]) for r in runs) / 1024
        results = sorted({r[2] for r in ok})
        res[(e, m)] = (secs, rss, results, len(runs) - len(ok))
ref = res[('relix', modes[-1])][0]
label = f'budget {budget}' if budget != 'default' else 'default settings'
print(f'\n{case}: {rows} x {rows} rows, {label}')
print(f"{'engine':<7} {'mode':<10} {'median_s':>9} {'vs_relix':>9} {'peak_MB':>8}  result")
for m in modes:
    for e in ('relix', 'duckdb'):
        secs, rss, results, failed = res[(e, m)]
        s = f'{secs:>9.2f}' if secs is not None else f"{'failed':>9}"
        v = f'{secs / ref:>8.2f}x' if secs is not None and ref else f"{'-':>9}"
        note = f' ({failed} failed)' if failed else ''
        print(f"{e:<7} {m:<10} {s} {v} {rss:>8.0f}  {' | '.join(results) or '-'}{note}")
allres = {r for v in res.values() for r in v[2]}
failed = sum(v[3] for v in res.values())
agree = len(allres) == 1
print(f"{case}: results {'agree' if agree else 'DIFFER'} across every run that finished{'' if not failed else f'; {failed} runs failed'}")
def target(ok, what):
    print(f"{case}: target {'met   ' if ok else 'MISSED'} {what}")
rb = res[('relix', modes[-1])]
db = res[('duckdb', modes[-1])]
target(rb[0] is not None and rb[1] <= rss_target, f'Relix peak RSS <= {rss_target:.0f} MB (is {rb[1]:.0f} MB)')
if budget == 'default':
    target(rb[0] is not None and db[0] is not None and rb[0] <= 0.5 * db[0], 'Relix <= 0.5x DuckDB\'s time')
else:
    target(rb[0] is not None and db[0] is not None and rb[0] < db[0], 'Relix with the budget faster than DuckDB with the budget')
    ru = res[('relix', 'unlimited')][0]
    if case == 'asof_sorted':
        target(rb[0] is not None and ru is not None and rb[0] <= 1.3 * ru, 'Relix with the budget <= 1.3x its unlimited time')
sys.exit(0 if agree and not failed else 1)
PY
done
exit "$status"
