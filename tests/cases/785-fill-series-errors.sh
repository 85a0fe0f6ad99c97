# FILL's and series's errors, each at its token: a time that is no TIMESTAMP column, a width in
# months or not a constant, a key or a filled column that is the time, an unknown rule, linear
# over TEXT, FROM/TO that are no constants, a missing EVERY or TO; two rows in one bucket (named
# by their row numbers); series with mixed types, a zero step, a non-constant argument, the
# wrong count; and EXPLAIN's labels.
relix=$PWD/$RELIX
T='Raw := [
| k | ts                   | v   | s |
|---|----------------------|-----|---|
| a | 2026-01-02T09:00:00Z | 1.0 | x |
| a | 2026-01-02T09:00:30Z | 2.0 | y |
];
T := { π k, to_timestamp(ts) → ts, v, s (Raw) };'
run() { "$relix" -e "$T $1"; echo "exit $?"; }
q="'"
run "query { FILL v EVERY DURATION ${q}PT1M${q} (T) };"
run "query { FILL ts EVERY DURATION ${q}P1M${q} (T) };"
run "query { FILL ts EVERY v (T) };"
run "query { FILL ts EVERY DURATION ${q}PT1M${q} PER ts (T) };"
run "query { FILL ts EVERY DURATION ${q}PT1M${q} PER k USING k => previous (T) };"
run "query { FILL ts EVERY DURATION ${q}PT1M${q} USING v => nearest (T) };"
run "query { FILL ts EVERY DURATION ${q}PT1M${q} USING s => linear (T) };"
run "query { FILL ts EVERY DURATION ${q}PT1M${q} FROM ts TO ts (T) };"
run "query { FILL ts DURATION ${q}PT1M${q} (T) };"
run "query { FILL ts EVERY DURATION ${q}PT1M${q} FROM TIMESTAMP ${q}2026-01-01${q} (T) };"
run "query { FILL ts EVERY DURATION ${q}PT1M${q} PER k (T) };"
run "query { series(1, DATE ${q}2026-01-01${q}, 1) };"
run "query { series(1, 5, 0) };"
run "query { series(DATE ${q}2026-01-01${q}, DATE ${q}2026-01-05${q}, DURATION ${q}PT1H${q}) };"
run "query { series(1, 5) };"
run "query { σ x > 1 (series(1, 5, NULL)) };"
"$relix" --explain -e "$T query { FILL ts EVERY DURATION ${q}PT30S${q} PER k USING v => linear, s => previous (T) };" | grep Fill
"$relix" --explain -e "query { series(1, 3, 1) };" | grep Scan
