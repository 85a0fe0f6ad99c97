# PostgreSQL connections against a throwaway cluster (scripts/pg.sh, started and stopped here):
# type mapping, hostile names, IJOIN pushed as one JOIN and ASOF as a LATERAL join (EXPLAIN shows
# the SQL), the WITHIN fallback, pushdown beyond the spec (σ π γ τ TOP and ASOF over subqueries,
# NaN and -0, int4 arithmetic, a nondeterministic collation, hostile names and literals bound as
# parameters, what stays in the engine, estimates from EXPLAIN), a password in the environment
# that never appears anywhere, a URI with a password refused, and the pushdown-versus-engine
# differential test.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/pg.sh stop "$tmp/pg"; rm -rf "$tmp"' EXIT
port=$(scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
export PGPORT=$port   # the URI names no port, so that the output does not depend on it
uri="postgresql://postgres@127.0.0.1/postgres"
psql -q -v ON_ERROR_STOP=1 "$uri" <<'SQL'
CREATE TABLE quotes (id int8 PRIMARY KEY, sym text, ts timestamptz, price numeric(10,2), live bool, day date, t time, lag interval);
INSERT INTO quotes VALUES (1, 'ACME', '2026-01-02 09:00:00+00', 10.00, true, '2026-01-02', '09:00', '5 minutes'),
  (2, 'ACME', '2026-01-02 09:05:00+00', 10.25, false, NULL, NULL, '1 day 2 hours'),
  (3, 'ACME', '2026-01-02 09:05:00+00', 10.26, NULL, '2026-01-03', '23:59:59.5', NULL);
CREATE TABLE trades (id int4 PRIMARY KEY, sym varchar(8), ts timestamp, qty int2);
INSERT INTO trades VALUES (1, 'ACME', '2026-01-02 09:03:00', 100), (2, 'ACME', '2026-01-02 09:07:00', 50),
  (3, 'INIT', '2026-01-02 09:12:00', 75);
CREATE TABLE "we;ird""name" ("col--x" int, "sel ect" text);
INSERT INTO "we;ird""name" VALUES (1, 'a''b'), (2, 'DROP TABLE quotes; --');
CREATE TABLE ticks (id int8 PRIMARY KEY, sym text COLLATE "en-x-icu", px float8, n int4, at timestamptz, tag char(3));
INSERT INTO ticks VALUES (1, 'acme', 10.5, 2147483647, '2026-01-02 09:00:00+00', 'a'), (2, 'ACME', 'NaN', 2, '2026-01-02 09:01:00+00', 'b'),
  (3, 'Beta', 11, NULL, '2026-01-02 09:02:00+00', 'c'), (4, 'acme', '-0', 5, '2026-01-02 09:03:00+00', NULL),
  (5, 'beta', NULL, 7, NULL, 'a'), (6, 'ACME', 9.5, 1, '2026-01-02 09:05:00+00', 'b');
CREATE TABLE "ünï ""q"" --" ("a;b" int8 PRIMARY KEY, "c d" text);
INSERT INTO "ünï ""q"" --" VALUES (1, 'x'), (2, 'it''s'), (3, '$1 ?1');
ANALYZE;
SQL
sqlite3 "$tmp/lite.db" "CREATE TABLE t(id INTEGER PRIMARY KEY, w TEXT); INSERT INTO t VALUES (1, 'one'), (4, 'four');"
export PGPASSWORD=s3cr3t-do-not-print
run() { "$RELIX" "$@" 2>&1; echo "exit $?"; }
all=$(
run -e "PG := connect('$uri'); query { PG.quotes }; query { PG.\"we;ird\"\"name\" };"
run --explain -e "PG := connect('$uri');
query { PG.trades ASOF trades.sym = quotes.sym ∧ trades.ts >= quotes.ts PG.quotes };
query { PG.trades ASOF INNER trades.sym = quotes.sym ∧ trades.ts >= quotes.ts TIES(FIRST) PG.quotes };"
run --explain -e "PG := connect('$uri');
query { π T.id, Q.id → qid (PG.trades T ASOF T.ts >= Q.ts WITHIN DURATION 'PT5M' PG.quotes Q) };"
run --explain -e "PG := connect('$uri');
query { π T.id, Q.id → qid (PG.trades T IJOIN PRECEDES (T.ts, T.ts, Q.ts, Q.ts) PG.quotes Q) };"
# pushdown beyond the spec (PUSH-SQL-003); each query prints the same bytes with --no-pushdown
q() {
  "$RELIX" --explain -e "PG := connect('$uri'); Lite := connect('sqlite:$tmp/lite.db'); query { $1 };" 2>&1
  a=$("$RELIX" -e "PG := connect('$uri'); Lite := connect('sqlite:$tmp/lite.db'); query { $1 };" 2>&1)
  b=$("$RELIX" --no-pushdown -e "PG := connect('$uri'); Lite := connect('sqlite:$tmp/lite.db'); query { $1 };" 2>&1)
  [ "$a" = "$b" ] && echo "(the engine prints the same)" || printf 'THE ENGINE DIFFERS:\n%s\n' "$b"
  echo
}
q "σ px > 10 ∨ px ≠ px (PG.ticks)"
q "γ sym; count(*) → n, sum(n) → total, avg(px) → mean, first(px) → first_px, count(tag) → tags (PG.ticks)"
q "π n * 2 → twice, sym (σ n ≥ 2 (PG.ticks))"
q "TOP 2 BY at DESC NULLS LAST (PG.ticks)"
q "π T.id, Q.id → qid (σ T.qty > 60 (PG.trades T) ASOF T.sym = Q.sym ∧ T.ts >= Q.ts σ Q.price > 10 (PG.quotes Q))"
q "σ \"c d\" = 'it''s' ∨ \"c d\" = '\$1 ?1' ∨ \"a;b\" = 1 (PG.\"ünï \"\"q\"\" --\")"
q "π extract('minute', at) → minute (σ sym = 'acme' (PG.ticks))"
q "σ sym = 'acme' ∧ extract('minute', at) > 1 (PG.ticks)"
q "PG.ticks T ⨝ T.id = L.id Lite.t L"
run -e "PG := connect('$uri'); query { PG.missing };"
run -e "PG := connect('postgresql://postgres:hunter2@127.0.0.1/postgres'); query { PG.quotes };"
run -e "PG := connect('postgresql://postgres@127.0.0.1:1/postgres'); query { PG.quotes };"
)
printf '%s\n' "$all"
if printf '%s' "$all" | grep -q "s3cr3t"; then echo "THE PASSWORD WAS PRINTED"; else echo "the password never appears"; fi
python3 "$root/tests/diff/pushdown.py" "$RELIX" "$tmp/diff.db" "$uri" 25 40 | tail -n 4
