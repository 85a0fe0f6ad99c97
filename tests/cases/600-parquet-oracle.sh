# Parquet files written by DuckDB and Polars (tests/parquet/oracle.mjs gen: every type Relix
# maps, PLAIN, dictionary, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and BYTE_STREAM_SPLIT
# encodings, data pages v1 and v2, Snappy, Zstandard, gzip and none, several row groups, NULLs
# in every pattern) read by Relix must agree cell for cell with what DuckDB reads from them,
# and the Polars-written ones with what Polars reads too. The peers are installed when missing
# (tests/parquet/peers.sh); without them the case fails.
root=$PWD
RELIX=$root/$RELIX
tests/parquet/peers.sh || { echo "the peers (node, DuckDB, Polars) are missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node tests/parquet/oracle.mjs gen "$tmp" > "$tmp/list" || { echo "generating the files failed"; exit 1; }
while read -r f; do
    printf "P := parquet('%s');\nquery { P };\n" "$tmp/$f" > "$tmp/q.rx"
    if ! "$RELIX" -f jsonl "$tmp/q.rx" > "$tmp/$f.jsonl" 2> "$tmp/err"; then
        echo "$f: relix failed: $(sed "s|$tmp/||g" "$tmp/err")"
        continue
    fi
    node tests/parquet/oracle.mjs check "$tmp/$f" "$tmp/$f.jsonl"
    case "$f" in polars_*) node tests/parquet/oracle.mjs polars "$tmp/$f" "$tmp/$f.jsonl" | sed 's/$/ (polars)/' ;; esac
done < "$tmp/list"
