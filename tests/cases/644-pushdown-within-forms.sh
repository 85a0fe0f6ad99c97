# The shapes pushed for issue #30 beyond the spec's two, on PostgreSQL (a throwaway cluster from
# scripts/pg.sh) and as each dialect without a server here would get them (--sql-dialect):
# ASOF ... WITHIN on TIMESTAMP (an interval distance, or microseconds) and DATE (days) match
# columns in the sorted pass and LATERAL, inclusive at the bound; IJOIN COVERS and AT; IJOIN
# LEFT, SEMI and ANTI in the binned form (plain where the left input is no table); and what
# stays in the engine with its reason (NEAREST, k nearest, WITHIN over DURATION match values).
# Every query prints the engine's rows.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/pg.sh stop "$tmp/pg"; rm -rf "$tmp"' EXIT
port=$(scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
export PGPORT=$port
uri="postgresql://postgres@127.0.0.1/postgres"
psql -q -v ON_ERROR_STOP=1 "$uri" <<'SQL'
CREATE TABLE tr (id int8 PRIMARY KEY, k text, t timestamptz, d date, du interval);
INSERT INTO tr VALUES (1, 'a', '2026-01-01 10:00:00+00', '2026-01-03', '1 hour'),
  (2, 'a', '2026-01-01 10:00:01+00', '2026-01-05', '2 hours'), (3, 'b', '2026-01-01 11:00:00+00', '2026-01-02', NULL),
  (4, 'a', NULL, NULL, NULL), (5, NULL, '2026-01-01 10:00:00+00', '2026-01-04', '3 hours'),
  (6, 'a', '2026-01-01 09:59:59+00', '2026-01-01', '1 hour');
CREATE TABLE qu (id int8 PRIMARY KEY, k text, t timestamptz, d date, du interval, v float8);
INSERT INTO qu VALUES (1, 'a', '2026-01-01 09:59:00+00', '2026-01-02', '1 hour', 1.0),
  (2, 'a', '2026-01-01 10:00:00+00', '2026-01-02', '1 hour', NULL), (3, 'b', '2026-01-01 10:00:00+00', '2026-01-01', NULL, 3.0),
  (4, 'a', '2026-01-01 10:00:01+00', '2026-01-04', '2 hours', 4.0), (5, 'a', NULL, NULL, NULL, 5.0);
CREATE TABLE ivl (id int8 PRIMARY KEY, k int8, s int8, e int8);
INSERT INTO ivl VALUES (1, 1, 1, 5), (2, 1, 4, 9), (3, 2, 5, 6), (4, 1, 9, 12), (5, 1, NULL, 3), (6, 2, 7, 5);
ANALYZE;
SQL
run() {
  echo "== $*"
  "$RELIX" --explain "$@" 2>&1 | sed -n '/^Rewrites applied/,$p' | grep -E 'PUSH-SQL|PushedSQL| \| as ' | sed 's/  ~[0-9]* rows$//'
  out=$("$RELIX" "$@" 2>&1)
  echo "$out"
  [ "$out" = "$("$RELIX" --no-pushdown "$@" 2>&1)" ] && echo "(the engine prints the same)"
}
head="PG := connect('$uri');"
within="π L.id, R.id → rid, R.v (PG.tr L ASOF L.k = R.k ∧ L.t >= R.t WITHIN DURATION 'PT1S' PG.qu R)"
# WITHIN on timestamps: the sorted pass (the default, no index), LATERAL forced, PostgreSQL and Trino
run --sql-dialect trino -e "$head query { $within };"
run --pushdown lateral -e "$head query { $within };"
# the bound is inclusive: PT0S keeps equal times only; INNER forward strict on dates, P1D
run -e "$head query { π L.id, R.id → rid (PG.tr L ASOF L.k = R.k ∧ L.t <= R.t WITHIN DURATION 'PT0S' PG.qu R) };"
run --sql-dialect spark -e "$head query { π L.id, R.id → rid (PG.tr L ASOF INNER L.d < R.d WITHIN DURATION 'PT47H' PG.qu R) };"
run --sql-dialect redshift -e "$head query { π L.id, R.id → rid (PG.tr L ASOF L.d >= R.d WITHIN DURATION 'P1D' TIES(FIRST) PG.qu R) };"
# in the engine, with the reason
run -e "$head query { π L.id, R.id → rid (PG.tr L ASOF L.du >= R.du WITHIN DURATION 'PT1H' PG.qu R) };"
run -e "$head query { π L.id, R.id → rid (PG.tr L ASOF NEAREST L.t >= R.t PG.qu R) };"
run -e "$head query { π L.id, R.id → rid, rank (PG.tr L ASOF 2 L.t >= R.t PG.qu R) };"
# IJOIN COVERS and AT (binned, as Citus gets them), LEFT, SEMI and ANTI binned
ij() { echo "$head query { $1 };"; }
run --sql-dialect citus -e "$(ij "π L.id, R.id → rid (PG.ivl L IJOIN COVERS (L.s, L.e, R.s, R.e) PG.ivl R)")"
run -e "$(ij "π L.id, R.id → rid (PG.ivl L IJOIN AT (L.s, R.s, R.e) PG.ivl R)")"
run --sql-dialect trino -e "$(ij "π L.id, R.id → rid (PG.ivl L IJOIN LEFT INTERSECTS (L.s, L.e, R.s, R.e) PG.ivl R)")"
run -e "$(ij "π L.id (PG.ivl L IJOIN SEMI DURING (L.s, L.e, R.s, R.e) PG.ivl R)")"
run --sql-dialect spark -e "$(ij "PG.ivl L IJOIN ANTI INTERSECTS (L.s, L.e, R.s, R.e) PG.ivl R")"
# the left input no table: the plain form, with the reason
run -e "$(ij "π L.id (σ L.k = 1 (PG.ivl L) IJOIN SEMI INTERSECTS (L.s, L.e, R.s, R.e) PG.ivl R)")"
