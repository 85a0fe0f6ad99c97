#!/usr/bin/env python3
"""Differential test of the pushed forms of ASOF and IJOIN: every ASOF case (backward, forward,
strict and not, INNER and outer, TIES(FIRST) and TIES(LAST), with and without a key) and every
IJOIN case (the thirteen Allen relations and INTERSECTS, with and without a key, on INT and, on
PostgreSQL, DuckDB and MariaDB, TIMESTAMP/DATE endpoints) runs in the engine and pushed to SQLite, and to
PostgreSQL, DuckDB (when RELIX_LIBDUCKDB names libduckdb.so) and MariaDB when given, under each form (--pushdown auto, window, lateral, binned, plain), over random
tables heavy in ties and NULLs: NULL keys, NULL times and endpoints, equal timestamps, NULL
payloads in the matched row, empty, inverted and very long intervals. Every way must print the
same bytes, and EXPLAIN must show every query pushed.

  tests/diff/forms.py RELIX WORKDIR [POSTGRES_URI] [SEEDS] [ROWS] [--mariadb URI | --h2 URI [--only]]

Without a URI only the engine and SQLite run; --mariadb also loads the tables into that MariaDB
database (with the mariadb client, --no-defaults) and runs there; --only runs only there. Its
text columns keep the server's default, case- and trailing-space-insensitive collation, which
the pushed statements must not follow. --h2 loads them into that H2 database (h2://user@host:port/db,
through its PostgreSQL-protocol server with psql; the password in PGPASSWORD): there every IJOIN
must push as a plain JOIN ... ON, and every ASOF must stay in the engine with EXPLAIN saying
that H2 has no LATERAL. Prints one line per connection and form, then "forms: N passed, N failed".
"""
import os
import random
import sqlite3
import subprocess
import sys

RELS = ["INTERSECTS", "PRECEDES", "PRECEDED_BY", "MEETS", "MET_BY", "OVERLAPS", "OVERLAPPED_BY",
        "STARTS", "STARTED_BY", "DURING", "CONTAINS", "FINISHES", "FINISHED_BY", "EQUALS"]
FORMS = ["auto", "window", "lateral", "binned", "plain"]


def rows(rng, n, ts):
    """(id, k, s, e, v, t, u) rows: small domains so that keys, times and endpoints tie often."""
    out = []
    for i in range(1, n + 1):
        k = rng.choice(["a", "b", "B", "é", "a ", None])
        s = rng.choice([None] + list(range(-3, 12)))
        r = rng.random()
        e = None if s is None and rng.random() < 0.5 else (rng.randrange(-3, 12) if s is None else
             s + (rng.randrange(0, 3) if r < 0.6 else -rng.randrange(1, 4) if r < 0.75 else rng.randrange(30, 400)))
        v = rng.choice([None, 0.5, 1.5, 2.0])
        t = None if rng.random() < 0.1 else f"2026-01-0{rng.randrange(1, 4)} 0{rng.randrange(0, 3)}:00:00+00"
        u = None if rng.random() < 0.1 else f"2026-01-0{rng.randrange(1, 6)}"
        out.append((i, k, s, e, v, t, u))
    rng.shuffle(out)  # the primary key order differs from the insertion order
    return out


def queries(pg):
    qs = []
    for op in (">=", ">", "<=", "<"):
        for inner in ("", "INNER "):
            for ties in ("", " TIES(FIRST)", " TIES(LAST)"):
                qs.append(f"DB.lt L ASOF {inner}L.k = R.k ∧ L.s {op} R.s{ties} DB.rt R")
                qs.append(f"π L.id, R.id → rid, R.v → rv (DB.lt L ASOF {inner}L.e {op} R.s{ties} DB.rt R)")
                if pg:
                    qs.append(f"π L.id, R.id → rid, R.v → rv (DB.lt L ASOF {inner}L.k = R.k ∧ L.t {op} R.t{ties} DB.rt R)")
    for rel in RELS:
        qs.append(f"π L.id, R.id → rid (DB.lt L IJOIN {rel} (L.s, L.e, R.s, R.e) DB.rt R)")
        qs.append(f"σ L.k = R.k (DB.lt L IJOIN {rel} (L.s, L.e, R.s, R.e) DB.rt R)")
        if pg:
            qs.append(f"π L.id, R.id → rid (DB.lt L IJOIN {rel} (L.t, L.u, R.t, R.u) DB.rt R)")
    return qs + queries30(pg)


