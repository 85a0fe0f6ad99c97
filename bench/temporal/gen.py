#!/usr/bin/env python3
"""gen.py - data for bench/temporal: trades x quotes (NEAREST), readings x windows (AT, SEMI,
ANTI) and bookings x stays (IJOIN LEFT). Fixed seed; integer times.

usage: gen.py DIR N    writes DIR/{trades,quotes,readings,windows,bookings,stays}_N.csv

Quote times are distinct per symbol, so that pandas', Polars' and Relix's rules for equal
times agree and only the rule for equal distances can differ (peers_nearest.sh)."""
import random
import sys

d, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(42)
syms = max(1, n // 1000)
span = n * 20
with open(f"{d}/quotes_{n}.csv", "w") as f:
    f.write("sym,ts,id\n")
    seen = set()
    for i in range(n):
        s = rng.randrange(syms)
        t = rng.randrange(span)
        while (s, t) in seen:
            t = rng.randrange(span)
        seen.add((s, t))
        f.write(f"S{s},{t},{i}\n")
with open(f"{d}/trades_{n}.csv", "w") as f:
    f.write("sym,ts,id\n")
    for i in range(n):
        f.write(f"S{rng.randrange(syms)},{rng.randrange(span)},{i}\n")
with open(f"{d}/windows_{n}.csv", "w") as f:
    f.write("wid,s,e\n")
    for i in range(n // 10):
        s = rng.randrange(span)
        f.write(f"{i},{s},{s + rng.randrange(1, 40)}\n")
with open(f"{d}/readings_{n}.csv", "w") as f:
    f.write("id,ts\n")
    for i in range(n):
        f.write(f"{i},{rng.randrange(span)}\n")
for name in ("bookings", "stays"):
    with open(f"{d}/{name}_{n}.csv", "w") as f:
        f.write("id,s,e\n")
        for i in range(n):
            s = rng.randrange(span)
            f.write(f"{i},{s},{s + rng.randrange(1, 20)}\n")
