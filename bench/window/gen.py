#!/usr/bin/env python3
"""gen.py OUT.csv ROWS - ticks for bench/window: sym (1,000 symbols), ts (a tick every 0-3 s per
symbol over a day, ties included), price (FLOAT, a random walk), qty (INT, 5% NULL). Rows are in
time order, as a feed writes them."""
import random
import sys

out, n = sys.argv[1], int(sys.argv[2])
random.seed(26)
syms = ["S%04d" % i for i in range(1000)]
t0 = 1767344400  # 2026-01-02T09:00:00Z
with open(out, "w") as f:
    f.write("sym,ts,price,qty\n")
    t = 0.0
    step = 86400.0 / max(n, 1)
    for i in range(n):
        t += random.random() * 2 * step
        s = random.choice(syms)
        ts = t0 + int(t)
        hh, rem = divmod(ts % 86400, 3600)
        mm, ss = divmod(rem, 60)
        day = 2 + (ts - t0 + 32400) // 86400
        qty = "" if random.random() < 0.05 else str(random.randint(1, 500))
        f.write("%s,2026-01-%02dT%02d:%02d:%02dZ,%.2f,%s\n" % (s, day, hh, mm, ss, 100 + random.random() * 10, qty))
