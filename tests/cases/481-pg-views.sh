# PostgreSQL views, materialized views and foreign tables read like tables (scripts/pg.sh,
# started and stopped here). The reader ordered a relation without a primary key by ctid, which
# a view and a foreign table do not have, so reading one failed; their order is now that of
# their columns. Each query prints the same with --no-pushdown; EXPLAIN shows the SQL.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/pg.sh stop "$tmp/pg"; rm -rf "$tmp"' EXIT
port=$(scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
export PGPORT=$port
uri="postgresql://postgres@127.0.0.1/postgres"
psql -q -v ON_ERROR_STOP=1 "$uri" <<'SQL'
CREATE TABLE base (id int8 PRIMARY KEY, sym text, px float8, doc json);
INSERT INTO base VALUES (3, 'b', 2.5, '{"a":1}'), (1, 'a', 1.5, NULL), (2, 'a', NULL, '[]'), (4, 'c', 9, '{}');
CREATE TABLE heap (sym text, n int4);
INSERT INTO heap VALUES ('z', 1), ('y', 2), ('z', 1);
CREATE VIEW v AS SELECT sym, px, doc FROM base WHERE id > 1;
CREATE MATERIALIZED VIEW mv AS SELECT sym, count(*) AS n FROM base GROUP BY sym;
CREATE VIEW hv AS SELECT * FROM heap;
SQL
fdw=0
if psql -q "$uri" -c "CREATE EXTENSION postgres_fdw" >/dev/null 2>&1; then
  psql -q -v ON_ERROR_STOP=1 "$uri" <<SQL && fdw=1
CREATE SERVER self FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '$port', dbname 'postgres');
CREATE USER MAPPING FOR postgres SERVER self OPTIONS (user 'postgres');
CREATE FOREIGN TABLE ft (sym text, n int4) SERVER self OPTIONS (table_name 'heap');
SQL
fi
q() {
  a=$("$RELIX" -e "PG := connect('$uri'); query { $1 };" 2>&1; echo "exit $?")
  b=$("$RELIX" --no-pushdown -e "PG := connect('$uri'); query { $1 };" 2>&1; echo "exit $?")
  echo "== $1"
  printf '%s\n' "$a"
  [ "$a" = "$b" ] && echo "(the engine prints the same)" || printf 'THE ENGINE DIFFERS:\n%s\n' "$b"
}
q "PG.v"
q "PG.mv"
q "PG.hv"
q "σ sym = 'a' (PG.v)"
q "γ sym; count(*) → n (PG.hv)"
q "PG.v V ⨝ V.sym = M.sym PG.mv M"
"$RELIX" --explain -e "PG := connect('$uri'); query { σ sym = 'a' (PG.v) };" 2>&1 | grep -i "pushed\|scan"
if [ "$fdw" = 1 ]; then
  q "PG.ft"
  q "σ n = 1 (PG.ft)"
else
  echo "(no postgres_fdw: the foreign table is not checked)"
fi
