#!/usr/bin/env python3
"""gen.py - deterministic CSV inputs for bench/compare.sh.

    python3 gen.py DIR N_ASOF N_IJOIN

Writes, with a fixed seed:
  DIR/trades.csv, DIR/quotes.csv   N_ASOF rows each, header sym,ts,id,val. 1000 symbols
      (S0000..S0999, uniform), ts in epoch microseconds over one 8-hour session. Quote ts are
      even and unique per symbol, trade ts odd, so no engine's tie rule can change an answer.
      Rows are in random order; id is the row's rank in (sym, ts) order.
  DIR/left.csv, DIR/right.csv      N_IJOIN rows each, header id,s,e: starts uniform in
      [0, 100 * N_IJOIN), lengths uniform in [1, 99], so INTERSECTS yields about N_IJOIN pairs.
"""
import os
import random
import sys

T0_US = 1767344400000000  # 2026-01-02T09:00:00Z
SPAN_US = 8 * 3600 * 1000000
N_SYMS = 1000


def ticks(rng, n, parity):
    """n (sym, ts) pairs, ts unique per symbol with the given parity, in (sym, ts) order."""
    per = [0] * N_SYMS
    for _ in range(n):
        per[rng.randrange(N_SYMS)] += 1
    rows = []
    for sym in range(N_SYMS):
        for half in sorted(rng.sample(range(SPAN_US // 2), per[sym])):
            rows.append((sym, T0_US + 2 * half + parity))
    return rows


def write_ticks(path, rows, rng, val):
    order = list(range(len(rows)))
    rng.shuffle(order)
    with open(path, "w") as f:
        f.write("sym,ts,id,val\n")
        f.writelines(f"S{rows[i][0]:04d},{rows[i][1]},{i},{val(i)}\n" for i in order)


def write_intervals(path, n, rng):
    with open(path, "w") as f:
        f.write("id,s,e\n")
        for i in range(n):
            s = rng.randrange(100 * n)
            f.write(f"{i},{s},{s + rng.randint(1, 99)}\n")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: gen.py DIR N_ASOF N_IJOIN")
    out, n_asof, n_ij = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20260102)
    write_ticks(f"{out}/quotes.csv", ticks(rng, n_asof, 0), rng,
                lambda i: f"{10 + (i * 7919) % 9000 / 100:.2f}")
    write_ticks(f"{out}/trades.csv", ticks(rng, n_asof, 1), rng, lambda i: 1 + (i * 31) % 500)
    write_intervals(f"{out}/left.csv", n_ij, rng)
    write_intervals(f"{out}/right.csv", n_ij, rng)


main()
