# Deep nesting: 10,000 levels of each construct that nests (parentheses in expressions and
# relations, ¬, unary minus, function calls, CASE, σ, π, IN lists) stop at the parser's depth
# limit of 200 levels with an error, never a stack overflow; 200 levels run.
# Long flat chains nest nothing but are as deep as they are long: chains at the depth limit of
# 1,000 operators (+, ∧, ∪, ⨝) and a chain of 1,000 views run (one more, and chains of 100,000:
# tests/cases/392-regress-long-chains, 393-regress-view-chain).
P='T := [
| a |
|---|
| 1 |
];
'
run() { echo "== $1"; printf '%s' "$2" | "$RELIX" 2>&1; echo "exit $?"; }
rep() { local s=$1 n=$2 r=""; while ((n > 0)); do ((n & 1)) && r+=$s; s+=$s; ((n >>= 1)); done; printf '%s' "$r"; }
N=10000
run 'expression in 10,000 parentheses' "${P}query { π $(rep '(' $N)a$(rep ')' $N) → x (T) };"
run 'expression in 200 parentheses (the limit)' "${P}query { π $(rep '(' 200)a$(rep ')' 200) → x (T) };"
run '200 unary minus (the limit)' "${P}query { π $(rep '- ' 200)a → x (T) };"
run 'relation in 10,000 parentheses' "${P}query { $(rep '(' $N)T$(rep ')' $N) };"
run '10,000 ¬' "${P}query { σ $(rep '¬ ' $N)a = 1 (T) };"
run '10,000 not' "${P}query { σ $(rep 'not ' $N)a = 1 (T) };"
run '10,000 unary minus' "${P}query { π $(rep '- ' $N)a → x (T) };"
run '10,000 nested abs()' "${P}query { π $(rep 'abs(' $N)a$(rep ')' $N) → x (T) };"
run '10,000 nested CASE' "${P}query { π $(rep 'CASE WHEN a = 1 THEN ' $N)1$(rep ' END' $N) → x (T) };"
run '10,000 nested σ' "${P}query { $(rep 'σ a = 1 (' $N)T$(rep ')' $N) };"
run '10,000 nested π' "${P}query { $(rep 'π a (' $N)T$(rep ')' $N) };"
run '10,000 nested IN lists' "${P}query { σ a IN ($(rep 'a IN (' $N)1$(rep ')' $N)) (T) };"
run '10,000 parentheses in a join condition' "${P}query { T ⨝ $(rep '(' $N)T.a = U.a$(rep ')' $N) T U };"
run 'unclosed: 10,000 ( and nothing else' "${P}query { π $(rep '(' $N)"
run '1,000 operators +' "${P}query { π a$(rep ' + a' 1000) → x (T) };"
run '1,000 conditions joined by 999 ∧' "${P}query { σ a = 1$(rep ' ∧ a = 1' 999) (T) };"
run '1,000 unions' "${P}query { T$(rep ' ∪ T' 1000) };"
run '1,000 natural joins' "${P}query { T$(rep ' ⨝ T' 1000) };"
V=$(for i in $(seq 1 999); do printf 'V%d := { V%d };\n' "$i" $((i - 1)); done)
run '1,000 views, each of the one before' "${P}V0 := { T };
$V
query { V999 };"
