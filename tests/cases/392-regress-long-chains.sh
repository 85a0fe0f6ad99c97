# Regression, issue #7 (fuzzing finding sema-long-chain): a flat chain of 100,000 '+' terms,
# or 50,000 '∪', is a left-deep tree that nests nothing, so the nesting limit did not apply,
# and sema_expr / sema_rel recursed once per term into a stack overflow (SIGSEGV, exit 139).
# Now a statement's tree holds at most 1,000 scalar and 1,000 relational operators on any path
# (docs/grammar.md, "Limits"): one more is an error at the start of the chain, in the plain and
# in the sanitizer build alike (whose frames are largest), for every operator that chains
# (10,000 each: the sanitizer build used to crash from about 3,000), and for chains within
# chains; 1,000 operators run.
P='T := [
| a | s | e | t |
|---|---|---|---|
| 1 | 1 | 5 | x |
];
'
run() { echo "== $1"; printf '%s' "$2" | "$RELIX" 2>&1 | cut -c1-200; echo "exit ${PIPESTATUS[1]}"; }
rep() { local s=$1 n=$2 r=""; while ((n > 0)); do ((n & 1)) && r+=$s; s+=$s; ((n >>= 1)); done; printf '%s' "$r"; }
run '100,000 terms of +' "${P}query { π 1$(rep ' + 1' 99999) → x (T) };"
run '50,000 ∪' "${P}query { T$(rep ' ∪ T' 50000) };"
run '100,000 ∧' "${P}query { σ a = 1$(rep ' ∧ a = 1' 99999) (T) };"
run '10,000 ∧' "${P}query { σ a = 1$(rep ' ∧ a = 1' 10000) (T) };"
run '10,000 ∨' "${P}query { σ a = 1$(rep ' ∨ a = 1' 10000) (T) };"
run '10,000 ||' "${P}query { π t$(rep ' || t' 10000) → x (T) };"
run '10,000 *' "${P}query { π a$(rep ' * a' 10000) → x (T) };"
run '10,000 − (set difference)' "${P}query { T$(rep ' − T' 10000) };"
run '10,000 natural joins' "${P}query { T$(rep ' ⨝ T' 10000) };"
run '10,000 joins with a condition' "${P}query { T$(rep ' ⨝ a = a_r T' 10000) };"
run '10,000 ×' "${P}query { π a (T$(rep ' × T' 10000)) };"
run '10,000 interval joins' "${P}query { T$(rep ' IJOIN INTERSECTS (s, e, s, e) T' 10000) };"
run '10,000 AS-OF joins' "${P}query { T$(rep ' ASOF a >= a T' 10000) };"
run 'a join condition of 100,000 ∧, its comparison at the far left' "${P}query { T ⨝ a = a$(rep ' ∧ t' 99999) T };"
run '100,000 + in a join condition without a comparison (checked before the depth)' "${P}query { T ⨝ a$(rep ' + a' 99999) T };"
run '1,000 operators + run' "${P}query { π a$(rep ' + a' 1000) → x (T) };"
run '1,001 operators + do not' "${P}query { π a$(rep ' + a' 1001) → x (T) };"
run '1,000 unions run' "${P}query { T$(rep ' UNION T' 1000) };"
run '1,001 unions do not' "${P}query { T$(rep ' UNION T' 1001) };"
run '1,000 unions of aliases: each alias is a rename' "${P}query { T A$(rep ' UNION T A' 1000) };"
run 'chains of 100 + in 20 nested parentheses: 2,000 levels' \
  "${P}query { π $(rep '(' 20)a$(rep "$(rep ' + a' 100))" 20)$(rep ' + a' 100) → x (T) };"
run 'chains of 100 ∪ in 20 nested parentheses: 2,000 levels' \
  "${P}query { $(rep '(' 20)T$(rep "$(rep ' ∪ T' 100))" 20)$(rep ' ∪ T' 100) };"
run 'a chain of 1,001 ∪ under σ' "${P}query { σ a = 1 (T$(rep ' ∪ T' 1001)) };"
run 'a chain of 1,001 in a view' "${P}V := { π a$(rep ' + a' 1001) → x (T) };"
run 'a chain of 1,001 in a csv option' "X := csv('x.csv', delimiter => 'a'$(rep " || 'a'" 1001));"
