# The errors of the rest of the algebra, one script each.
T='A := [
| k | v |
|---|---|
| 1 | a |
];
B := [
| k | v | w |
|---|---|---|
| 1 | x | 2 |
];
'
run() { "$RELIX" -e "$T$1" 2>&1; echo "exit $?"; }
run 'query { A ∪ B };'
run 'query { π k (A) ∪ π v (B) };'
run 'query { π sum(k) (A) };'
run 'query { γ k; v (A) };'
run 'query { γ k; sum(max(k)) (A) };'
run 'query { γ sum(DISTINCT k) (A) };'
run 'query { γ k; sum(v) (A) };'
run 'query { γ k; count(*), count(*) (A) };'
run 'query { A ⨝ A.k = B.v B };'
run 'query { A ⨝ A.k + B.k B };'
run "query { σ CASE WHEN k = 1 THEN 1 ELSE 'x' END = 1 (A) };"
run 'query { σ CASE WHEN k THEN 1 END = 1 (A) };'
run "query { σ k IN (1, 'a') (A) };"
run 'query { σ k BETWEEN 1 (A) };'
run 'query { σ CASE WHEN k = 1 THEN 2 (A) };'
run 'query { τ k NULLS (A) };'
