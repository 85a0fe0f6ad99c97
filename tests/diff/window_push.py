#!/usr/bin/env python3
"""Differential test of ω's pushdown: random ω queries over a random table, pushed down to the
database and run in the engine (--no-pushdown), must print the same bytes, and EXPLAIN must show
each one pushed whole where the dialect has an exact form of every function in it (else ω in
the engine, with PUSH-SQL-006 saying why).

  tests/diff/window_push.py RELIX postgresql://... | duckdb:FILE | sqlite:FILE  [SEEDS] [QUERIES]

The table (named with a quote, a semicolon and '--', a column named with spaces and a quote)
holds NULLs in every column, ties and duplicate timestamps, few partition keys (NULL among
them), negative, zero and large integers, -0.0 and fractions, non-ASCII and mixed-case text.
A query is time_bucket or date_bin in a π, γ (over buckets) or σ, pushed where the width is
fixed, no zone is given and the buckets are those laid from 0001-01-01 (the dialect's origin),
or ω over the table or over a σ of it, sometimes under a σ or π reading the window columns:
every function (row_number, rank, dense_rank, lag and lead with offsets and defaults,
first_value, last_value, count, sum, avg, min, max) with every frame (running, ROWS n, RANGE
over an INT or a TIMESTAMP order), ascending or descending, NULLS FIRST or LAST, one or two
order keys, with and without PER keys. What must stay in the engine (the dialect table in
src/connect/sqlgen.c): sum and avg of FLOAT (the engine's sum is compensated), min and max of
FLOAT (-0 and 0), first_value and last_value over a RANGE frame (ties by input order); on
DuckDB also avg of INT and RANGE over an INT order; on SQLite whatever computes with its
TIMESTAMP column (only carried there), sum and avg, and RANGE frames, while min and max of its
doubles push (it stores no -0).
"""
import os
import random
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pushdown import plans, quote, run  # noqa: E402

TABLE = 'wi;n "t" --x'
QTY = 'q ty "n"'
SYMS = [None, "a", "A", "b", "é", "ab"]
TIMES = [None] + [f"2026-01-02 09:{m:02d}:00" for m in (0, 0, 1, 5, 30, 59)] + ["2026-01-02 11:00:00", "1969-12-31 23:59:59.999999",
                                                                          "9999-12-30 23:59:59.999999"]


def make_table(rng, dialect):
    """The DDL and rows of the table (id, sym, g, ts, n, x, QTY) for the dialect."""
    ts_type = "timestamptz" if dialect == "postgresql" else "TIMESTAMP"
    n_type = {"postgresql": "int8", "duckdb": "BIGINT", "sqlite": "INTEGER"}[dialect]
    x_type = {"postgresql": "float8", "duckdb": "DOUBLE", "sqlite": "REAL"}[dialect]
    sql = [f"CREATE TABLE {quote(TABLE)} (id {n_type} PRIMARY KEY, sym text, g {'int4' if dialect != 'sqlite' else 'INTEGER'}, "
           f"ts {ts_type}, n {n_type}, x {x_type}, {quote(QTY)} {n_type});"]
    rows = []
    for i in range(1, rng.randrange(2, 40)):
        def maybe(v, p=0.15):
            return "NULL" if rng.random() < p else v
        sym = rng.choice(SYMS)
        ts = rng.choice(TIMES)
        big = rng.choice([0, 1, -1, 7, -40, 1000, 10**15, -(10**15)])
        x = rng.choice(["0.5", "-0.0", "0.0", "2.25", "-3.5", "1e300", "7"])
        if ts is not None:
            ts = {"postgresql": ts + "+00", "duckdb": ts, "sqlite": ts.replace(" ", "T") + "Z"}[dialect]
        rows.append(f"({i}, {'NULL' if sym is None else repr(sym)}, {maybe(str(rng.randrange(0, 3)))}, "
                    f"{'NULL' if ts is None else repr(ts)}, "
                    f"{maybe(str(big))}, {maybe(x)}, {maybe(str(rng.randrange(-3, 9)))})")
    # insertion order differs from the primary key: the engine's order is the key's
    rng.shuffle(rows)
    if rows:
        sql.append(f"INSERT INTO {quote(TABLE)} VALUES " + ", ".join(rows) + ";")
    return "\n".join(sql)


