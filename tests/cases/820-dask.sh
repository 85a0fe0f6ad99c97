# relix.dask on a real Dask cluster: a dask-scheduler and two dask-worker processes on
# 127.0.0.1 (private ports, started here and stopped in the trap; one that does not start fails
# the case). tests/python/test_dask.py compares every ASOF variant and every IJOIN relation, by
# key, by time range and by (key, time bin), and a whole script by key, with single-machine
# relix.query on random data (NULLs, ties, duplicates, a hot key, no key), as sorted row sets.
# Under the sanitizer build the workers load the instrumented library with the sanitizer
# runtimes preloaded, as 579 does.
DASK_TEST=test_dask.py
. tests/lib/dask_case.sh
