# MariaDB connections against a throwaway server (scripts/mariadb.sh, started and stopped here):
# the type mapping (DATETIME without zone, TIMESTAMP, DATE, DECIMAL, BOOL, BIGINT UNSIGNED beyond
# 2^63-1, text of two character sets, a BLOB), the order of a table without a primary key,
# hostile names, text compared bytewise although the server's collation ignores case and trailing
# spaces, pushdown of σ π ⨝ γ τ TOP IJOIN ASOF as one statement (each query prints the same bytes
# with --no-pushdown), the forms MariaDB lacks (LATERAL, FULL JOIN) left to the engine, a server
# error and a bad value naming the statement's table and column, the socket form of the URI, a
# password in MYSQL_PWD that never appears, and a URI with a password refused and redacted.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/mariadb.sh stop "$tmp/my"; rm -rf "$tmp"' EXIT
port=$(scripts/mariadb.sh start "$tmp/my") || { echo "cannot start MariaDB"; exit 1; }
mariadb --no-defaults --default-character-set=utf8mb4 -h 127.0.0.1 -P "$port" -u root <<'SQL' || exit 1
CREATE DATABASE shop;
USE shop;
CREATE TABLE quotes (id BIGINT PRIMARY KEY, sym VARCHAR(8), ts DATETIME(6), at TIMESTAMP NULL, price DECIMAL(10,2),
  live BOOL, day DATE, t TIME, px DOUBLE, n INT UNSIGNED, note TEXT, c CHAR(3), l VARCHAR(10) CHARACTER SET latin1);
INSERT INTO quotes VALUES
  (1, 'ACME', '2026-01-02 09:00:00', '2026-01-02 09:00:00', 10.00, TRUE, '2026-01-02', '09:00:00', 0.1e0 + 0.2e0, 4294967295, 'a''b', 'ab ', 'café'),
  (3, 'acme', '2026-01-02 09:05:00.5', NULL, 10.25, FALSE, NULL, NULL, 1e300, NULL, NULL, NULL, NULL),
  (2, 'A ', '2026-01-02 09:05:00', '2026-01-02 09:05:00', -0.5, NULL, '1969-12-31', '23:59:59.5', -2.5e-7, 0, '', 'x', 'x');
CREATE TABLE trades (id INT PRIMARY KEY, sym VARCHAR(8), ts DATETIME, qty SMALLINT);
INSERT INTO trades VALUES (1, 'ACME', '2026-01-02 09:03:00', 100), (2, 'acme', '2026-01-02 09:07:00', 50),
  (3, 'INIT', '2026-01-02 09:12:00', 75), (4, 'A', '2026-01-02 09:06:00', 5);
