#!/usr/bin/env python3
"""Differential test of the one rule for equality and order (docs/semantics.md).

  tests/diff/equality.py RELIX SQLITE_FILE [POSTGRES_URI]

The same queries - σ with every comparison, IN and BETWEEN, ⨝ equi and theta, δ, γ with
count/min/max, ∪ ∩ −, τ, IJOIN (all 14 relations) and ASOF (4 directions) - over FLOAT and
DURATION columns full of NaN, -NaN, -0, 0, ±Infinity, NULL and durations of one span written
differently (P1M and P30D, P1Y and P360D), run under every combination of the planner switches
(--no-optimize, --no-pushdown, --no-hashjoin, each --ijoin-algo, each --asof-algo). Every
combination must give the same rows (compared sorted), and for a subset of the queries those
rows must be the ones written below, worked out by hand from the rule, so that switches that
all agree on a wrong answer fail too.

Then the FLOAT queries run over the same data in SQLite (SQLITE_FILE is created), pushed down
and in the engine, which must agree; SQLite stores a NaN as NULL (printed, so the golden file
shows it). With POSTGRES_URI the FLOAT and DURATION queries run over the same data in
PostgreSQL, pushed and in the engine, and must give exactly the rows the inline tables give:
PostgreSQL's own rule is the engine's.

Prints one line per check; a failure prints the query and both answers. Exit status 1 on any
failure.
"""
import itertools
import os
import sqlite3
import subprocess
import sys

# ---- data ------------------------------------------------------------------------------------

# (id, x, y, g): x and y FLOAT, g a TEXT key. None is NULL. Written as Relix inline-table text.
FLOATS = [
    (1, "NaN", "NaN", "a"),
    (2, "-NaN", "Infinity", "a"),
    (3, "-0.0", "0", "b"),
    (4, "0", "-0.0", "b"),
    (5, "Infinity", "NaN", "a"),
    (6, "-Infinity", "-Infinity", "c"),
    (7, None, "1.5", "c"),
    (8, "1.5", None, "a"),
    (9, "-1.5", "-0.0", "b"),
    (10, "NaN", "-1.5", "c"),
]
FLOATS_R = [
    (1, "NaN", "0", "a"),
    (2, "0", "NaN", "b"),
    (3, "Infinity", "Infinity", "a"),
    (4, None, "-Infinity", "c"),
    (5, "-0.0", "1.5", "b"),
]
# (id, d, s, e, g) DURATIONs as ISO text; None is NULL.
DURS = [
    (1, "P1M", "P1D", "P1M", "a"),
    (2, "P30D", "PT24H", "P30D", "a"),
    (3, "P1D", "PT1H", "P1D", "b"),
    (4, "PT24H", "PT60M", "PT24H", "b"),
    (5, "P1Y", "P1M", "P1Y", "a"),
    (6, "P360D", "P30D", "P360D", "c"),
    (7, None, "PT1H", None, "c"),
    (8, "-PT1H", "-PT2H", "-PT1H", "a"),
    (9, "PT1H", "PT0S", "PT1H", "b"),
]
DURS_R = [
    (1, "P30D", "P30D", "P1Y", "a"),
    (2, "PT1440M", "PT1H", "P1D", "b"),
    (3, "P12M", "P1M", "P360D", "a"),
    (4, None, "PT0S", "PT1H", "c"),
]

RELS = ["INTERSECTS", "PRECEDES", "PRECEDED_BY", "MEETS", "MET_BY", "OVERLAPS", "OVERLAPPED_BY",
        "STARTS", "STARTED_BY", "DURING", "CONTAINS", "FINISHES", "FINISHED_BY", "EQUALS"]
CMPS = ["=", "<>", "<", "<=", ">", ">="]


def cell(v):
    return "NULL" if v is None else v


