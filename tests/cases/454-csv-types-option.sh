# csv(..., types => 'name TYPE, ...') gives some columns' types and lets the others be
# detected: a ZIP code column stays TEXT even when every value has five digits, an INT column
# can be FLOAT. A name the file has no column for is an error at the option's string; a value
# that does not parse as the given type is an error at its file, line and column.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
printf 'zip,amount,flag,at\n94105,10,true,2026-01-02\n10001,20,false,2026-01-03\n' > t.csv
run() { echo "== $1"; shift; "$RELIX" "$@" 2>&1; echo "exit $?"; }
RELIX=$OLDPWD/$RELIX
run "detected" --format json -e "T := csv('t.csv'); query { T };"
run "zip TEXT, amount FLOAT" --format json -e "T := csv('t.csv', types => 'zip TEXT, amount FLOAT'); query { T }; query { π amount / 4 → q (T) };"
run "without a header the names are c1, c2, ..." --format json -e "T := csv('t.csv', header => FALSE, types => 'c1 TEXT'); query { σ c1 = 'zip' (T) };"
run "an unknown column" -e "T := csv('t.csv', types => 'zip TEXT, amout FLOAT'); query { T };"
run "a value that is not of the given type" -e "T := csv('t.csv', types => 'flag INT'); query { T };"
run "a type that is not one" -e "T := csv('t.csv', types => 'zip NUMBER'); query { T };"
run "types and schema together" -e "T := csv('t.csv', types => 'zip TEXT', schema => 'zip TEXT, amount INT, flag BOOL, at DATE'); query { T };"