def queries30(pg):
    """The shapes pushed since: ASOF ... WITHIN on TIMESTAMP and DATE match columns (PostgreSQL;
    bounds that the tied times and days hit exactly, so the boundary is checked), IJOIN COVERS
    and COVERED_BY, IJOIN AT (a point in a half-open interval), and IJOIN LEFT, SEMI and ANTI."""
    qs = []
    for op in (">=", ">", "<=", "<"):
        for inner in ("", "INNER "):
            for ties in ("", " TIES(FIRST)"):
                if pg:
                    for bound in ("PT0S", "PT1H"):
                        qs.append(f"π L.id, R.id → rid, R.v → rv (DB.lt L ASOF {inner}L.k = R.k ∧ L.t {op} R.t "
                                  f"WITHIN DURATION '{bound}'{ties} DB.rt R)")
                    qs.append(f"π L.id, R.id → rid, R.v → rv (DB.lt L ASOF {inner}L.u {op} R.u "
                              f"WITHIN DURATION 'PT47H'{ties} DB.rt R)")
    for rel in ("COVERS", "COVERED_BY"):
        qs.append(f"π L.id, R.id → rid (DB.lt L IJOIN {rel} (L.s, L.e, R.s, R.e) DB.rt R)")
        qs.append(f"σ L.k = R.k (DB.lt L IJOIN {rel} (L.s, L.e, R.s, R.e) DB.rt R)")
        if pg:
            qs.append(f"π L.id, R.id → rid (DB.lt L IJOIN {rel} (L.t, L.u, R.t, R.u) DB.rt R)")
    qs.append("π L.id, R.id → rid (DB.lt L IJOIN AT (L.s, R.s, R.e) DB.rt R)")
    qs.append("σ L.k = R.k (DB.lt L IJOIN AT (L.s, R.s, R.e) DB.rt R)")
    for rel in ("INTERSECTS", "DURING", "MEETS", "COVERS", "PRECEDES"):
        qs.append(f"π L.id, R.id → rid (DB.lt L IJOIN LEFT {rel} (L.s, L.e, R.s, R.e) DB.rt R)")
        qs.append(f"π L.id (DB.lt L IJOIN SEMI {rel} (L.s, L.e, R.s, R.e) DB.rt R)")
        qs.append(f"π L.id, L.k (DB.lt L IJOIN ANTI {rel} (L.s, L.e, R.s, R.e) DB.rt R)")
    for kind in ("LEFT ", "SEMI ", "ANTI "):
        qs.append(f"DB.lt L IJOIN {kind}AT (L.s, R.s, R.e) DB.rt R")
    return qs


def run(relix, script, extra):
    p = subprocess.run([relix, "--format", "csv"] + extra + ["-e", script], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def mariadb_load(uri, data, index):
    """Creates lt and rt in the MariaDB database of uri (mysql://user@host:port/db)."""
    rest = uri.split("://", 1)[1]
    user, rest = rest.split("@", 1) if "@" in rest else ("", rest)
    hostport, db = rest.split("/", 1)
    host, port = hostport.split(":") if ":" in hostport else (hostport, "3306")
    sql = []
    for t, rs in data.items():
        sql.append(f"DROP TABLE IF EXISTS {t}; CREATE TABLE {t}(id BIGINT PRIMARY KEY, k VARCHAR(4), s BIGINT, "
                   f"e BIGINT, v DOUBLE, t DATETIME, u DATE) DEFAULT CHARSET utf8mb4;")
        for r in rs:
            vals = ", ".join("NULL" if x is None else str(x) if isinstance(x, (int, float)) else
                             "'" + x.replace("+00", "") + "'" for x in r)
            sql.append(f"INSERT INTO {t} VALUES ({vals});")
    if index:
        sql.append("CREATE INDEX rt_ks ON rt(k, s); CREATE INDEX rt_s ON rt(s);")
    sql.append("ANALYZE TABLE lt, rt;")
    subprocess.run(["mariadb", "--no-defaults", "--default-character-set=utf8mb4", "-h", host, "-P", port, "-u", user,
                    db], input="\n".join(sql), text=True, check=True, capture_output=True)


def h2_load(uri, data):
    """Creates lt and rt (with keys such as 'é' and 'a ', and offsets on the times) in the H2
    database of uri (h2://user@host:port/db), through psql."""
    sql = []
    for t, rs in data.items():
        sql.append(f"DROP TABLE IF EXISTS {t}; CREATE TABLE {t}(id BIGINT PRIMARY KEY, k VARCHAR(4), s BIGINT, "
                   f"e BIGINT, v DOUBLE PRECISION, t TIMESTAMP WITH TIME ZONE, u DATE);")
        for r in rs:
            vals = ", ".join("NULL" if x is None else str(x) if isinstance(x, (int, float)) else
                             "'" + x.replace("+00", "+00:00") + "'" for x in r)
            sql.append(f"INSERT INTO {t} VALUES ({vals});")
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "postgresql://" + uri.split("://", 1)[1]],
                   input="\n".join(sql), text=True, check=True, capture_output=True)