def inline_tables():
    """The Relix script text that defines F, G (FLOAT) and D, E (DURATION)."""
    out = []
    for name, rows in (("F", FLOATS), ("G", FLOATS_R)):
        out.append(f"{name} := [\n| id | x | y | g |\n|----|---|---|---|\n")
        out.append("".join(f"| {r[0]} | {cell(r[1])} | {cell(r[2])} | {r[3]} |\n" for r in rows))
        out.append("];\n")
    for name, rows in (("RawD", DURS), ("RawE", DURS_R)):
        out.append(f"{name} := [\n| id | d | s | e | g |\n|----|---|---|---|---|\n")
        out.append("".join(f"| {r[0]} | {cell(r[1])} | {r[2]} | {cell(r[3])} | {r[4]} |\n" for r in rows))
        out.append("];\n")
    for name, raw in (("D", "RawD"), ("E", "RawE")):
        out.append(f"{name} := {{ π id, to_duration(d) → d, to_duration(s) → s, to_duration(e) → e, g ({raw}) }};\n")
    return "".join(out)


# ---- queries ---------------------------------------------------------------------------------

def float_queries():
    """FLOAT queries over {F} and {G} (table references filled in per source)."""
    q = []
    for op in CMPS:
        q.append(f"π id (σ x {op} y ({{F}}))")
        q.append(f"π id (σ x {op} 0 ({{F}}))")
        q.append(f"π id (σ x {op} 1e308 ({{F}}))")
    q.append("π id (σ x IN (0, 1.5, -1.5) ({F}))")
    q.append("π id (σ x BETWEEN -0.0 AND 1e308 ({F}))")
    q.append("π id (σ x NOT BETWEEN -1e308 AND 1e308 ({F}))")
    for op in CMPS:
        q.append(f"π L.id, R.id → rid ({{F}} L ⨝ L.x {op} R.x {{G}} R)")
    q.append("π L.id, R.id → rid ({F} L ⨝ L.x = R.x ∧ L.g = R.g {G} R)")
    q.append("π L.id, R.id → rid ({F} L ⨝ L.x = R.y {G} R)")
    q.append("δ (π x ({F}))")
    q.append("γ x; count(*) → n, min(id) → first_id ({F})")
    q.append("γ g; min(x) → lo, max(x) → hi, min(y) → ylo, max(y) → yhi ({F})")
    q.append("γ min(x) → lo, max(x) → hi, count(x) → n ({F})")
    q.append("π x ({F}) ∪ π x ({G})")
    q.append("π x ({F}) ∩ π x ({G})")
    q.append("π x ({F}) − π x ({G})")
    q.append("π x, g ({F}) ∩ π y → x, g ({G})")
    q.append("τ x, id ({F})")
    q.append("τ x DESC, id ({F})")
    for rel in RELS:
        q.append(f"π L.id, R.id → rid ({{F}} L IJOIN {rel} (L.x, L.y, R.x, R.y) {{G}} R)")
    for op in (">=", ">", "<=", "<"):
        q.append(f"π L.id, R.id → rid ({{F}} L ASOF L.x {op} R.y {{G}} R)")
        q.append(f"π L.id, R.id → rid ({{F}} L ASOF INNER L.x = R.x ∧ L.y {op} R.y {{G}} R)")
    return q


def duration_queries():
    q = []
    for op in CMPS:
        q.append(f"π id (σ d {op} e ({{D}}))")
        q.append(f"π id (σ d {op} DURATION 'P30D' ({{D}}))")
    q.append("π id (σ d IN (DURATION 'P1M', DURATION 'PT1H') ({D}))")
    q.append("π id (σ d BETWEEN DURATION 'PT24H' AND DURATION 'P1M' ({D}))")
    for op in CMPS:
        q.append(f"π L.id, R.id → rid ({{D}} L ⨝ L.d {op} R.d {{E}} R)")
    q.append("π L.id, R.id → rid ({D} L ⨝ L.d = R.d ∧ L.g = R.g {E} R)")
    q.append("δ (π d ({D}))")
    q.append("γ d; count(*) → n, min(id) → first_id ({D})")
    q.append("γ g; min(d) → lo, max(d) → hi ({D})")
    q.append("π d ({D}) ∪ π d ({E})")
    q.append("π d ({D}) ∩ π d ({E})")
    q.append("π d ({D}) − π d ({E})")
    q.append("τ d, id ({D})")
    for rel in RELS:
        q.append(f"π L.id, R.id → rid ({{D}} L IJOIN {rel} (L.s, L.e, R.s, R.e) {{E}} R)")
    for op in (">=", ">", "<=", "<"):
        q.append(f"π L.id, R.id → rid ({{D}} L ASOF L.d {op} R.e {{E}} R)")
        q.append(f"π L.id, R.id → rid ({{D}} L ASOF INNER L.d = R.d ∧ L.s {op} R.s {{E}} R)")
    return q


