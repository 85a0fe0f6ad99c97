# Issue #26: the scalar functions against DuckDB on the same random rows (tests/diff/funcs.mjs):
# text with NULLs, empty strings, accents, CJK and emoji, LIKE patterns, numbers with -0, halves
# and large values, timestamps from 1900 to 2100 with microseconds; every function that has an
# exact DuckDB equivalent must give DuckDB's value in every row; single edge values (overflow,
# division by zero, domain errors, empty strings) agree, or differ only as docs/functions.md says.
root=$PWD
RELIX=$root/$RELIX
tests/parquet/peers.sh || { echo "the peers (node, DuckDB) are missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node tests/diff/funcs.mjs gen "$tmp/t.csv" || exit 1
node tests/diff/funcs.mjs relix > "$tmp/q.rx" || exit 1
cd "$tmp"
"$RELIX" -f jsonl q.rx > got.jsonl || exit 1
RELIX="$RELIX" node "$root/tests/diff/funcs.mjs" check t.csv got.jsonl
