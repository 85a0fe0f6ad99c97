# Regression, issue #7 (found while bounding chains, src/analysis/sema.c): x IN (v1, ..., vn) became the
# left-deep chain x = v1 ∨ ... ∨ x = vn, n levels deep, and a list of 100,000 values crashed
# the evaluator's recursion (SIGSEGV, exit 139) although the list itself nests nothing. The ∨
# is now a balanced tree (17 levels for 100,000 values); three-valued logic gives the same
# values whatever the shape, which the NULL cases check.
P='T := [
| a |
|---|
| 1 |
| 50000 |
| 99999 |
| 100000 |
|  |
];
'
run() { echo "== $1"; printf '%s' "$2" | "$RELIX" 2>&1; echo "exit $?"; }
L=$(seq -s ', ' 0 99999)
run 'σ a IN (0, ..., 99999)' "${P}query { σ a IN ($L) (T) };"
run 'σ a NOT IN (0, ..., 99999)' "${P}query { σ a NOT IN ($L) (T) };"
run 'π a IN (...) of each row, NULL included' "${P}query { π a, a IN ($L) → x (T) };"
run 'three-valued logic on short lists' "${P}query { π a, a IN (1, NULL, 3) → x, a NOT IN (1, NULL) → y, a IN (1, 2, 3, 4, 5, 6, 7, 50000) → z (T) };"
