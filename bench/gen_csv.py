#!/usr/bin/env python3
"""gen_csv.py - writes a deterministic CSV of trades for timing the CSV reader.

Usage: bench/gen_csv.py N [OUT.csv]   (standard output when OUT is omitted)

Columns id,sym,ts,price: id 1..N (INT), sym one of 1000 four-letter symbols (TEXT), ts a
non-decreasing ISO-8601 UTC timestamp 2026-01-02T09:00:00Z plus 0-2 s per row (TIMESTAMP),
price a decimal with two fraction digits (FLOAT). The seed is fixed, so the same N gives the
same bytes.
"""
import calendar
import random
import sys
import time


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: gen_csv.py N [OUT.csv]")
    n = int(sys.argv[1])
    out = open(sys.argv[2], "w", newline="") if len(sys.argv) == 3 else sys.stdout
    rng = random.Random(20260102)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    syms = set()
    while len(syms) < 1000:
        syms.add("".join(rng.choice(letters) for _ in range(4)))
    syms = sorted(syms)
    t = calendar.timegm((2026, 1, 2, 9, 0, 0))  # UTC epoch seconds
    day_cache = {}
    out.write("id,sym,ts,price\n")
    batch = []
    rand = rng.random
    for i in range(1, n + 1):
        t += int(rand() * 3)
        day, secs = divmod(t, 86400)
        d = day_cache.get(day)
        if d is None:
            d = time.strftime("%Y-%m-%d", time.gmtime(day * 86400))
            day_cache[day] = d
        h, rem = divmod(secs, 3600)
        m, s = divmod(rem, 60)
        cents = 100 + int(rand() * 99900)
        batch.append("%d,%s,%sT%02d:%02d:%02dZ,%d.%02d\n"
                     % (i, syms[int(rand() * 1000)], d, h, m, s, cents // 100, cents % 100))
        if len(batch) >= 100000:
            out.write("".join(batch))
            batch.clear()
    out.write("".join(batch))
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
