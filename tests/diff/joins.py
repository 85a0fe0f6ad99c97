#!/usr/bin/env python3
"""Randomized differential test of IJOIN and ASOF, end to end.

For many seeds it writes two small CSV files with endpoint or match columns of one type (INT,
FLOAT, TEXT, DATE, TIMESTAMP), frequent ties, empty (s = e) and inverted (s > e) intervals,
duplicates and NULLs; runs relix on a script with one query per relation or AS-OF variant, under
every algorithm switch; and compares each result with a brute-force evaluation written here from
the spec's predicate table. Prints "joins: N passed, M failed" and exits non-zero on a failure.

  tests/diff/joins.py RELIX [SEEDS]
"""
import datetime as dt
import os
import random
import subprocess
import sys
import tempfile

RELATIONS = {
    "INTERSECTS": lambda ls, le, rs, re: ls < re and rs < le,
    "PRECEDES": lambda ls, le, rs, re: le < rs,
    "PRECEDED_BY": lambda ls, le, rs, re: ls > re,
    "MEETS": lambda ls, le, rs, re: le == rs,
    "MET_BY": lambda ls, le, rs, re: ls == re,
    "OVERLAPS": lambda ls, le, rs, re: ls < rs and le > rs and le < re,
    "OVERLAPPED_BY": lambda ls, le, rs, re: rs < ls and re > ls and re < le,
    "STARTS": lambda ls, le, rs, re: ls == rs and le < re,
    "STARTED_BY": lambda ls, le, rs, re: ls == rs and re < le,
    "DURING": lambda ls, le, rs, re: rs < ls and le < re,
    "CONTAINS": lambda ls, le, rs, re: ls < rs and re < le,
    "FINISHES": lambda ls, le, rs, re: le == re and rs < ls,
    "FINISHED_BY": lambda ls, le, rs, re: le == re and ls < rs,
    "EQUALS": lambda ls, le, rs, re: ls == rs and le == re,
}

TYPES = ["INT", "FLOAT", "TEXT", "DATE", "TIMESTAMP"]
BASE = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


