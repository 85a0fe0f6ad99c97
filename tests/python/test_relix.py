"""The Python module against pandas (tests/cases/579-python.sh runs it): an AS-OF join of two
1M-row DataFrames through relix.query gives exactly pandas.merge_asof's rows; types, NULLs,
NaT and time zones map both ways; errors arrive as RelixError with the engine's message."""
import sys
import time

import numpy as np
import pandas as pd

import relix

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print("FAILED:", what)


def asof_vs_merge_asof(n):
    rng = np.random.default_rng(7)
    syms = np.array([f"S{i:04d}" for i in range(500)], dtype=object)
    base = np.datetime64("2026-03-02T09:30:00", "us").astype(np.int64)
    # quotes: distinct timestamps (merge_asof and Relix agree on ties, but keep the test about the join)
    q_us = np.sort(rng.choice(6_000_000_000, size=n, replace=False)) + base
    t_us = np.sort(rng.integers(0, 6_000_000_000, size=n)) + base
    quotes = pd.DataFrame({"sym": syms[rng.integers(0, 500, n)],
                           "ts": pd.to_datetime(q_us, unit="us", utc=True),
                           "bid": np.round(rng.uniform(10, 500, n), 2)})
    trades = pd.DataFrame({"sym": syms[rng.integers(0, 500, n)],
                           "ts": pd.to_datetime(t_us, unit="us", utc=True),
                           "qty": rng.integers(1, 1000, n)})
    t0 = time.perf_counter()
    got = relix.query("query { π sym, ts, qty, bid (trades ASOF trades.sym = quotes.sym ∧ trades.ts >= quotes.ts quotes) };",
                      trades=trades, quotes=quotes)
    t1 = time.perf_counter()
    want = pd.merge_asof(trades, quotes, on="ts", by="sym", direction="backward", allow_exact_matches=True)
    t2 = time.perf_counter()
    want = want[["sym", "ts", "qty", "bid"]]
    check(len(got) == n and len(want) == n, f"rows {len(got)} {len(want)}")
    check(list(got.columns) == ["sym", "ts", "qty", "bid"], f"columns {list(got.columns)}")
    check((got["sym"].to_numpy() == want["sym"].to_numpy()).all(), "sym")
    check((got["ts"] == want["ts"]).all(), "ts")
    check((got["qty"].to_numpy() == want["qty"].to_numpy()).all(), "qty")
    gb, wb = got["bid"].to_numpy(), want["bid"].to_numpy()
    check(((gb == wb) | (np.isnan(gb) & np.isnan(wb))).all(), "bid")
    check(np.isnan(wb).sum() > 0 and np.isnan(wb).sum() < n, "some trades without a quote")
    print(f"asof {n} x {n}: {np.isnan(gb).sum()} unmatched, relix {t1 - t0:.2f} s, merge_asof {t2 - t1:.2f} s")


def types_and_nulls():
    t = pd.DataFrame({
        "s": pd.Series(["a", None, "é", "dd"], dtype=object),
        "i": pd.array([1, None, -3, 2**62], dtype="Int64"),
        "f": [1.5, np.nan, -0.0, 1e300],
        "b": pd.array([True, None, False, True], dtype="boolean"),
        "n": pd.to_datetime(["2026-01-01 00:00:00.000001", None, "1969-12-31 23:59:59", "2262-04-11"]),
        "z": pd.to_datetime(["2026-01-01 09:00", "2026-07-01 09:00", None, "2000-02-29 12:00"]).tz_localize("Europe/Paris"),
        "c": pd.Series(["x", "y", "x", None], dtype="category"),
    })
    out = relix.query("query { T };", T=t)
    check(list(out["s"]) == ["a", None, "é", "dd"], f"text {list(out['s'])}")
    check(out["i"].dtype == "Int64" and out["i"].isna().tolist() == [False, True, False, False]
          and out["i"][3] == 2**62, "Int64")
    check(out["f"].isna().tolist() == [False, True, False, False] and out["f"][3] == 1e300, "float")
    check(out["b"].dtype == "boolean" and out["b"].isna().tolist() == [False, True, False, False], "boolean")
    check(str(out["n"].dtype) == "datetime64[ns, UTC]", f"ts dtype {out['n'].dtype}")
    check(out["n"].isna().tolist() == [False, True, False, False], "NaT")
    check(out["n"][0] == pd.Timestamp("2026-01-01 00:00:00.000001", tz="UTC"), "naive is UTC")
    check(out["z"][0] == pd.Timestamp("2026-01-01 08:00", tz="UTC") and out["z"][1] == pd.Timestamp("2026-07-01 07:00", tz="UTC"),
          f"zones {out['z'][0]} {out['z'][1]}")
    check(list(out["c"]) == ["x", "y", "x", None], "category")
    # numpy dicts in and out
    d = relix.query("query { σ v > 1 (A) };", as_numpy=True, A={"v": np.array([1, 2, 3]), "w": np.array([0.5, 1.5, 2.5])})
    check(list(d["v"]) == [2, 3] and list(d["w"]) == [1.5, 2.5], f"numpy {d}")
    # nanoseconds that are not whole microseconds: an error, not rounding
    try:
        relix.query("query { T };", T=pd.DataFrame({"t": pd.to_datetime([1500], unit="ns")}))
        check(False, "sub-microsecond accepted")
    except relix.RelixError as e:
        check("microsecond" in str(e) and "row 1" in str(e), str(e))
    try:
        relix.query("query { σ nope > 1 (T) };", T=pd.DataFrame({"a": [1]}))
        check(False, "bad query accepted")
    except relix.RelixError as e:
        check("nope" in str(e) and "1:" in str(e), str(e))
    check(relix.version().count(".") == 2, "version")


