#!/usr/bin/python3
"""bench/iset/gen.py DIR ROWS: writes DIR/a.bed (ROWS intervals), DIR/b.bed (ROWS/2) and
DIR/genome.txt: 24 chromosomes of 100M bases, intervals of 1 to 5,000 bases, both files sorted by
chromosome and start as bedtools wants them. A fixed seed: the same files every time."""
import random
import sys

out, rows = sys.argv[1], int(sys.argv[2])
LEN = 100_000_000
chroms = sorted("chr%d" % i for i in range(1, 25))
rng = random.Random(26)
for name, n in (("a.bed", rows), ("b.bed", rows // 2)):
    recs = []
    for i in range(n):
        s = rng.randrange(0, LEN - 5000)
        recs.append((rng.randrange(len(chroms)), s, s + rng.randint(1, 5000), i))
    recs.sort()
    with open("%s/%s" % (out, name), "w") as f:
        f.writelines("%s\t%d\t%d\tn%d\n" % (chroms[c], s, e, i) for c, s, e, i in recs)
with open("%s/genome.txt" % out, "w") as f:
    f.writelines("%s\t%d\n" % (c, LEN) for c in chroms)
