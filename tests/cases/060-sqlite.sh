# SQLite connections: tables as relations (schemas from the catalog, every type mapped), hostile
# names, pushdown of IJOIN to one JOIN (EXPLAIN shows the SQL), the AS-OF fallback, errors, and
# the randomized pushdown-versus-engine differential test.
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RELIX=$root/$RELIX
cd "$tmp"
sqlite3 shop.db <<'SQL'
CREATE TABLE stays(id INTEGER PRIMARY KEY, room INT, checkin TIMESTAMP, checkout TIMESTAMP, s INT, e INT, price REAL, ok BOOLEAN, day DATE);
INSERT INTO stays VALUES (2, 101, '2026-03-01T14:00:00Z', '2026-03-05T11:00:00Z', 1, 5, 99.5, 1, '2026-03-01');
INSERT INTO stays VALUES (1, 101, '2026-03-04 14:00:00', '2026-03-09T11:00:00+01:00', 4, 9, NULL, 0, NULL);
INSERT INTO stays VALUES (3, 102, NULL, '2026-03-07T11:00:00Z', 9, 9, 120, NULL, '2026-03-03');
CREATE TABLE "we;ird""name"("col--x" INT, "sel ect" TEXT);
INSERT INTO "we;ird""name" VALUES (1, 'a''b'), (2, 'DROP TABLE stays; --');
CREATE TABLE bad(t TIMESTAMP);
INSERT INTO bad VALUES ('yesterday');
SQL
run() { "$RELIX" "$@" 2>&1; echo "exit $?"; }
run -e "Shop := connect('sqlite:shop.db'); query { Shop.stays };"
run -e "Shop := connect('sqlite:shop.db'); query { Shop.\"we;ird\"\"name\" };"
run --explain -e "Shop := connect('sqlite:shop.db');
query { σ S.room = T.room (Shop.stays S IJOIN OVERLAPS (S.s, S.e, T.s, T.e) Shop.stays T) };"
run --explain -e "Shop := connect('sqlite:shop.db');
query { π S.id, T.id → tid (Shop.stays S IJOIN INTERSECTS (S.checkin, S.checkout, T.checkin, T.checkout) Shop.stays T) };"
run --explain -e "Shop := connect('sqlite:shop.db'); query { π S.id, T.id → tid (Shop.stays S ASOF S.s >= T.e Shop.stays T) };"
run -e "Shop := connect('sqlite:shop.db'); query { Shop.nope };"
run -e "Shop := connect('sqlite:shop.db'); query { Shop.bad };"
run -e "Shop := connect('sqlite:missing.db'); query { Shop.stays };"
run -e "Shop := connect('mysql://x'); query { Shop.stays };"
run -e "Shop := connect('mysql://x?user=a'); query { Shop.stays };"
run -e "Shop := connect('host=/nonexistent-dir dbname=d connect_timeout=2'); query { Shop.stays };"
run -e "Shop := connect('sqlite:shop.db'); query { Shop };"
python3 "$root/tests/diff/pushdown.py" "$RELIX" "$tmp/diff.db" "" 30 40 | tail -n 4
