#!/usr/bin/env python3
"""Differential test of SQL pushdown: the same queries over the same random tables, pushed down
to the database and run in the engine (--no-pushdown), must print the same bytes.

  tests/diff/pushdown.py RELIX SQLITE_FILE [POSTGRES_URI | duckdb:FILE] [SEEDS] [QUERIES]

Without a URI the queries run on SQLite (SQLITE_FILE is created), with one on PostgreSQL (its
tables created through psql) or on DuckDB (a duckdb: URI: FILE is created through libduckdb,
tests/duckdb/ddb.py, which RELIX_LIBDUCKDB names); SQLITE_FILE then holds the other connection
of the cross-connection joins. SEEDS sets of tables (20), QUERIES random queries on each (30). Two kinds of queries:
  - the spec's shapes: IJOIN over two tables for all 14 relations, and ASOF in
    every direction, INNER and outer, TIES(FIRST) and LAST, with and without keys;
  - random trees of σ π ρ δ ⨝ (inner, outer, semi, anti, cross, natural) γ τ TOP IJOIN ASOF
    with random expressions, over tables with NULLs, duplicates, ties, empty and inverted
    intervals, mixed-case and non-ASCII text in a case-insensitive column (SQLite's and
    DuckDB's COLLATE NOCASE, a nondeterministic ICU collation on PostgreSQL), NaN, -0 and infinities
    (PostgreSQL, DuckDB), PostgreSQL's int4, float4, numeric, char(n) and temporal types, and a table
    and columns named with quotes, semicolons, '--', spaces and non-ASCII letters; on DuckDB
    its INTEGER, BOOLEAN, TIMESTAMPTZ, DATE, TIME and INTERVAL columns (the queries use the
    constructs that push to SQLite, less those DuckDB computes otherwise: min and max of
    doubles, lower and upper, which map non-ASCII letters there).
The spec's shapes thus run every ASOF and IJOIN case four ways: in the engine and pushed to
SQLite, PostgreSQL and DuckDB, each pushed result equal to the engine's.
Each random query is built either from constructs that push down in that dialect only, and
EXPLAIN must then show one PushedSQL node and nothing else, or with one construct on top that
must not push (a function without an exact SQL equivalent, arithmetic on SQLite,
ASOF ... WITHIN over DURATIONs on PostgreSQL, a join with an inline table or with another connection's table), and
EXPLAIN must then show that the top runs in the engine, and (where the rest stays whole) only
pushed statements and scans below it; or a σ over a table with one conjunct that pushes and
one that does not, which must leave a σ in the engine over a statement with a WHERE. Values stay small, so no query fails at run time.
"""
import os
import random
import sqlite3
import subprocess
import sys

RELS = ["INTERSECTS", "PRECEDES", "PRECEDED_BY", "MEETS", "MET_BY", "OVERLAPS", "OVERLAPPED_BY",
        "STARTS", "STARTED_BY", "DURING", "CONTAINS", "FINISHES", "FINISHED_BY", "EQUALS"]

WORDS = ["a", "A", "b", "B", "é", "É", "ab", "", "a b", "q'x", "z"]

# Columns of the random tables: (name, Relix type, SQLite, PostgreSQL and DuckDB declarations).
# None: the column does not exist in that dialect. OPAQUE columns are carried, never computed on.
COLUMNS = [
    ("id", "INT", "INTEGER PRIMARY KEY", "int8 PRIMARY KEY", "BIGINT PRIMARY KEY"),
    ("k", "TEXT", "TEXT", "text", "VARCHAR"),
    ("s", "INT", "INTEGER", "int8", "BIGINT"),
    ("e", "INT", "INTEGER", "int8", "BIGINT"),
    ("v", "TEXT", "TEXT", "varchar(8)", "VARCHAR"),
    ("f", "FLOAT", "REAL", "float8", "DOUBLE"),
    ("c", "TEXT", "TEXT COLLATE NOCASE", "text COLLATE ci", "VARCHAR COLLATE NOCASE"),
    ("d", "DATE", "DATE", None, None),
    ("ts", "TIMESTAMP", None, "timestamptz", "TIMESTAMPTZ"),
    ("dt", "DATE", None, "date", "DATE"),
    ("b", "BOOL", None, "bool", "BOOLEAN"),
    ("du", "DURATION", None, "interval", "INTERVAL"),
    ("n4", "INT", None, "int4", "INTEGER"),
    ("nu", "FLOAT", None, "numeric(6,2)", None),
    ("tm", "TIME", None, "time", "TIME"),
    ("f4", "FLOAT", None, "float4", None),
    ("bp", "OPAQUE", None, "char(3)", None),
]
HOSTILE_TABLE = 'we;ird "t" --x'
HOSTILE_COLUMNS = [("id", "INT", "INTEGER PRIMARY KEY", "int8 PRIMARY KEY", "BIGINT PRIMARY KEY"),
                   ("c;1", "INT", "INTEGER", "int8", "BIGINT"), ("dash--x", "TEXT", "TEXT", "text", "VARCHAR"),
                   ("sp ace", "FLOAT", "REAL", "float8", "DOUBLE"), ("ünï", "TEXT", "TEXT", "text", "VARCHAR")]


