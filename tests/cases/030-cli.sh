# The command line: -e, standard input, --help, --version, usage errors (exit 2), a missing
# file (exit 1), and --format given twice (the last wins).
echo "== -e"
"$RELIX" -e "T := [
| a |
|---|
| 1 |
];
query { T };"; echo "exit $?"
echo "== stdin"
printf 'T := [\n| a | b |\n|---|---|\n| x | 2 |\n];\nquery { π b (T) };\n' | "$RELIX" --format=csv; echo "exit $?"
echo "== --version"
"$RELIX" --version | sed 's/[0-9][0-9.]*/N/'; echo "exit $?"
echo "== --help"
"$RELIX" --help | head -n 3; echo "exit $?"
echo "== unknown option"
"$RELIX" --frobnicate 2>&1; echo "exit $?"
echo "== bad format"
"$RELIX" --format xml -e 'query { T };' 2>&1; echo "exit $?"
echo "== missing value"
"$RELIX" -e 2>&1; echo "exit $?"
echo "== two scripts"
"$RELIX" a.rx b.rx 2>&1; echo "exit $?"
echo "== missing file"
"$RELIX" no/such/script.rx 2>&1; echo "exit $?"
echo "== error in -e"
"$RELIX" -e 'query { Nope };' 2>&1; echo "exit $?"
echo "== empty script"
"$RELIX" -e '' 2>&1; echo "exit $?"
