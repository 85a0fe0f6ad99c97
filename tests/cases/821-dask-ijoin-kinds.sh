# relix.dask's IJOIN LEFT, SEMI and ANTI on a real Dask cluster: a dask-scheduler and two
# dask-worker processes on 127.0.0.1 (private ports, started here and stopped in the trap; one
# that does not start fails the case). tests/python/test_dask_kinds.py compares each kind over
# relations local in time and not, by key, by (key, time bin) and beside the whole right, with
# single-machine relix.query on random data (NULLs, ties, zero-length, inverted and long
# intervals), as sorted row sets. Under the sanitizer build the workers load the instrumented
# library with the sanitizer runtimes preloaded, as 820 does.
DASK_TEST=test_dask_kinds.py
. tests/lib/dask_case.sh