def columns(dialect, table):
    cols = HOSTILE_COLUMNS if table == HOSTILE_TABLE else COLUMNS
    i = {"sqlite": 2, "postgresql": 3, "duckdb": 4}[dialect]
    return [(c[0], c[1], c[i]) for c in cols if c[i] is not None]


def value(rng, typ, dialect, i, name):
    if name == "id":
        return i + 1
    if rng.random() < 0.1:
        return None
    if typ == "INT":
        return rng.randrange(-2, 13)
    if typ == "FLOAT":
        if dialect in ("postgresql", "duckdb") and name == "f" and rng.random() < 0.15:
            return rng.choice(["NaN", "-0", "Infinity", "-Infinity"])
        return rng.randrange(-6, 20) / 2
    if typ == "TEXT":
        return rng.choice(WORDS)
    if typ == "DATE":
        return f"2026-01-{rng.randrange(1, 6):02d}"
    if typ == "TIMESTAMP":
        return f"2026-01-0{rng.randrange(1, 4)} {rng.randrange(8, 11):02d}:{rng.choice(['00', '30'])}:00+00"
    if typ == "BOOL":
        return rng.choice(["true", "false"])
    if typ == "DURATION":
        return rng.choice(["5 minutes", "1 hour", "-2 hours", "1 day", "30 days", "1 mon", "0"])
    if typ == "TIME":
        return f"{rng.randrange(8, 12):02d}:{rng.choice(['00', '15', '30'])}"
    return rng.choice(["ab", "ab ", "x", "xyz"])


def intervals(rng, row, dialect, table):
    """The spec's tables: s and e with empty, inverted and NULL intervals."""
    s = None if rng.random() < 0.08 else rng.randrange(0, 12)
    e = None if rng.random() < 0.08 else (s if s is not None and rng.random() < 0.15 else rng.randrange(0, 14))
    row["s"], row["e"] = s, e
    row["k"] = None if rng.random() < 0.05 else rng.choice(["a", "b", "c"])


def sql_literal(v):
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return "'" + v.replace("'", "''") + "'"
    return repr(v)


def quote(name):
    return '"' + name.replace('"', '""') + '"'


def make_tables(rng, dialect):
    """DDL and data for lt, rt and the hostile table."""
    stmts = []
    if dialect == "postgresql":
        stmts.append("CREATE COLLATION IF NOT EXISTS ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);")
    for table in ("lt", "rt", HOSTILE_TABLE):
        cols = columns(dialect, table)
        stmts.append(f"DROP TABLE IF EXISTS {quote(table)};")
        stmts.append(f"CREATE TABLE {quote(table)} ({', '.join(quote(n) + ' ' + decl for n, _, decl in cols)});")
        n = rng.randrange(0, 22) if table != HOSTILE_TABLE else rng.randrange(1, 8)
        for i in range(n):
            row = {name: value(rng, typ, dialect, i, name) for name, typ, _ in cols}
            if table != HOSTILE_TABLE and rng.random() < 0.5:
                intervals(rng, row, dialect, table)
            if i > 0 and rng.random() < 0.15:  # a duplicate of an earlier row but for its id
                prev = stmts[-1]
                stmts.append(prev[:prev.index("VALUES (") + 8] + str(i + 1) + prev[prev.index(","):])
                continue
            stmts.append(f"INSERT INTO {quote(table)} VALUES ({', '.join(sql_literal(row[n]) for n, _, _ in cols)});")
    if dialect == "postgresql":
        stmts.append("ANALYZE;")
    return "\n".join(stmts)


# ---- random queries ----------------------------------------------------------------------------

class Rel:
    """A generated relational expression: its text, its columns (display name, type), whether it
    has an operator besides scans and renames, and the tables it reads."""

    def __init__(self, text, cols, has_op, tables):
        self.text, self.cols, self.has_op, self.tables = text, cols, has_op, tables


def ref(name, qual=None):
    return (qual + "." if qual else "") + quote(name)


