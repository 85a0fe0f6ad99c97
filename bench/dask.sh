#!/usr/bin/env bash
# Issue #31's benchmark: ASOF trades x quotes from CSV on a 2-worker Dask cluster, relix.dask
# against dask.dataframe.merge_asof and against shuffle-by-sym + pandas.merge_asof (bench/dask_asof.py
# says what each times). Starts a dask-scheduler and two dask-worker processes (one thread each)
# on 127.0.0.1 and stops them on exit. The CSVs are written once into $DASK_DATA (default
# /tmp/relix-dask-bench) and reused.
#   bench/dask.sh [ROWS] [ROUNDS]      (default 10000000 rows a side, 3 rounds)
set -eu
cd "$(dirname "$0")/.."
root=$PWD
rows=${1:-10000000}
rounds=${2:-3}
py=/usr/bin/python3
data=${DASK_DATA:-/tmp/relix-dask-bench}
mkdir -p "$data"
[ -f build/librelix.so.0 ] || { echo "bench/dask.sh: build/librelix.so.0 is missing (run make)" >&2; exit 1; }
export PYTHONPATH=$PWD/python RELIX_LIB=$PWD/build/librelix.so.0
tmp=$(mktemp -d)
pids=()
stop() {
  # SIGTERM first; a Dask process whose graceful close hangs (a worker waiting on its scheduler,
  # gone at the same moment) is killed after 10 seconds, so that the wait below always ends
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for _ in $(seq 1 100); do
    alive=
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ -z "$alive" ] && break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap stop EXIT
. "$root/scripts/port.sh"
port=$(pick_port) || { echo "no free port for the dask scheduler" >&2; exit 1; }
sched=$(command -v dask-scheduler) || sched="$py -m distributed.cli.dask_scheduler"
worker=$(command -v dask-worker) || worker="$py -m distributed.cli.dask_worker"
$sched --host 127.0.0.1 --port "$port" --no-dashboard > "$tmp/scheduler.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 60); do grep -q "Scheduler at" "$tmp/scheduler.log" && break; sleep 0.5; done
grep -q "Scheduler at" "$tmp/scheduler.log" || { cat "$tmp/scheduler.log"; echo "bench/dask.sh: the scheduler did not start" >&2; exit 1; }
for w in 1 2; do
  $worker "tcp://127.0.0.1:$port" --host 127.0.0.1 --nthreads 1 --no-nanny --no-dashboard --memory-limit 0 \
    --local-directory "$tmp/w$w" --name "w$w" > "$tmp/worker$w.log" 2>&1 &
  pids+=($!)
done
"$py" bench/dask_asof.py "tcp://127.0.0.1:$port" "$data" "$rows" "$rounds"
