"""bench/dask_asof.py - issue #31's benchmark: an AS-OF join of trades x quotes (200 symbols) read from
CSV on a Dask cluster, three ways, alternating, each from the CSV files to the joined rows held on
the cluster (then counted there):

  relix.dask     relix.dask.read_csv(by="sym") (each block parsed by Relix's CSV reader in the
                 workers, symbols as dictionary codes, and split by the hash of sym in the same
                 task), then relix.dask.asof: the two files' partitions are aligned, so each
                 kernel takes its pieces of both files straight from the reading tasks (the
                 only exchange), Relix's kernel per partition
  dask           dask.dataframe.merge_asof over both sides set_index('ts') (its sorted-index
                 requirement)
  shuffle+pandas both sides shuffled by sym, then pandas.merge_asof per partition (each side
                 sorted by ts there, as merge_asof requires)

Each way runs once untimed on 10,000 rows first (imports and first calls on the workers). Prints
each round's wall time and CPU time summed over the scheduler, the workers and this client (the
measure that load distorts least), the medians, the ratios, relix.dask's split between reading,
the exchange and the kernels (its report=), and the bytes it exchanged; checks that the three
agree on the row count and the matched count.

    bench/dask.sh [ROWS] [ROUNDS]          (starts the cluster; ROWS defaults to 10M)
    /usr/bin/python3 bench/dask_asof.py SCHEDULER CSV_DIR ROWS ROUNDS"""
import os
import statistics
import sys
import time

import numpy as np
import pandas as pd
import dask.dataframe as dd
from distributed import Client, wait

import relix.dask as rxd


def generate(folder, rows):
    """trades.csv (id, sym, ts, qty) and quotes.csv (sym, ts, bid), rows each, 200 symbols, a
    trading day of distinct microsecond quote times in time order; kept for the next run."""
    tp, qp = os.path.join(folder, f"trades_{rows}.csv"), os.path.join(folder, f"quotes_{rows}.csv")
    if os.path.exists(tp) and os.path.exists(qp):
        return tp, qp
    rng = np.random.default_rng(31)
    syms = np.array([f"S{i:03d}" for i in range(200)], dtype=object)
    day = np.datetime64("2026-03-02T09:30:00", "us").astype(np.int64)
    span = int(6.5 * 3600 * 1_000_000)

    def times(n):
        return pd.to_datetime(day + np.sort(rng.integers(0, span - n, n)) + np.arange(n), unit="us", utc=True)

    for path, frame in ((qp, pd.DataFrame({"sym": syms[rng.integers(0, 200, rows)], "ts": times(rows),
                                           "bid": np.round(rng.uniform(10, 500, rows), 2)})),
                        (tp, pd.DataFrame({"id": np.arange(rows), "sym": syms[rng.integers(0, 200, rows)],
                                           "ts": times(rows), "qty": rng.integers(1, 1000, rows)}))):
        frame.to_csv(path + ".tmp", index=False, date_format="%Y-%m-%dT%H:%M:%S.%fZ")
        os.replace(path + ".tmp", path)
    return tp, qp


def read(tp, qp):
    """Both CSVs as dask frames, ts as naive (UTC) timestamps: Debian's Dask 2022.12
    merge_asof with by= fails on zoned ones ("right keys must be sorted"), so all three ways get
    naive ones."""
    t = dd.read_csv(tp, parse_dates=["ts"], blocksize="64MB")
    q = dd.read_csv(qp, parse_dates=["ts"], blocksize="64MB")
    return t.assign(ts=t.ts.dt.tz_localize(None)), q.assign(ts=q.ts.dt.tz_localize(None))


def read_relix(tp, qp, n):
    """Both CSVs as dask frames read by Relix in the workers (ts in UTC, sym a Categorical),
    hash-partitioned on sym into n partitions by the reading tasks themselves, as a user who
    joins on sym reads them: the join then needs no exchange of its own."""
    return (rxd.read_csv(tp, blocksize=64_000_000, by="sym", npartitions=n),
            rxd.read_csv(qp, blocksize=64_000_000, by="sym", npartitions=n))


def _cpu():
    """This process's CPU seconds (user + system)."""
    t = os.times()
    return t.user + t.system


class Cpu(float):
    """CPU seconds summed over the cluster's processes, with the parts: .scheduler, .workers,
    .client."""


def cluster_cpu(client):
    """CPU seconds used so far by the cluster's processes: the scheduler, every worker and this
    client, summed (under load, wall time says little; CPU time is what a quiet machine would
    spend)."""
    workers = sum(client.run(_cpu).values())
    sched, me = client.run_on_scheduler(_cpu), _cpu()
    out = Cpu(sched + workers + me)
    out.scheduler, out.workers, out.client = sched, workers, me
    return out


def cpu_delta(a, b):
    """b - a, keeping the parts."""
    out = Cpu(b - a)
    out.scheduler, out.workers, out.client = b.scheduler - a.scheduler, b.workers - a.workers, b.client - a.client
    return out


def counts(frame, client):
    """(rows, rows with a quote) of a joined frame, counted on the cluster."""
    per = frame.map_partitions(lambda d: pd.DataFrame({"n": [len(d)], "m": [int(d["bid"].notna().sum())]}),
                               meta={"n": "i8", "m": "i8"})
    c = client.compute(per).result()
    return int(c["n"].sum()), int(c["m"].sum())


def run_relix(t, q, client, n, rep):
    out = rxd.asof(t, q, on="ts", by="sym", strategy="hash", npartitions=n, report=rep)
    return counts(out, client)


