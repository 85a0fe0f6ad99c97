# The SQL each dialect without a server here would get (--sql-dialect, shown under EXPLAIN next
# to the statement run on SQLite): the sorted-pass ASOF, the binned IJOIN, the plain join of a
# relation across a gap, and the strict forward ASOF with TIES(FIRST), for the PostgreSQL-wire
# engines (Citus, Greenplum, Redshift), Spark SQL and Trino; then an unknown dialect.
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RELIX=$root/$RELIX
cd "$tmp"
sqlite3 d.db <<'SQL'
CREATE TABLE trades(id INTEGER PRIMARY KEY, sym TEXT, ts INT, qty INT);
INSERT INTO trades VALUES (1, 'A', 5, 10), (2, 'B', 7, 20);
CREATE TABLE quotes(id INTEGER PRIMARY KEY, sym TEXT, ts INT, bid REAL);
INSERT INTO quotes VALUES (1, 'A', 4, 1.5), (2, 'B', 7, NULL);
CREATE TABLE "we`ird"(id INTEGER PRIMARY KEY, k TEXT, s INT, e INT);
INSERT INTO "we`ird" VALUES (1, 'x', 1, 5), (2, 'x', 4, 9);
SQL
head="D := connect('sqlite:d.db');"
queries=(
  "π T.id, Q.bid (D.trades T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts D.quotes Q)"
  "π L.id, R.id → rid (σ L.k = R.k (D.\"we\`ird\" L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) D.\"we\`ird\" R))"
  "π L.id, R.id → rid (D.\"we\`ird\" L IJOIN PRECEDES (L.s, L.e, R.s, R.e) D.\"we\`ird\" R)"
  "π T.id, Q.id → qid (D.trades T ASOF INNER T.ts < Q.ts TIES(FIRST) D.quotes Q)"
)
for d in citus greenplum redshift spark trino; do
  for q in "${queries[@]}"; do
    echo "== $d: $q"
    "$RELIX" --explain --sql-dialect "$d" -e "$head query { $q };" 2>&1 | grep -o ' | as .*' | sed 's/  ~[0-9]* rows$//'
  done
done
"$RELIX" --explain --sql-dialect oracle -e "$head query { D.trades };"; echo "exit $?"
