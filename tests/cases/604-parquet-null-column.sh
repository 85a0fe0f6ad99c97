# A column of bare NULLs (π NULL → n) has no type of its own: into parquet(...) writes it as an
# all-NULL TEXT column whose chunks agree with the schema, so that it reads back (it was
# written as INT64 chunks under a BYTE_ARRAY schema, which the reader rejects as corrupt).
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$RELIX" -e "T := [
| id |
|----|
| 1  |
| 2  |
];
query { π id, NULL → n (T) } into parquet('n.parquet', row_group_size => 1);"; echo "exit $?"
"$RELIX" -e "P := parquet('n.parquet'); query { P }; query { π n IS NULL → isnull (P) };"; echo "exit $?"
