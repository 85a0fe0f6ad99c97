# Regression, issue #7 (fuzzing finding on the nesting limit): a parenthesis counted as two nesting levels (the
# '(' and the expression inside it), a relation in parentheses as three, so the limit was 98
# parentheses where docs/grammar.md says 200 levels, and the error pointed past the token that
# opened the level. Now each construct opens one level: 200 run, 201 are an error at the 201st
# opener.
P='T := [
| a |
|---|
| 1 |
];
'
run() { printf '%s' "$2" | "$RELIX" > /dev/null 2> "$tmp/err"; echo "$1: exit $? $(head -n 1 "$tmp/err")"; }
rep() { local s=$1 n=$2 r=""; while ((n > 0)); do ((n & 1)) && r+=$s; s+=$s; ((n >>= 1)); done; printf '%s' "$r"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 200 201; do
  run "$n parentheses around an expression" "${P}query { π $(rep '(' $n)a$(rep ')' $n) → x (T) };"
  run "$n parentheses around a relation" "${P}query { $(rep '(' $n)T$(rep ')' $n) };"
  run "$n nested σ" "${P}query { $(rep 'σ a = 1 (' $n)T$(rep ')' $n) };"
  run "$n nested calls" "${P}query { π $(rep 'abs(' $n)a$(rep ')' $n) → x (T) };"
  run "$n nested CASE" "${P}query { π $(rep 'CASE WHEN a = 1 THEN ' $n)1$(rep ' END' $n) → x (T) };"
  run "$n nested IN lists" "${P}query { σ $(rep "TRUE IN (" $n)TRUE$(rep ")" $n) (T) };"
  run "$n ¬" "${P}query { σ $(rep '¬ ' $n)a = 1 (T) };"
  run "$n unary minus" "${P}query { π $(rep '- ' $n)a → x (T) };"
  run "$n parentheses in a join condition" "${P}query { T ⨝ $(rep '(' $n)T.a = U.a$(rep ')' $n) T U };"
done
