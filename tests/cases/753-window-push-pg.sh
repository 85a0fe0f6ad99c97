# Issue #26: ω pushed down to PostgreSQL (a throwaway cluster, scripts/pg.sh) gives the bytes the
# engine gives: tests/diff/window_push.py runs random ω queries (every window function, running,
# ROWS and RANGE frames over INT and TIMESTAMP orders, PER keys, NULLs, ties and duplicate
# timestamps, a hostile table and column name) pushed and with --no-pushdown, and checks that
# each pushes whole exactly where every function in it has an exact form. Then EXPLAIN of the
# forms that stay in the engine, each with PUSH-SQL-006 saying why.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap '"$root"/scripts/pg.sh stop "$tmp/pg"; rm -rf "$tmp"' EXIT
port=$("$root"/scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
export PGPORT=$port
uri="postgresql://postgres@127.0.0.1/postgres"
/usr/bin/python3 "$root/tests/diff/window_push.py" "$RELIX" "$uri" 25 20 || exit 1
psql -q -v ON_ERROR_STOP=1 "$uri" <<'SQL' || exit 1
CREATE TABLE t (id int8 PRIMARY KEY, sym text, ts timestamptz, n int8, x float8);
INSERT INTO t VALUES (1, 'a', '2026-01-02 09:00:00+00', 5, 1.5), (2, 'b', '2026-01-02 09:00:00+00', NULL, -0.0),
  (3, 'a', '2026-01-02 09:00:00+00', 7, NULL), (4, 'a', NULL, 1, 0.0), (5, NULL, '2026-01-02 09:03:00+00', 3, 2.5);
SQL
cd "$tmp"
q() {
  "$RELIX" --explain -e "PG := connect('$uri'); query { $1 };" 2>&1 | sed -n '/Rewrites applied/,$p' | grep -v '^ *$'
  a=$("$RELIX" -e "PG := connect('$uri'); query { $1 };" 2>&1) b=$("$RELIX" --no-pushdown -e "PG := connect('$uri'); query { $1 };" 2>&1)
  [ "$a" = "$b" ] && echo "(the engine prints the same)" || printf 'THE ENGINE DIFFERS:\n%s\n%s\n' "$a" "$b"
}
q "ω PER sym BY ts; rank() → r, sum(n) OVER DURATION 'PT5M' PRECEDING → s5, avg(n) → a (PG.t)"
q "ω BY ts; sum(x) → s (PG.t)"
q "ω BY ts; min(x) OVER 1 ROWS PRECEDING → m (PG.t)"
q "ω BY ts; first_value(n) OVER DURATION 'PT1M' PRECEDING → f (PG.t)"
q "ω BY x; count(*) OVER 0.5 PRECEDING → c (PG.t)"
q "ω PER sym BY ts, n DESC NULLS FIRST; lag(x, 2, 0) → l, last_value(sym) OVER 1 ROWS PRECEDING → lv (σ n ≠ 3 (PG.t))"