# Rows worked out by hand from the rule (NaN = NaN above +Infinity, -0 = 0, NULL unknown in
# comparisons and one group in δ/γ/sets; a month is 30 days): query -> the sorted data rows,
# each row's cells joined by one space.
EXPECTED = {
    "π id (σ x = y ({F}))": ["1", "3", "4", "6"],
    "π id (σ x <> y ({F}))": ["10", "2", "5", "9"],
    "π id (σ x < y ({F}))": ["5", "9"],
    "π id (σ x > y ({F}))": ["10", "2"],
    "π id (σ x >= 1e308 ({F}))": ["1", "10", "2", "5"],
    "π id (σ x = 0 ({F}))": ["3", "4"],
    "π id (σ x <= 0 ({F}))": ["3", "4", "6", "9"],
    "π id (σ x BETWEEN -0.0 AND 1e308 ({F}))": ["3", "4", "8"],
    "π L.id, R.id → rid ({F} L ⨝ L.x = R.x {G} R)":
        ["1 1", "10 1", "2 1", "3 2", "3 5", "4 2", "4 5", "5 3"],
    "π L.id, R.id → rid ({F} L ⨝ L.x > R.x {G} R)":
        ["1 2", "1 3", "1 5", "10 2", "10 3", "10 5", "2 2", "2 3", "2 5", "5 2", "5 5", "8 2", "8 5"],
    "δ (π x ({F}))": ["-0", "-1.5", "-Infinity", "1.5", "Infinity", "NULL", "NaN"],
    "γ x; count(*) → n, min(id) → first_id ({F})":
        ["-0 2 3", "-1.5 1 9", "-Infinity 1 6", "1.5 1 8", "Infinity 1 5", "NULL 1 7", "NaN 3 1"],
    "γ min(x) → lo, max(x) → hi, count(x) → n ({F})": ["-Infinity NaN 9"],
    "π x ({F}) ∩ π x ({G})": ["-0", "Infinity", "NULL", "NaN"],
    "π x ({F}) − π x ({G})": ["-1.5", "-Infinity", "1.5"],
    "π id (σ d = e ({D}))": ["1", "2", "3", "4", "5", "6", "8", "9"],
    "π id (σ d = DURATION 'P30D' ({D}))": ["1", "2"],
    "π id (σ d > DURATION 'P30D' ({D}))": ["5", "6"],
    "π L.id, R.id → rid ({D} L ⨝ L.d = R.d {E} R)":
        ["1 1", "2 1", "3 2", "4 2", "5 3", "6 3"],
    "δ (π d ({D}))": ["-PT1H", "NULL", "P1D", "P1M", "P1Y", "PT1H"],
    "γ d; count(*) → n, min(id) → first_id ({D})":
        ["-PT1H 1 8", "NULL 1 7", "P1D 2 3", "P1M 2 1", "P1Y 2 5", "PT1H 1 9"],
    "π d ({D}) − π d ({E})": ["-PT1H", "PT1H"],
    "π d ({D}) ∩ π d ({E})": ["NULL", "P1D", "P1M", "P1Y"],
}


# ---- running ---------------------------------------------------------------------------------