def parameters():
    """Prepared scripts: values of every kind bound by name and number, one parse for many
    runs, bound text never spliced into the script, errors at the parameter."""
    df = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "it's", "z"],
                       "ts": pd.to_datetime(["2026-01-01", "2026-01-02", "2026-01-03"])})
    out = relix.query("query { σ a >= $1 ∧ b <> :nm (T) };", params={1: 2, "nm": "z"}, T=df)
    check(out["a"].tolist() == [2], f"params {out}")
    out = relix.query("query { σ b = $1 (T) };", params=["x' ∨ TRUE ∨ b = 'y"], T=df)
    check(len(out) == 0, "text spliced")
    out = relix.query("query { σ b = $1 (T) };", params=["it's"], T=df)
    check(out["a"].tolist() == [2], "quote")
    check(len(relix.query("query { σ a = $1 (T) };", params=[None], T=df)) == 0, "NULL")
    with relix.prepare("query { σ ts >= :t ∧ a < :lim (T) };", T=df) as p:
        runs = [len(p.run(t=pd.Timestamp("2026-01-02", tz="Europe/Paris"), lim=k)) for k in range(100)]
        check(runs == [0, 0, 0, 1] + [2] * 96, f"runs {runs[:5]}")
        check(len(p.run({"t": np.datetime64("2026-01-03T00:00"), "lim": 10.5})) == 1, "datetime64, float")
        try:
            p.run(t="2026-01-02", lim=1)
            check(False, "text for a timestamp accepted")
        except relix.RelixError as e:
            check("1:17: error: parameter :t is compared with TIMESTAMP" in str(e), str(e))
        try:
            p.run(lim=1)
            check(False, "missing bind accepted")
        except relix.RelixError as e:
            check("parameter :t is not bound" in str(e), str(e))
        try:
            p.run(nope=1)
            check(False, "unknown parameter accepted")
        except relix.RelixError as e:
            check("no parameter nope" in str(e), str(e))


def fast_paths():
    """The conversions that skip per-row Python work keep every value: categoricals (codes
    mapped through their categories, NULLs included), zoned timestamps read as their UTC
    nanoseconds (NaT included), pandas' string dtype with pd.NA, and result frames whose columns
    stay separate blocks."""
    df = pd.DataFrame({
        "c": pd.Categorical(["b", None, "a", "b"]),
        "ci": pd.Categorical([1, 2, None, 1]),
        "z": pd.Series(pd.to_datetime(["2026-01-01T09:00", None, "2026-07-01T09:00", "2026-01-01T00:00:00.000001"]))
            .dt.tz_localize("Asia/Tokyo"),
        "s": pd.array(["x", pd.NA, "é", ""], dtype="string"),
        "i": [1, 2, 3, 4], "j": [5, 6, 7, 8]})
    out = relix.query("query { T };", T=df)
    check(list(out["c"]) == ["b", None, "a", "b"], f"categorical {list(out['c'])}")
    check(list(out["ci"]) == ["1", "2", None, "1"], f"int categorical {list(out['ci'])}")
    check(out["z"][0] == pd.Timestamp("2026-01-01T00:00", tz="UTC") and pd.isna(out["z"][1]) and
          out["z"][3] == pd.Timestamp("2025-12-31T15:00:00.000001", tz="UTC"), f"zoned {list(out['z'])}")
    check(list(out["s"]) == ["x", None, "é", ""], f"string dtype {list(out['s'])}")
    check(out["i"].tolist() == [1, 2, 3, 4] and out["j"].tolist() == [5, 6, 7, 8], "ints")
    cat = relix.query("query { π c, s (T) };", categories=True, T=df)
    check(str(cat["c"].dtype) == "category" and list(cat["c"].astype(object).where(cat["c"].notna(), None)) ==
          ["b", None, "a", "b"], f"categories out {list(cat['c'])}")
    check(sorted(cat["s"].cat.categories) == ["", "x", "é"] and cat["s"].isna().tolist() == [False, True, False, False],
          f"categories out {list(cat['s'])}")


