"""relix.dask.read_csv(by=, npartitions=) on a real cluster (tests/cases/880-dask-read-partitioned.sh
starts it): files read hash-partitioned on the key by the reading tasks hold every key's rows in
one partition, in the file's order, and the same rows as an unpartitioned read; ASOF (each
direction, TIES, INNER, WITHIN), IJOIN and a whole script over two files read so run aligned
(no exchange of their own) and give the rows of single-machine Relix over the whole files
(compared as sorted row sets), with NULL keys, more partitions than keys (empty partitions), keys
in one file only, keys with quotes, commas and newlines, and times written with UTC offsets; a
file read partitioned meets a frame placed by relix.dask.partition; an empty file; errors.

    test_dask_partitioned.py SCHEDULER_ADDRESS FOLDER"""
import os
import sys

import numpy as np
import pandas as pd
import dask.dataframe as dd
from distributed import Client

import relix
import relix.dask as rxd
from rowsets import same

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print("FAILED:", what)


rng = np.random.default_rng(880)
KEYS = ["A", "B", 'say "hi"', "a, b", "two\nlines", "only_t", "only_q", "Ä€"]


def write(path, frame):
    frame.to_csv(path, index=False)


def stamps(n, zone):
    """n timestamp texts over 300 seconds (ties), written with the UTC offset zone ('Z',
    '+02:00', '-05:30'), some empty (NULL)."""
    base = pd.Timestamp("2026-03-02T09:30:00Z") + pd.to_timedelta(rng.integers(0, 300, n), unit="s")
    off = {"Z": pd.Timedelta(0), "+02:00": pd.Timedelta(hours=2), "-05:30": pd.Timedelta(hours=-5, minutes=-30)}[zone]
    txt = (base.tz_localize(None) + off).strftime("%Y-%m-%dT%H:%M:%S").to_numpy(object) + zone
    txt[rng.random(n) < 0.02] = ""
    return txt


def sides(n_t, n_q):
    """(trades, quotes) frames of text to write: keys from KEYS with NULLs, "only_t" never in
    quotes and "only_q" never in trades; trades' times in +02:00, quotes' in Z and -05:30."""
    kt = np.array([k for k in KEYS if k != "only_q"] + [""], dtype=object)
    kq = np.array([k for k in KEYS if k != "only_t"] + [""], dtype=object)
    t = pd.DataFrame({"id": np.arange(n_t), "sym": kt[rng.integers(0, len(kt), n_t)], "ts": stamps(n_t, "+02:00"),
                      "qty": rng.integers(1, 100, n_t)})
    zq = np.where(rng.random(n_q) < 0.5, stamps(n_q, "Z"), stamps(n_q, "-05:30"))
    q = pd.DataFrame({"qid": np.arange(n_q), "sym": kq[rng.integers(0, len(kq), n_q)], "ts": zq,
                      "px": np.round(rng.uniform(1, 50, n_q), 2)})
    return t, q


