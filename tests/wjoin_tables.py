#!/usr/bin/env python3
"""SQL that creates the random tables of the pushed window-join tests (tests/cases/693 and 694):
t(id, sym, ts, n, d) and q(id, sym, ts, n, d, px, f, venue) with NULL keys, times and values,
quotes tied on one time and left rows on a quote's time, for PostgreSQL (timestamptz, int4
times) or DuckDB (TIMESTAMP, INTEGER).

usage: wjoin_tables.py postgresql|duckdb SEED
"""
import random
import sys

dialect, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
pg = dialect == "postgresql"
ts_type = "timestamptz" if pg else "TIMESTAMP"
zone = "+00" if pg else ""


def v(x, p=0.12):
    return "NULL" if rng.random() < p else x


def ts(m):
    return "'2026-01-02 %02d:%02d:00%s'" % (9 + m // 60, m % 60, zone)


def day(k):
    return "'2026-03-%02d'" % (1 + k)


print("CREATE TABLE t(id int4 PRIMARY KEY, sym text, ts %s, n int4, d date);" % ts_type)
print("CREATE TABLE q(id int4 PRIMARY KEY, sym text, ts %s, n int4, d date, px int8, f float8, venue text);" % ts_type)
rows = []
for i in range(40):
    rows.append("(%d, %s, %s, %s, %s)" % (i, v("'%s'" % rng.choice("ABC")), v(ts(rng.randrange(30))),
                                          v(str(rng.randrange(30))), v(day(rng.randrange(12)))))
print("INSERT INTO t VALUES %s;" % ", ".join(rows))
rows = []
for j in range(120):
    m = rng.randrange(30)
    rows.append("(%d, %s, %s, %s, %s, %s, %s, %s)" % (
        j, v("'%s'" % rng.choice("ABC")), v(ts(m)), v(str(m)), v(day(rng.randrange(12))),
        v(str(rng.randrange(-50, 50))), v("%.2f" % (rng.randrange(-400, 400) / 4)),
        v("'%s'" % rng.choice(["X", "Y", "Z", "é"]))))
print("INSERT INTO q VALUES %s;" % ", ".join(rows))
