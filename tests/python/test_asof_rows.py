"""relix.query's AS-OF join against pandas.merge_asof on random frames where their rules
coincide (tests/cases/583-python-asof-rows.sh runs it): many rows per symbol, quotes sharing
timestamps (ties: both take the last quote in order), trades at exactly a quote's instant (both
match it), quotes without a symbol (neither matches them), carried columns with NaN, NaT, a
zoned timestamp and NULL text. The symbols cross as object strings, as Categoricals whose
categories differ in order between the two frames, and come back as objects, Categoricals
(categories=True) and numpy arrays (as_numpy=True): every way gives merge_asof's rows."""
import sys

import numpy as np
import pandas as pd

import relix

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print("FAILED:", what)


def frames(n, seed):
    rng = np.random.default_rng(seed)
    k = 5000
    syms = np.array([f"S{i:04d}" if i % 7 else f"Sé{i:04d}" for i in range(k)], dtype=object)
    base = np.datetime64("2026-03-02T09:30:00", "us").astype(np.int64)
    span = max(n // 4, 10)   # about four rows a microsecond on each side: ties and exact matches
    q_sym = syms[rng.integers(0, k, n)]
    q_sym[rng.random(n) < 0.01] = None
    bid = np.round(rng.uniform(10, 500, n), 2)
    bid[rng.random(n) < 0.02] = np.nan
    qt = pd.to_datetime(rng.integers(0, 10**12, n) + base, unit="us", utc=True).tz_convert("Europe/Paris")
    qt = qt.where(rng.random(n) >= 0.03)   # NaT
    venue = np.array(["NYSE", "NASDAQ", "BATS", None], dtype=object)[rng.integers(0, 4, n)]
    quotes = pd.DataFrame({"sym": q_sym,
                           "ts": pd.to_datetime(np.sort(rng.integers(0, span, n)) + base, unit="us", utc=True),
                           "bid": bid, "qt": qt, "venue": venue})
    trades = pd.DataFrame({"sym": syms[rng.integers(0, k, n)],
                           "ts": pd.to_datetime(np.sort(rng.integers(0, span, n)) + base, unit="us", utc=True),
                           "qty": rng.integers(1, 1000, n)})
    return trades, quotes


# no π: a projection drops repeated rows (relations are sets), which random rows have
SCRIPT = "query { trades ASOF trades.sym = quotes.sym ∧ trades.ts >= quotes.ts quotes };"
COLS = ["sym", "ts", "qty", "bid", "qt", "venue"]


def text(col):
    """An object or categorical column as an object array with None for each missing value."""
    a = np.asarray(pd.Series(col).astype(object), dtype=object)
    return np.where(pd.isna(a), None, a)


def same(got, want, how):
    n = len(want)
    check(len(got) == n, f"{how}: rows {len(got)} {n}")
    if len(got) != n:
        return
    check(set(COLS) <= set(got.columns), f"{how}: columns {list(got.columns)}")
    check((text(got["sym"]) == text(want["sym"])).all(), f"{how}: sym")
    check((got["ts"].to_numpy() == want["ts"].to_numpy()).all(), f"{how}: ts")
    check((got["qty"].to_numpy() == want["qty"].to_numpy()).all(), f"{how}: qty")
    gb, wb = got["bid"].to_numpy(), want["bid"].to_numpy()
    check(((gb == wb) | (np.isnan(gb) & np.isnan(wb))).all(), f"{how}: bid")
    check(str(got["qt"].dtype) == "datetime64[ns, UTC]", f"{how}: qt dtype {got['qt'].dtype}")
    gq, wq = got["qt"].array.asi8, want["qt"].dt.tz_convert("UTC").array.asi8
    check((gq == wq).all(), f"{how}: qt (instants and NaT)")
    check((text(got["venue"]) == text(want["venue"])).all(), f"{how}: venue")


def main(n):
    trades, quotes = frames(n, 11)
    want = pd.merge_asof(trades, quotes, on="ts", by="sym", direction="backward", allow_exact_matches=True)
    want = want[COLS]
    unmatched = int(want["bid"].isna().sum())
    exact = int(pd.merge(trades, quotes, on=["sym", "ts"]).shape[0])
    check(0 < unmatched < n and exact > 0 and quotes["ts"].duplicated().any(), "the data has every case")
    got = relix.query(SCRIPT, trades=trades, quotes=quotes)
    same(got, want, "object text")
    check(got["sym"].dtype == object and got["venue"].dtype == object, "text comes back as objects")
    # Categoricals with their categories in different orders on the two sides, and one unused
    t_cat = trades.assign(sym=pd.Categorical(trades["sym"], categories=sorted(set(trades["sym"]))))
    q_cats = sorted(set(quotes["sym"].dropna()), reverse=True) + ["unused"]
    q_cat = quotes.assign(sym=pd.Categorical(quotes["sym"], categories=q_cats), venue=quotes["venue"].astype("category"))
    same(relix.query(SCRIPT, trades=t_cat, quotes=q_cat), want, "categorical in")
    cat = relix.query(SCRIPT, categories=True, trades=trades, quotes=quotes)
    check(str(cat["sym"].dtype) == "category" and str(cat["venue"].dtype) == "category", "categories=True")
    check(len(cat["venue"].cat.categories) == 3, f"categories are the values present {list(cat['venue'].cat.categories)}")
    same(cat, want, "categories out")
    d = relix.query(SCRIPT, as_numpy=True, trades=trades, quotes=quotes)
    check(isinstance(d, dict) and d["sym"].dtype == object, "as_numpy")
    check(len(d["sym"]) == n and (text(d["venue"]) == text(want["venue"])).all() and
          (text(d["sym"]) == text(want["sym"])).all(), "as_numpy text")
    # a row per distinct string, not per row: the result's strings are shared objects
    s = got["sym"].to_numpy()
    check(len({id(v) for v in s[:10000]}) <= len(set(s[:10000])), "one str object per distinct value")
    # the result outlives the engine's buffers: later queries do not change it
    before = got.copy()
    relix.query("query { π sym, ts (trades) };", trades=trades.iloc[::-1].reset_index(drop=True))
    check(before.equals(got), "result unchanged after another query")


n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
main(n)
print("python asof rows:", "ok" if failed == 0 else f"{failed} failed")
sys.exit(1 if failed else 0)
