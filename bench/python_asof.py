"""bench/python_asof.py - issue #27's Python benchmark: an AS-OF join of two DataFrames through
relix.query beside pandas.merge_asof on the same frames, whole call (conversion in and out
included), alternating, medians and the ratio.

    make && PYTHONPATH=python /usr/bin/python3 bench/python_asof.py [ROWS] [ROUNDS]

Polars' Python package is not in Debian's archive (only on PyPI), so it is not compared here;
bench/compare.sh compares Polars (Node) on files."""
import statistics
import sys
import time

import numpy as np
import pandas as pd

import relix

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
rng = np.random.default_rng(1)
syms = np.array([f"S{i:04d}" for i in range(5000)], dtype=object)
day = np.datetime64("2026-03-02T09:30:00", "us").astype(np.int64)
span = 6 * 3600 * 1_000_000
quotes = pd.DataFrame({"sym": syms[rng.integers(0, 5000, rows)],
                       "ts": pd.to_datetime(np.sort(rng.integers(0, span, rows)) + day, unit="us", utc=True),
                       "bid": np.round(rng.uniform(10, 500, rows), 2)})
trades = pd.DataFrame({"sym": syms[rng.integers(0, 5000, rows)],
                       "ts": pd.to_datetime(np.sort(rng.integers(0, span, rows)) + day, unit="us", utc=True),
                       "qty": rng.integers(1, 1000, rows)})
script = "query { trades ASOF trades.sym = quotes.sym ∧ trades.ts >= quotes.ts quotes };"


def run_relix():
    return relix.query(script, trades=trades, quotes=quotes)


def run_pandas():
    return pd.merge_asof(trades, quotes, on="ts", by="sym", direction="backward")


times = {"relix": [], "pandas": []}
for _ in range(rounds):
    for name, fn in (("relix", run_relix), ("pandas", run_pandas)):
        t0 = time.perf_counter()
        out = fn()
        times[name].append(time.perf_counter() - t0)
        assert len(out) == rows
r, p = statistics.median(times["relix"]), statistics.median(times["pandas"])
print(f"ASOF {rows} x {rows}, 5000 symbols, {rounds} rounds alternating, whole call")
print(f"  relix.query        median {r:.3f} s")
print(f"  pandas.merge_asof  median {p:.3f} s   ({p / r:.2f}x relix's time)")
