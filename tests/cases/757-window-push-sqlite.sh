# Issue #26: ω pushed down to SQLite gives the bytes the engine gives: tests/diff/window_push.py's
# random ω queries (as cases 753 and 754 run them on PostgreSQL and DuckDB) pushed and with
# --no-pushdown, each pushed whole exactly where SQLite has an exact form of every function in
# it: row_number, rank, dense_rank, lag and lead with defaults, first_value, last_value, count,
# min and max (of its doubles too: it stores no -0) over running and ROWS frames; not sum and avg
# (SQLite adds with an algorithm of its own and fails on a partial sum that overflows), RANGE
# frames, nor anything computing with its TIMESTAMP column, which is only carried.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$root/tests/diff/window_push.py" "$RELIX" "sqlite:$tmp/w.db" 30 20
