"""pandas_bench.py - times pandas.merge_asof on gen.c's trades x quotes (run.sh drives it).

    python3 pandas_bench.py DIR N VARIANT

Reads DIR/{trades,quotes}_N_VARIANT.csv (untimed), then times sorting both frames by ts (which
merge_asof requires of both inputs, whatever their order by symbol) plus
merge_asof(on='ts', by='sym', direction='backward'). Median of 3 (1 at 10M rows).
Prints: seconds matched sum_qid.
"""
import sys
import time

import pandas as pd

d, n, variant = sys.argv[1:4]
t = pd.read_csv(f"{d}/trades_{n}_{variant}.csv", dtype={"sym": "category"})
q = pd.read_csv(f"{d}/quotes_{n}_{variant}.csv", dtype={"sym": "category"}).rename(columns={"id": "qid"})
q["sym"] = q["sym"].cat.set_categories(t["sym"].cat.categories.union(q["sym"].cat.categories))
t["sym"] = t["sym"].cat.set_categories(q["sym"].cat.categories)
times = []
for _ in range(1 if int(n) >= 5_000_000 else 3):
    t0 = time.perf_counter()
    res = pd.merge_asof(t.sort_values("ts", kind="stable"), q.sort_values("ts", kind="stable")[["sym", "ts", "qid"]],
                        on="ts", by="sym", direction="backward")
    times.append(time.perf_counter() - t0)
times.sort()
m = res["qid"].notna()
print(f"{times[len(times) // 2]:.4f} {int(m.sum())} {int(res['qid'][m].astype('int64').sum())}")
