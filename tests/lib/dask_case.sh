# The body of the cases that run a Python test on a real Dask cluster (820, 821, 880), sourced
# by them with DASK_TEST set to the test's file under tests/python: starts a dask-scheduler on a
# free port and two dask-worker processes on 127.0.0.1 (one that does not start fails the case),
# runs the test against them (its arguments: the scheduler's address and a scratch folder that
# goes with the cluster) and prints its exit status and output (and, when it fails, its
# standard error and the workers' logs), and stops the cluster in the trap. Under the sanitizer
# build the workers load the instrumented library with the sanitizer runtimes preloaded.
set -u
root=$PWD
py=/usr/bin/python3
"$py" -c 'import dask.dataframe, distributed, pandas' 2>/dev/null || { echo "python3-dask and python3-distributed are missing (scripts/deps.sh test installs them)"; exit 1; }
lib=$root/$(dirname "$RELIX")/librelix.so.0
[ -f "$lib" ] || { echo "no $lib (make builds it)"; exit 1; }
pre=
if nm -D "$lib" 2>/dev/null | grep -q __asan_init; then
  pre="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99
fi
tmp=$(mktemp -d)
pids=()
stop() {
  # SIGTERM first; a Dask process whose graceful close hangs (a worker waiting on its scheduler,
  # gone at the same moment) is killed after 10 seconds, so that the wait below always ends
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for _ in $(seq 1 100); do
    alive=
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ -z "$alive" ] && break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap stop EXIT
. "$root/scripts/port.sh"
port=$(pick_port) || { echo "no free port for the dask scheduler"; exit 1; }
export PYTHONPATH=$root/python RELIX_LIB=$lib DASK_DISTRIBUTED__WORKER__DAEMON=False
# Debian's python3-distributed installs the commands dask-scheduler and dask-worker
sched=$(command -v dask-scheduler) || sched="$py -m distributed.cli.dask_scheduler"
worker=$(command -v dask-worker) || worker="$py -m distributed.cli.dask_worker"
$sched --host 127.0.0.1 --port "$port" --no-dashboard > "$tmp/scheduler.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 60); do grep -q "Scheduler at" "$tmp/scheduler.log" && break; sleep 0.5; done
grep -q "Scheduler at" "$tmp/scheduler.log" || { echo "the dask scheduler did not start:"; cat "$tmp/scheduler.log"; exit 1; }
for w in 1 2; do
  LD_PRELOAD=$pre $worker "tcp://127.0.0.1:$port" --host 127.0.0.1 --nthreads 1 \
    --no-nanny --no-dashboard --memory-limit 2GB --local-directory "$tmp/w$w" --name "w$w" \
    > "$tmp/worker$w.log" 2>&1 &
  pids+=($!)
done
limit=300
[ -n "$pre" ] && limit=900   # the instrumented library is several times slower
LD_PRELOAD=$pre timeout "$limit" "$py" "$root/tests/python/$DASK_TEST" "tcp://127.0.0.1:$port" "$tmp" > "$tmp/out" 2> "$tmp/err"
rc=$?
echo "exit $rc"
cat "$tmp/out"
# standard error holds Dask's log lines (timings, shutdown): shown only when the case fails
if [ "$rc" -ne 0 ]; then
  cat "$tmp/err"
  for w in 1 2; do echo "--- worker $w"; tail -n 30 "$tmp/worker$w.log"; done
fi
