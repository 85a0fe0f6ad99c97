"""bench/python_asof.py - issue #27's Python benchmark: an AS-OF join of two DataFrames through
relix.query beside pandas.merge_asof on the same frames, whole call (conversion in and out
included), alternating, medians and the ratio; relix also with the symbols as a pandas
Categorical (passed by its codes, without hashing each row's string).

    make && PYTHONPATH=python /usr/bin/python3 bench/python_asof.py [ROWS] [ROUNDS]

Polars' join_asof is not timed: its Python package is not in Debian's archive (only on PyPI,
which this machine does not use), and nodejs-polars runs in Node, not on these DataFrames;
bench/compare.sh compares Polars (Node) on files. The script says so in its output."""
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


trades_cat = trades.assign(sym=trades["sym"].astype("category"))
quotes_cat = quotes.assign(sym=quotes["sym"].astype("category"))


def run_relix_cat():
    return relix.query(script, trades=trades_cat, quotes=quotes_cat)


def run_pandas():
    return pd.merge_asof(trades, quotes, on="ts", by="sym", direction="backward")


times = {"relix": [], "relix_cat": [], "pandas": []}
for _ in range(rounds):
    for name, fn in (("relix", run_relix), ("relix_cat", run_relix_cat), ("pandas", run_pandas)):
        t0 = time.perf_counter()
        out = fn()
        times[name].append(time.perf_counter() - t0)
        assert len(out) == rows
r, p = statistics.median(times["relix"]), statistics.median(times["pandas"])
print(f"ASOF {rows} x {rows}, 5000 symbols, {rounds} rounds alternating, whole call")
c = statistics.median(times["relix_cat"])
print(f"  relix.query        median {r:.3f} s")
print(f"  relix, Categorical median {c:.3f} s")
print(f"  pandas.merge_asof  median {p:.3f} s   ({p / r:.2f}x relix's time, {p / c:.2f}x with Categorical)")
print("  Polars join_asof   not timed: Python polars is not installed (PyPI only; not in Debian)")