def main():
    client = Client(sys.argv[1], timeout=60)
    client.wait_for_workers(2, timeout=60)
    folder = sys.argv[2]
    tp, qp = os.path.join(folder, "t.csv"), os.path.join(folder, "q.csv")
    t, q = sides(3000, 2500)
    write(tp, t)
    write(qp, q)
    bs = 9000              # about a dozen blocks a file

    # partitioned reading: every key in one partition, in the file's order; the same rows
    plain = rxd.read_csv(tp, blocksize=bs).compute()
    for n in (1, 3, 16):
        parted = rxd.read_csv(tp, blocksize=bs, by="sym", npartitions=n)
        parts = [p for p in client.compute(parted.to_delayed(), sync=True)]
        homes = {}
        in_order = True
        for i, p in enumerate(parts):
            for k in p["sym"].astype(object).where(p["sym"].notna(), None).unique():
                homes.setdefault(k, set()).add(i)
            in_order &= bool((np.diff(p["id"].to_numpy(np.int64)) > 0).all())
        one_home = all(len(h) == 1 for h in homes.values())
        rows = pd.concat(parts, ignore_index=True) if parts else plain.iloc[:0]
        empty = sum(len(p) == 0 for p in parts)
        check(parted.npartitions == n and one_home and in_order and same(rows, plain),
              f"read_csv by sym into {n}: one partition a key, file order, the rows of a plain read")
        print(f"read by sym into {n} partitions: each key in one: {one_home}, file order: {in_order}, "
              f"same rows: {same(rows, plain)}, empty partitions: {empty}")

    # ASOF over two files read partitioned alike: aligned, and single-machine Relix's rows
    variants = [dict(), dict(direction="forward", ties="first"), dict(direction="nearest", strict=True),
                dict(ties="all", inner=True), dict(within=pd.Timedelta("20s"), inner=True),
                dict(direction="backward", strict=True, k=2)]
    T = relix.query(f"t := csv('{tp}'); query {{ t }};")      # single-machine Relix over the whole files
    Q = relix.query(f"q := csv('{qp}'); query {{ q }};")
    for n in (3, 16):
        lt = rxd.read_csv(tp, blocksize=bs, by="sym", npartitions=n)
        rq = rxd.read_csv(qp, blocksize=bs, by="sym", npartitions=n)
        for kw in variants:
            rep = {}
            out = rxd.asof(lt, rq, on="ts", by="sym", report=rep, **kw)
            script = rxd._asof_script("ts", "ts", [("sym", "sym")], kw.get("direction", "backward"),
                                      kw.get("strict", False), kw.get("within"), kw.get("inner", False),
                                      kw.get("ties", "last"), kw.get("k"))
            ok = same(out.compute(), relix.query(script, L=T, R=Q))
            check(ok and rep["strategy"] == "aligned" and rep["rows_exchanged"] == len(t) + len(q),
                  f"asof {kw} over files read by sym into {n}: {ok} {rep.get('strategy')} {rep.get('rows_exchanged')}")
        print(f"asof over files read by sym into {n} partitions: {len(variants)} variants, strategy "
              f"{rep['strategy']}, rows exchanged {rep['rows_exchanged']} (the files' rows, once), "
              f"read in the tasks: {rep['read_s'] > 0}")

    # the same join over unpartitioned reads (a hash exchange) gives the same rows
    out = rxd.asof(rxd.read_csv(tp, blocksize=bs), rxd.read_csv(qp, blocksize=bs), on="ts", by="sym",
                   strategy="hash", npartitions=5).compute()
    exp = relix.query(rxd._asof_script("ts", "ts", [("sym", "sym")], "backward", False, None, False, "last", None),
                      L=T, R=Q)
    check(same(out, exp), "asof over plain reads")
    print("asof over plain reads, hash exchange:", same(out, exp))

    # a partitioned file meets a frame placed by relix.dask.partition (object text): one hash
    qd = rxd.partition(dd.from_pandas(Q, npartitions=4), "sym", 6)
    rep = {}
    out = rxd.asof(rxd.read_csv(tp, blocksize=bs, by="sym", npartitions=6), qd, on="ts", by="sym", report=rep)
    check(same(out.compute(), exp) and rep["strategy"] == "aligned", f"file by read_csv x frame by partition {rep}")
    print("a file read by sym x a frame by relix.dask.partition:", rep["strategy"], same(out.compute(), exp))
    # different counts: not aligned, exchanged again, still exact
    rep = {}
    out = rxd.asof(rxd.read_csv(tp, blocksize=bs, by="sym", npartitions=4),
                   rxd.read_csv(qp, blocksize=bs, by="sym", npartitions=7), on="ts", by="sym", strategy="hash",
                   report=rep)
    check(same(out.compute(), exp) and rep["strategy"] == "hash", f"counts differ {rep}")
    print("files read by sym into 4 and 7 partitions:", rep["strategy"], same(out.compute(), exp))
    # persisted partitioned inputs are used as they are held
    lt = rxd.read_csv(tp, blocksize=bs, by="sym", npartitions=3).persist()
    rq = rxd.read_csv(qp, blocksize=bs, by="sym", npartitions=3).persist()
    rep = {}
    out = rxd.asof(lt, rq, on="ts", by="sym", report=rep)
    check(same(out.compute(), exp) and rep["strategy"] == "aligned" and rep["rows_exchanged"] == 0,
          f"persisted partitioned files {rep}")
    print("persisted files read by sym:", rep["strategy"], "rows exchanged", rep["rows_exchanged"])

    # IJOIN and a whole script over files read partitioned alike
    ip, jp = os.path.join(folder, "i.csv"), os.path.join(folder, "j.csv")
    for path, n in ((ip, 1500), (jp, 1200)):
        s = rng.integers(0, 500, n)
        k = np.array(KEYS + [""], dtype=object)[rng.integers(0, len(KEYS) + 1, n)]
        write(path, pd.DataFrame({"k": k, "s": s, "e": s + rng.integers(0, 30, n), "v": np.arange(n)}))
    li = rxd.read_csv(ip, blocksize=4000, by="k", npartitions=5)
    rj = rxd.read_csv(jp, blocksize=4000, by="k", npartitions=5)
    rep = {}
    out = rxd.ijoin(li, rj, "INTERSECTS", ("s", "e"), by="k", report=rep)
    exp = relix.query(rxd._ijoin_script("INTERSECTS", False, ("s", "e"), ("s", "e"), [("k", "k")], False),
                      L=relix.query(f"i := csv('{ip}'); query {{ i }};"),
                      R=relix.query(f"j := csv('{jp}'); query {{ j }};"))
    check(same(out.compute(), exp) and rep["strategy"] == "aligned", f"ijoin over partitioned files {rep}")
    print("ijoin INTERSECTS over files read by k:", rep["strategy"], same(out.compute(), exp))
    rep = {}
    script = "query { γ sym; count(*) → n, sum(qty) → total, max(ts) → last (t) };"
    out = rxd.query(script, by="sym", report=rep, t=rxd.read_csv(tp, blocksize=bs, by="sym", npartitions=4))
    exp = relix.query(f"t := csv('{tp}');" + script)
    check(same(out.compute(), exp) and rep["strategy"] == "aligned", f"query over a partitioned file {rep}")
    print("a whole script (γ per sym) over a file read by sym:", rep["strategy"], same(out.compute(), exp))

    # a file with a header only: no rows, no error
    ep = os.path.join(folder, "e.csv")
    with open(ep, "w") as f:
        f.write("sym,ts,qty\n")
    e = rxd.read_csv(ep, by="sym", npartitions=3).compute()
    check(len(e) == 0 and list(e.columns) == ["sym", "ts", "qty"], "a header-only file")
    print("a header-only file read by sym:", len(e), "rows,", list(e.columns))
    # errors: an unknown key column; a bad value after the sample names the file's line
    try:
        rxd.read_csv(tp, by="nope")
        check(False, "an unknown by column is refused")
    except relix.RelixError as err:
        print("error:", str(err).replace(folder + "/", ""))
    bad = os.path.join(folder, "bad.csv")
    with open(bad, "w") as f:
        f.write("k,b\n" + "".join(f"k{i % 3},{i}\n" for i in range(2000)) + "k1,x\n")
    try:
        rxd.read_csv(bad, blocksize=1000, sample=200, by="k", npartitions=2).compute()
        check(False, "a value of another type is refused")
    except relix.RelixError as err:
        msg = str(err).replace(folder + "/", "")
        check(msg.startswith("bad.csv:2002:"), "the error names the file's line")
        print("error:", msg.splitlines()[0])
    client.close()
    print("failed:", failed)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