def run_dask(t, q, client, n):
    t = t.set_index("ts", npartitions=n)
    q = q.set_index("ts", npartitions=n)
    out = dd.merge_asof(t, q, left_index=True, right_index=True, by="sym", direction="backward")
    out = client.persist(out)
    wait(out)
    return counts(out, client)


def _pandas_asof(a, b):
    return pd.merge_asof(a.sort_values("ts", kind="stable"), b.sort_values("ts", kind="stable"), on="ts",
                         by="sym", direction="backward")


def run_shuffle_pandas(t, q, client, n):
    t = t.shuffle("sym", npartitions=n)
    q = q.shuffle("sym", npartitions=n)
    out = dd.map_partitions(_pandas_asof, t, q, align_dataframes=False, enforce_metadata=False,
                            meta=_pandas_asof(t._meta, q._meta))
    out = client.persist(out)
    wait(out)
    return counts(out, client)


RUNS = {"relix.dask": run_relix, "dask": run_dask, "shuffle+pandas": run_shuffle_pandas}


def measure(label, inputs, client, n, rounds):
    """Each way rounds times, alternating, on inputs(name) (fresh frames each call, built as that
    way reads them, inside its timing); prints the rounds, medians, ratios and relix.dask's
    report; returns whether the counts agree."""
    print(label)
    times = {k: [] for k in RUNS}
    cpus = {k: [] for k in RUNS}
    reports, results = [], {}
    for r in range(rounds):
        for name, fn in RUNS.items():
            client.run(lambda: __import__("gc").collect())
            c0 = cluster_cpu(client)
            t0 = time.perf_counter()
            t, q = inputs(name)
            if name == "relix.dask":
                rep = {}
                res = fn(t, q, client, n, rep)
                reports.append(rep)
            else:
                res = fn(t, q, client, n)
            times[name].append(time.perf_counter() - t0)
            cpus[name].append(cpu_delta(c0, cluster_cpu(client)))
            results.setdefault(name, res)
            c = cpus[name][-1]
            print(f"  round {r + 1} {name:15s} {times[name][-1]:7.2f} s wall {c:7.2f} s CPU (workers "
                  f"{c.workers:.2f}, scheduler {c.scheduler:.2f}, client {c.client:.2f})  rows {res[0]} "
                  f"matched {res[1]}", flush=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    cmed = {k: statistics.median(v) for k, v in cpus.items()}
    print("  medians, wall: " + ", ".join(f"{k} {v:.2f} s" for k, v in med.items()))
    print("  medians, CPU summed over the scheduler, the workers and the client: " +
          ", ".join(f"{k} {v:.2f} s" for k, v in cmed.items()))
    print(f"  ratios (wall): dask.merge_asof / relix.dask {med['dask'] / med['relix.dask']:.2f}x, "
          f"shuffle+pandas / relix.dask {med['shuffle+pandas'] / med['relix.dask']:.2f}x")
    print(f"  ratios (CPU): dask.merge_asof / relix.dask {cmed['dask'] / cmed['relix.dask']:.2f}x, "
          f"shuffle+pandas / relix.dask {cmed['shuffle+pandas'] / cmed['relix.dask']:.2f}x")

    def mr(key):
        return statistics.median([rp[key] for rp in reports])

    print(f"  relix.dask (medians): read+split {mr('read_split_s'):.2f} s wall, exchange+kernels "
          f"{mr('exchange_kernel_s'):.2f} s wall; summed over tasks: reading {mr('read_s'):.2f} s, split "
          f"{mr('split_s'):.2f} s, concat "
          f"{mr('concat_s'):.2f} s, Relix kernels {mr('kernel_s'):.2f} s (busiest worker "
          f"{mr('kernel_wall_s'):.2f} s); shuffle {mr('shuffle_s'):.2f} s of {mr('total_s'):.2f} s "
          f"({mr('shuffle_s') / mr('total_s'):.0%})")
    workers = len(client.scheduler_info()["workers"])
    print(f"  relix.dask exchanged {mr('rows_exchanged'):.0f} rows, {mr('bytes_exchanged') / 1e6:.1f} MB in memory "
          f"({mr('bytes_exchanged') / max(mr('rows_exchanged'), 1):.1f} bytes a row; "
          f"about {1 - 1 / workers:.0%} of it crosses between workers)")
    agree = len(set(results.values())) == 1
    print("  row and match counts agree:", agree)
    return agree


def main():
    sched, folder, rows, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    client = Client(sched, timeout=60)
    client.wait_for_workers(2, timeout=60)
    workers = len(client.scheduler_info()["workers"])
    wt, wq = generate(folder, 10000)
    for name, fn in RUNS.items():       # warm-up, untimed
        t, q = read_relix(wt, wq, 2 * workers) if name == "relix.dask" else read(wt, wq)
        fn(t, q, client, 2 * workers, {}) if name == "relix.dask" else fn(t, q, client, 2 * workers)
    tp, qp = generate(folder, rows)
    size = os.path.getsize(tp) + os.path.getsize(qp)
    n = max(2 * workers, int(np.ceil(size / 64e6)))
    print(f"ASOF {rows} x {rows}, 200 symbols, from CSV ({size / 1e6:.0f} MB), {workers} workers, "
          f"{n} partitions, {rounds} rounds alternating")
    ok = measure("from the CSV files to the joined rows (relix.dask reading with relix.dask.read_csv, the others "
                 "with dask.dataframe.read_csv):",
                 lambda name: read_relix(tp, qp, n) if name == "relix.dask" else read(tp, qp), client, n, rounds)
    held = [f.persist() for f in read(tp, qp)]
    wait(held)
    ok = measure("over the same inputs already read into the workers' memory by dask.dataframe.read_csv "
                 "(persisted):", lambda name: tuple(held), client, n, rounds) and ok
    client.close()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
