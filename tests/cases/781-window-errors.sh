# ω's errors, each naming its token: a frame on a function that has none, a range frame whose
# bound does not fit the order's type (or is not a constant, or is negative, or is in months),
# several or descending order keys under a range frame, argument counts and types, a window
# function outside ω, nesting, a taken column name, a missing BY, ';' or '→'; then an INT sum
# that overflows at run time, and EXPLAIN's label.
relix=$PWD/$RELIX
T='Raw := [
| k | ts                   | x | s   |
|---|----------------------|---|-----|
| a | 2026-01-02T09:00:00Z | 5 | foo |
| a | 2026-01-02T09:01:00Z | 9223372036854775807 | bar |
];
T := { π k, to_timestamp(ts) → ts, x, s (Raw) };'
run() { "$relix" -e "$T $1"; echo "exit $?"; }
run 'query { ω BY ts; rank() OVER 2 ROWS PRECEDING → r (T) };'
run 'query { ω BY ts; sum(x) OVER 5 PRECEDING → r (T) };'
run 'query { ω BY x; sum(x) OVER DURATION '"'"'PT1M'"'"' PRECEDING → r (T) };'
run 'query { ω BY ts; sum(x) OVER DURATION '"'"'P1M'"'"' PRECEDING → r (T) };'
run 'query { ω BY x; sum(x) OVER x PRECEDING → r (T) };'
run 'query { ω BY x; sum(x) OVER -1 PRECEDING → r (T) };'
run 'query { ω BY s; count(*) OVER 1 PRECEDING → r (T) };'
run 'query { ω BY ts, x; sum(x) OVER DURATION '"'"'PT1M'"'"' PRECEDING → r (T) };'
run 'query { ω BY ts DESC; sum(x) OVER DURATION '"'"'PT1M'"'"' PRECEDING → r (T) };'
run 'query { ω BY ts; lag(x, 1, 2, 3) → r (T) };'
run 'query { ω BY ts; lag(x, -1) → r (T) };'
run 'query { ω BY ts; lag(x, 1, '"'"'none'"'"') → r (T) };'
run 'query { ω BY ts; row_number(x) → r (T) };'
run 'query { ω BY ts; sum(s) → r (T) };'
run 'query { ω BY ts; sum(*) → r (T) };'
run 'query { ω BY ts; upper(s) → r (T) };'
run 'query { ω BY ts; max(sum(x)) → r (T) };'
run 'query { ω BY ts; lag(x) → x (T) };'
run 'query { π lag(x) → r (T) };'
run 'query { ω PER k; lag(x) → r (T) };'
run 'query { ω BY ts lag(x) → r (T) };'
run 'query { ω BY ts; lag(x) (T) };'
run 'query { ω BY ts; sum(x) OVER 2 ROWS → r (T) };'
run 'query { ω PER k BY ts; sum(x) → total (T) };'
"$relix" --explain -e "$T"' query { ω PER k BY ts; lag(x) → p, sum(x) OVER 3 ROWS PRECEDING → s3, max(x) OVER DURATION '"'"'PT90S'"'"' PRECEDING → m, first_value(x) → f (σ x < 10 (T)) };' | grep Window