CREATE TABLE keys_ (k VARCHAR(4), n INT);
INSERT INTO keys_ VALUES ('b', 1), ('A', 2), ('a ', 3), ('a', 4), (NULL, 5), ('a', 6), ('B', 7);
CREATE TABLE `we;ird"name` (`col--x` INT, `sel ect` TEXT);
INSERT INTO `we;ird"name` VALUES (1, 'a''b'), (2, 'DROP TABLE quotes; --'), (3, '?1 $1');
CREATE TABLE big (id INT PRIMARY KEY, u BIGINT UNSIGNED);
INSERT INTO big VALUES (1, 9223372036854775807), (2, 9223372036854775808);
CREATE TABLE blobs (id INT PRIMARY KEY, b BLOB);
CREATE TABLE stays (id INT PRIMARY KEY, room INT, s INT, e INT);
INSERT INTO stays VALUES (1, 101, 1, 5), (2, 101, 8, 10), (3, 102, 3, 7);
CREATE TABLE asks (id INT PRIMARY KEY, room INT, s INT, e INT);
INSERT INTO asks VALUES (1, 101, 4, 9), (2, 102, 1, 3), (3, 102, 10, 12);
CREATE TABLE zero (id INT PRIMARY KEY, d DATE);
SET SESSION sql_mode = '';
INSERT INTO zero VALUES (1, '2026-01-01'), (2, '0000-00-00');
DELIMITER //
CREATE FUNCTION boom() RETURNS INT DETERMINISTIC BEGIN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'boom from the server'; RETURN 1; END//
DELIMITER ;
CREATE VIEW bad AS SELECT id, boom() AS x FROM trades;
SQL
export MYSQL_PWD=s3cr3t-do-not-print
uri="mysql://root@127.0.0.1:$port/shop"
run() { "$RELIX" "$@" 2>&1; echo "exit $?"; }
all=$(
run -e "M := connect('$uri'); query { M.quotes }; query { M.\"we;ird\"\"name\" }; query { M.keys_ };"
# the socket form
run -e "M := connect('mariadb:///shop?socket=$tmp/my/sock'); query { π id, sym (M.trades) };"
# pushdown beyond the spec (PUSH-SQL-003); each query prints the same bytes with --no-pushdown
q() {
  "$RELIX" --explain -e "M := connect('$uri'); query { $1 };" 2>&1
  a=$("$RELIX" -e "M := connect('$uri'); query { $1 };" 2>&1)
  b=$("$RELIX" --no-pushdown -e "M := connect('$uri'); query { $1 };" 2>&1)
  [ "$a" = "$b" ] && echo "(the engine prints the same)" || printf 'THE ENGINE DIFFERS:\n%s\n' "$b"
  echo
}
q "σ k = 'a' (M.keys_)"
q "δ (π k (M.keys_))"
q "γ k; count(*) → n, min(n) → lo (M.keys_)"
q "τ k DESC, n (M.keys_)"
q "TOP 2 BY n DESC (σ k ≠ 'b' (M.keys_))"
q "π T.id, Q.id → qid, Q.price (σ T.qty > 10 (M.trades T) ⨝ T.sym = Q.sym σ Q.px < 1 (M.quotes Q))"
q "π T.id, Q.id → qid (M.trades T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts M.quotes Q)"
q "π T.id, Q.id → qid (M.trades T ASOF INNER T.ts < Q.ts TIES(FIRST) M.quotes Q)"
q "π A.id, S.id → sid (σ A.room = S.room (M.asks A IJOIN INTERSECTS (A.s, A.e, S.s, S.e) M.stays S))"
q "π A.id, S.id → sid (M.asks A IJOIN PRECEDES (A.s, A.e, S.s, S.e) M.stays S)"
q "σ \"sel ect\" = 'a''b' ∨ \"sel ect\" = '?1 \$1' (M.\"we;ird\"\"name\")"
q "σ ts >= TIMESTAMP '2026-01-02T09:05:00Z' ∧ day ≠ DATE '2026-01-02' (M.quotes)"
# what MariaDB lacks stays in the engine: LATERAL (forced, the sorted pass instead), FULL JOIN
"$RELIX" --pushdown lateral --explain -e "M := connect('$uri'); query { π T.id, Q.id → qid (M.trades T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts M.quotes Q) };" 2>&1 | grep PUSH-SQL
q "π T.id, Q.id → qid (M.trades T ⟗ T.sym = Q.sym M.quotes Q)"
run -e "M := connect('$uri'); query { M.big };"
run -e "M := connect('$uri'); query { M.blobs };"
run -e "M := connect('$uri'); query { M.zero };"
run -e "M := connect('$uri'); query { π x (M.bad) };"
run -e "M := connect('$uri'); query { M.missing };"
run -e "M := connect('mysql://root:hunter2@127.0.0.1:$port/shop'); query { M.quotes };"
run -e "M := connect('mysql://root@127.0.0.1:$port/shop?password=hunter2'); query { M.quotes };"
run -e "M := connect('mysql://root@127.0.0.1:$port/shop?ssl=1'); query { M.quotes };"
run -e "M := connect('mysql://root@127.0.0.1:1/shop'); query { M.quotes };"
)
printf '%s\n' "$all" | sed "s/127\.0\.0\.1:$port/127.0.0.1:PORT/g; s|$tmp|TMP|g"
if printf '%s' "$all" | grep -q "s3cr3t\|hunter2"; then echo "A PASSWORD WAS PRINTED"; else echo "no password appears"; fi