def main():
    args = sys.argv[1:]
    my = h2 = None
    if "--mariadb" in args:
        at = args.index("--mariadb")
        my = args[at + 1]
        del args[at:at + 2]
    if "--h2" in args:
        at = args.index("--h2")
        h2 = args[at + 1]
        del args[at:at + 2]
    only = "--only" in args
    if only:
        args.remove("--only")
    relix, work = os.path.abspath(args[0]), args[1]
    pg = args[2] if len(args) > 2 and args[2] else None
    seeds = int(args[3]) if len(args) > 3 else 3
    n = int(args[4]) if len(args) > 4 else 30
    passed = failed = 0
    for seed in range(seeds):
        rng = random.Random(seed)
        data = {"lt": rows(rng, n, True), "rt": rows(rng, n, True)}
        lite = os.path.join(work, f"forms{seed}.db")
        if os.path.exists(lite):
            os.remove(lite)
        db = sqlite3.connect(lite)
        for t, rs in data.items():
            db.execute(f"CREATE TABLE {t}(id INTEGER PRIMARY KEY, k TEXT, s INTEGER, e INTEGER, v REAL, t TEXT, u TEXT)")
            db.executemany(f"INSERT INTO {t} VALUES (?, ?, ?, ?, ?, ?, ?)", rs)
        db.commit()
        db.close()
        conns = [("sqlite", f"sqlite:{lite}")]
        if pg:
            sql = []
            for t, rs in data.items():
                sql.append(f"DROP TABLE IF EXISTS {t}; CREATE TABLE {t}(id int8 PRIMARY KEY, k text, s int8, e int8, "
                           f"v float8, t timestamptz, u date);")
                for r in rs:
                    vals = ", ".join("NULL" if x is None else str(x) if isinstance(x, (int, float)) else f"'{x}'" for x in r)
                    sql.append(f"INSERT INTO {t} VALUES ({vals});")
            if seed % 2:
                sql.append("CREATE INDEX ON rt(k, s); CREATE INDEX ON rt(s);")
            sql.append("ANALYZE;")
            subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", pg], input="\n".join(sql), text=True, check=True,
                           capture_output=True)
            conns.append(("postgresql", pg))
        if os.environ.get("RELIX_LIBDUCKDB"):
            duck = os.path.join(work, f"forms{seed}.duckdb")
            if os.path.exists(duck):
                os.remove(duck)
            sql = []
            for t, rs in data.items():
                sql.append(f"CREATE TABLE {t}(id BIGINT PRIMARY KEY, k VARCHAR, s BIGINT, e BIGINT, v DOUBLE, "
                           f"t TIMESTAMPTZ, u DATE);")
                vals = ", ".join("(" + ", ".join("NULL" if x is None else str(x) if isinstance(x, (int, float))
                                                 else f"'{x}'" for x in r) + ")" for r in rs)
                sql.append(f"INSERT INTO {t} VALUES {vals};")
            subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "duckdb", "ddb.py"),
                            duck], input="\n".join(sql), text=True, check=True)
            conns.append(("duckdb", f"duckdb:{duck}"))
        if my:
            mariadb_load(my, data, seed % 2)
            conns = ([] if only else conns) + [("mariadb", my)]
        if h2:
            h2_load(h2, data)
            conns = ([] if only else conns) + [("h2", h2)]
        for label, uri in conns:
            qs = queries(label != "sqlite")
            # the forms of issue #30's second round (WITHIN, COVERS, AT, the binned LEFT, SEMI and
            # ANTI) push to SQLite and PostgreSQL; elsewhere they must give the same rows
            must_push = len(qs) if label in ("sqlite", "postgresql") else len(qs) - len(queries30(label != "sqlite"))
            # H2 pushes every interval join and no AS-OF join (no LATERAL), and says so for each
            must_stay = 0
            if label == "h2":
                must_stay = sum(1 for q in qs if " ASOF " in q)
                must_push = len(qs) - must_stay
            script = f"DB := connect('{uri}');\n" + "".join(f"query {{ {q} }};\n" for q in qs)
            local = run(relix, script, ["--no-pushdown"])
            if local[0] != 0:
                print(f"FAIL seed {seed} {label}: the engine failed\n{local[2][:2000]}")
                failed += 1
                continue
            for form in FORMS:
                got = run(relix, script, ["--pushdown", form])
                ex = run(relix, script, ["--pushdown", form, "--explain"])
                pushed = ex[1].count("PushedSQL on ")
                stayed = ex[1].count("H2 has no LATERAL")
                if label == "h2" and (pushed != must_push or stayed != must_stay):
                    failed += 1
                    print(f"FAIL seed {seed} h2 --pushdown {form}: {pushed} of {must_push} IJOINs pushed, "
                          f"{stayed} of {must_stay} ASOFs left in the engine saying why")
                    continue
                if got == local and pushed >= must_push:
                    passed += 1
                    continue
                failed += 1
                print(f"FAIL seed {seed} {label} --pushdown {form}: {pushed} of {len(qs)} queries pushed")
                shown = 0
                for q in qs:
                    one = f"DB := connect('{uri}'); query {{ {q} }};"
                    x, y = run(relix, one, ["--pushdown", form]), run(relix, one, ["--no-pushdown"])
                    if x != y and shown < 2:
                        shown += 1
                        print(f"  query {{ {q} }};\n--- pushed\n{x[1][:1200]}{x[2][:800]}--- engine\n{y[1][:1200]}{y[2][:800]}")
    print(f"forms: {len(queries(True)) + len(queries(False))} queries per seed, {seeds} seeds")
    print(f"forms: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


main()
