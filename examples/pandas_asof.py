"""Trades against the quote in force, on pandas DataFrames (docs/embedding.md): relix.query binds
each keyword as a relation and returns the last query's result as a DataFrame.
tests/cases/580-host-columns.sh runs it."""
import pandas as pd

import relix

trades = pd.DataFrame({
    "sym": ["ACME", "INIT", "ACME"],
    "ts": pd.to_datetime(["2026-01-02 09:30:01", "2026-01-02 09:30:01.5", "2026-01-02 09:30:03"], utc=True),
    "qty": [100, 20, 50],
})
quotes = pd.DataFrame({
    "sym": ["ACME", "ACME", "INIT"],
    "ts": pd.to_datetime(["2026-01-02 09:30:00.9", "2026-01-02 09:30:02", "2026-01-02 09:30:01.6"], utc=True),
    "bid": [10.25, 10.5, 7.75],
})
out = relix.query("""
    query { π sym, ts, qty, bid (trades ASOF trades.sym = quotes.sym ∧ trades.ts >= quotes.ts quotes) };
""", trades=trades, quotes=quotes)
print(out.to_string(index=False))
print(out.dtypes.to_dict())
