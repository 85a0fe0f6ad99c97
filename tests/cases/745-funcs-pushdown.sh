# Issue #26: a σ, π or γ using each new function gives the same bytes pushed down and with
# --no-pushdown, on SQLite and on PostgreSQL (a throwaway cluster, scripts/pg.sh); EXPLAIN shows
# which functions reach the SQL (PostgreSQL: trim, replace, starts_with, split_part, LIKE, sqrt,
# div, string_agg, bool_and) and which keep the σ or π in the engine (the rest, and everything
# on SQLite).
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap '"$root"/scripts/pg.sh stop "$tmp/pg"; rm -rf "$tmp"' EXIT
port=$("$root"/scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
export PGPORT=$port
uri="postgresql://postgres@127.0.0.1/postgres"
psql -q -v ON_ERROR_STOP=1 "$uri" <<'SQL'
CREATE TABLE w (id int8 PRIMARY KEY, s text, n int4, x float8, ok bool);
INSERT INTO w VALUES (1, '  ab,cd ', 16, 2.25, true), (2, 'a_b%c', -7, 0, false), (3, 'Naïve', 3, NULL, NULL),
  (4, NULL, NULL, 9, true), (5, 'xxabxx', 0, 'NaN', false), (6, 'AB', 2147483647, -0.0, true);
SQL
cd "$tmp"
sqlite3 lite.db <<'SQL'
CREATE TABLE w (id INTEGER PRIMARY KEY, s TEXT, n INT, x REAL, ok INT);
INSERT INTO w VALUES (1, '  ab,cd ', 16, 2.25, 1), (2, 'a_b%c', -7, 0, 0), (3, 'Naïve', 3, NULL, NULL),
  (4, NULL, NULL, 9, 1), (5, 'xxabxx', 0, NULL, 0), (6, 'AB', 2147483647, 0.0, 1);
SQL
head="PG := connect('$uri'); Lite := connect('sqlite:lite.db');"
q() {
  for db in PG Lite; do
    e=${1//DB/$db}
    "$RELIX" --explain -e "$head query { $e };" 2>&1 | sed -n '/Physical plan/,$p'
    a=$("$RELIX" -e "$head query { $e };" 2>&1) b=$("$RELIX" --no-pushdown -e "$head query { $e };" 2>&1)
    [ "$a" = "$b" ] && echo "(the engine prints the same)" || printf 'THE ENGINE DIFFERS:\n%s\n' "$b"
    echo
  done
}
q "σ trim(s) = 'ab,cd' ∨ ltrim(s, 'x') = 'abxx' ∨ rtrim(s, 'x') = 'xxab' (DB.w)"
q "σ replace(s, 'ab', 'Z') = 'Z' || ',cd' ∨ starts_with(s, 'a_') (DB.w)"
q "π id, split_part(s, ',', 2) → p2 (σ id ≤ 3 (DB.w))"
q "σ s LIKE 'a\\_b%' ∨ s LIKE '%!%%' ESCAPE '!' ∨ s LIKE 'Na_ve' (DB.w)"
q "σ s ILIKE 'ab' ∨ contains(s, 'xab') (DB.w)"
q "σ sqrt(x) > 1 ∨ div(n, 2) = 1 (DB.w)"
q "σ power(abs(n), 0.5) = 4 ∨ ln(abs(n) + 1) > 21 ∨ exp(x) = 1 ∨ log10(abs(n) + 1) > 9 (DB.w)"
q "σ greatest(n, 5) = 5 ∨ least(x, 1) = 0 ∨ nullif(n, 3) IS NULL (DB.w)"
q "σ concat(s, n) = 'AB2147483647' ∨ mod(n, 5) = 1 ∨ sign(n) = -1 (DB.w)"
q "γ string_agg(s, ';') → all_s, bool_and(n > 0) → pos, bool_or(n > 100) → big (DB.w)"
q "γ ok; median(x) → med, stddev(n) → sd, variance(n) → v, quantile(n, 0.9) → q9 (DB.w)"
q "γ ok; sum(n * 2) / count(*) → per, count(s) + 1 → c1, string_agg(s, '|') || '.' → ss (DB.w)"
