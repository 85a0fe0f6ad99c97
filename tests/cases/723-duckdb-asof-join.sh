# DuckDB's own ASOF JOIN against Relix's ASOF (which Relix pushes as the sorted pass or LATERAL,
# never as ASOF JOIN): on distinct times and non-NULL keys the two agree; where quotes tie on
# (key, time) Relix takes the last in the table's order (TIES(LAST), the default) or the first
# (TIES(FIRST)) while DuckDB's pick among ties is its own; a NULL key or time never matches in
# either. Each case prints both answers and whether they agree.
root=$PWD
RELIX=$root/$RELIX
RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) || { echo "no libduckdb.so"; exit 1; }
export RELIX_LIBDUCKDB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ddb() { /usr/bin/python3 tests/duckdb/ddb.py "$tmp/d.db" "$@"; }
ddb <<'SQL' || exit 1
CREATE TABLE t(id INTEGER PRIMARY KEY, sym VARCHAR, ts INTEGER);
INSERT INTO t VALUES (1, 'A', 5), (2, 'A', 10), (3, 'B', 7), (4, NULL, 7), (5, 'A', NULL), (6, 'C', 1);
CREATE TABLE q_plain(id INTEGER PRIMARY KEY, sym VARCHAR, ts INTEGER);
INSERT INTO q_plain VALUES (1, 'A', 4), (2, 'A', 9), (3, 'B', 6), (4, 'B', 8);
CREATE TABLE q_ties(id INTEGER PRIMARY KEY, sym VARCHAR, ts INTEGER);
INSERT INTO q_ties VALUES (1, 'A', 4), (2, 'A', 4), (3, 'A', 4), (4, 'B', 6), (5, 'B', 6);
CREATE TABLE q_nulls(id INTEGER PRIMARY KEY, sym VARCHAR, ts INTEGER);
INSERT INTO q_nulls VALUES (1, 'A', 4), (2, NULL, 6), (3, 'A', NULL), (4, 'B', NULL);
SQL
for q in q_plain q_ties q_nulls; do
  for ties in "" " TIES(FIRST)"; do
    echo "== $q$ties"
    duck=$(ddb --print <<SQL
SELECT t.id, q.id FROM t ASOF LEFT JOIN $q AS q ON t.sym = q.sym AND t.ts >= q.ts ORDER BY t.id;
SQL
)
    rx=$(cd "$tmp" && "$RELIX" -f tsv -e "D := connect('duckdb:d.db'); query { π T.id, Q.id → qid (D.t T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts$ties D.$q Q) };" | tail -n +2 | sed 's/\tNULL$/\t\\N/')
    paste <(echo "$duck") <(echo "$rx") | sed 's/^/  duckdb | relix: /'
    [ "$duck" = "$rx" ] && echo "  agree" || echo "  differ"
  done
done
