"""Random inputs for IMINUS and IINTERSECT and their brute-force results (case 870).

  iset_oracle.py gen SCENARIO TYPE DIR   writes DIR/{l,r}.{sorted,shuffled}.csv (k, s, e, name)
  iset_oracle.py want TYPE DIR            writes DIR/want.{IMINUS,IINTERSECT}.{sorted,shuffled}:
                                         the results Relix must give of L OP R, as `-f tsv`
  iset_oracle.py packs TYPE DIR           writes DIR/want.{PACK,GAPS}: PACK (s, e) BY k WITH
                                         count(*) and GAPS (s, e) BY k of L, lines sorted

Endpoints are whole points x >= 0 shown in TYPE: INT x, FLOAT x/2, DATE 2000-01-01 + x days,
TIMESTAMP 2024-01-01T00:00:00Z + x seconds. An interval [s, e) holds the points s <= x < e;
the oracle takes the union of each key's right intervals by merging sorted ones that overlap or
touch, and cuts every left row against it in row order, knowing nothing of Relix's sweep.
"""
import csv
import datetime
import random
import sys

D0 = datetime.date(2000, 1, 1)
T0 = datetime.datetime(2024, 1, 1)


def show(x, ty):
    if ty == "INT":
        return str(x)
    if ty == "FLOAT":
        return str(x // 2) + (".5" if x % 2 else "")
    if ty == "DATE":
        return (D0 + datetime.timedelta(days=x)).isoformat()
    return (T0 + datetime.timedelta(seconds=x)).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse(t, ty):
    if t == "":
        return None
    if ty == "INT":
        return int(t)
    if ty == "FLOAT":
        return int(round(float(t) * 2))
    if ty == "DATE":
        return (datetime.date.fromisoformat(t) - D0).days
    d = datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ") - T0
    return d.days * 86400 + d.seconds


def gen(sc, ty, out):
    rnd = random.Random(sc + "/" + ty)
    nl, nr, keys, span, llen, rlen = 3000, 1500, 200, 100000, 300, 300
    hot = nulls = grid = False
    if sc == "hot-key":
        keys, hot = 30, True
    elif sc == "nulls":
        keys, nulls = 20, True
    elif sc == "touching":
        keys, grid, span = 5, True, 20000
    elif sc == "one-row":
        nl, nr, keys, span, llen, rlen = 1, 1, 1, 40, 30, 30
    elif sc == "empty-left":
        nl = 0
    elif sc == "empty-right":
        nr = 0
    elif sc == "long-right":
        nl, nr, keys, llen, rlen = 300, 5000, 3, 3000, 5

    def row(i, length):
        k = "hot" if hot and rnd.random() < 0.9 else "k%d" % rnd.randrange(keys)
        if grid:
            s = 10 * rnd.randrange(span // 10)
            e = s + 10 * rnd.randrange(4)
        else:
            s = rnd.randrange(span)
            e = s + 1 + rnd.randrange(length)
        c = rnd.randrange(50)
        if c == 0:
            e = s  # zero-length
        elif c == 1:
            s, e = e, s  # inverted (or zero-length)
        shown = [k, show(s, ty), show(e, ty), "n%d" % i]
        if nulls:
            for j in range(3):
                if rnd.random() < 0.1:
                    shown[j] = ""
        return shown

    def order(r):
        return (r[0] == "", r[0], parse(r[1], ty) is None, parse(r[1], ty) or 0, parse(r[2], ty) or 0)

    for side, n, length in (("l", nl, llen), ("r", nr, rlen)):
        rows = [row(i, length) for i in range(n)]
        if n and rnd.random() < 0.5:  # a duplicate of another row
            rows.append(list(rows[rnd.randrange(n)]))
        srt = sorted(rows, key=order)
        rnd.shuffle(rows)
        for form, rs in (("sorted", srt), ("shuffled", rows)):
            with open("%s/%s.%s.csv" % (out, side, form), "w", newline="") as f:
                w = csv.writer(f, lineterminator="\n")
                w.writerow(["k", "s", "e", "name"])
                w.writerows(rs)


def read(path, ty):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))[1:]
    return [(r[0] or None, parse(r[1], ty), parse(r[2], ty), r[3]) for r in rows]


def union_of(rows):
    """Each key's (NULL one key) merged intervals: [[s, e, rows merged]], sorted."""
    ivs = {}
    for k, s, e, _ in rows:
        if s is not None and e is not None and s < e:
            ivs.setdefault(k, []).append((s, e))
    out = {}
    for k, v in ivs.items():
        v.sort()
        packs = []
        for s, e in v:
            if packs and s <= packs[-1][1]:
                packs[-1][1] = max(packs[-1][1], e)
                packs[-1][2] += 1
            else:
                packs.append([s, e, 1])
        out[k] = packs
    return out


def packs(ty, d):
    """PACK's and GAPS's lines (header first, then sorted as `LC_ALL=C sort` would)."""
    u = union_of(read("%s/l.sorted.csv" % d, ty))
    key = lambda k: k if k is not None else "\\N"
    pk = ["\t".join([key(k), show(s, ty), show(e, ty), str(n)]) for k, v in u.items() for s, e, n in v]
    gp = ["\t".join([key(k), show(a[1], ty), show(b[0], ty)]) for k, v in u.items() for a, b in zip(v, v[1:])]
    for name, head, lines in (("PACK", "k\ts\te\tn", pk), ("GAPS", "k\ts\te", gp)):
        with open("%s/want.%s" % (d, name), "w") as f:
            f.write("\n".join([head] + sorted(lines, key=lambda x: x.encode())) + "\n")


def want(op, ty, lpath, rpath):
    """The result of L op R as the lines of Relix's -f tsv."""
    union = {}
    for k, s, e, _ in read(rpath, ty):
        if k is not None and s is not None and e is not None and s < e:
            union.setdefault(k, []).append((s, e))
    for k, ivs in union.items():
        ivs.sort()
        packs = []
        for s, e in ivs:
            if packs and s <= packs[-1][1]:
                packs[-1][1] = max(packs[-1][1], e)
            else:
                packs.append([s, e])
        union[k] = packs
    out = ["k\ts\te\tname"]
    for k, s, e, name in read(lpath, ty):
        if s is None or e is None or s >= e:
            continue
        packs = union.get(k, []) if k is not None else []
        pieces = []
        if op == "IINTERSECT":
            pieces = [(max(s, ps), min(e, pe)) for ps, pe in packs if ps < e and pe > s]
        else:
            cur = s
            for ps, pe in packs:
                if pe <= s or ps >= e:
                    continue
                if ps > cur:
                    pieces.append((cur, ps))
                cur = pe
            if cur < e:
                pieces.append((cur, e))
        for a, b in pieces:
            out.append("\t".join([k if k is not None else "\\N", show(a, ty), show(b, ty), name]))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "packs":
        packs(sys.argv[2], sys.argv[3])
    else:
        ty, d = sys.argv[2], sys.argv[3]
        for op in ("IMINUS", "IINTERSECT"):
            for form in ("sorted", "shuffled"):
                with open("%s/want.%s.%s" % (d, op, form), "w") as f:
                    f.write(want(op, ty, "%s/l.%s.csv" % (d, form), "%s/r.%s.csv" % (d, form)))
