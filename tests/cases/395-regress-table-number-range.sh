# Regression, issue #7 (fuzzing finding catalog-number-out-of-range): an inline-table cell
# with a number's shape that does not fit a FLOAT (1e999, an integer of 400 digits) made its
# whole column TEXT without a word, where a 20-digit integer was an error and the CSV reader
# reports such cells. Now it is an error at the cell, quoted shortened when long; a column
# with a cell that is not a number at all is TEXT, as before, and a number too small for a
# FLOAT underflows to 0 (num_parse_float).
run() {
  echo "== $1"
  printf 'T := [\n| n |\n|---|\n| 1 |\n| %s |\n| 2.5 |\n];\nquery { π n (T) };\n' "$2" | "$RELIX" 2>&1
  echo "exit $?"
}
run '1e999' '1e999'
run '-1e999' '-1e999'
run '1.5e+400' '1.5e+400'
run 'a FLOAT of 400 digits' "1.$(printf '9%.0s' $(seq 400))e308"
run 'an integer of 400 digits' "$(printf '9%.0s' $(seq 400))"
run 'an integer of 20 digits' '99999999999999999999'
run '1e-999 underflows to 0' '1e-999'
run '1e308 fits' '1e308'
echo "== 1e999 in a column with text: TEXT"
printf 'T := [\n| n |\n|---|\n| x |\n| 1e999 |\n];\nquery { T };\n' | "$RELIX" 2>&1; echo "exit $?"
echo "== '1e999' quoted: TEXT"
printf "T := [\n| n |\n|---|\n| 1 |\n| '1e999' |\n];\nquery { T };\n" | "$RELIX" 2>&1; echo "exit $?"
