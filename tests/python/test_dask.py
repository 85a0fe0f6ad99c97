"""relix.dask on a real cluster (tests/cases/820-dask.sh starts it): every ASOF variant (each
direction, strict or not, TIES LAST/FIRST/ALL, INNER, WITHIN, k nearest) and every IJOIN
relation, by key, by time range and by (key, time bin), over random data with NULL keys and
times, ties, duplicate rows, a hot key and no key, give the rows of single-machine relix.query
(compared as sorted row sets); a whole script runs per key; errors come at once.

    test_dask.py SCHEDULER_ADDRESS"""
import itertools
import sys

import numpy as np
import pandas as pd
import dask
import dask.dataframe as dd
from distributed import Client, get_task_stream

import relix
import relix.dask as rxd
from rowsets import same

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print("FAILED:", what)


rng = np.random.default_rng(31)


def ticks(n, keys, hot, n_times, price):
    """n rows of (sym, ts, value): a share hot of them on key K0, NULL keys and times, times
    from n_times distinct seconds (ties), some rows duplicated."""
    sym = np.array(keys, dtype=object)[rng.integers(0, len(keys), n)]
    sym[rng.random(n) < hot] = keys[0]
    sym[rng.random(n) < 0.03] = None
    ts = pd.Series(pd.to_datetime(rng.integers(0, n_times, n) * 1_000_000, unit="us"))
    ts[rng.random(n) < 0.03] = pd.NaT
    df = pd.DataFrame({"sym": sym, "ts": ts, price: rng.integers(0, 1000, n), "id": np.arange(n)})
    dup = rng.choice(n, n // 20, replace=False)
    df.loc[dup[1:], ["sym", "ts", price]] = df.loc[dup[:-1], ["sym", "ts", price]].to_numpy()
    return df


def intervals(n, keys):
    """n intervals on a numeric axis: mostly short, some long (spanning bins), some empty or
    inverted (start > end), some NULL endpoints and keys."""
    k = np.array(keys, dtype=object)[rng.integers(0, len(keys), n)]
    k[rng.random(n) < 0.03] = None
    s = rng.integers(0, 200, n).astype(np.float64)
    ln = rng.integers(0, 15, n)
    ln[rng.random(n) < 0.08] = -4
    ln[rng.random(n) < 0.05] = 80
    e = s + ln
    s[rng.random(n) < 0.02] = np.nan
    e[rng.random(n) < 0.02] = np.nan
    return pd.DataFrame({"k": k, "s": s, "e": e, "id": np.arange(n)})


def asof_cases(client):
    keys = [f"K{i}" for i in range(12)]
    trades = ticks(1500, keys, 0.4, 500, "qty")
    quotes = ticks(2000, keys, 0.4, 500, "px")
    L = dd.from_pandas(trades, npartitions=2)
    R = dd.from_pandas(quotes, npartitions=2)
    lazy, expect, names = [], [], []
    variants = list(itertools.product(["backward", "forward", "nearest"], [False, True],
                                      ["last", "first", "all"]))
    for by, strategy in [("sym", "hash"), ("sym", "time"), (None, "time")]:
        for i, (direction, strict, ties) in enumerate(variants):
            inner = i % 2 == 1
            within = [None, pd.Timedelta(seconds=2), "PT0S"][i % 3]
            k = 3 if i % 4 == 2 else None
            kw = dict(direction=direction, strict=strict, ties=ties, inner=inner, within=within, k=k)
            lazy.append(rxd.asof(L, R, on="ts", by=by, strategy=strategy, npartitions=3, **kw))
            script = rxd._asof_script("ts", "ts", [("sym", "sym")] if by else [], direction, strict, within,
                                      inner, ties, k)
            expect.append(relix.query(script, L=trades, R=quotes))
            names.append(f"asof by={by} {strategy} {kw}")
    with get_task_stream(client) as ts:
        got = dask.compute(*lazy)
    ran_on = {t["worker"] for t in ts.data}
    check(len(ran_on) == 2, f"tasks ran on both workers: {ran_on}")
    bad = [nm for g, e, nm in zip(got, expect, names) if not same(g, e)]
    for nm in bad:
        print("differs:", nm)
    check(not bad, "ASOF variants equal relix.query")
    print(f"asof: {len(names)} variants (3 directions x strict x 3 tie rules; INNER, WITHIN, k mixed in),"
          f" by key, by time with a key, by time without: {len(names) - len(bad)} equal")

    # the time ranges carry rows in, the hot key is seen, inputs partitioned ahead are used as they are
    rep = {}
    out = rxd.asof(L, R, on="ts", by="sym", npartitions=4, report=rep)
    check(rep["strategy"] == "time" and rep["carried_rows"] > 0, f"hot key: time ranges with carried rows {rep}")
    check(same(out.compute(), relix.query(rxd._asof_script("ts", "ts", [("sym", "sym")], "backward", False, None,
                                                           False, "last", None), L=trades, R=quotes)),
          "reported run equals relix.query")
    print("asof auto on a hot key:", rep["strategy"], "with carried rows:", rep["carried_rows"] > 0)
    for key in ("shuffle_s", "kernel_s", "split_s", "concat_s", "rows_exchanged", "bytes_exchanged"):
        check(key in rep and rep[key] >= 0, f"report has {key}")
    check(rep["kernel_s"] > 0 and rep["rows_exchanged"] >= len(trades), f"report counts {rep}")
    print("report:", sorted(k for k in rep if k.endswith("_s")))
    lp = rxd.partition(L, "sym", 4)
    rp = rxd.partition(R, "sym", 4)
    rep = {}
    out = rxd.asof(lp, rp, on="ts", by="sym", direction="forward", ties="first", report=rep)
    # not persisted: the partitioning's own exchange runs in this join, straight into its kernels
    check(rep["strategy"] == "aligned" and rep["rows_exchanged"] == len(trades) + len(quotes),
          f"partitioned ahead {rep}")
    held = {}
    rxd.asof(lp.persist(), rp.persist(), on="ts", by="sym", report=held)
    check(held["strategy"] == "aligned" and held["rows_exchanged"] == 0, f"partitioned ahead, persisted {held}")
    check(same(out.compute(), relix.query(rxd._asof_script("ts", "ts", [("sym", "sym")], "forward", False, None,
                                                           False, "first", None), L=trades, R=quotes)),
          "partitioned ahead equals relix.query")
    print("asof over inputs partitioned ahead:", rep["strategy"])
    # a left in time ranges already (indexed by its time, known divisions): used as it is
    ts = trades.dropna(subset=["ts"])
    li = dd.from_pandas(ts.set_index("ts"), npartitions=4)
    for direction, k in (("backward", None), ("forward", 2), ("nearest", None)):
        rep = {}
        out = rxd.asof(li, R, on="ts", by="sym", direction=direction, k=k, ties="first", report=rep)
        exp = relix.query(rxd._asof_script("ts", "ts", [("sym", "sym")], direction, False, None, False, "first", k),
                          L=ts[["ts"] + [c for c in ts.columns if c != "ts"]], R=quotes)
        check(rep["strategy"] == "time (left by its divisions)", f"left by its divisions: {rep['strategy']}")
        check(same(out.compute(), exp), f"left by its divisions, {direction}")
        print(f"asof {direction} k={k} over a left indexed by time:", rep["strategy"], "equal:", same(out.compute(), exp))
    return trades, quotes


RELATIONS = ["INTERSECTS", "PRECEDES", "PRECEDED_BY", "MEETS", "MET_BY", "OVERLAPS", "OVERLAPPED_BY",
             "STARTS", "STARTED_BY", "DURING", "CONTAINS", "FINISHES", "FINISHED_BY", "EQUALS", "COVERS",
             "COVERED_BY", "AT", ("PRECEDES", "MEETS"), ("OVERLAPS", "DURING", "MET_BY")]


def ijoin_cases():
    keys = ["a", "b", "c", "d"]
    left = intervals(500, keys)
    right = intervals(600, keys)
    L = dd.from_pandas(left, npartitions=2)
    R = dd.from_pandas(right, npartitions=2)
    lazy, expect, names = [], [], []
    for rel in RELATIONS:
        local = rel not in ("PRECEDES", "PRECEDED_BY", ("PRECEDES", "MEETS"))
        lon = "s" if rel == "AT" else ("s", "e")
        text, _ = rxd._relation_text(rel)
        for by in ("k", None):
            strategies = (["hash"] if by else ["broadcast"]) + (["bins"] if local else [])
            exp = relix.query(rxd._ijoin_script(text, rel == "AT", (lon,) if rel == "AT" else lon, ("s", "e"),
                                                [("k", "k")] if by else [], False), L=left, R=right)
            for st in strategies:
                lazy.append(rxd.ijoin(L, R, rel, lon, ("s", "e"), by=by, strategy=st, npartitions=3,
                                      bins=7 if st == "bins" else None))
                expect.append(exp)
                names.append(f"ijoin {rel} by={by} {st}")
    got = dask.compute(*lazy)
    bad = [nm for g, e, nm in zip(got, expect, names) if not same(g, e)]
    for nm in bad:
        print("differs:", nm)
    check(not bad, "IJOIN relations equal relix.query")
    print(f"ijoin: {len(RELATIONS)} relations (16, AT, two sets), by key, by (key, bin), by bin, broadcast:"
          f" {len(names) - len(bad)} of {len(names)} equal")
    rep = {}
    out = rxd.ijoin(L, R, "INTERSECTS", ("s", "e"), strategy="bins", bins=[25, 50, 75, 100, 125, 150, 175],
                    report=rep)
    check(rep["replicated_rows"] > 0, "long intervals are copied into the bins they span")
    exp = relix.query(rxd._ijoin_script("INTERSECTS", False, ("s", "e"), ("s", "e"), [], False), L=left, R=right)
    check(same(out.compute(), exp), "explicit bins equal relix.query")
    print("ijoin over explicit bins: intervals replicated:", rep["replicated_rows"] > 0, "pairs each once:",
          same(out.compute(), exp))
    # timestamps as endpoints
    t0 = pd.Timestamp("2026-03-01", tz="UTC")
    def minutes(x):
        return t0 + pd.to_timedelta(x.fillna(0).astype(np.int64) * 60_000_000, unit="us").where(x.notna())

    lt = left.assign(s=minutes(left.s), e=minutes(left.e))
    rt = right.assign(s=minutes(right.s), e=minutes(right.e))
    out = rxd.ijoin(dd.from_pandas(lt, npartitions=2), dd.from_pandas(rt, npartitions=3), "OVERLAPS", ("s", "e"),
                    by="k", strategy="bins", npartitions=3).compute()
    exp = relix.query(rxd._ijoin_script("OVERLAPS", False, ("s", "e"), ("s", "e"), [("k", "k")], False), L=lt, R=rt)
    check(same(out, exp), "timestamp endpoints")
    print("ijoin over timestamps by (key, bin): equal:", same(out, exp))


def script_cases(trades, quotes):
    script = """
Q := { σ px > 100 (quotes) };
A := { trades ASOF trades.sym = Q.sym ∧ trades.ts >= Q.ts WITHIN DURATION 'PT30S' Q };
query { γ sym; count(*) → n, sum(px) → px, max(ts) → last (A) };
"""
    got = rxd.query(script, by="sym", trades=dd.from_pandas(trades, npartitions=3),
                    quotes=dd.from_pandas(quotes, npartitions=2), npartitions=4).compute()
    exp = relix.query(script, trades=trades, quotes=quotes)
    check(same(got, exp), "a whole script by key")
    print("script by key (σ, ASOF WITHIN, γ per key): equal:", same(got, exp), "groups:", len(exp))
    # a small relation without the key is broadcast to every partition
    names = pd.DataFrame({"code": [f"K{i}" for i in range(12)], "name": [f"name {i}" for i in range(12)]})
    script2 = "query { π id, name (trades ⨝ trades.sym = names.code names) };"
    got = rxd.query(script2, by={"trades": "sym"}, trades=dd.from_pandas(trades, npartitions=3),
                    names=dd.from_pandas(names, npartitions=1)).compute()
    exp = relix.query(script2, trades=trades, names=names)
    check(same(got, exp), "a broadcast relation")
    print("script with a broadcast relation: equal:", same(got, exp))


def error_cases(trades, quotes):
    L = dd.from_pandas(trades, npartitions=2)
    R = dd.from_pandas(quotes, npartitions=2)
    for what, fn in [
        ("unknown column", lambda: rxd.asof(L, R, on="time", by="sym")),
        ("WITHIN a duration over numbers", lambda: rxd.asof(L, R, on=("qty", "px"), by="sym", within="PT1S")),
        ("bad direction", lambda: rxd.asof(L, R, on="ts", by="sym", direction="sideways")),
        ("bad relation", lambda: rxd.ijoin(L, R, "NEAR", ("ts", "ts"))),
        ("bins for PRECEDES", lambda: rxd.ijoin(L, R, "PRECEDES", ("ts", "ts"), strategy="bins")),
        ("a script error", lambda: rxd.query("query { trades ⨝ trades.nope = quotes.sym quotes };", by="sym",
                                             trades=L, quotes=R)),
    ]:
        try:
            fn()
            check(False, f"{what}: no error")
        except relix.RelixError as e:
            print(f"error ({what}):", str(e).splitlines()[0])


def main():
    client = Client(sys.argv[1], timeout=60)
    client.wait_for_workers(2, timeout=60)
    trades, quotes = asof_cases(client)
    ijoin_cases()
    script_cases(trades, quotes)
    error_cases(trades, quotes)
    client.close()
    print("failed:", failed)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
