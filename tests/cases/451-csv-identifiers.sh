# Numbers written as identifiers are kept as written: a leading zero before another digit
# (02139, 007.5, 00) or a leading '+' (+14155550100, +1.5) makes a column TEXT when types are
# detected, so a CSV read and written back is the same file. "0", "-0" and "0.5" are numbers.
D=tests/data
"$RELIX" --format json -e "X := csv('$D/identifiers.csv'); query { X };"; echo "exit $?"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'zip,phone,id\n02139,+14155550100,007\n10001,+442071234567,42\n' > "$tmp/in.csv"
"$RELIX" --format csv -o "$tmp/out.csv" -e "X := csv('$tmp/in.csv'); query { X };"; echo "exit $?"
cmp "$tmp/in.csv" "$tmp/out.csv" && echo "read and written back: the same file"
