"""IJOIN LEFT, SEMI and ANTI in relix.dask on a real cluster (tests/cases/821-dask-ijoin-kinds.sh
starts it): for interval relations local in time and not, by key and without, by key alone, by
(key, time bin) and beside the whole right, the rows equal single-machine relix.query's (as
sorted row sets) over random intervals with NULL keys and endpoints, ties, zero-length and
inverted intervals and intervals spanning many bins. Single-machine Relix has no keyed IJOIN
LEFT/SEMI/ANTI operator, so the keyed reference runs the kind once per key value (a NULL key
matches nothing: its left rows are joined against an empty right).

    test_dask_kinds.py [SCHEDULER_ADDRESS]      (without one: Dask's local threads)"""
import sys

import numpy as np
import pandas as pd
import dask
import dask.dataframe as dd

import relix
import relix.dask as rxd
from rowsets import same

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print("FAILED:", what)


rng = np.random.default_rng(821)
KEYS = ["a", "b", "c"]


def intervals(n):
    """n intervals on a numeric axis 0..300: short ones on whole numbers (ties), zero-length
    ones, inverted ones (start > end), some spanning most of the axis (many bins), NULL
    endpoints and keys."""
    k = np.array(KEYS, dtype=object)[rng.integers(0, len(KEYS), n)]
    k[rng.random(n) < 0.04] = None
    s = rng.integers(0, 300, n).astype(np.float64)
    ln = rng.integers(1, 12, n)
    ln[rng.random(n) < 0.10] = 0
    ln[rng.random(n) < 0.06] = -5
    ln[rng.random(n) < 0.05] = 220
    e = s + ln
    s[rng.random(n) < 0.03] = np.nan
    e[rng.random(n) < 0.03] = np.nan
    return pd.DataFrame({"k": k, "s": s, "e": e, "id": np.arange(n)})


def reference(script, left, right, keyed):
    """Single-machine relix.query of the keyless kind script, per key value when keyed."""
    if not keyed:
        return relix.query(script, L=left, R=right)
    parts = [relix.query(script, L=left[left.k == key].reset_index(drop=True),
                         R=right[right.k == key].reset_index(drop=True)) for key in KEYS]
    parts.append(relix.query(script, L=left[left.k.isna()].reset_index(drop=True), R=right.iloc[:0]))
    return pd.concat(parts, ignore_index=True)


RELATIONS = ["INTERSECTS", "DURING", "MEETS", "EQUALS", "AT", ("OVERLAPS", "CONTAINS", "MET_BY"), "PRECEDES"]


def main():
    if len(sys.argv) > 1:
        from distributed import Client
        client = Client(sys.argv[1], timeout=60)
        client.wait_for_workers(2, timeout=60)
    else:
        client = None
    left, right = intervals(400), intervals(500)
    L, R = dd.from_pandas(left, npartitions=3), dd.from_pandas(right, npartitions=2)
    lazy, expect, names = [], [], []
    for rel in RELATIONS:
        at = rel == "AT"
        lon = "s" if at else ("s", "e")
        text, local = rxd._relation_text(rel)
        for kind in ("left", "semi", "anti"):
            script = rxd._ijoin_script(text, at, (lon,) if at else lon, ("s", "e"), [], False, kind)
            for by in ("k", None):
                exp = reference(script, left, right, by is not None)
                for st in (["hash"] if by else ["broadcast"]) + (["bins"] if local else []):
                    lazy.append(rxd.ijoin(L, R, rel, lon, ("s", "e"), by=by, kind=kind, strategy=st,
                                          npartitions=3, bins=9 if st == "bins" else None))
                    expect.append(exp)
                    names.append(f"{kind} {rel} by={by} {st}")
    got = dask.compute(*lazy)
    bad = [nm for g, e, nm in zip(got, expect, names) if not same(g, e)]
    for nm in bad:
        print("differs:", nm)
    check(not bad, "IJOIN LEFT/SEMI/ANTI equal relix.query")
    print(f"ijoin kinds: {len(RELATIONS)} relations x LEFT, SEMI, ANTI, by key (hash, bins) and without "
          f"(broadcast, bins): {len(names) - len(bad)} of {len(names)} equal")
    # the data has what makes the kinds hard: unmatched rows, rows matched in several bins
    e = expect[names.index("left INTERSECTS by=k bins")]
    print("left rows padded:", int(e["id_r"].isna().sum()) > 0, "left rows with several partners:",
          bool(e["id"].duplicated().any()))
    rep = {}
    out = rxd.ijoin(L, R, "INTERSECTS", ("s", "e"), by="k", kind="semi", strategy="bins", bins=9,
                    npartitions=3, report=rep).compute()
    check(rep["replicated_rows"] > 0, "long intervals are copied into several bins")
    check(not out["id"].duplicated().any(), "a SEMI row comes once")
    print("semi by (key, bin): intervals replicated:", rep["replicated_rows"] > 0, "each left row once:",
          not out["id"].duplicated().any(), "kind in the report:", rep.get("kind"))
    # timestamps as endpoints
    t0 = pd.Timestamp("2026-03-01", tz="UTC")

    def minutes(x):
        return t0 + pd.to_timedelta(x.fillna(0).astype(np.int64) * 60_000_000, unit="us").where(x.notna())

    lt = left.assign(s=minutes(left.s), e=minutes(left.e))
    rt = right.assign(s=minutes(right.s), e=minutes(right.e))
    for kind in ("left", "anti"):
        out = rxd.ijoin(dd.from_pandas(lt, npartitions=2), dd.from_pandas(rt, npartitions=3), "OVERLAPS",
                        ("s", "e"), by="k", kind=kind, strategy="bins", npartitions=3).compute()
        exp = reference(rxd._ijoin_script("OVERLAPS", False, ("s", "e"), ("s", "e"), [], False, kind), lt, rt, True)
        check(same(out, exp), f"timestamp endpoints, {kind}")
        print(f"{kind} over timestamps by (key, bin): equal:", same(out, exp))
    try:
        rxd.ijoin(L, R, "INTERSECTS", ("s", "e"), kind="outer")
        check(False, "an unknown kind is refused")
    except relix.RelixError as err:
        print("error (bad kind):", err)
    if client is not None:
        client.close()
    print("failed:", failed)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
