# Enormous literals: a 1 MB string (in a query and in an inline table cell), 10,000-digit
# numbers (integer, FLOAT out of range, FLOAT that underflows, 10,000 fraction digits) and
# the extreme 64-bit integers, -9223372036854775808 written as a literal included. Results are
# documented values; errors quote the literal shortened in the middle (the reason stays at the
# end) and show a window of the long line.
P='T := [
| a |
|---|
| 1 |
];
'
run() { echo "== $1"; printf '%s' "$2" | "$RELIX" 2>&1; echo "exit $?"; }
rep() { python3 -c "import sys; sys.stdout.write(sys.argv[1] * int(sys.argv[2]))" "$1" "$2"; }
MB=$(rep x 1048576)
D=$(rep 9 10000)
Z=$(rep 0 9999)
run '1 MB string literal: its length and its last characters' \
  "${P}query { π length('$MB') → n, substr('$MB' || 'END', 1048575) → tail (T) };"
run '1 MB string with a multi-byte character at the end' \
  "${P}query { π length('${MB}é') → n (T) };"
run '1 MB cell of an inline table' \
  "$(printf 'B := [\n| s |\n|---|\n| %s |\n];\nquery { π length(s) → n (B) };' "$MB")"
run '1 MB string that is not a timestamp' "${P}query { π TIMESTAMP '$MB' → t (T) };"
run '10,000-digit integer' "${P}query { π $D → n (T) };"
run '10,000-digit FLOAT out of range' "${P}query { π $D.0 → n (T) };"
run 'FLOAT with 10,000 zeros after the point underflows to 0' "${P}query { π 0.${Z}1 → n (T) };"
run 'FLOAT with 10,000 fraction digits rounds' "${P}query { π 1.${Z}1 → n, 2.${D} → m (T) };"
run 'largest INT, and the smallest as an expression' "${P}query { π 9223372036854775807 → hi, -9223372036854775807 - 1 → lo (T) };"
run 'smallest INT as a literal, with and without a space after the sign' "${P}query { π -9223372036854775808 → lo, - 9223372036854775808 → lo2, - -9223372036854775807 → hi (T) };"
run 'one past the largest INT' "${P}query { π 9223372036854775808 → n (T) };"
run 'one past the smallest INT' "${P}query { π -9223372036854775809 → n (T) };"
