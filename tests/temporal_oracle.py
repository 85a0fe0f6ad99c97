#!/usr/bin/env python3
"""Brute-force oracle for the temporal join forms (tests/cases/682-temporal-differential.sh).

Writes a Relix script of N random cases and the output it must print (--format csv): for each
case two inline tables with NULLs, duplicates, equal, empty and inverted intervals, and one query
of a random form: IJOIN LEFT / SEMI / ANTI over any of the sixteen relations, IJOIN over a set of
relations (R1 | R2 | ...; inner, LEFT, SEMI, ANTI, inner with a key), IJOIN AT (inner,
LEFT, SEMI, ANTI), ASOF NEAREST under each of the four comparisons with TIES and INNER, ASOF k
[NEAREST] with TIES(FIRST|LAST|ALL) and its rank column, and
range joins written by hand (σ over ×, ⨝, ⟕, ⋉, ▷ with endpoint comparisons, which the optimizer
turns into interval joins where it can), with or without an equality key. Every expected row is computed here by scanning every pair.

usage: temporal_oracle.py SEED N script.rx expected.csv
"""
import random
import sys

RELS = ["INTERSECTS", "PRECEDES", "PRECEDED_BY", "MEETS", "MET_BY", "OVERLAPS", "OVERLAPPED_BY",
        "STARTS", "STARTED_BY", "DURING", "CONTAINS", "FINISHES", "FINISHED_BY", "EQUALS", "COVERS",
        "COVERED_BY"]


def holds(rel, ls, le, rs, re):
    return {
        "INTERSECTS": ls < re and rs < le,
        "PRECEDES": le < rs,
        "PRECEDED_BY": ls > re,
        "MEETS": le == rs,
        "MET_BY": ls == re,
        "OVERLAPS": ls < rs and le > rs and le < re,
        "OVERLAPPED_BY": rs < ls and re > ls and re < le,
        "STARTS": ls == rs and le < re,
        "STARTED_BY": ls == rs and re < le,
        "DURING": rs < ls and le < re,
        "CONTAINS": ls < rs and re < le,
        "FINISHES": le == re and rs < ls,
        "FINISHED_BY": le == re and ls < rs,
        "EQUALS": ls == rs and le == re,
        "COVERS": ls <= rs and re <= le,
        "COVERED_BY": rs <= ls and le <= re,
    }[rel]


def cell(v):
    return "NULL" if v is None else str(v)


def csvv(v):
    return "" if v is None else str(v)


def table(name, cols, rows):
    out = [name + " := ["]
    out.append("| " + " | ".join(cols) + " |")
    out.append("|" + "|".join("---" for _ in cols) + "|")
    for r in rows:
        out.append("| " + " | ".join(cell(v) for v in r) + " |")
    out.append("];")
    return "\n".join(out)


def val(rng, span, null_pct):
    return None if rng.random() < null_pct else rng.randrange(span)