def switch_sets():
    sets = []
    for flags in itertools.product([False, True], repeat=3):
        base = [f for f, on in zip(["--no-optimize", "--no-pushdown", "--no-hashjoin"], flags) if on]
        for ij in ("auto", "nested-loop", "fast"):
            for asof in ("auto", "nested-loop", "binary-search", "merge"):
                sets.append(base + ["--ijoin-algo", ij, "--asof-algo", asof])
    return sets


def results(relix, head, queries, args):
    """Runs every query in one script; a list of (header, sorted rows) per query, or the error."""
    script = head + "".join(f"query {{ {q} }};\n" for q in queries)
    p = subprocess.run([relix, "--no-progress"] + args + ["-e", script], capture_output=True, text=True)
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stderr.strip()}"
    out, cur = [], []
    for line in p.stdout.split("\n"):
        if line.startswith("(") and line.endswith((" rows)", " row)")):
            header, rows = cur[:1], sorted(" ".join(r.split()) for r in cur[2:])
            out.append((" ".join(header[0].split()) if header else "", rows))
            cur = []
        elif line or cur:
            cur.append(line)
    if len(out) != len(queries):
        return f"{len(out)} results for {len(queries)} queries:\n{p.stdout}"
    return out


def show(res):
    return "\n".join(res[1]) if isinstance(res, tuple) else str(res)


def differential(relix, label, head, queries, fill):
    """Every switch set against the first; returns the first's results (or None on failure)."""
    qs = [q.format(**fill) for q in queries]
    sets = switch_sets()
    ref = results(relix, head, qs, sets[0])
    if isinstance(ref, str):
        print(f"FAIL {label}: {ref[:2000]}")
        return None
    bad = 0
    for args in sets[1:]:
        got = results(relix, head, qs, args)
        if isinstance(got, str):
            print(f"FAIL {label} {' '.join(args)}: {got[:2000]}")
            bad += 1
            continue
        for q, a, b in zip(qs, ref, got):
            if a != b and bad < 5:
                bad += 1
                print(f"FAIL {label} {' '.join(args)}: query {{ {q} }}\n--- default\n{show(a)}\n--- switched\n{show(b)}")
    if bad:
        return None
    print(f"{label}: {len(qs)} queries agree under {len(sets)} switch combinations")
    return dict(zip(queries, ref))


def pushed(relix, head, queries, fill):
    """How many of the queries EXPLAIN shows running (at least partly) in the database."""
    qs = [q.format(**fill) for q in queries]
    script = head + "".join(f"query {{ {q} }};\n" for q in qs)
    p = subprocess.run([relix, "--no-progress", "--explain", "-e", script], capture_output=True, text=True)
    return sum(1 for part in p.stdout.split("Physical plan\n")[1:]
               if "PushedSQL on " in part.split("\n\n")[0])


def check_expected(label, got):
    n = bad = 0
    for q, want in EXPECTED.items():
        if q not in got:
            continue
        n += 1
        if got[q][1] != sorted(want):
            bad += 1
            print(f"FAIL {label}: query {{ {q} }} gives\n{show(got[q])}\n--- by hand\n" + "\n".join(sorted(want)))
    print(f"{label}: {n - bad} of {n} results as worked out by hand")
    return bad == 0


def same_as(label, got, ref):
    bad = [q for q in got if got[q] != ref[q]]
    for q in bad[:5]:
        print(f"FAIL {label}: query {{ {q} }}\n--- here\n{show(got[q])}\n--- inline tables\n{show(ref[q])}")
    if not bad:
        print(f"{label}: {len(got)} results equal the inline tables'")
    return not bad


def sqlite_value(v):
    if v is None:
        return None
    return float(v.replace("Infinity", "inf").replace("NaN", "nan"))


def pg_interval(v):
    """A duration as a PostgreSQL interval expression (its ISO input takes no leading '-')."""
    if v is None:
        return "NULL"
    return f"(- interval '{v[1:]}')" if v.startswith("-") else f"interval '{v}'"


