# The one rule for equality and order (docs/semantics.md), differentially: tests/diff/equality.py
# runs σ ⨝ δ γ ∪ ∩ − τ IJOIN ASOF over FLOAT and DURATION data full of NaN, -0, infinities, NULL
# and equal durations written differently under every planner switch combination, checks a
# subset against answers worked out by hand, then runs the same queries over the data in SQLite
# and in a throwaway PostgreSQL cluster (scripts/pg.sh), pushed down and in the engine, which
# must give the inline tables' rows.
root=$PWD
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/pg.sh stop "$tmp/pg"; rm -rf "$tmp"' EXIT
port=$(scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
python3 "$root/tests/diff/equality.py" "$root/$RELIX" "$tmp/eq.db" "postgresql://postgres@127.0.0.1:$port/postgres"
