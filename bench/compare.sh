#!/usr/bin/env bash
# bench/compare.sh - Relix against DuckDB and Polars end to end: each engine is a whole process
# that reads the same CSV files, runs the same join and writes the result as CSV.
#
#   bench/install-peers.sh        once: DuckDB's and Polars' Node packages (bench/package.json)
#   bench/compare.sh              1M-row inputs, 5 rounds
#   ROWS=10000 ROUNDS=1 bench/compare.sh      a quick check that everything works
#
# Environment: ROWS (rows of each input, default 1000000; ASOF_ROWS and IJOIN_ROWS set the two
# workloads apart), ROUNDS (default 5), DATA (folder for inputs and outputs, default
# /tmp/relix-compare-ASOF_ROWS-IJOIN_ROWS; inputs are generated once by bench/compare/gen.py).
#
# Workloads:
#   asof   trades.csv ASOF quotes.csv (per sym, latest quote at or before the trade; left join)
#          -> CSV of (trade id, quote id)
#   ijoin  left.csv IJOIN INTERSECTS right.csv (l.s < r.e and r.s < l.e) -> CSV of (id, right id)
# Engines: build/relix -e SCRIPT (csv() in, the join, `into csv` out); node bench/compare/duckdb.mjs
# (read_csv, ASOF JOIN or a join on the two inequalities, COPY TO); node bench/compare/polars.mjs
# (readCSV, sort + joinAsof, or a bucketed equi-join + filter, writeCSV). Every engine uses its
# default number of threads. The peers' times and memory include starting Node.
#
# Runs alternate (relix duckdb polars, relix duckdb polars, ...) for ROUNDS rounds per workload,
# each timed from outside as a whole process (wall clock), its peak RSS from /usr/bin/time -v.
# Prints per workload and engine: the median wall seconds, the ratio of that median to relix's
# (above 1: slower than relix), the largest peak RSS in MB, and the output's row count and a
# checksum of its sorted rows; then whether all engines agree. Exit status 1 when they do not,
# or when a run fails (its stderr is in DATA/ENGINE.WORKLOAD.err).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rows=${ROWS:-1000000}
asof_rows=${ASOF_ROWS:-$rows}
ijoin_rows=${IJOIN_ROWS:-$rows}
rounds=${ROUNDS:-5}
data=${DATA:-/tmp/relix-compare-$asof_rows-$ijoin_rows}

for t in node python3 /usr/bin/time; do
  command -v "$t" >/dev/null 2>&1 || { echo "compare.sh: $t is missing" >&2; exit 2; }
done
if [ ! -d "$here/node_modules/@duckdb/node-api" ] || [ ! -d "$here/node_modules/nodejs-polars" ]; then
  echo "compare.sh: DuckDB's and Polars' Node packages are missing: run bench/install-peers.sh" >&2
  exit 2
fi
make -s -C "$root" build/relix
relix=$root/build/relix

mkdir -p "$data"
if [ ! -f "$data/right.csv" ]; then
  echo "generating $asof_rows trades and quotes, $ijoin_rows left and right intervals in $data" >&2
  python3 "$here/compare/gen.py" "$data" "$asof_rows" "$ijoin_rows"
fi

# run ENGINE WORKLOAD: one timed run; appends "seconds rss_kb" to DATA/ENGINE.WORKLOAD.runs.
run() {
  local engine=$1 work=$2 out="$data/$1.$2.csv" cmd
  case "$engine.$work" in
    relix.asof) cmd=("$relix" -e "T := csv('$data/trades.csv'); Q := csv('$data/quotes.csv');
query { π id, id_r → qid (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) } into csv('$out');") ;;
    relix.ijoin) cmd=("$relix" -e "L := csv('$data/left.csv'); R := csv('$data/right.csv');
query { π id, id_r → rid (L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) R) } into csv('$out');") ;;
    *) cmd=(node "$here/compare/$engine.mjs" "$work" "$data" "$out") ;;
  esac
  rm -f "$out"
  local t0 t1
  t0=$(date +%s.%N)
  if ! /usr/bin/time -v -o "$data/$engine.$work.time" "${cmd[@]}" > /dev/null 2> "$data/$engine.$work.err"; then
    echo "compare.sh: $engine $work failed:" >&2
    tail -n 5 "$data/$engine.$work.err" >&2
    exit 1
  fi
  t1=$(date +%s.%N)
  local rss
  rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$data/$engine.$work.time")
  echo "$t0 $t1 $rss" | awk '{ printf "%.4f %d\n", $2 - $1, $3 }' >> "$data/$engine.$work.runs"
}

engines=(relix duckdb polars)
echo "relix $("$relix" --version | awk '{print $2}'), DuckDB $(node -p "require('$here/node_modules/@duckdb/node-api/package.json').version"), nodejs-polars $(node -p "require('$here/node_modules/nodejs-polars/package.json').version"); node $(node --version); $(nproc) cores"
echo "asof: $asof_rows trades x $asof_rows quotes; ijoin: $ijoin_rows x $ijoin_rows intervals; $rounds rounds, alternating"
status=0
for work in asof ijoin; do
  for e in "${engines[@]}"; do rm -f "$data/$e.$work.runs"; done
  for ((i = 0; i < rounds; i++)); do
    for e in "${engines[@]}"; do run "$e" "$work"; done
  done
  python3 - "$data" "$work" "${engines[@]}" <<'PY' || status=1
import hashlib, statistics, sys
data, work, engines = sys.argv[1], sys.argv[2], sys.argv[3:]
res = {}
for e in engines:
    runs = [line.split() for line in open(f"{data}/{e}.{work}.runs")]
    secs = statistics.median(float(r[0]) for r in runs)
    rss = max(int(r[1]) for r in runs) / 1024
    lines = open(f"{data}/{e}.{work}.csv", "rb").read().splitlines()[1:]
    lines.sort()
    res[e] = (secs, rss, len(lines), hashlib.sha256(b"\n".join(lines)).hexdigest()[:16])
print(f"{work:<6} {'engine':<7} {'median_s':>9} {'vs_relix':>9} {'peak_MB':>8} {'rows':>10}  checksum")
base = res[engines[0]][0]
for e in engines:
    secs, rss, n, h = res[e]
    print(f"{work:<6} {e:<7} {secs:>9.3f} {secs / base:>8.2f}x {rss:>8.0f} {n:>10}  {h}")
same = len({(n, h) for (_, _, n, h) in res.values()}) == 1
print(f"{work:<6} outputs {'agree' if same else 'DIFFER'} (row count and checksum of the sorted rows)")
sys.exit(0 if same else 1)
PY
done
exit "$status"
