# The differential test of ASOF and IJOIN over H2 tables against the engine: tests/diff/forms.py
# loads its random tables, heavy in ties and NULLs (keys such as 'é', 'B' and 'a ', times at an
# offset), into a throwaway H2 server (scripts/h2.sh) and runs every ASOF case (each direction,
# strict or not, INNER, TIES, WITHIN) and every IJOIN relation (INT and TIMESTAMP/DATE endpoints,
# LEFT, SEMI, ANTI, AT) in the engine and under each --pushdown form: every way must print the
# same rows, every IJOIN must be pushed, and every ASOF must stay in the engine with EXPLAIN
# saying that H2 has no LATERAL.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/h2.sh stop "$tmp/h2"; rm -rf "$tmp"' EXIT
port=$(scripts/h2.sh start "$tmp/h2") || { echo "cannot start H2"; exit 1; }
export PGPASSWORD=forms
/usr/bin/python3 "$root/tests/diff/forms.py" "$RELIX" "$tmp" "" 1 30 --h2 "h2://sa@127.0.0.1:$port/forms" --only