def gen_intervals(rng, n, span, null_pct):
    rows = []
    for i in range(n):
        s = val(rng, span, null_pct)
        shape = rng.random()
        if s is None:
            e = val(rng, span, 0.3)
        elif shape < 0.15:
            e = s                         # empty
        elif shape < 0.25:
            e = s - rng.randrange(1, 4)   # inverted
        else:
            e = s + rng.randrange(1, max(2, span // 3))
        if rng.random() < null_pct / 2:
            e = None
        rows.append((s, e))
    if rows and rng.random() < 0.5:       # duplicates
        rows += [rows[rng.randrange(len(rows))] for _ in range(rng.randrange(3))]
    return rows


def main():
    seed, n_cases, script, expected = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    rng = random.Random(seed)
    rx, want = [], []
    for c in range(n_cases):
        span = rng.choice([4, 8, 20, 60])
        null_pct = rng.choice([0, 0, 0.1, 0.3])
        nl, nr = rng.randrange(0, 9), rng.randrange(0, 9)
        keyed = rng.random() < 0.4
        nkeys = rng.choice([1, 2, 3])
        form = rng.choice(["LEFT", "SEMI", "ANTI", "AT", "NEAREST", "HAND", "HAND", "K", "SET", "SET"])
        L, R = "L%d" % c, "R%d" % c
        li = gen_intervals(rng, nl, span, null_pct)
        ri = gen_intervals(rng, nr, span, null_pct)
        lk = [val(rng, nkeys, null_pct / 2) for _ in li]
        rk = [val(rng, nkeys, null_pct / 2) for _ in ri]
        lrows = [(i, lk[i], li[i][0], li[i][1]) for i in range(len(li))]
        rrows = [(100 + j, rk[j], ri[j][0], ri[j][1]) for j in range(len(ri))]
        # a column all NULL would be typed NULL: give every table a typed first row when empty
        rx.append(table(L, ["id", "k", "s", "e"], lrows))
        rx.append(table(R, ["rid", "k", "s", "e"], rrows))
        if not lrows or not rrows or any(all(r[i] is None for r in rows) for rows in (lrows, rrows) for i in (1, 2, 3)):
            # keep the types INT: skip queries over a column the detector cannot type
            rx.pop(), rx.pop()
            continue
        out = []
        if form == "K":
            # ASOF k [NEAREST] ... [TIES(FIRST|LAST|ALL)] with its rank column
            op = rng.choice([">=", "<=", ">", "<"])
            near = rng.random() < 0.5
            k = rng.choice([1, 1, 2, 3, 5])
            ties = rng.choice(["", "FIRST", "LAST", "ALL"])
            inner = rng.random() < 0.3
            cond = ("%s.k = %s.k ∧ " % (L, R) if keyed else "") + "%s.s %s %s.s" % (L, op, R)
            words = " ".join(w for w in ["INNER" if inner else "", str(k), "NEAREST" if near else ""] if w)
            q = "π %s.id, rid, rank (%s ASOF %s %s%s %s)" % (L, L, words, cond,
                                                            " TIES(%s)" % ties if ties else "", R)
            out.append("id,rid,rank")
            prefer_back = op in (">=", ">")
            exact = op in (">=", "<=")
            for (i, kk, s, e) in lrows:
                cands = []
                if s is not None and (not keyed or kk is not None):
                    for (j, rkk, rs, re_) in rrows:
                        if rs is None or (keyed and rkk != kk):
                            continue
                        if rs < s:
                            side = 0
                        elif rs > s:
                            side = 1
                        elif not exact:
                            continue
                        else:
                            side = 0 if prefer_back else 1
                        pref = 0 if side == (0 if prefer_back else 1) else 1
                        if not near and pref:
                            continue
                        cands.append((abs(rs - s), pref, j - 100, rs, j))
                cands.sort()
                res = []
                groups = 0
                a = 0
                while a < len(cands):
                    b = a
                    while b < len(cands) and cands[b][3] == cands[a][3]:
                        b += 1
                    grp = cands[a:b]
                    if ties == "ALL":
                        if groups == k:
                            break
                        groups += 1
                        res += [(c[4], groups) for c in grp]
                    else:
                        order = grp if ties == "FIRST" else grp[::-1]
                        for c in order:
                            if len(res) < k:
                                res.append((c[4], len(res) + 1))
                        if len(res) == k:
                            break
                    a = b
                if not res and not inner:
                    out.append("%d,," % i)
                for (j, rank) in res:
                    out.append("%d,%d,%d" % (i, j, rank))
        elif form == "HAND":
            # a range join written by hand: 1 to 3 comparisons between a left and a right
            # endpoint (some of them the shapes the optimizer turns into an IJOIN), as σ over ×,
            # ⨝, ⟕, ⋉ or ▷, with or without a key equality
            ops = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
                   ">=": lambda a, b: a >= b}
            shapes = [[("s", "<", "e"), ("e", ">", "s")], [("s", "<", "s"), ("e", ">", "s"), ("e", "<", "e")],
                      [("s", ">", "s"), ("s", "<", "e"), ("e", ">", "e")], [("s", "<=", "s"), ("e", ">=", "e")],
                      [("e", "<", "s")], [("s", ">", "e")]]
            atoms = list(rng.choice(shapes)) if rng.random() < 0.7 else [
                (rng.choice("se"), rng.choice(list(ops)), rng.choice("se")) for _ in range(rng.randrange(1, 4))]
            rng.shuffle(atoms)
            texts = []
            for (a, op, b) in atoms:
                if rng.random() < 0.5:
                    texts.append("%s.%s %s %s.%s" % (L, a, op, R, b))
                else:
                    flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
                    texts.append("%s.%s %s %s.%s" % (R, b, flip, L, a))
            if keyed:
                texts.insert(rng.randrange(len(texts) + 1), "%s.k = %s.k" % (L, R))
            cond = " ∧ ".join(texts)
            kind = rng.choice(["σ", "⨝", "⟕", "⋉", "▷"])
            col = {"s": 2, "e": 3}

            def pred(l, r):
                if keyed and (l[1] is None or r[1] is None or l[1] != r[1]):
                    return False
                for (a, op, b) in atoms:
                    x, y = l[col[a]], r[col[b]]
                    if x is None or y is None or not ops[op](x, y):
                        return False
                return True
            if kind in ("⋉", "▷"):
                q = "π id (%s %s %s %s)" % (L, kind, cond, R)
                out.append("id")
                for l in lrows:
                    if any(pred(l, r) for r in rrows) == (kind == "⋉"):
                        out.append("%d" % l[0])
            else:
                q = ("π id, rid (σ %s (%s × %s))" % (cond, L, R) if kind == "σ"
                     else "π id, rid (%s %s %s %s)" % (L, kind, cond, R))
                out.append("id,rid")
                for l in lrows:
                    ms = [r for r in rrows if pred(l, r)]
                    for r in ms:
                        out.append("%d,%d" % (l[0], r[0]))
                    if not ms and kind == "⟕":
                        out.append("%d," % l[0])
        elif form == "NEAREST":
            op = rng.choice([">=", "<=", ">", "<"])
            ties_first = rng.random() < 0.5
            inner = rng.random() < 0.3
            cond = ("%s.k = %s.k ∧ " % (L, R) if keyed else "") + "%s.s %s %s.s" % (L, op, R)
            q = "π %s.id, rid (%s ASOF %sNEAREST %s%s %s)" % (L, L, "INNER " if inner else "", cond,
                                                              " TIES(FIRST)" if ties_first else "", R)
            out.append("id,rid")
            prefer_back = op in (">=", ">")
            exact = op in (">=", "<=")
            for (i, k, s, e) in lrows:
                best = None
                if s is not None and (not keyed or k is not None):
                    for (j, rkk, rs, re_) in rrows:
                        if rs is None or (keyed and rkk != k):
                            continue
                        if rs == s and not exact:
                            continue
                        d = abs(rs - s)
                        if best is None or d < best[0]:
                            take = True
                        elif d > best[0]:
                            take = False
                        elif rs != best[1]:
                            take = rs < best[1] if prefer_back else rs > best[1]
                        else:
                            take = not ties_first
                        if take:
                            best = (d, rs, j)
                if best is None and inner:
                    continue
                out.append("%d,%s" % (i, csvv(best[2] if best else None)))
        else:
            kind = form if form not in ("AT", "SET") else rng.choice(["", "LEFT", "SEMI", "ANTI"])
            if form == "SET":
                # IJOIN (R1 | R2 | ...): a pair matches when some member holds; one that matches
                # several members comes once
                rels = rng.sample(RELS, rng.choice([2, 2, 3, 4, 6, 16]))
                head = "%s IJOIN %s (%s) (%s.s, %s.e, %s.s, %s.e) %s" % (L, kind, " | ".join(rels), L, L, R, R, R)
                pred = lambda l, r, rels=rels: None not in (l[2], l[3], r[2], r[3]) and any(holds(x, l[2], l[3], r[2], r[3]) for x in rels)
                if keyed and kind == "":
                    # an equality above the inner join: fused into partition keys
                    head = "σ %s.k = %s.k (%s)" % (L, R, head)
                    pred = lambda l, r, p0=pred: l[1] is not None and l[1] == r[1] and p0(l, r)
            elif form == "AT":
                head = "%s IJOIN %sAT (%s.s, %s.s, %s.e) %s" % (L, kind + " " if kind else "", L, R, R, R)
                pred = lambda l, r: l[2] is not None and r[2] is not None and r[3] is not None and r[2] <= l[2] < r[3]
            else:
                rel = rng.choice(RELS)
                head = "%s IJOIN %s %s (%s.s, %s.e, %s.s, %s.e) %s" % (L, kind, rel, L, L, R, R, R)
                pred = lambda l, r, rel=rel: None not in (l[2], l[3], r[2], r[3]) and holds(rel, l[2], l[3], r[2], r[3])
            if kind in ("SEMI", "ANTI"):
                q = "π id (%s)" % head
                out.append("id")
                for l in lrows:
                    anyp = any(pred(l, r) for r in rrows)
                    if anyp == (kind == "SEMI"):
                        out.append("%d" % l[0])
            else:
                q = "π id, rid (%s)" % head
                out.append("id,rid")
                for l in lrows:
                    ms = [r for r in rrows if pred(l, r)]
                    for r in ms:
                        out.append("%d,%d" % (l[0], r[0]))
                    if not ms and kind == "LEFT":
                        out.append("%d," % l[0])
        rx.append("query { %s };" % q)
        want.append("\n".join(out))
    open(script, "w").write("\n".join(rx) + "\n")
    open(expected, "w").write("\n\n".join(want) + "\n")


main()