class Gen:
    def __init__(self, rng, dialect):
        self.rng, self.dialect, self.pg = rng, dialect, dialect == "postgresql"
        self.duck = dialect == "duckdb"
        self.n = 0

    def fresh(self, prefix):
        self.n += 1
        return f"{prefix}{self.n}"

    def computable(self, typ):
        if typ == "OPAQUE":
            return False
        return self.pg or typ in ("INT", "FLOAT", "TEXT", "BOOL")

    # -- scalar expressions that push down: (text, type) ------------------------------------

    def const(self, typ):
        r = self.rng
        if typ == "INT":
            return str(r.randrange(-2, 12))
        if typ == "FLOAT":
            return r.choice(["0.5", "2.5", "-1.5", "4.0", "0.1"])
        if typ == "TEXT":
            return "'" + r.choice(WORDS).replace("'", "''") + "'"
        if typ == "BOOL":
            return r.choice(["TRUE", "FALSE"])
        if typ == "TIMESTAMP":
            return f"TIMESTAMP '2026-01-02T{r.randrange(8, 11):02d}:00:00Z'"
        if typ == "DATE":
            return f"DATE '2026-01-0{r.randrange(1, 6)}'"
        if typ == "TIME":
            return f"TIME '{r.randrange(8, 12):02d}:15'"
        if typ == "DURATION":
            return r.choice(["DURATION 'PT5M'", "DURATION 'PT1H'", "DURATION 'P1D'", "DURATION '-PT2H'"])
        raise ValueError(typ)

    def column(self, cols, types):
        cands = [c for c in cols if c[1] in types and self.computable(c[1])]
        return self.rng.choice(cands) if cands else None

    def scalar(self, cols, typ, depth=0):
        """An expression of type typ over cols that pushes down in this dialect."""
        r, pg = self.rng, self.pg
        c = self.column(cols, [typ])
        if depth > 2 or r.random() < 0.35:
            return ref(c[0]) if c and r.random() < 0.7 else self.const(typ)
        k = r.randrange(7)
        if typ == "INT":
            if pg and k == 0:
                return f"({self.scalar(cols, 'INT', depth + 1)} {r.choice(['+', '-', '*'])} {self.scalar(cols, 'INT', depth + 1)})"
            if pg and k == 1:
                return f"({self.scalar(cols, 'INT', depth + 1)} % {r.choice(['3', '-2', '5'])})"
            if pg and k == 2:  # SQLite's length() stops at a NUL: not pushed there
                return f"length({self.scalar(cols, 'TEXT', depth + 1)})"
            if k == 3:
                return f"abs({self.scalar(cols, 'INT', depth + 1)})"
            if k == 4:
                return f"coalesce({self.scalar(cols, 'INT', depth + 1)}, {self.const('INT')})"
            return f"CASE WHEN {self.cond(cols, depth + 1)} THEN {self.scalar(cols, 'INT', depth + 1)} ELSE {self.const('INT')} END"
        if typ == "FLOAT":
            if pg and k == 0:
                a, b = self.scalar(cols, "FLOAT", depth + 1), self.num(cols, depth)
                return f"({a} {r.choice(['+', '-', '*'])} {b})"
            if pg and k == 1:
                return f"({self.num(cols, depth)} / {r.choice(['2', '0.5', '-4'])})"
            if pg and k == 2:
                return f"{r.choice(['floor', 'ceil', 'round'])}({self.scalar(cols, 'FLOAT', depth + 1)})"
            if k == 3:
                return f"to_float({self.scalar(cols, 'INT', depth + 1)})"
            if k == 4:
                return f"coalesce({self.scalar(cols, 'FLOAT', depth + 1)}, {self.scalar(cols, 'INT', depth + 1)})"
            if k == 5:
                return f"abs({self.scalar(cols, 'FLOAT', depth + 1)})"
            return f"-({self.scalar(cols, 'FLOAT', depth + 1)})"
        if typ == "TEXT":
            if k == 0 and not self.duck:  # DuckDB's map non-ASCII letters too: not pushed there
                return f"{r.choice(['lower', 'upper'])}({self.scalar(cols, 'TEXT', depth + 1)})"
            if pg and k == 1:  # SQLite's substr() stops at a NUL: not pushed there
                return f"substr({self.scalar(cols, 'TEXT', depth + 1)}, {r.randrange(1, 3)}, {r.randrange(0, 3)})"
            if k == 2:
                return f"({self.scalar(cols, 'TEXT', depth + 1)} || {self.scalar(cols, r.choice(['TEXT', 'INT']), depth + 1)})"
            if k == 3:
                return f"to_text({self.scalar(cols, 'INT', depth + 1)})"
            return f"coalesce({self.scalar(cols, 'TEXT', depth + 1)}, {self.const('TEXT')})"
        if typ == "BOOL":
            return f"({self.cond(cols, depth + 1)})"
        if typ == "DURATION":
            a = r.choice([("TIMESTAMP", "TIMESTAMP"), ("DATE", "DATE"), ("TIME", "TIME"), ("DURATION", "DURATION")])
            op = "-" if a[0] != "DURATION" else r.choice(["+", "-"])
            return f"({self.scalar(cols, a[0], depth + 1)} {op} {self.scalar(cols, a[1], depth + 1)})"
        if typ == "TIME":
            return f"({self.scalar(cols, 'TIME', depth + 1)} {r.choice(['+', '-'])} {self.const('DURATION')})"
        if typ == "DATE":
            return f"to_date({self.scalar(cols, 'TIMESTAMP', depth + 1)})"
        if typ == "TIMESTAMP":
            return f"to_timestamp({self.scalar(cols, 'DATE', depth + 1)})"
        raise ValueError(typ)

    def num(self, cols, depth):
        return self.scalar(cols, self.rng.choice(["INT", "FLOAT"]), depth + 1)

    def types(self):
        return ["INT", "FLOAT", "TEXT"] + (["TIMESTAMP", "DATE", "TIME", "DURATION", "BOOL"] if self.pg else [])

    def cond(self, cols, depth=0):
        r = self.rng
        k = r.randrange(7)
        if depth < 2 and k == 0:
            return f"({self.cond(cols, depth + 1)} {r.choice(['∧', '∨'])} {self.cond(cols, depth + 1)})"
        if depth < 2 and k == 1:
            return f"¬({self.cond(cols, depth + 1)})"
        if k == 2:
            c = r.choice(cols)
            return f"{ref(c[0])} IS {r.choice(['', 'NOT '])}NULL"
        if k == 3:
            t = r.choice(["INT", "TEXT", "FLOAT"])
            return f"{self.scalar(cols, t, depth + 1)} IN ({self.const(t)}, {self.const(t)})"
        t = r.choice(self.types())
        if t in ("INT", "FLOAT") and r.random() < 0.4:
            a, b = self.num(cols, depth), self.num(cols, depth)
        elif t in ("DATE", "TIMESTAMP") and r.random() < 0.3:
            a, b = self.scalar(cols, "DATE", depth + 1), self.scalar(cols, "TIMESTAMP", depth + 1)
        else:
            a, b = self.scalar(cols, t, depth + 1), self.scalar(cols, t, depth + 1)
        return f"{a} {r.choice(['=', '≠', '<', '≤', '>', '≥'])} {b}"

    # -- relations ---------------------------------------------------------------------------

    def table(self, conn="DB"):
        r = self.rng
        t = r.choice(["lt", "rt", "lt", "rt", HOSTILE_TABLE])
        cols = [(n, typ) for n, typ, _ in columns(self.dialect, t)]
        alias = self.fresh("A")
        name = quote(t) if t == HOSTILE_TABLE else t
        return Rel(f"{conn}.{name} {alias}", cols, False, 1)

    def rel(self, depth):
        r = self.rng
        if depth <= 0 or r.random() < 0.2:
            return self.table()
        k = r.randrange(12)
        if k < 2:
            return self.join(depth)
        if k == 2:
            return self.ijoin(depth)
        if k == 3:
            a = self.asof(depth, within=self.pg and self.rng.random() < 0.3)
            if a:
                return a
        x = self.rel(depth - 1)
        if k in (3, 4):
            return Rel(f"σ {self.cond(x.cols)} ({x.text})", x.cols, True, x.tables)
        if k == 5:
            return self.project(x)
        if k == 6:
            return self.group(x)
        if k == 7:
            keys = self.sort_keys(x)
            return Rel(f"τ {keys} ({x.text})", x.cols, True, x.tables) if keys else x
        if k == 8:
            return self.top(x)
        if k == 9:
            cols = [c for c in x.cols if self.dedupable(c[1])]
            if len(cols) == len(x.cols):
                return Rel(f"δ ({x.text})", x.cols, True, x.tables)
            return self.project(x)
        return Rel(f"ρ {self.fresh('R')} ({x.text})", x.cols, x.has_op, x.tables)

    def dedupable(self, typ):
        return self.computable(typ) and typ != "DURATION"

    def project(self, x):
        r = self.rng
        items, cols, names = [], [], set()
        for _ in range(r.randrange(1, 4)):
            if r.random() < 0.5:
                cands = [c for c in x.cols if self.dedupable(c[1]) and c[0] not in names]
                if not cands:
                    continue
                c = r.choice(cands)
                items.append(ref(c[0]))
                cols.append(c)
                names.add(c[0])
            else:
                t = r.choice([t for t in self.types() if t != "DURATION"])
                name = self.fresh("x")
                items.append(f"{self.scalar(x.cols, t)} → {quote(name)}")
                cols.append((name, t))
                names.add(name)
        if not items:
            c = (self.fresh("x"), "INT")
            items.append(f"{self.const('INT')} → {quote(c[0])}")
            cols.append(c)
        return Rel(f"π {', '.join(items)} ({x.text})", cols, True, x.tables)

    def sort_keys(self, x):
        r = self.rng
        keys = []
        for _ in range(r.randrange(1, 3)):
            cands = [c for c in x.cols if self.computable(c[1])]
            if not cands:
                break
            e = ref(r.choice(cands)[0]) if r.random() < 0.7 else self.scalar(x.cols, r.choice(["INT", "TEXT"]))
            keys.append(e + r.choice(["", " DESC", " ASC NULLS FIRST", " DESC NULLS LAST"]))
        return ", ".join(keys)

    def top(self, x):
        r = self.rng
        text = f"TOP {r.randrange(0, 5)}"
        if r.random() < 0.5:
            cands = [c for c in x.cols if self.computable(c[1])]
            if cands:
                text += f" PER {ref(r.choice(cands)[0])}"
        if r.random() < 0.7:
            keys = self.sort_keys(x)
            if keys:
                text += f" BY {keys}"
        return Rel(f"{text} ({x.text})", x.cols, True, x.tables)

    def group(self, x):
        r, pg = self.rng, self.pg
        key_types = ["INT", "TEXT"] + (["BOOL", "TIMESTAMP", "DATE", "TIME"] if pg else [])
        keys, cols = [], []
        for _ in range(r.randrange(0, 3)):
            cands = [c for c in x.cols if c[1] in key_types and c[0] not in [k[0] for k in cols]]
            if not cands:
                break
            c = r.choice(cands)
            keys.append(ref(c[0]))
            cols.append(c)
        aggs = []
        for _ in range(r.randrange(1, 4)):
            name = self.fresh("g")
            k = r.randrange(6 if pg else 4)
            if k == 0:
                aggs.append(f"count(*) → {quote(name)}")
                cols.append((name, "INT"))
                continue
            if k == 1:
                c = r.choice(x.cols)
                aggs.append(f"count({ref(c[0])}) → {quote(name)}")
                cols.append((name, "INT"))
                continue
            if k == 2:
                c = self.column(x.cols, ["INT", "FLOAT", "TEXT"] + (["TIMESTAMP", "DURATION", "BOOL"] if pg else []))
                if c:
                    aggs.append(f"count(DISTINCT {ref(c[0])}) → {quote(name)}")
                    cols.append((name, "INT"))
                continue
            if k == 3:
                # DuckDB's min and max of doubles need not pick the engine's among -0 and 0
                c = self.column(x.cols, ["INT", "TEXT"] + (["BOOL", "TIMESTAMP", "DATE", "TIME"] if pg else
                                                          [] if self.duck else ["FLOAT"]))
                if c:
                    aggs.append(f"{r.choice(['min', 'max'])}({ref(c[0])}) → {quote(name)}")
                    cols.append((name, c[1]))
                continue
            if k == 4:
                c = self.column(x.cols, ["INT", "FLOAT"])
                if c:
                    fn = r.choice(["sum", "avg"])
                    aggs.append(f"{fn}({ref(c[0])}) → {quote(name)}")
                    cols.append((name, c[1] if fn == "sum" else "FLOAT"))
                continue
            c = r.choice(x.cols)
            aggs.append(f"{r.choice(['first', 'last'])}({ref(c[0])}) → {quote(name)}")
            cols.append((name, c[1]))
        if not aggs:
            name = self.fresh("g")
            aggs.append(f"count(*) → {quote(name)}")
            cols.append((name, "INT"))
        head = (", ".join(keys) + "; ") if keys else ""
        return Rel(f"γ {head}{', '.join(aggs)} ({x.text})", cols, True, x.tables)

    def aliased(self, x):
        a = self.fresh("Q")
        return f"ρ {a} ({x.text})", a

    @staticmethod
    def joined(lc, rc):
        """The schema of a join: left names, right names suffixed _r, _r2 ... when taken."""
        out = list(lc)
        for n, t in rc:
            names = {c[0] for c in out}
            cand = n
            if cand in names:
                cand = n + "_r"
                k = 2
                while cand in names:
                    cand = f"{n}_r{k}"
                    k += 1
            out.append((cand, t))
        return out

    def key_pair(self, lc, rc):
        r = self.rng
        groups = [["INT", "FLOAT"], ["TEXT"]] + ([["TIMESTAMP", "DATE"], ["TIME"], ["DURATION"], ["BOOL"]] if self.pg else [])
        r.shuffle(groups)
        for g in groups:
            a = [c for c in lc if c[1] in g and self.computable(c[1])]
            b = [c for c in rc if c[1] in g and self.computable(c[1])]
            if a and b:
                return r.choice(a), r.choice(b)
        return None

    def join(self, depth):
        r = self.rng
        x, y = self.rel(depth - 1), self.rel(depth - 1)
        kind = r.choice(["⨝", "⨝", "⟕", "⟖", "⟗", "⋉", "▷", "⋊", "×", "natural"])
        if kind == "natural":
            return self.natural(x, y)
        lt, la = self.aliased(x)
        rt, ra = self.aliased(y)
        if kind == "×":
            return Rel(f"{lt} × {rt}", self.joined(x.cols, y.cols), True, x.tables + y.tables)
        conds, keys = [], 0
        for _ in range(r.randrange(1, 3)):
            kp = self.key_pair(x.cols, y.cols)
            if kp and r.random() < 0.7:
                conds.append(f"{ref(kp[0][0], la)} = {ref(kp[1][0], ra)}")
                keys += 1
            else:
                # a residual over both sides
                a = [c for c in x.cols if c[1] in ("INT", "FLOAT") and self.computable(c[1])]
                b = [c for c in y.cols if c[1] in ("INT", "FLOAT") and self.computable(c[1])]
                if a and b:
                    conds.append(f"{ref(r.choice(a)[0], la)} {r.choice(['<', '≤', '≠', '>'])} {ref(r.choice(b)[0], ra)}")
        if not conds:
            conds.append(f"{ref(x.cols[0][0], la)} IS NOT NULL ∧ {ref(y.cols[0][0], ra)} = {ref(y.cols[0][0], ra)}")
        if kind == "⟗" and self.pg and keys < len(conds):
            # PostgreSQL runs a full join only on equalities it can hash or merge
            kind = "⟕"
        cols = x.cols if kind in ("⋉", "▷") else y.cols if kind == "⋊" else self.joined(x.cols, y.cols)
        return Rel(f"{lt} {kind} {' ∧ '.join(conds)} {rt}", cols, True, x.tables + y.tables)

    def natural(self, x, y):
        """π both sides to fresh names but for the shared key names, then a natural join."""
        r = self.rng
        kp = self.key_pair(x.cols, y.cols)
        lcols = [c for c in x.cols if self.dedupable(c[1])][:3]
        rcols = [c for c in y.cols if self.dedupable(c[1])][:3]
        if not kp or not lcols or not rcols or not self.dedupable(kp[0][1]) or not self.dedupable(kp[1][1]):
            return x
        key = self.fresh("n")
        litems = [f"{ref(kp[0][0])} → {quote(key)}"] + [f"{ref(c[0])} → {quote(c[0] + 'L')}" for c in lcols if c != kp[0]]
        ritems = [f"{ref(kp[1][0])} → {quote(key)}"] + [f"{ref(c[0])} → {quote(c[0] + 'R')}" for c in rcols if c != kp[1]]
        lc = [(key, kp[0][1])] + [(c[0] + "L", c[1]) for c in lcols if c != kp[0]]
        rc = [(c[0] + "R", c[1]) for c in rcols if c != kp[1]]
        return Rel(f"π {', '.join(litems)} ({x.text}) ⨝ π {', '.join(ritems)} ({y.text})", self.joined(lc, rc),
                   True, x.tables + y.tables)

    def interval_cols(self, cols):
        for g in (["INT"], ["INT", "FLOAT"], ["TEXT"]) + ((["TIMESTAMP", "DATE"], ["TIME"]) if self.pg else ()):
            c = [x for x in cols if x[1] in g and self.computable(x[1])]
            if len(c) >= 1:
                return g, c
        return None, None

    def ijoin(self, depth):
        r = self.rng
        x, y = self.rel(depth - 1), self.rel(depth - 1)
        gx, cx = self.interval_cols(x.cols)
        if not gx:
            return x
        cy = [c for c in y.cols if c[1] in gx and self.computable(c[1])]
        if not cy:
            return x
        lt, la = self.aliased(x)
        rt, ra = self.aliased(y)
        ends = [ref(r.choice(cx)[0], la), ref(r.choice(cx)[0], la), ref(r.choice(cy)[0], ra), ref(r.choice(cy)[0], ra)]
        return Rel(f"{lt} IJOIN {r.choice(RELS)} ({', '.join(ends)}) {rt}", self.joined(x.cols, y.cols), True,
                   x.tables + y.tables)

    def asof(self, depth, within):
        r = self.rng
        x, y = self.rel(depth - 1), self.rel(depth - 1)
        groups = [["INT", "FLOAT"], ["TEXT"]] + ([["TIMESTAMP", "DATE"], ["TIME"], ["DURATION"]] if self.pg else [])
        if within == "engine":
            groups = [["DURATION"]]   # WITHIN over DURATION match values has no pushed form
        elif within:
            groups = [["TIMESTAMP"], ["DATE"]]
        r.shuffle(groups)
        for g in groups:
            a = [c for c in x.cols if c[1] in g and self.computable(c[1])]
            b = [c for c in y.cols if c[1] in g and self.computable(c[1])]
            if a and b:
                break
        else:
            return None
        if within:
            b = [c for c in b if c[1] == r.choice(a)[1]] or b
            a = [c for c in a if c[1] == b[0][1]]
            if not a:
                return None
        lt, la = self.aliased(x)
        rt, ra = self.aliased(y)
        cond = f"{ref(r.choice(a)[0], la)} {r.choice(['>=', '>', '<=', '<'])} {ref(b[0][0] if within else r.choice(b)[0], ra)}"
        kp = self.key_pair(x.cols, y.cols)
        if kp and r.random() < 0.6:
            cond = f"{ref(kp[0][0], la)} = {ref(kp[1][0], ra)} ∧ {cond}"
        text = f"{lt} ASOF {r.choice(['', 'INNER '])}{cond}"
        if within:
            text += " WITHIN DURATION 'P1D'"
        text += r.choice(["", " TIES(FIRST)", " TIES(LAST)"])
        return Rel(f"{text} {rt}", self.joined(x.cols, y.cols), True, x.tables + y.tables)

    # -- fallbacks: one construct that must not push, on top of pushable parts ----------------

    def fallback(self, depth, other_conn):
        """(query text, whether a PushedSQL must stand below the top)."""
        r, pg = self.rng, self.pg
        k = r.randrange(7)
        if k == 6:
            # a condition that pushes only in part: its pushable conjunct goes down, the other
            # stays in a σ above the statement
            t = self.table()
            floats = [c for c in t.cols if c[1] == "FLOAT"]
            return f"σ {self.cond(t.cols)} ∧ round({ref(floats[0][0])}, 1) > 1 ({t.text})", "split"
        x = self.rel(depth)
        if k == 0:
            # a function without an exact SQL equivalent, computed by the engine over the rest
            nums = [c for c in x.cols if c[1] == "FLOAT" and self.computable(c[1])]
            ints = [c for c in x.cols if c[1] == "INT" and self.computable(c[1])]
            tss = [c for c in x.cols if c[1] == "TIMESTAMP"]
            cands = []
            if nums:
                cands += [f"to_text({ref(nums[0][0])})", f"round({ref(nums[0][0])}, 1)"]
            if ints and not pg:
                cands += [f"{ref(ints[0][0])} + 1", f"-{ref(ints[0][0])}"]
            if tss:
                cands += [f"extract('hour', {ref(tss[0][0])})", f"{ref(tss[0][0])} + DURATION 'PT1H'"]
            if cands:
                return f"π {r.choice(cands)} → fx ({x.text})", x.has_op
            k = 1
        if k == 1:
            # a join with an inline table
            return f"ρ X ({x.text}) × Inline", x.has_op
        nums = [c for c in x.cols if c[1] in ("INT", "FLOAT") and self.computable(c[1])]
        if k == 2 and nums:
            # a join with a table of another connection
            return f"ρ X ({x.text}) ⨝ X.{quote(nums[0][0])} = OT.id {other_conn}.lt OT", x.has_op
        if k == 3 and pg:
            rel = None
            for _ in range(4):
                rel = self.asof(depth, within="engine")
                if rel:
                    break
            if rel:
                return rel.text, False
        # SQLite arithmetic, or an extract on PostgreSQL, in a condition on top
        ints = [c for c in x.cols if c[1] == "INT"]
        if not pg and ints:
            return f"σ {ref(ints[0][0])} * 2 > 3 ({x.text})", False
        floats = [c for c in x.cols if c[1] == "FLOAT" and self.computable(c[1])]
        if floats:
            return f"σ to_text({ref(floats[0][0])}) = '0.5' ∨ round({ref(floats[0][0])}, 1) > 2 ({x.text})", False
        return f"ρ X ({x.text}) × Inline", x.has_op


