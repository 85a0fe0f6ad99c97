# relix.dask.read_csv(by=, npartitions=) on a real Dask cluster: a dask-scheduler and two
# dask-worker processes on 127.0.0.1 (private ports, started here and stopped in the trap; one
# that does not start fails the case). tests/python/test_dask_partitioned.py reads CSV files
# hash-partitioned on the key inside the reading tasks and checks the placement (each key in
# one partition, the file's order, the rows of a plain read) and that ASOF variants, IJOIN and a
# whole script over two files read so run aligned and equal single-machine Relix (NULL keys,
# empty partitions, keys in one file only, keys with quotes, commas and newlines, times with
# UTC offsets). Under the sanitizer build the workers load the instrumented library with the
# sanitizer runtimes preloaded, as 820 does.
DASK_TEST=test_dask_partitioned.py
. tests/lib/dask_case.sh
