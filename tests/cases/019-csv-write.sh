# A query's result written to a CSV file from the script (query { ... } into csv('file')) and
# from the command line (-o FILE), with the reader's quoting rules: what is written reads back
# as the same table (NULL as an empty field, the empty string as "").
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat > w.rx <<'RX'
T := [
| id | txt          | ts                   | f   |
|----|--------------|----------------------|-----|
| 1  | 'a, b'       | 2026-01-02T09:00:00Z | 1.5 |
| 2  | 'say "hi"'   | NULL                 |     |
| 3  | ''           | 2026-01-02T10:00:00Z | -2  |
];
query { π id, txt, to_timestamp(ts) → ts, f (T) } into csv('out.csv');
RX
"$RELIX" w.rx; echo "exit $?"
cat out.csv
"$RELIX" -e "X := csv('out.csv'); query { X }; query { π txt = '' → empty, txt IS NULL → null (X) };"; echo "exit $?"
"$RELIX" -o copy.csv --format csv -e "X := csv('out.csv'); query { X };"; echo "exit $?"
cmp out.csv copy.csv && echo "the -o copy is identical"
"$RELIX" -e "T := [
| a |
|---|
| 1 |
];
query { T } into csv('no/such/dir/x.csv');"; echo "exit $?"
