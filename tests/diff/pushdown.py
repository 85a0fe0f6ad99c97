#!/usr/bin/env python3
"""Differential test of SQL pushdown: the same IJOIN (14 relations) and ASOF (4 directions,
INNER and outer, TIES FIRST and LAST, with and without keys) queries over the same random
tables, pushed down to the database and run in the engine (--no-pushdown), must print the same
bytes. Tables have NULLs, empty and inverted intervals, duplicates and many ties.

  tests/diff/pushdown.py RELIX SQLITE_FILE [POSTGRES_URI] [SEEDS]

With a PostgreSQL URI the tables are created there too (through psql) and both connections are
tested; EXPLAIN is checked to say PushedSQL where the spec says the join is pushed.
"""
import os
import random
import sqlite3
import subprocess
import sys

RELS = ["INTERSECTS", "PRECEDES", "PRECEDED_BY", "MEETS", "MET_BY", "OVERLAPS", "OVERLAPPED_BY",
        "STARTS", "STARTED_BY", "DURING", "CONTAINS", "FINISHES", "FINISHED_BY", "EQUALS"]


def rows(rng, n):
    out = []
    for i in range(n):
        s = None if rng.random() < 0.08 else rng.randrange(0, 12)
        e = None if rng.random() < 0.08 else (s if s is not None and rng.random() < 0.15 else rng.randrange(0, 14))
        k = None if rng.random() < 0.05 else rng.choice(["a", "b", "c"])
        out.append((i + 1, k, s, e, f"v{rng.randrange(5)}"))
    return out


def sql_value(v):
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return str(v)


def create_sql(name, data):
    stmts = [f'DROP TABLE IF EXISTS "{name}";',
             f'CREATE TABLE "{name}" (id INTEGER PRIMARY KEY, k TEXT, s INTEGER, e INTEGER, v TEXT);']
    for r in data:
        stmts.append(f'INSERT INTO "{name}" VALUES ({", ".join(sql_value(x) for x in r)});')
    return "\n".join(stmts)


def run(relix, script, extra):
    p = subprocess.run([relix, "--format", "csv"] + extra + ["-e", script], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    relix, lite = os.path.abspath(sys.argv[1]), sys.argv[2]
    pg = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
    seeds = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    conns = [("sqlite", f"sqlite:{lite}")] + ([("postgresql", pg)] if pg else [])
    passed = failed = 0
    for seed in range(seeds):
        rng = random.Random(seed)
        L, R = rows(rng, rng.randrange(0, 25)), rows(rng, rng.randrange(0, 25))
        ddl = create_sql("lt", L) + "\n" + create_sql("rt", R)
        if os.path.exists(lite):
            os.remove(lite)
        db = sqlite3.connect(lite)
        db.executescript(ddl)
        db.close()
        if pg:
            p = subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", pg], input=ddl, capture_output=True, text=True)
            if p.returncode != 0:
                print("psql failed:", p.stderr)
                sys.exit(1)
        for label, uri in conns:
            qs = []
            for rel in RELS:
                qs.append(f"query {{ π L.id, R.id → rid (DB.lt L IJOIN {rel} (L.s, L.e, R.s, R.e) DB.rt R) }};")
                qs.append(f"query {{ σ L.k = R.k (DB.lt L IJOIN {rel} (L.s, L.e, R.s, R.e) DB.rt R) }};")
            if label == "postgresql":
                for op in (">=", ">", "<=", "<"):
                    for inner in ("", "INNER "):
                        for ties in ("", " TIES(FIRST)"):
                            qs.append(f"query {{ DB.lt L ASOF {inner}L.k = R.k ∧ L.s {op} R.e{ties} DB.rt R }};")
                            qs.append(f"query {{ π L.id, R.id → rid (DB.lt L ASOF {inner}L.e {op} R.s{ties} DB.rt R) }};")
            script = f"DB := connect('{uri}');\n" + "\n".join(qs)
            a = run(relix, script, [])
            b = run(relix, script, ["--no-pushdown"])
            if a != b or a[0] != 0:
                failed += 1
                print(f"FAIL seed {seed} {label}\n{script}\n--- pushed (exit {a[0]})\n{a[1][:2000]}{a[2]}\n--- engine (exit {b[0]})\n{b[1][:2000]}{b[2]}")
            else:
                passed += len(qs)
            if seed == 0:
                e = run(relix, script, ["--explain"])
                n_pushed = e[1].count("PushedSQL")
                want = len(qs)  # every query here is pushable on its connection
                if n_pushed != want:
                    failed += 1
                    print(f"FAIL {label}: {n_pushed} of {want} queries pushed down")
                else:
                    print(f"{label}: all {want} queries pushed down")
    print(f"pushdown: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