def run(relix, script, extra):
    p = subprocess.run([relix, "--format", "csv"] + extra + ["-e", script], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def plans(explain_out):
    """The physical plan of every query: a list of (its rewrites' text, its plan's lines)."""
    out = []
    parts = explain_out.split("Physical plan\n")
    for i, part in enumerate(parts[1:]):
        lines = []
        for line in part.split("\n"):
            if not line:
                break
            lines.append(line)
        # the rewrites of this query stand after the previous plan
        before = parts[i]
        out.append((before[before.rfind("Rewrites applied"):] if "Rewrites applied" in before else "", lines))
    return out


def report(relix, seed, label, head, qs, a, b):
    """The queries whose results differ, each run alone."""
    print(f"FAIL seed {seed} {label}: pushed (exit {a[0]}) and engine (exit {b[0]}) differ")
    shown = 0
    for q in qs:
        script = head + f"query {{ {q} }};"
        x, y = run(relix, script, []), run(relix, script, ["--no-pushdown"])
        if x != y and shown < 3:
            shown += 1
            print(f"  query {{ {q} }};\n--- pushed (exit {x[0]})\n{x[1][:1500]}{x[2][:1500]}\n"
                  f"--- engine (exit {y[0]})\n{y[1][:1500]}{y[2][:1500]}")
    if not shown:
        print(f"--- pushed stderr\n{a[2][:2000]}--- engine stderr\n{b[2][:2000]}")


def spec_queries(label):
    qs = []
    for rel in RELS:
        qs.append(f"π L.id, R.id → rid (DB.lt L IJOIN {rel} (L.s, L.e, R.s, R.e) DB.rt R)")
        qs.append(f"σ L.k = R.k (DB.lt L IJOIN {rel} (L.s, L.e, R.s, R.e) DB.rt R)")
    for op in (">=", ">", "<=", "<"):
        for inner in ("", "INNER "):
            for ties in ("", " TIES(FIRST)"):
                qs.append(f"DB.lt L ASOF {inner}L.k = R.k ∧ L.s {op} R.e{ties} DB.rt R")
                qs.append(f"π L.id, R.id → rid (DB.lt L ASOF {inner}L.e {op} R.s{ties} DB.rt R)")
    return qs


def main():
    relix, lite = os.path.abspath(sys.argv[1]), sys.argv[2]
    pg = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
    seeds = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    per_seed = int(sys.argv[5]) if len(sys.argv) > 5 else 30
    first = int(os.environ.get("PUSHDOWN_FIRST_SEED", "0"))
    other = lite + ".other"
    duck = pg[len("duckdb:"):] if pg and pg.startswith("duckdb:") else None
    conns = [("duckdb", pg)] if duck else [("postgresql", pg)] if pg else [("sqlite", f"sqlite:{lite}")]
    passed = failed = 0
    stats = {}
    inline = "Inline := [\n| w |\n|---|\n| 1 |\n| 2 |\n];\n"
    for seed in range(first, first + seeds):
        for label, uri in conns:
            rng = random.Random(f"{seed}-{label}")
            ddl = make_tables(rng, label)
            if label == "sqlite":
                for path in (lite, other):
                    if os.path.exists(path):
                        os.remove(path)
                    db = sqlite3.connect(path)
                    db.executescript(ddl)
                    db.close()
                other_uri = f"sqlite:{other}"
            else:
                if seed == first:
                    if os.path.exists(lite):
                        os.remove(lite)
                    db = sqlite3.connect(lite)
                    db.executescript(make_tables(random.Random(0), "sqlite"))
                    db.close()
                if duck:
                    ddb = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "duckdb", "ddb.py")
                    p = subprocess.run([sys.executable, ddb, duck], input=ddl, capture_output=True, text=True)
                else:
                    p = subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", pg], input=ddl, capture_output=True, text=True)
                if p.returncode != 0:
                    print(f"{label}: creating the tables failed:", p.stderr)
                    sys.exit(1)
                other_uri = f"sqlite:{lite}"
            g = Gen(rng, label)
            qs, want = [], []  # want: "pushed", "fallback+" (a PushedSQL below the top) or "fallback"
            if seed < 2:
                for q in spec_queries(label):
                    qs.append(q)
                    want.append("pushed")
            for _ in range(per_seed):
                if rng.random() < 0.75:
                    x = g.rel(rng.randrange(1, 4))
                    if not x.has_op:
                        continue
                    qs.append(x.text)
                    want.append("pushed")
                else:
                    text, below = g.fallback(rng.randrange(1, 3), "O")
                    qs.append(text)
                    want.append(below if below == "split" else "fallback+" if below else "fallback")
            head = f"DB := connect('{uri}');\nO := connect('{other_uri}');\n{inline}"
            script = head + "\n".join(f"query {{ {q} }};" for q in qs)
            a = run(relix, script, [])
            b = run(relix, script, ["--no-pushdown"])
            if a != b or a[0] != 0:
                failed += 1
                report(relix, seed, label, head, qs, a, b)
                continue
            e = run(relix, script, ["--explain"])
            ps = plans(e[1])
            if e[0] != 0 or len(ps) != len(qs):
                failed += 1
                print(f"FAIL seed {seed} {label}: --explain (exit {e[0]}) gave {len(ps)} plans for {len(qs)} queries\n{e[2]}")
                continue
            bad = 0
            for q, w, (rewrites, plan) in zip(qs, want, ps):
                pushed_root = len(plan) == 1 and plan[0].startswith("PushedSQL ")
                # a condition folded to TRUE can leave nothing to push
                pushed_root |= all(line.lstrip("├└─│ ").startswith(("Rename ", "Scan ")) for line in plan)
                # below the top that must run in the engine, only pushed statements and scans
                below = all(line.lstrip("├└─│ ").startswith(("PushedSQL ", "Rename ", "Scan ")) for line in plan[1:])
                if w == "split":
                    # σ over the statement, which has a WHERE (unless the condition folded away)
                    ok = pushed_root or any(line.lstrip("├└─│ ").startswith("Select ") for line in plan) and (
                        any("PushedSQL " in line and " WHERE " in line for line in plan) or
                        not any("PushedSQL " in line for line in plan))
                elif w == "pushed" and "PUSH-SQL-004" in rewrites:
                    # the database's estimates made pulling a join's inputs cheaper than pushing
                    # it (a subquery's rows by EXPLAIN): the rest is still pushed below it
                    ok = any(line.lstrip("├└─│ ").startswith("PushedSQL ") for line in plan)
                    stats[(label, "pulled by the cost model")] = stats.get((label, "pulled by the cost model"), 0) + 1
                else:
                    ok = pushed_root if w == "pushed" else (not plan[0].startswith("PushedSQL ") and (below or w == "fallback"))
                stats[(label, w)] = stats.get((label, w), 0) + 1
                if not ok:
                    bad += 1
                    print(f"FAIL seed {seed} {label}: expected {w}\n  query {{ {q} }};\n  " + "\n  ".join(plan))
            if bad:
                failed += 1
            else:
                passed += len(qs)
    for (label, w), n in sorted(stats.items()):
        print(f"{label}: {n} {w} queries checked")
    print(f"pushdown: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