def main():
    relix, lite = os.path.abspath(sys.argv[1]), sys.argv[2]
    pg = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
    head = inline_tables()
    ok = True
    fq, dq = float_queries(), duration_queries()
    ref_f = differential(relix, "FLOAT inline", head, fq, {"F": "F", "G": "G"})
    ref_d = differential(relix, "DURATION inline", head, dq, {"D": "D", "E": "E"})
    ok &= ref_f is not None and ref_d is not None
    if ref_f:
        ok &= check_expected("FLOAT inline", ref_f)
    if ref_d:
        ok &= check_expected("DURATION inline", ref_d)

    # SQLite: the same FLOAT data; a NaN becomes NULL when stored
    if os.path.exists(lite):
        os.remove(lite)
    db = sqlite3.connect(lite)
    for name, rows in (("f", FLOATS), ("g", FLOATS_R)):
        db.execute(f"CREATE TABLE {name} (id INTEGER PRIMARY KEY, x REAL, y REAL, g TEXT)")
        db.executemany(f"INSERT INTO {name} VALUES (?, ?, ?, ?)",
                       [(r[0], sqlite_value(r[1]), sqlite_value(r[2]), r[3]) for r in rows])
    db.commit()
    db.close()
    lhead = head + f"Lite := connect('sqlite:{lite}');\n"
    p = subprocess.run([relix, "--no-progress", "-e", lhead + "query { σ id ≤ 3 (Lite.f) };"],
                       capture_output=True, text=True)
    print("SQLite stores NaN as NULL: rows 1 to 3 of Lite.f read back as\n" + p.stdout + p.stderr, end="")
    ref_l = differential(relix, "FLOAT sqlite", lhead, fq, {"F": "Lite.f", "G": "Lite.g"})
    ok &= ref_l is not None
    print(f"FLOAT sqlite: {pushed(relix, lhead, fq, {'F': 'Lite.f', 'G': 'Lite.g'})} of {len(fq)} queries pushed down")

    if pg:
        ddl = ["SET client_min_messages = warning;", "DROP TABLE IF EXISTS f, g, d, e;"]
        for name, rows in (("f", FLOATS), ("g", FLOATS_R)):
            ddl.append(f"CREATE TABLE {name} (id int8 PRIMARY KEY, x float8, y float8, g text);")
            for r in rows:
                vals = ", ".join("NULL" if v is None else f"'{v}'" for v in r[1:3])
                ddl.append(f"INSERT INTO {name} VALUES ({r[0]}, {vals}, '{r[3]}');")
        for name, rows in (("d", DURS), ("e", DURS_R)):
            ddl.append(f"CREATE TABLE {name} (id int8 PRIMARY KEY, d interval, s interval, e interval, g text);")
            for r in rows:
                vals = ", ".join(pg_interval(v) for v in r[1:4])
                ddl.append(f"INSERT INTO {name} VALUES ({r[0]}, {vals}, '{r[4]}');")
        ddl.append("ANALYZE;")
        p = subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", pg], input="\n".join(ddl),
                           capture_output=True, text=True)
        if p.returncode != 0:
            print("FAIL psql:", p.stderr)
            return 1
        phead = head + f"PG := connect('{pg}');\n"
        got_f = differential(relix, "FLOAT postgresql", phead, fq, {"F": "PG.f", "G": "PG.g"})
        got_d = differential(relix, "DURATION postgresql", phead, dq, {"D": "PG.d", "E": "PG.e"})
        ok &= got_f is not None and got_d is not None
        print(f"FLOAT postgresql: {pushed(relix, phead, fq, {'F': 'PG.f', 'G': 'PG.g'})} of {len(fq)} queries pushed down")
        print(f"DURATION postgresql: {pushed(relix, phead, dq, {'D': 'PG.d', 'E': 'PG.e'})} of {len(dq)} queries pushed down")
        if got_f and ref_f:
            ok &= same_as("FLOAT postgresql", got_f, ref_f)
        if got_d and ref_d:
            ok &= same_as("DURATION postgresql", got_d, ref_d)
    print("all agree" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
