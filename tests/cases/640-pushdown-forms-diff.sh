# The pushed forms of ASOF (sorted pass, LATERAL) and IJOIN (binned, plain) against the engine:
# tests/diff/forms.py runs every ASOF and IJOIN case in the engine, pushed to SQLite, pushed to
# PostgreSQL (a throwaway cluster from scripts/pg.sh) and pushed to DuckDB (libduckdb.so from
# tests/duckdb/lib.sh) under each --pushdown form, over random
# tables heavy in ties and NULLs; every way must print the same rows and push every query.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/pg.sh stop "$tmp/pg"; rm -rf "$tmp"' EXIT
port=$(scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) || { echo "no libduckdb.so"; exit 1; }
export RELIX_LIBDUCKDB
python3 "$root/tests/diff/forms.py" "$RELIX" "$tmp" "postgresql://postgres@127.0.0.1:$port/postgres" 1 30
