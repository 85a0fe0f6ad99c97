#!/usr/bin/env python3
"""Brute-force oracle for the window join and the AS-OF join written by hand
(tests/cases/688-wjoin-differential.sh).

Writes a Relix script of N random cases and the output it must print (--format csv). Each case
has two inline tables with NULL keys, times and values, duplicate rows, equal times and gaps,
and one query of a random form:

  WJOIN    L WJOIN [PREVAILING] [L.k = R.k ∧] R.t BETWEEN L.t ± a AND L.t ± b WITH aggregates R,
           the window of every width from zero on, on either side of the row or around it, the
           aggregates any of count(*), count, sum, avg, min, max, first and last over an INT, a
           FLOAT and a TEXT column. Each window is computed here by scanning every right row.
  GAMMA    γ keys; max(R.t) (or min for the forward comparisons) over L ⨝ [L.k = R.k ∧] L.t op R.t
           R, with left-column aggregates beside it and sometimes one that rules the ASOF-001
           rewrite out (count(*), sum), keys any subset of the left columns. Computed here by
           listing every pair, then grouping in order of first appearance.

usage: wjoin_oracle.py SEED N script.rx expected.csv
"""
import random
import sys


def cell(v):
    return "NULL" if v is None else str(v)


def num(v):
    """A number as Relix prints it (shortest round-trip; integral floats without a point)."""
    if v is None:
        return ""
    if isinstance(v, float):
        if v == int(v):
            return str(int(v))
        return repr(v)
    return str(v)


def table(name, cols, rows):
    out = [name + " := ["]
    out.append("| " + " | ".join(cols) + " |")
    out.append("|" + "|".join("---" for _ in cols) + "|")
    for r in rows:
        out.append("| " + " | ".join(cell(v) for v in r) + " |")
    out.append("];")
    return "\n".join(out)


def maybe(rng, p, v):
    return None if rng.random() < p else v


WORDS = ["ant", "bee", "cat", "dog", "eel"]


def gen(rng, c):
    span = rng.choice([5, 10, 30])
    null_pct = rng.choice([0, 0, 0.1, 0.3])
    nkeys = rng.choice([1, 2, 3])
    nl, nr = rng.randrange(1, 9), rng.randrange(1, 12)
    lrows = [(i, maybe(rng, null_pct / 2, rng.randrange(nkeys)), maybe(rng, null_pct, rng.randrange(span)))
             for i in range(nl)]
    rrows = []
    for j in range(nr):
        rrows.append((100 + j, maybe(rng, null_pct / 2, rng.randrange(nkeys)), maybe(rng, null_pct, rng.randrange(span)),
                      maybe(rng, null_pct, rng.randrange(-20, 21)),
                      maybe(rng, null_pct, rng.randrange(1, 40) * 0.25 + 0.0),
                      maybe(rng, null_pct, rng.choice(WORDS))))
    if rng.random() < 0.5:   # duplicate rows, equal times
        rrows += [(100 + nr + d,) + rrows[rng.randrange(nr)][1:] for d in range(rng.randrange(1, 4))]
    if rng.random() < 0.3:
        lrows += [(nl + d,) + lrows[rng.randrange(nl)][1:] for d in range(rng.randrange(1, 3))]
    return lrows, rrows


def typed(rows, idx):
    """Whether every column listed has a value somewhere (an all-NULL column is typed NULL)."""
    return all(any(r[i] is not None for r in rows) for i in idx)


def fl(v):
    """FLOAT cells are written with a fraction so that the column reads as FLOAT."""
    return None if v is None else v


def agg_value(fn, vals):
    """fn over the window's values in window order (NULLs included)."""
    if fn == "count(*)":
        return len(vals)
    nn = [v for v in vals if v is not None]
    if fn == "count":
        return len(nn)
    if not nn:
        return None
    if fn == "sum":
        return sum(nn)
    if fn == "avg":
        return sum(nn) / len(nn)
    if fn == "min":
        return min(nn)
    if fn == "max":
        return max(nn)
    if fn == "first":
        return nn[0]
    return nn[-1]


