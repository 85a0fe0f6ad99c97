#!/usr/bin/python3
"""Writes a.bed, b.bed and genome.txt, the BED data of tests/cases/762-iset-bedtools.sh: five
chromosomes of one length, intervals of 1 to 2,000 bases with duplicates and book-ended
(touching) neighbours, from a fixed seed (run it again to get the same files)."""
import random

LEN = 1000000
CHROMS = ["chr1", "chr2", "chr3", "chrX", "chr10"]

def side(rng, n, prefix):
    rows = []
    for i in range(n):
        c = rng.choice(CHROMS)
        r = rng.random()
        if rows and r < 0.05:
            c, s, e, _ = rng.choice(rows)          # a duplicate
        elif rows and r < 0.12:
            c, _, s, _ = rng.choice(rows)          # book-ended after an earlier row
            e = min(LEN, s + rng.randint(1, 2000))
            if s >= LEN:
                s, e = LEN - 10, LEN
        else:
            s = rng.randrange(0, LEN - 1)
            e = min(LEN, s + rng.randint(1, 2000))
        rows.append((c, s, e, "%s%d" % (prefix, i)))
    return rows

rng = random.Random(26)
for name, n, prefix in (("a.bed", 3000, "a"), ("b.bed", 2000, "b")):
    with open(name, "w") as f:
        for c, s, e, nm in side(rng, n, prefix):
            f.write("%s\t%d\t%d\t%s\n" % (c, s, e, nm))
with open("genome.txt", "w") as f:
    for c in sorted(CHROMS):
        f.write("%s\t%d\n" % (c, LEN))
