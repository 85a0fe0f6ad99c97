# WJOIN's errors, each naming its token: no window, two windows, NOT BETWEEN, the window over a
# left column, ends on two left columns, on a right column, a start after the end, calendar
# units, part of a day for a DATE, a width of the wrong type, times of two types, an
# unsupported aggregate, a name taken twice, a missing WITH; and EXPLAIN's label (with
# PREVAILING and keys), and that a σ on a left column moves below it (PUSH-003).
relix=$PWD/$RELIX
T='T0 := [
| sym | ts                   | n | d          |
|-----|----------------------|---|------------|
| A   | 2026-01-02T09:00:00Z | 1 | 2026-01-02 |
];
Q0 := [
| sym | ts                   | v   | d          |
|-----|----------------------|-----|------------|
| A   | 2026-01-02T08:59:00Z | 1.5 | 2026-01-01 |
];
T := { π sym, to_timestamp(ts) → ts, n, to_date(d) → d (T0) };
Q := { π sym, to_timestamp(ts) → ts, v, to_date(d) → d (Q0) };'
run() { "$relix" -e "$T $1"; echo "exit $?"; }
run 'query { T WJOIN T.sym = Q.sym WITH count(*) → c Q };'
run "query { T WJOIN Q.ts BETWEEN T.ts AND T.ts ∧ Q.ts BETWEEN T.ts AND T.ts WITH count(*) → c Q };"
run "query { T WJOIN Q.ts NOT BETWEEN T.ts AND T.ts WITH count(*) → c Q };"
run "query { T WJOIN T.ts BETWEEN Q.ts AND Q.ts WITH count(*) → c Q };"
run "query { T WJOIN Q.ts BETWEEN T.n AND T.ts WITH count(*) → c Q };"
run "query { T WJOIN Q.ts BETWEEN Q.ts AND T.ts WITH count(*) → c Q };"
run "query { T WJOIN Q.sym BETWEEN T.sym AND T.sym WITH count(*) → c Q };"
run "query { T WJOIN Q.ts BETWEEN T.ts AND T.ts - DURATION 'PT1M' WITH count(*) → c Q };"
run "query { T WJOIN Q.ts BETWEEN T.ts - DURATION 'P1M' AND T.ts WITH count(*) → c Q };"
run "query { T WJOIN Q.d BETWEEN T.d - DURATION 'PT12H' AND T.d WITH count(*) → c Q };"
run "query { T WJOIN Q.ts BETWEEN T.ts - 5 AND T.ts WITH count(*) → c Q };"
run "query { T WJOIN Q.d BETWEEN T.ts AND T.ts WITH count(*) → c Q };"
run "query { T WJOIN Q.ts BETWEEN T.ts AND T.ts WITH median(Q.v) → c Q };"
run "query { T WJOIN Q.ts BETWEEN T.ts AND T.ts WITH sum(Q.sym) → c Q };"
run "query { T WJOIN Q.ts BETWEEN T.ts AND T.ts WITH count(*) → sym Q };"
run "query { T WJOIN Q.ts BETWEEN T.ts AND T.ts count(*) Q };"
run "query { T WJOIN Q.ts BETWEEN T.ts AND T.ts ∨ T.sym = Q.sym WITH count(*) → c Q };"
"$relix" --explain -e "$T"" query { σ sym = 'A' (T WJOIN PREVAILING T.sym = Q.sym ∧ Q.ts BETWEEN T.ts - DURATION 'PT1M' AND T.ts + DURATION 'PT30S' WITH count(*) → c, avg(Q.v) → a Q) };" | grep -v '^ *$'