def value(t, k):
    """(csv text, comparable python value) of the k-th point of a small domain."""
    if t == "INT":
        v = k - 5
        return str(v), v
    if t == "FLOAT":
        v = (k - 5) * 0.5
        return repr(v), v
    if t == "TEXT":
        # varying lengths so that prefixes order before their extensions
        s = "k" + "ab"[k % 2] * (k // 2 % 3 + 1) + str(k)
        return s, s.encode()
    if t == "DATE":
        d = dt.date(2026, 1, 1) + dt.timedelta(days=k)
        return d.isoformat(), d
    ts = BASE + dt.timedelta(minutes=7 * k)
    return ts.strftime("%Y-%m-%dT%H:%M:%SZ"), ts


def make_rows(rng, t, n, domain, cols):
    rows = []
    for i in range(n):
        if rows and rng.random() < 0.1:
            r = dict(rows[rng.randrange(len(rows))])  # a duplicate (new id)
            r["id"] = i
            rows.append(r)
            continue
        r = {"id": i}
        for c in cols:
            if rng.random() < 0.08:
                r[c] = None
            else:
                r[c] = value(t, rng.randrange(domain))
        rows.append(r)
    return rows


def write_csv(path, rows, cols):
    with open(path, "w") as f:
        f.write(",".join(["id"] + cols) + "\n")
        for r in rows:
            f.write(",".join([str(r["id"])] + ["" if r[c] is None else r[c][0] for c in cols]) + "\n")


def run(relix, script, extra):
    p = subprocess.run([relix, "--format", "csv"] + extra + [script], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def split_results(out):
    return [b for b in out.split("\n\n")]


def check(name, got, want, failures):
    if got.strip("\n") != want.strip("\n"):
        failures.append((name, got, want))
        return False
    return True


def ijoin_case(rng, relix, tmp, seed, failures):
    t = TYPES[seed % len(TYPES)]
    domain = rng.choice([4, 8, 16])
    L = make_rows(rng, t, rng.randrange(0, 30), domain, ["s", "e"])
    R = make_rows(rng, t, rng.randrange(0, 30), domain, ["s", "e"])
    write_csv(f"{tmp}/l.csv", L, ["s", "e"])
    write_csv(f"{tmp}/r.csv", R, ["s", "e"])
    schema = {"INT": "INT", "FLOAT": "FLOAT", "TEXT": "TEXT", "DATE": "DATE", "TIMESTAMP": "TIMESTAMP"}[t]
    opt = f", schema => 'id INT, s {schema}, e {schema}'"
    lines = [f"L := csv('l.csv'{opt});", f"R := csv('r.csv'{opt});"]
    wants = []
    for rel, pred in RELATIONS.items():
        lines.append(f"query {{ π L.id, R.id → rid (L IJOIN {rel} (L.s, L.e, R.s, R.e) R) }};")
        out = ["id,rid"]
        for l in L:
            for r in R:
                if None in (l["s"], l["e"], r["s"], r["e"]):
                    continue
                if pred(l["s"][1], l["e"][1], r["s"][1], r["e"][1]):
                    out.append(f"{l['id']},{r['id']}")
        wants.append((rel, "\n".join(out)))
    with open(f"{tmp}/q.rx", "w") as f:
        f.write("\n".join(lines) + "\n")
    ok = 0
    for algo in ("auto", "nested-loop", "fast"):
        rc, out, err = run(relix, f"{tmp}/q.rx", ["--ijoin-algo", algo])
        if rc != 0:
            failures.append((f"ijoin seed {seed} {t} {algo}: exit {rc}", err, ""))
            continue
        got = split_results(out)
        for (rel, want), g in zip(wants, got):
            ok += check(f"ijoin seed {seed} {t} {rel} {algo}", g, want, failures)
    return ok


def asof_case(rng, relix, tmp, seed, failures):
    t = TYPES[seed % len(TYPES)]
    domain = rng.choice([3, 6, 12])
    keyed = rng.random() < 0.7
    cols = ["k", "m"] if keyed else ["m"]
    L = make_rows(rng, t, rng.randrange(0, 30), domain, ["m"])
    R = make_rows(rng, t, rng.randrange(0, 30), domain, ["m"])
    # Keys: sometimes without NULLs and from one or two groups, so that both sides often see
    # the same strings in the same order (the engine then uses the dictionary codes as the
    # partition ids), sometimes with a left-only key.
    n_groups = rng.choice([1, 2, 3])
    key_null = rng.choice([0.0, 0.08])
    left_only = rng.random() < 0.2
    for side, rows in (("L", L), ("R", R)):
        for r in rows:
            if keyed:
                g = f"g{rng.randrange(n_groups)}"
                if side == "L" and left_only and rng.random() < 0.2:
                    g = "g9"
                r["k"] = None if rng.random() < key_null else (g, g)
    write_csv(f"{tmp}/l.csv", L, cols)
    write_csv(f"{tmp}/r.csv", R, cols)
    schema = f"id INT, {'k TEXT, ' if keyed else ''}m {t}"
    lines = [f"L := csv('l.csv', schema => '{schema}');", f"R := csv('r.csv', schema => '{schema}');"]
    wants = []
    dirs = [(">=", "b", False), (">", "b", True), ("<=", "f", False), ("<", "f", True)]
    withins = [None]
    if t == "TIMESTAMP":
        withins += [("PT0S", dt.timedelta(0)), ("PT7M", dt.timedelta(minutes=7)), ("PT20M", dt.timedelta(minutes=20))]
    if t == "DATE":
        withins += [("P1D", dt.timedelta(days=1)), ("PT47H", dt.timedelta(hours=47))]
    for op, d, strict in dirs:
        for inner in (False, True):
            for ties in ("", "TIES(FIRST)", "TIES(LAST)"):
                for w in withins:
                    cond = ("L.k = R.k ∧ " if keyed else "") + f"L.m {op} R.m"
                    clause = ("INNER " if inner else "") + cond + (f" WITHIN DURATION '{w[0]}'" if w else "") + (" " + ties if ties else "")
                    lines.append(f"query {{ π L.id, R.id → rid (L ASOF {clause} R) }};")
                    out = ["id,rid"]
                    for l in L:
                        best = None
                        if l["m"] is not None and (not keyed or l["k"] is not None):
                            for r in R:
                                if r["m"] is None or (keyed and (r["k"] is None or r["k"][1] != l["k"][1])):
                                    continue
                                lv, rv = l["m"][1], r["m"][1]
                                okdir = (rv <= lv if not strict else rv < lv) if d == "b" else (rv >= lv if not strict else rv > lv)
                                if not okdir:
                                    continue
                                if best is None:
                                    best = r
                                    continue
                                bv = best["m"][1]
                                nearer = rv > bv if d == "b" else rv < bv
                                if nearer or (rv == bv and ties != "TIES(FIRST)"):
                                    best = r
                            if best is not None and w is not None:
                                lv, bv = l["m"][1], best["m"][1]
                                dist = abs(lv - bv)
                                if dist > w[1]:
                                    best = None
                        if best is None and inner:
                            continue
                        out.append(f"{l['id']}," + ("" if best is None else str(best["id"])))
                    # π removes duplicate rows: outer rows are unique by left id already
                    wants.append((clause, "\n".join(out)))
    with open(f"{tmp}/q.rx", "w") as f:
        f.write("\n".join(lines) + "\n")
    ok = 0
    for algo in ("auto", "nested-loop", "binary-search", "merge"):
        rc, out, err = run(relix, f"{tmp}/q.rx", ["--asof-algo", algo])
        if rc != 0:
            failures.append((f"asof seed {seed} {t} {algo}: exit {rc}", err, ""))
            continue
        got = split_results(out)
        for (clause, want), g in zip(wants, got):
            ok += check(f"asof seed {seed} {t} [{clause}] {algo}", g, want, failures)
    return ok


def main():
    relix = os.path.abspath(sys.argv[1])
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    failures = []
    passed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(seeds):
            rng = random.Random(seed)
            passed += ijoin_case(rng, relix, tmp, seed, failures)
            passed += asof_case(rng, relix, tmp, seed, failures)
    for name, got, want in failures[:5]:
        print(f"FAIL {name}\n--- got\n{got}\n--- want\n{want}")
    print(f"joins: {passed} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