def wjoin_case(rng, c, lrows, rrows):
    L, R = "L%d" % c, "R%d" % c
    keyed = rng.random() < 0.6
    lo = rng.randrange(-6, 4)
    hi = lo + rng.choice([0, 0, 1, 2, 3, 6])
    prev = rng.random() < 0.35

    def bound(off):
        if off == 0 and rng.random() < 0.7:
            return "%s.t" % L
        return "%s.t %s %d" % (L, "-" if off < 0 else "+", abs(off))

    win = "%s.t BETWEEN %s AND %s" % (R, bound(lo), bound(hi))
    conds = [win]
    if keyed:
        conds.insert(rng.randrange(2), rng.choice(["%s.k = %s.k" % (L, R), "%s.k = %s.k" % (R, L)]))
    choices = [("count(*)", None), ("count", "v"), ("sum", "v"), ("avg", "v"), ("min", "v"), ("max", "v"),
               ("first", "v"), ("last", "v"), ("sum", "f"), ("avg", "f"), ("min", "f"), ("max", "f"),
               ("first", "f"), ("last", "f"), ("min", "w"), ("max", "w"), ("first", "w"), ("last", "w"),
               ("count", "w")]
    aggs = rng.sample(choices, rng.randrange(1, 5))
    items, names = [], []
    for n, (fn, col) in enumerate(aggs):
        name = "a%d" % n
        items.append("%s(%s) → %s" % (fn, "*" if col is None else "%s.%s" % (R, col), name) if fn != "count(*)"
                     else "count(*) → %s" % name)
        names.append(name)
    q = "%s WJOIN %s%s WITH %s %s" % (L, "PREVAILING " if prev else "", " ∧ ".join(conds), ", ".join(items), R)
    out = ["id,k,t," + ",".join(names)]
    colix = {"v": 3, "f": 4, "w": 5}
    for (i, k, t) in lrows:
        window = []
        if t is not None and not (keyed and k is None):
            cands = [(r[2], j, r) for j, r in enumerate(rrows)
                     if r[2] is not None and (not keyed or (r[1] is not None and r[1] == k))]
            cands.sort(key=lambda x: (x[0], x[1]))
            window = [r for (rt, j, r) in cands if t + lo <= rt <= t + hi]
            if prev and not any(rt == t + lo for (rt, j, r) in cands):
                before = [r for (rt, j, r) in cands if rt < t + lo]
                if before:
                    window = [before[-1]] + window
        vals = []
        for (fn, col) in aggs:
            if fn == "count(*)":
                vals.append(num(len(window)))
            else:
                vals.append(num(agg_value(fn, [r[colix[col]] for r in window])))
        out.append("%s,%s,%s,%s" % (i, num(k), num(t), ",".join(vals)))
    return q, out


def gamma_case(rng, c, lrows, rrows):
    L, R = "L%d" % c, "R%d" % c
    keyed = rng.random() < 0.7
    op = rng.choice([">=", ">", "<=", "<"])
    flip = rng.random() < 0.4
    ineq = ("%s.t %s %s.t" % (L, op, R)) if not flip else ("%s.t %s %s.t" % (R, {">=": "<=", ">": "<", "<=": ">=", "<": ">"}[op], L))
    conds = [ineq]
    if keyed:
        conds.insert(rng.randrange(2), "%s.k = %s.k" % (L, R))
    backward = op in (">=", ">")
    keys = [k for k in ["id", "k", "t"] if rng.random() < 0.5]
    rng.shuffle(keys)
    aggs = [("max" if backward else "min", "%s.t" % R)]
    extra = [("min", "%s.t" % L), ("max", "%s.id" % L), ("first", "%s.id" % L), ("last", "%s.id" % L),
             ("min", "%s.id" % L)]
    aggs += rng.sample(extra, rng.randrange(0, 3))
    if rng.random() < 0.2:
        aggs.append(rng.choice([("count", "*"), ("sum", "%s.v" % R), ("max", "%s.t" % R) if not backward else ("min", "%s.t" % R)]))
    rng.shuffle(aggs)
    items = ["%s(%s) → g%d" % (fn, a, n) for n, (fn, a) in enumerate(aggs)]
    head = ", ".join("%s.%s" % (L, k) for k in keys)
    q = "γ %s%s (%s ⨝ %s %s)" % (head + "; " if keys else "", ", ".join(items), L, " ∧ ".join(conds), R)

    def holds(lt, rt):
        return {">=": lt >= rt, ">": lt > rt, "<=": lt <= rt, "<": lt < rt}[op]

    pairs = []
    for l in lrows:
        for r in rrows:
            if l[2] is None or r[2] is None or not holds(l[2], r[2]):
                continue
            if keyed and (l[1] is None or r[1] is None or l[1] != r[1]):
                continue
            pairs.append((l, r))
    groups, order = {}, []
    kix = {"id": 0, "k": 1, "t": 2}
    for (l, r) in pairs:
        g = tuple(l[kix[k]] for k in keys)
        if g not in groups:
            groups[g] = []
            order.append(g)
        groups[g].append((l, r))
    if not keys and not order:
        order.append(())
        groups[()] = []
    out = [",".join(keys + ["g%d" % n for n in range(len(aggs))])]
    for g in order:
        ps = groups[g]
        vals = []
        for (fn, a) in aggs:
            if a == "*":
                vals.append(num(len(ps)))
                continue
            side, col = a.split(".")
            ix = {"id": 0, "k": 1, "t": 2, "v": 3}[col]
            seq = [(p[0] if side == L else p[1])[ix] for p in ps]
            vals.append(num(agg_value(fn, seq)))
        out.append(",".join([num(v) for v in g] + vals))
    return q, out


def main():
    seed, n_cases, script, expected = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    rng = random.Random(seed)
    rx, want = [], []
    for c in range(n_cases):
        lrows, rrows = gen(rng, c)
        if not typed(lrows, (1, 2)) or not typed(rrows, (1, 2, 3, 4, 5)):
            continue
        rx.append(table("L%d" % c, ["id", "k", "t"], lrows))
        rx.append(table("R%d" % c, ["rid", "k", "t", "v", "f", "w"], rrows))
        q, out = (wjoin_case if rng.random() < 0.7 else gamma_case)(rng, c, lrows, rrows)
        rx.append("query { %s };" % q)
        want.append("\n".join(out))
    open(script, "w").write("\n".join(rx) + "\n")
    open(expected, "w").write("\n\n".join(want) + "\n")


main()
