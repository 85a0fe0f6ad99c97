# How a pushed join's form is chosen on PostgreSQL (a throwaway cluster from scripts/pg.sh), and
# what EXPLAIN says: ASOF as LATERAL only where an index on (key, match) serves the probes and
# the left is small, with the key equality free of COLLATE "C" when both columns share one
# deterministic collation (so that the index serves), COLLATE "C" kept for a nondeterministic
# collation; the sorted pass without an index; IJOIN binned, plain for an endpoint equality
# and across a gap; and large inputs (statistics set as after ANALYZE of a big table) pulled
# instead of pushed, unless a form is forced. Every query prints the engine's rows.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/pg.sh stop "$tmp/pg"; rm -rf "$tmp"' EXIT
port=$(scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
export PGPORT=$port
uri="postgresql://postgres@127.0.0.1/postgres"
psql -q -v ON_ERROR_STOP=1 "$uri" <<'SQL'
CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE trades (id int8 PRIMARY KEY, sym text, ts int8, qty int8);
INSERT INTO trades VALUES (1, 'A', 5, 10), (2, 'B', 7, 20), (3, 'a', 9, 30), (4, NULL, 9, 40);
CREATE TABLE quotes (id int8 PRIMARY KEY, sym text, ts int8, bid float8);
INSERT INTO quotes VALUES (1, 'A', 4, 1.5), (2, 'B', 7, NULL), (3, 'B', 7, 2.5), (4, 'a', 1, 3.5);
CREATE INDEX ON quotes (sym, ts);
CREATE TABLE quotes_ci (id int8 PRIMARY KEY, sym text COLLATE ci, ts int8, bid float8);
INSERT INTO quotes_ci SELECT * FROM quotes;
CREATE INDEX ON quotes_ci (sym, ts);
CREATE TABLE noidx (id int8 PRIMARY KEY, sym text, ts int8, bid float8);
INSERT INTO noidx SELECT * FROM quotes;
CREATE TABLE ivl (id int8 PRIMARY KEY, k int8, s int8, e int8);
INSERT INTO ivl VALUES (1, 1, 1, 5), (2, 1, 4, 9), (3, 2, 5, 6), (4, 1, 9, 12);
ANALYZE;
SQL
run() {
  echo "== $*"
  "$RELIX" --explain "$@" 2>&1 | grep -v '^Physical plan$' | sed -n '/^Rewrites applied/,$p' | grep -E 'PUSH-SQL|PushedSQL|Join' | sed 's/  ~[0-9]* rows$//'
  [ "$("$RELIX" "$@" 2>&1)" = "$("$RELIX" --no-pushdown "$@" 2>&1)" ] && echo "(the engine prints the same)"
}
asof="PG := connect('$uri'); query { π T.id, Q.id → qid, Q.bid (PG.trades T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts PG.quotes Q) };"
# the left input small against the right: LATERAL through the index, no COLLATE
psql -q "$uri" -c "UPDATE pg_class SET reltuples = 100000 WHERE relname = 'quotes'"
run -e "$asof"
# a nondeterministic collation: COLLATE "C" needed (LATERAL forced shows it), no index serves;
# the sorted pass would cost more than pulling the inputs
psql -q "$uri" -c "UPDATE pg_class SET reltuples = 100000 WHERE relname = 'quotes_ci'"
run --pushdown lateral -e "${asof//PG.quotes Q/PG.quotes_ci Q}"
run -e "${asof//PG.quotes Q/PG.quotes_ci Q}"
# no index: the sorted pass; LATERAL forced
run -e "${asof//PG.quotes Q/PG.noidx Q}"
run --pushdown lateral -e "${asof//PG.quotes Q/PG.noidx Q}"
ij() { echo "PG := connect('$uri'); query { π L.id, R.id → rid (σ L.k = R.k (PG.ivl L IJOIN $1 (L.s, L.e, R.s, R.e) PG.ivl R)) };"; }
run -e "$(ij INTERSECTS)"
run -e "$(ij MEETS)"
run -e "$(ij PRECEDES)"
run --pushdown plain -e "$(ij DURING)"
# both inputs large: pulled, unless a form is forced
psql -q "$uri" -c "UPDATE pg_class SET reltuples = 5000000 WHERE relname IN ('trades', 'noidx', 'ivl')"
run -e "${asof//PG.quotes Q/PG.noidx Q}"
run -e "$(ij INTERSECTS)"
run --pushdown binned -e "$(ij INTERSECTS)"
# an input that is a subquery (a σ over the table): costed by PostgreSQL's estimate of it
# (EXPLAIN), so a large one is pulled too; small, it is pushed
sub="PG := connect('$uri'); query { π L.id, R.id → rid (σ L.k ≠ 7 (PG.ivl L) IJOIN INTERSECTS (L.s, L.e, R.s, R.e) PG.ivl R) };"
run -e "$sub"
psql -q "$uri" -c "UPDATE pg_class SET reltuples = 4 WHERE relname = 'ivl'"
run -e "$sub"
