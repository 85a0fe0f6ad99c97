# relix -e takes an expression on its own as a query, like the REPL (the last statement may
# omit its ';'); a script file or standard input keeps query { ... } and says so at the
# expression, with the statement to write instead.
set -u
P='T := [
| a | b |
|---|---|
| 1 | 2 |
| 3 | 4 |
];
'
run() { echo "== $1"; "$RELIX" -e "${P}$1" 2>&1; echo "exit $?"; }
run 'σ a > 1 (T);'
run 'π a (T); π b (T)'
run 'T ⨝ T.b = U.a + 1 (ρ U (T))'
run 'query { T }; T;'
echo "== a script file"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%sσ a > 1 (T);\n' "$P" > "$tmp/bare.rx"
"$RELIX" "$tmp/bare.rx" 2>&1 | sed "s|$tmp/||"
echo "exit ${PIPESTATUS[0]}"
echo "== standard input"
printf '%sπ a (T)\n;\n' "$P" | "$RELIX" 2>&1
echo "exit $?"
