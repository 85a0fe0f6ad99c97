"""relix.dask.read_csv (tests/cases/822-dask-read-csv.sh): a CSV file cut into blocks at record
boundaries that respect quoted fields (quotes, doubled quotes, commas and newlines inside
fields, a last record without a newline, CRLF line ends) and parsed by Relix's reader per
block gives the rows and values of Relix's csv() over the whole file, whatever the block
size; the types are detected on the sample and a later value of another type is an error
that names the file and its line in the whole file; options pass through; an ASOF over two
files read this way equals relix.query's.

    test_dask_read_csv.py FOLDER [SCHEDULER_ADDRESS]      (without one: Dask's local threads)"""
import os
import sys

import numpy as np
import pandas as pd
import dask

import relix
import relix.dask as rxd

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print("FAILED:", what)


def canon(df):
    """The rows of df as a frame of strings in row order (NULL, NaN and NaT alike)."""
    d = {}
    for c in df.columns:
        s = df[c].astype(object)
        v = s.astype(str).to_numpy(object)
        v[s.isna().to_numpy()] = "NULL"
        d[c] = v
    return pd.DataFrame(d)


def same(got, exp):
    return list(got.columns) == list(exp.columns) and len(got) == len(exp) and \
        canon(got.reset_index(drop=True)).equals(canon(exp.reset_index(drop=True)))


def main():
    folder = sys.argv[1]
    if len(sys.argv) > 2:
        from distributed import Client
        client = Client(sys.argv[2], timeout=60)
        client.wait_for_workers(2, timeout=60)
    else:
        client = None
        dask.config.set(scheduler="threads")
    rng = np.random.default_rng(822)
    n = 3000
    notes = np.array(["plain", 'say "hi"', "two\nlines", "a, b", "", None, '"', "\r\nx"], dtype=object)
    df = pd.DataFrame({"id": np.arange(n), "note": notes[rng.integers(0, len(notes), n)],
                       "x": np.round(rng.normal(size=n), 3),
                       "ts": pd.to_datetime(rng.integers(0, 10**9, n), unit="s", utc=True),
                       "ok": rng.random(n) < .5})
    df.loc[rng.random(n) < 0.05, "x"] = np.nan
    path = os.path.join(folder, "notes.csv")
    text = df.to_csv(index=False, date_format="%Y-%m-%dT%H:%M:%SZ")
    with open(path, "w", newline="") as f:
        f.write(text.rstrip("\n"))            # the last record without a newline
    exp = relix.query(f"T := csv('{path}'); query {{ T }};")
    results = []
    for bs in (97, 500, 4096, 1 << 30):
        got = rxd.read_csv(path, blocksize=bs, sample=2000)
        out = got.compute()
        results.append((bs, got.npartitions, same(out, exp)))
    check(all(r[2] for r in results), "every block size gives Relix's rows")
    print("quoted fields, blocks of", ", ".join(f"{bs} bytes ({k} partitions): {ok}" for bs, k, ok in results))
    print("dtypes:", ", ".join(f"{c} {t}" for c, t in got.dtypes.astype(str).items()))
    # CRLF line ends, a delimiter and a NULL text
    crlf = os.path.join(folder, "crlf.csv")
    with open(crlf, "wb") as f:
        f.write(b"k;v\r\n" + b"".join(f"{'NA' if i % 7 == 0 else 'k' + str(i % 5)};{i}\r\n".encode()
                                       for i in range(400)))
    exp = relix.query(f"T := csv('{crlf}', delimiter => ';', null => 'NA'); query {{ T }};")
    out = rxd.read_csv(crlf, blocksize=100, delimiter=";", null="NA").compute()
    check(same(out, exp), "CRLF, delimiter and null")
    print("CRLF with ';' and null 'NA' in blocks of 100 bytes:", same(out, exp), "NULL keys:",
          int(out["k"].isna().sum()))
    # a value of another type after the sample: the file's own line
    bad = os.path.join(folder, "bad.csv")
    with open(bad, "w") as f:
        f.write("a,b\n" + "".join(f"{i},{i}\n" for i in range(2000)) + "7,x\n1,2\n")
    fds = len(os.listdir("/proc/self/fd")) if client is None else None
    try:
        # synchronous: no other block is still being read when the error comes back
        rxd.read_csv(bad, blocksize=1000, sample=200).compute(scheduler="synchronous" if client is None else None)
        check(False, "a value of another type is refused")
    except relix.RelixError as e:
        msg = str(e).replace(folder + "/", "")
        check(msg.startswith("bad.csv:2002:"), "the error names the file's line")
        print("error:", msg.splitlines()[0])
    if fds is not None:
        # every block went through a pipe, the failing one too: none is left open
        left = len(os.listdir("/proc/self/fd")) - fds
        check(left == 0, f"{left} descriptors left open after the reads")
        print("descriptors left open after reading blocks and an error:", left)
    out = rxd.read_csv(bad, blocksize=1000, sample=200, types="b TEXT").compute()
    print("with types => 'b TEXT':", len(out), "rows, b", out["b"].dtype)
    check(len(out) == 2002, "types= overrides the detection")
    # an ASOF over two files read this way
    tp, qp = os.path.join(folder, "t.csv"), os.path.join(folder, "q.csv")
    syms = np.array(["A", "B", "C", None], dtype=object)
    t = pd.DataFrame({"sym": syms[rng.integers(0, 4, 2000)], "ts": pd.to_datetime(rng.integers(0, 500, 2000), unit="s", utc=True),
                      "qty": rng.integers(1, 9, 2000)})
    q = pd.DataFrame({"sym": syms[rng.integers(0, 4, 1500)], "ts": pd.to_datetime(rng.integers(0, 500, 1500), unit="s", utc=True),
                      "px": rng.integers(1, 99, 1500)})
    t.to_csv(tp, index=False, date_format="%Y-%m-%dT%H:%M:%SZ")
    q.to_csv(qp, index=False, date_format="%Y-%m-%dT%H:%M:%SZ")
    exp = relix.query(f"t := csv('{tp}'); q := csv('{qp}'); query {{ t ASOF t.sym = q.sym ∧ t.ts >= q.ts q }};")
    out = rxd.asof(rxd.read_csv(tp, blocksize=5000), rxd.read_csv(qp, blocksize=5000), on="ts", by="sym",
                   npartitions=3).compute()
    ok = list(out.columns) == list(exp.columns) and \
        canon(out).sort_values(list(out.columns)).reset_index(drop=True).equals(
            canon(exp).sort_values(list(exp.columns)).reset_index(drop=True))
    check(ok, "ASOF over read_csv equals relix.query")
    print("asof over two files read in blocks: equal:", ok)
    if client is not None:
        client.close()
    print("failed:", failed)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
