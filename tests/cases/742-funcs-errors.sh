# Issue #26: the errors of the new functions, γ expressions and casts, one script each: domain
# errors and overflow as PostgreSQL (errors, at the call), type errors at the argument.
T='A := [
| k | v | s    | p   |
|---|---|------|-----|
| 1 | 4 | ab   | a%  |
| 2 | 0 | cd\  | c\  |
];
'
run() { "$RELIX" -e "$T$1" 2>&1; echo "exit $?"; }
run 'query { π sqrt(v - 5) → r (A) };'
run 'query { π ln(v) → r (A) };'
run 'query { π log10(v - 9) → r (A) };'
run 'query { π power(v, -1) → r (A) };'
run 'query { π power(-8, 1.0 / 3) → r (A) };'
run 'query { π exp(v * 1000) → r (A) };'
run 'query { π exp(-1000 - v) → r (A) };'
run 'query { π power(10, 400) → r (A) };'
run 'query { π div(k, v) → r (A) };'
run 'query { π div(-9223372036854775808, -k) → r (A) };'
run "query { π split_part(s, 'b', k - 1) → r (A) };"
run 'query { π make_timestamp(2026, 2, 29, 0, 0, 0) → r (A) };'
run 'query { π make_timestamp(2026, 2, 28, 24, 0, 0) → r (A) };'
run 'query { π trim(k) → r (A) };'
run 'query { π greatest(k, s) → r (A) };'
run 'query { π nullif(k, s) → r (A) };'
run "query { π s LIKE 'ab\\' → r (A) };"
run 'query { π s LIKE p → r (A) };'
run "query { π s LIKE 'a' ESCAPE 'ab' → r (A) };"
run "query { π k LIKE 'a' → r (A) };"
run 'query { π CAST(s AS INT) → r (A) };'
run 'query { π s::DATE → r (A) };'
run 'query { π CAST(k AS BOOL) → r (A) };'
run 'query { π k::WHATEVER → r (A) };'
run 'query { π CAST(k INT) → r (A) };'
run 'query { γ k; v (A) };'
run 'query { γ k; sum(v) + w (A) };'
run 'query { γ quantile(v, 2) → q (A) };'
run 'query { γ quantile(v, k) → q (A) };'
run 'query { γ stddev(s) → q (A) };'
run 'query { γ string_agg(s) → q (A) };'
run 'query { γ bool_and(k) → q (A) };'
run 'query { γ sum(max(v)) + 1 → q (A) };'
run 'query { π median(v) → m (A) };'
RELIX_NOW=yesterday run 'query { π now() → n (A) };'
run "query { π regexp_like(s, 'a(') → r (A) };"
run "query { π regexp_replace(s, 'a', 'b', 'q') → r (A) };"
run "query { π regexp_like(s, 'a', k) → r (A) };"
run "query { π regexp_like('x', s || '(') → r (A) };"
run "query { π strftime(TIMESTAMP '2026-01-02', '%Q') → r (A) };"
run "query { π strptime(s, '%Y') → r (A) };"
run "query { π strptime('2026-02-30', '%F') → r (A) };"
run "query { π strftime(s, '%Y') → r (A) };"
