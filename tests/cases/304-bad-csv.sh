# Malformed CSV files (tests/data/bad/): ragged rows, quotes, encodings, line ends, empty and
# header-only files, NUL bytes, a 1 MB cell (written to a temporary folder), numbers that do
# not fit and bad dates. Each is either an error at the file position of the cause (exit 1) or a
# documented reading; no row is dropped without an error.
D=tests/data/bad
run() { echo "== $1"; "$RELIX" -e "$2" 2>&1; echo "exit $?"; }
q() { run "$1" "X := csv('$D/$1'$2); query { X };"; }
q ragged-short.csv
q ragged-long.csv
q unterminated-quote.csv
q quote-then-text.csv
q invalid-utf8.csv
q truncated-utf8.csv
q bom.csv
q crlf.csv
q cr-only.csv
q empty.csv
q empty.csv ", header => FALSE"
q header-only.csv
q header-only-no-newline.csv
q blank-line.csv
q duplicate-header.csv
q empty-header-name.csv
q nul-byte.csv
q nul-in-header.csv
q nul-in-int.csv
q nul-in-int.csv ", schema => 'id INT, n INT'"
q int-overflow.csv
q huge-number.csv
q ts-year-zero.csv
q ts-offset-past-9999.csv
q ts-five-digit-year.csv
q date-feb-30.csv
q ts-fine-fraction.csv
q schema-mismatch.csv ", schema => 'a INT, b INT'"
q schema-mismatch.csv ", schema => 'a INT'"
q schema-mismatch.csv ", schema => 'a INT, c TEXT'"
run 'a file that does not exist' "X := csv('$D/no-such-file.csv'); query { X };"
run 'a folder instead of a file' "X := csv('$D'); query { X };"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c "import sys; sys.stdout.write('id,s\n1,' + 'x' * 1048576 + '\n2,\"' + 'y' * 1048576 + '\"\n3,z\n')" > "$tmp/big.csv"
echo "== 1 MB cells, unquoted and quoted"
"$RELIX" -e "X := csv('$tmp/big.csv'); query { π id, length(s) → n (X) };" 2>&1; echo "exit $?"
python3 -c "import sys; sys.stdout.write('id,s\n1,\"' + 'x' * 1048576 + '\n')" > "$tmp/big-open.csv"
echo "== 1 MB quoted cell that is never closed"
"$RELIX" -e "X := csv('$tmp/big-open.csv'); query { X };" 2>&1 | sed "s|$tmp|TMP|"; echo "exit ${PIPESTATUS[0]}"
python3 -c "import sys; sys.stdout.write('id,s\n1,' + 'x' * 1048576 + ',extra\n')" > "$tmp/big-extra.csv"
echo "== an extra field after a 1 MB cell (the column is still right)"
"$RELIX" -e "X := csv('$tmp/big-extra.csv'); query { X };" 2>&1 | sed "s|$tmp|TMP|"; echo "exit ${PIPESTATUS[0]}"