def text_by_reference():
    """An object column of str only is numbered by reference in C (rx_factorize_u64) and handed
    over with one dictionary entry per distinct object; a column with anything else (None, NaN,
    numbers) takes pandas' table. Random columns of both kinds, with equal strings behind
    different objects, empty strings and non-ASCII text, must group, join and come back exactly
    as pandas sees them."""
    rng = np.random.default_rng(7)
    pool = ["", "a", "ab", "é", "日本", "x y", "a,b", "S0001"]
    for rnd in range(60):
        n = int(rng.integers(0, 400))
        vals = np.empty(n, dtype=object)
        for i in range(n):
            v = pool[int(rng.integers(0, len(pool)))]
            vals[i] = "".join(list(v)) if rng.random() < 0.5 else v   # a fresh object half the time
        if rnd % 3 == 1 and n:
            vals[int(rng.integers(0, n))] = None
        if rnd % 3 == 2 and n:
            vals[int(rng.integers(0, n))] = 7   # a number: str(7) as before
        if rnd == 0:
            check(relix._coded_refs(vals) is not None or n == 0, "the reference path is taken for str only")
        if rnd % 3 == 1 and n:
            check(relix._coded_refs(vals) is None, "None leaves the reference path")
        T = pd.DataFrame({"s": vals, "i": range(n)})
        back = relix.query("query { T };", T=T)
        want = [None if v is None else str(v) for v in vals]
        check(list(back["s"]) == want, f"round {rnd}: {list(back['s'])[:8]} against {want[:8]}")
        g = relix.query("query { γ s; count(*) → n (T) };", T=T)
        got = {k: int(c) for k, c in zip(g["s"], g["n"])}
        exp = {}
        for v in want:
            exp[v] = exp.get(v, 0) + 1
        check(got == exp, f"round {rnd}: grouped {got} against {exp}")
        U = pd.DataFrame({"s": np.array(pool, dtype=object), "k": range(len(pool))})
        j = relix.query("query { π i, k (T ⨝ T.s = U.s U) };", T=T, U=U)
        pairs = sorted(zip(j["i"].tolist(), j["k"].tolist()))
        expj = sorted((i, pool.index(v)) for i, v in enumerate(want) if v in pool)
        check(pairs == expj, f"round {rnd}: joined {pairs[:5]} against {expj[:5]}")


def references_and_range():
    """Text columns are hashed by object reference first: equal strings held by different
    objects, None and NaN must still group, compare and come back as before. A timestamp or
    date outside datetime64[ns]'s years (1677-2262) is an error naming the column and row,
    never a value wrapped around to another date; the edges and NULLs still convert."""
    shared = "ab"
    fresh = ["".join(["a", "b"]) for _ in range(3)]          # three more objects equal to "ab"
    vals = np.empty(9, dtype=object)
    vals[:] = [shared, fresh[0], None, float("nan"), shared, "é", fresh[1], np.nan, fresh[2]]
    T = pd.DataFrame({"s": vals, "i": range(9)})
    out = relix.query("query { T };", T=T)
    check(list(out["s"]) == ["ab", "ab", None, None, "ab", "é", "ab", None, "ab"], f"references {list(out['s'])}")
    g = relix.query("query { γ s; count(*) → n (T) };", T=T)
    got = {(None if pd.isna(k) else k): int(v) for k, v in zip(g["s"], g["n"])}
    check(got == {"ab": 5, "é": 1, None: 3}, f"references grouped {got}")
    A = pd.DataFrame({"a": [1, 2]})
    for lit, col in (("TIMESTAMP '0001-01-01T00:00:00Z'", "t"), ("DATE '0001-01-01'", "d"),
                     ("TIMESTAMP '9999-12-31T00:00:00Z'", "t")):
        try:
            r = relix.query(f"query {{ π a, {lit} → {col} (A) }};", A=A)
            check(False, f"{lit} came back as {list(r[col])}")
        except relix.RelixError as e:
            check(f"column '{col}', row 1" in str(e) and "1677" in str(e), str(e))
    edge = relix.query("query { π a, TIMESTAMP '2262-04-11T23:47:16.854775Z' → t, DATE '1677-09-22' → d (A) };", A=A)
    check(edge["t"][0] == pd.Timestamp("2262-04-11T23:47:16.854775", tz="UTC") and
          edge["d"][1] == pd.Timestamp("1677-09-22"), f"edges {list(edge['t'])} {list(edge['d'])}")
    N = pd.DataFrame({"t": pd.to_datetime(["2026-01-01", None], utc=True)})
    nn = relix.query("query { T };", T=N)
    check(nn["t"][0] == pd.Timestamp("2026-01-01", tz="UTC") and pd.isna(nn["t"][1]), f"NaT {list(nn['t'])}")


n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
references_and_range()
text_by_reference()
fast_paths()
parameters()
types_and_nulls()
asof_vs_merge_asof(n)
print("python:", "ok" if failed == 0 else f"{failed} failed")
sys.exit(1 if failed else 0)
