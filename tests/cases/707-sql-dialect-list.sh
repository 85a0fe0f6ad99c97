# `relix --help` lists every dialect --sql-dialect accepts, and nothing else: the names in the
# help text are compared with the names of sql_dialect_named's table in src/connect/sqlgen.c,
# each listed name is accepted, an unknown one is refused with the same list.
names_help=$("$RELIX" --help | awk '/--sql-dialect NAME/ {on = 1} on && /^      --/ && !/--sql-dialect/ {on = 0} on' |
  sed 's/.*NAME: //; s/.*NAME//' | tr ',()' '\n\n\n' | sed 's/^ *or //' | tr -s ' \n' '\n' |
  grep -E '^[a-z0-9]+$' | grep -vE '^(with|also|show|each|pushed|statement|as|it|would|be|written|for|explain)$' | LC_ALL=C sort -u)
names_src=$(sed -n '/^const SqlDialect \*sql_dialect_named/,/^}/p' src/connect/sqlgen.c | grep -o '{"[a-z0-9]*", &' |
  sed 's/{"//; s/", &//' | LC_ALL=C sort -u)
echo "listed in --help: $(echo $names_help)"
if [ "$names_help" = "$names_src" ]; then echo "same as the accepted names"; else
  echo "DIFFERENT from the accepted names: $(echo $names_src)"; fi
q='T := [
| a |
|---|
| 1 |
]; query { T };'
for n in $names_help; do
  "$RELIX" --explain --sql-dialect "$n" -e "$q" >/dev/null 2>&1 || echo "refused: $n"
done
"$RELIX" --sql-dialect oracle -e "$q"
echo "exit $?"
err=$("$RELIX" --sql-dialect oracle -e "$q" 2>&1 | grep 'unknown SQL dialect' | sed 's/.*(//; s/).*//' | tr ',' '\n' | tr -d ' ' | LC_ALL=C sort -u)
[ "$err" = "$names_src" ] && echo "the error lists the same names" || echo "the error lists: $(echo $err)"
