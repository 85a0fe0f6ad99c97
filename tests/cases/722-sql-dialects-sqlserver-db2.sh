# Golden SQL for SQL Server and Db2 (no server or client here: --sql-dialect shows the statement
# under EXPLAIN next to the one run on SQLite), and for DuckDB: every IJOIN relation (the plain
# join: their WITH stands only at a statement's top, where the binned form nests its CTEs), every
# ASOF direction, INNER,
# strict and TIES(FIRST), as the sorted pass and as the correlated subquery (OUTER / CROSS APPLY
# (SELECT TOP 1 ...) on SQL Server, LEFT JOIN LATERAL ... FETCH FIRST 1 ROW ONLY on Db2), TOP n,
# a computed boolean, and tables and columns with hostile names: quotes, brackets, spaces,
# unicode, reserved words. ASOF ... WITHIN stays in the engine (no portable distance).
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RELIX=$root/$RELIX
cd "$tmp"
sqlite3 d.db <<'SQL'
CREATE TABLE "tr]a""de s"(id INTEGER PRIMARY KEY, "[sym]" TEXT, "order" INT, "é q" INT);
INSERT INTO "tr]a""de s" VALUES (1, 'A', 5, 10), (2, 'B', 7, 20);
CREATE TABLE "select"(id INTEGER PRIMARY KEY, "[sym]" TEXT, "order" INT, "bid""x" REAL);
INSERT INTO "select" VALUES (1, 'A', 4, 1.5), (2, 'B', 7, NULL);
CREATE TABLE iv(id INTEGER PRIMARY KEY, k TEXT, s INT, e INT);
INSERT INTO iv VALUES (1, 'x', 1, 5), (2, 'x', 4, 9);
SQL
head="D := connect('sqlite:d.db');"
T='D."tr]a""de s"'
Q='D."select"'
show() { # dialect, extra flags, query
  "$RELIX" --explain --sql-dialect "$1" $2 -e "$head query { $3 };" 2>&1 | grep -o ' | as .*' | sed 's/  ~[0-9]* rows$//'
}
queries=()
for dir in ">=" ">" "<=" "<"; do
  queries+=("π T.id, Q.\"bid\"\"x\" (${T} T ASOF T.\"[sym]\" = Q.\"[sym]\" ∧ T.\"order\" $dir Q.\"order\" ${Q} Q)")
done
queries+=("π T.id, Q.id → qid (${T} T ASOF INNER T.\"order\" < Q.\"order\" TIES(FIRST) ${Q} Q)")
for d in sqlserver db2; do
  for form in window lateral; do
    for q in "${queries[@]}"; do
      echo "== $d --pushdown $form: $q"
      show "$d" "--pushdown $form" "$q"
    done
  done
  for rel in INTERSECTS PRECEDES PRECEDED_BY MEETS MET_BY OVERLAPS OVERLAPPED_BY STARTS STARTED_BY DURING CONTAINS FINISHES FINISHED_BY EQUALS; do
    echo "== $d: IJOIN $rel"
    show "$d" "" "π L.id, R.id → rid (σ L.k = R.k (D.iv L IJOIN $rel (L.s, L.e, R.s, R.e) D.iv R))"
  done
  echo "== $d --pushdown plain: IJOIN INTERSECTS"
  show "$d" "--pushdown plain" "π L.id, R.id → rid (D.iv L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) D.iv R)"
  echo "== $d: γ count (COUNT_BIG on SQL Server, whose count is a 32-bit int)"
  show "$d" "" "γ \"[sym]\"; count(*) → n, count(\"order\") → c (${T})"
  echo "== $d: TOP, a computed boolean"
  show "$d" "" "TOP 1 BY id DESC (π id, \"order\" > 5 → big, \"[sym]\" (${T}))"
done
echo "== duckdb: ASOF, IJOIN"
show duckdb "" "${queries[0]}"
show duckdb "" "π L.id, R.id → rid (D.iv L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) D.iv R)"
echo "== WITHIN stays in the engine"
"$RELIX" --explain --sql-dialect sqlserver -e "$head query { ${T} T ASOF T.\"order\" >= Q.\"order\" WITHIN 2 ${Q} Q };" 2>&1 | grep -c 'PushedSQL' || true