def functions(rng, order, dialect):
    """Window functions for the order keys `order` (a list of (column, type, desc)), each as
    (text, pushes)."""
    col = lambda: rng.choice(["n", "x", "sym", "ts", "g", quote(QTY)])
    ctype = {"n": "INT", "x": "FLOAT", "sym": "TEXT", "ts": "TIMESTAMP", "g": "INT", quote(QTY): "INT"}
    duck, lite = dialect == "duckdb", dialect == "sqlite"
    first, ftype, fdesc = order[0]
    # SQLite: TIMESTAMP values are only carried (tested for NULL, never computed with), no
    # exact sum, no RANGE frame; min and max of its doubles are exact (it stores no -0)
    lite_ok = lambda fn, arg: not (lite and arg == "ts" and fn != "count")
    out = []
    for _ in range(rng.randrange(1, 5)):
        k = rng.randrange(9)
        c = col()
        t = ctype[c]
        if k == 0:
            out.append((rng.choice(["row_number()", "rank()", "dense_rank()"]), True))
        elif k == 1:
            fn = rng.choice(["lag", "lead"])
            off = rng.choice(["", ", 0", ", 1", ", 2", ", 3"])
            dflt = ""
            if off and rng.random() < 0.5:
                dflt = {"INT": ", -1", "FLOAT": rng.choice([", 0", ", 1.5"]), "TEXT": ", 'none'",
                        "TIMESTAMP": ", TIMESTAMP '2000-01-01T00:00:00Z'"}[t]
            out.append((f"{fn}({c}{off}{dflt})", lite_ok(fn, c)))
        elif k == 2:
            fn = rng.choice(["first_value", "last_value"])
            frame = rng.choice(["", " OVER 0 ROWS PRECEDING", " OVER 2 ROWS PRECEDING"])
            out.append((f"{fn}({c}){frame}", lite_ok(fn, c)))
        elif k in (3, 4):
            fn = rng.choice(["count", "sum", "avg", "min", "max"])
            arg = "*" if fn == "count" and rng.random() < 0.3 else c
            if fn in ("sum", "avg"):
                arg, t = rng.choice([("n", "INT"), (quote(QTY), "INT"), ("g", "INT"), ("x", "FLOAT")])
            frame = rng.choice(["", " OVER 1 ROWS PRECEDING", " OVER 3 ROWS PRECEDING"])
            ok = not (fn in ("sum", "avg") and t == "FLOAT") and not (fn in ("min", "max") and t == "FLOAT" and not lite)
            ok = ok and not (duck and fn == "avg") and not (lite and fn in ("sum", "avg")) and lite_ok(fn, arg)
            out.append((f"{fn}({arg}){frame}", ok))
        else:
            # RANGE frames: one ascending key, a TIMESTAMP or INT
            if len(order) != 1 or fdesc or ftype not in ("INT", "TIMESTAMP"):
                continue
            fn = rng.choice(["count", "sum", "min", "max", "avg", "first_value", "last_value", "count"])
            arg = "*" if fn == "count" and rng.random() < 0.4 else rng.choice(["n", quote(QTY), "sym", "ts"])
            if fn in ("sum", "avg"):
                arg = rng.choice(["n", quote(QTY), "x"])
            at = ctype.get(arg, "INT")
            d = rng.choice(["DURATION 'PT1M'", "DURATION 'PT30M'", "DURATION 'PT0S'", "DURATION 'P1D'"]) \
                if ftype == "TIMESTAMP" else rng.choice(["0", "1", "5", "1000000000000000"])
            ok = fn not in ("first_value", "last_value") and not (fn in ("sum", "avg", "min", "max") and at == "FLOAT")
            ok = ok and not (duck and (fn == "avg" or ftype == "INT")) and not lite
            out.append((f"{fn}({arg}) OVER {d} PRECEDING", ok))
    return out


MIN_US = -62135596800 * 10**6
WIDTHS = [("PT1S", 10**6), ("PT5M", 300 * 10**6), ("PT7M", 420 * 10**6), ("PT11M", 660 * 10**6),
          ("PT1H", 3600 * 10**6), ("P1D", 86400 * 10**6), ("P7D", 7 * 86400 * 10**6), ("PT0.000007S", 7), ("P1M", None)]
ORIGINS = [("", 946857600 * 10**6), (", TIMESTAMP '2026-01-01T00:00:00Z'", 1767225600 * 10**6),
           (", TIMESTAMP '2026-01-01T00:00:30Z'", 1767225630 * 10**6), (", DATE '2025-12-29'", 1766966400 * 10**6),
           (", 'Europe/Berlin'", None)]


def bucket_query(rng):
    """A query over time_bucket or date_bin of the timestamps, and whether it must push whole:
    a fixed width, no zone, buckets from an origin that those laid from 0001-01-01 meet."""
    (wt, w), (ot, o) = rng.choice(WIDTHS), rng.choice(ORIGINS)
    fn = "time_bucket"
    if w and o and ot.startswith(", T") and rng.random() < 0.5:
        fn = "date_bin"
    b = f"{fn}(DURATION '{wt}', ts{ot})"
    ok = w is not None and o is not None and (o - MIN_US) % w == 0
    src = f"DB.{quote(TABLE)}"
    shape = rng.randrange(3)
    if shape == 0:
        return f"π id, {b} → b ({src})", ok
    if shape == 1:
        return f"γ {b} → b; count(*) → n, min(n) → lo, max(sym) → hi ({src})", ok
    return f"σ {b} ≥ TIMESTAMP '2026-01-02T09:05:00Z' ∨ {b} IS NULL ({src})", ok


