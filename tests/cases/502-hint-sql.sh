# Statements written the SQL way (in -e, and in a script file): the syntax error stays where it
# was found, and a hint line gives the Relix spelling of the SQL word (the first one in the
# statement). A syntax error without SQL words gets no hint.
P='T := [
| a | b |
|---|---|
| 1 | 2 |
];
S := [
| a | c |
|---|---|
| 1 | 3 |
];
'
run() { echo "== $1"; "$RELIX" -e "${P}$1" 2>&1; echo "exit $?"; }
run 'SELECT a FROM T;'
run 'query { SELECT a, b FROM T };'
run 'query { T WHERE a > 1 };'
run 'query { T JOIN S ON T.a = S.a };'
run 'query { γ a; count(*) → n (T) GROUP BY a };'
run 'query { π a (T) ORDER BY a };'
run 'query { γ a; count(*) → n (T) HAVING n > 1 };'
run 'query { T LIMIT 5 };'
run 'query { π a, (T) };'
echo "== and the Relix spellings run"
run 'query { π a (σ a ≥ 1 (T ⨝ T.a = S.a S)) };'
echo "== in a script file (where a statement cannot be an expression)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%sSELECT a FROM T WHERE b > 1;\n' "$P" > "$tmp/sql.rx"
"$RELIX" "$tmp/sql.rx" 2>&1 | sed "s|$tmp/||"
echo "exit ${PIPESTATUS[0]}"
