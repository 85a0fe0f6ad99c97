# Golden SQL per dialect and relation, in brief: for each dialect without a server here (and
# DuckDB), each IJOIN relation with and without the key, AT, and LEFT, SEMI and ANTI: the form
# the statement takes in that dialect (binned: how an interval becomes its bins; plain) and
# the join's condition as that dialect spells it (identifiers, the bytewise comparison of the
# text key). Case 642 shows whole statements of each form, 722 SQL Server's and Db2's.
root=$PWD
RELIX=$root/$RELIX
RELIX_LIBDUCKDB=$(tests/duckdb/lib.sh) || { echo "no libduckdb.so"; exit 1; }
export RELIX_LIBDUCKDB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
sqlite3 d.db <<'SQL'
CREATE TABLE iv(id INTEGER PRIMARY KEY, k TEXT, s INT, e INT);
INSERT INTO iv VALUES (1, 'x', 1, 5), (2, 'x', 4, 9), (3, 'y', 5, 6);
SQL
brief() {
  /usr/bin/python3 -c '
import re, sys
for line in sys.stdin:
    m = re.search(r" \| as ([^:]*): (.*?)(  ~\d+ rows)?$", line)
    if not m:
        continue
    sql = m.group(2)
    b = re.search(r"FROM el AS l JOIN er AS r ON (.*?) CROSS JOIN w", sql)
    if b:
        series = ("generate_series" if "generate_series(" in sql else "explode(sequence)" if "explode(sequence(" in sql
                  else "UNNEST(sequence)" if "UNNEST(sequence(" in sql else "recursive CTE" if "WITH RECURSIVE" in sql else "?")
        long = ("in MATERIALIZED CTEs" if "ll AS MATERIALIZED" in sql else "in CTEs" if "ll AS (" in sql
                else "filtered from all")
        print(f"  binned, bins by {series}, long rows {long}: ON {b.group(1)}")
        k = re.search(r"FROM pr\) (SELECT .*? WHERE m\.lo0 IS (?:NOT )?NULL)", sql)
        if k:
            print(f"    then {k.group(1)}")
        continue
    p = re.search(r" AS t\d+ (?:LEFT )?JOIN .*? AS t\d+ ON (.*?)\) AS t\d+", sql) or re.search(r"WHERE (?:NOT )?EXISTS \((.*?)\)\) AS", sql)
    print(f"  plain: {p.group(1) if p else sql}")
'
}
for d in citus greenplum redshift spark trino duckdb; do
  for rel in INTERSECTS PRECEDES PRECEDED_BY MEETS MET_BY OVERLAPS OVERLAPPED_BY STARTS STARTED_BY DURING CONTAINS FINISHES FINISHED_BY EQUALS COVERS COVERED_BY; do
    echo "== $d $rel"
    "$RELIX" --explain --sql-dialect "$d" -e "D := connect('sqlite:d.db'); query { π L.id, R.id → rid (D.iv L IJOIN $rel (L.s, L.e, R.s, R.e) D.iv R) };" 2>&1 | brief
    "$RELIX" --explain --sql-dialect "$d" -e "D := connect('sqlite:d.db'); query { π L.id, R.id → rid (σ L.k = R.k (D.iv L IJOIN $rel (L.s, L.e, R.s, R.e) D.iv R)) };" 2>&1 | brief
  done
  echo "== $d AT, LEFT, SEMI, ANTI"
  "$RELIX" --explain --sql-dialect "$d" -e "D := connect('sqlite:d.db'); query { π L.id, R.id → rid (D.iv L IJOIN AT (L.s, R.s, R.e) D.iv R) };" 2>&1 | brief
  for kind in LEFT SEMI ANTI; do
    "$RELIX" --explain --sql-dialect "$d" -e "D := connect('sqlite:d.db'); query { π L.id (D.iv L IJOIN $kind INTERSECTS (L.s, L.e, R.s, R.e) D.iv R) };" 2>&1 | brief
  done
done