def query(rng, dialect):
    """One ω query and whether it must push whole."""
    if rng.random() < 0.2:
        q, ok = bucket_query(rng)
        return q, ok and dialect != "sqlite"
    keys = [("ts", "TIMESTAMP"), ("n", "INT"), ("sym", "TEXT"), ("g", "INT"), ("x", "FLOAT"), (quote(QTY), "INT")]
    order = []
    for _ in range(1 if rng.random() < 0.7 else 2):
        c, t = rng.choice(keys)
        order.append((c, t, rng.random() < 0.25))
    fns = functions(rng, order, dialect)
    if not fns:
        fns = [("row_number()", True)]
    by = ", ".join(c + (" DESC" if d else "") + rng.choice(["", " NULLS FIRST", " NULLS LAST"]) for c, _, d in order)
    per = rng.choice(["", "", "PER sym ", "PER g ", "PER sym, g "])
    items = ", ".join(f"{f} → w{i}" for i, (f, _) in enumerate(fns))
    src = f"DB.{quote(TABLE)}"
    if rng.random() < 0.3:
        src = f"σ n IS NULL ∨ n ≠ 7 ({src})"
    q = f"ω {per}BY {by}; {items} ({src})"
    if dialect == "sqlite" and any(c == "ts" for c, _, _ in order):
        fns = [(f, False) for f, _ in fns]
    if rng.random() < 0.25:
        # only w0 is read above: the others are not computed, pushed or not
        return f"π id, w0 ({q})", fns[0][1]
    if rng.random() < 0.2:
        q = f"σ w0 IS NOT NULL ({q})"
    return q, all(ok for _, ok in fns)


def main():
    relix, uri = sys.argv[1], sys.argv[2]
    seeds = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    per_seed = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    dialect = "duckdb" if uri.startswith("duckdb:") else "sqlite" if uri.startswith("sqlite:") else "postgresql"
    passed = failed = pushed = engine = 0
    for seed in range(seeds):
        rng = random.Random(seed)
        ddl = f"DROP TABLE IF EXISTS {quote(TABLE)};\n" + make_table(rng, dialect)
        if dialect == "sqlite":
            db = sqlite3.connect(uri[len("sqlite:"):])
            db.executescript(ddl)
            db.close()
            p = subprocess.CompletedProcess([], 0)
        elif dialect == "duckdb":
            ddb = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "duckdb", "ddb.py")
            p = subprocess.run([sys.executable, ddb, uri[len("duckdb:"):]], input=ddl, capture_output=True, text=True)
        else:
            p = subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", uri], input=ddl, capture_output=True, text=True)
        if p.returncode != 0:
            print(f"seed {seed}: creating the table failed:", p.stderr)
            sys.exit(1)
        qs = [query(rng, dialect) for _ in range(per_seed)]
        head = f"DB := connect('{uri}');\n"
        script = head + "\n".join(f"query {{ {q} }};" for q, _ in qs)
        a, b = run(relix, script, []), run(relix, script, ["--no-pushdown"])
        if a != b or a[0] != 0:
            failed += 1
            print(f"FAIL seed {seed}: pushed (exit {a[0]}) and engine (exit {b[0]}) differ")
            for q, _ in qs:
                s1 = head + f"query {{ {q} }};"
                x, y = run(relix, s1, []), run(relix, s1, ["--no-pushdown"])
                if x != y:
                    print(f"  query {{ {q} }};\n--- pushed\n{x[1][:1500]}{x[2][:800]}\n--- engine\n{y[1][:1500]}{y[2][:800]}")
                    break
            continue
        e = run(relix, script, ["--explain"])
        ps = plans(e[1])
        if e[0] != 0 or len(ps) != len(qs):
            failed += 1
            print(f"FAIL seed {seed}: --explain (exit {e[0]}) gave {len(ps)} plans for {len(qs)} queries\n{e[2]}")
            continue
        bad = 0
        for (q, want), (rewrites, plan) in zip(qs, ps):
            whole = len(plan) == 1 and plan[0].startswith("PushedSQL ")
            window_here = any(line.lstrip("├└─│ ").startswith("Window ") for line in plan)
            if q.startswith("ω") or "(ω" in q:
                ok = whole if want else window_here and "PUSH-SQL-006" in rewrites
            else:
                ok = whole if want else not plan[0].startswith("PushedSQL ")
            pushed += want
            engine += not want
            if not ok:
                bad += 1
                print(f"FAIL seed {seed}: expected {'pushed' if want else 'ω in the engine'}\n  query {{ {q} }};\n  "
                      + "\n  ".join(plan) + "\n  " + rewrites.replace("\n", "\n  "))
        if bad:
            failed += 1
        else:
            passed += len(qs)
    print(f"{dialect}: {pushed} pushed and {engine} engine ω and bucket queries checked")
    print(f"window pushdown: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
