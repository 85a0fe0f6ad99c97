# Pushdown beyond the spec on SQLite (PUSH-SQL-003): subtrees of σ π δ ⨝ γ τ TOP IJOIN over one
# connection run as one statement that fetches only the columns read above, with literals as
# parameters; hostile table and column names and literals; text compared bytewise in a COLLATE
# NOCASE column; what stays in the engine (SQLite arithmetic, functions without an exact SQL
# equivalent, ASOF, two connections, an inline table); estimates from sqlite_stat1 or a count.
# Every query prints the same bytes with --no-pushdown.
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RELIX=$root/$RELIX
cd "$tmp"
sqlite3 shop.db <<'SQL'
CREATE TABLE stays(id INTEGER PRIMARY KEY, room INT, guest TEXT COLLATE NOCASE, s INT, e INT, price REAL, day DATE);
INSERT INTO stays VALUES (1, 101, 'ann', 1, 5, 99.5, '2026-03-01'), (2, 101, 'Ann', 4, 9, NULL, NULL),
  (3, 102, 'bob', 9, 9, 120, '2026-03-03'), (4, 102, 'Émile', 2, 7, 10, NULL), (5, 103, NULL, 3, 6, 10, '2026-03-02');
CREATE TABLE "we;ird""name"("col--x" INT, "sel ect" TEXT, "ünï" REAL);
INSERT INTO "we;ird""name" VALUES (1, 'a''b', 1.5), (2, 'DROP TABLE stays; --', 2.5), (2, '?1 $1 :x', NULL), (3, 'a''b', 1.5);
CREATE TABLE rooms(room INTEGER PRIMARY KEY, floor INT, name TEXT);
INSERT INTO rooms VALUES (101, 1, 'Lake'), (102, 1, 'Hill'), (104, 2, 'Attic');
SQL
sqlite3 other.db "CREATE TABLE rooms(room INTEGER PRIMARY KEY, floor INT); INSERT INTO rooms VALUES (101, 1), (102, 3);"
head="Shop := connect('sqlite:shop.db'); Other := connect('sqlite:other.db');
Cal := [
| day | note |
|---|---|
| 2026-03-01 | opening |
];"
# Prints the query's EXPLAIN output, then whether the engine alone prints the same bytes.
q() {
  "$RELIX" --explain -e "$head query { $1 };" 2>&1
  a=$("$RELIX" -e "$head query { $1 };" 2>&1) b=$("$RELIX" --no-pushdown -e "$head query { $1 };" 2>&1)
  [ "$a" = "$b" ] && echo "(the engine prints the same)" || printf 'THE ENGINE DIFFERS:\n%s\n' "$b"
  echo
}
q "σ \"sel ect\" = 'DROP TABLE stays; --' ∨ \"sel ect\" = 'a''b' ∨ \"sel ect\" = '?1 \$1 :x' (Shop.\"we;ird\"\"name\")"
q "π \"sel ect\", \"ünï\" → \"ü ;--\" (Shop.\"we;ird\"\"name\")"
q "σ guest = 'ann' (Shop.stays)"
q "γ room; count(*) → n, count(DISTINCT guest) → guests, min(guest) → first_guest, max(price) → top (Shop.stays)"
q "τ guest DESC NULLS LAST, price (Shop.stays)"
q "TOP 1 PER room BY price DESC (Shop.stays)"
q "π S.guest, R.name (σ R.floor = 1 (Shop.stays S ⨝ S.room = R.room Shop.rooms R))"
q "Shop.stays S ⟕ S.room = R.room ∧ R.floor > 1 Shop.rooms R"
q "Shop.rooms R ▷ R.room = S.room Shop.stays S"
q "π S.id, T.id → tid (σ S.price > 50 (Shop.stays S IJOIN OVERLAPS (S.s, S.e, T.s, T.e) Shop.stays T))"
# what stays in the engine
q "σ s + 1 > e (Shop.stays)"
q "π round(price, 1) → p (σ room = 101 (Shop.stays))"
q "σ room = 101 ∧ round(price, 1) > 50 (Shop.stays)"
q "σ day = DATE '2026-03-01' (Shop.stays)"
q "Shop.stays S ⨝ S.room = R.room Other.rooms R"
q "σ room = 101 (Shop.stays) × Cal"
q "π S.id, T.id → tid (σ S.room = 101 (Shop.stays S) ASOF S.s >= T.e Shop.stays T)"
# a query that reads no column of a database table still counts its rows in the engine
# (regression: the engine fetched nothing and counted 0)
"$RELIX" --no-pushdown -e "$head query { γ count(*) → n (Shop.stays) };"
# estimates: a count of the rows, or sqlite_stat1's once ANALYZE filled it (here made to say
# 5000 rows, 50 per room)
"$RELIX" --explain -e "$head query { γ room; count(*) → n (Shop.stays) };" | tail -n 1
sqlite3 shop.db "CREATE INDEX stays_room ON stays(room); ANALYZE; UPDATE sqlite_stat1 SET stat = '5000 50' WHERE tbl = 'stays';"
"$RELIX" --explain -e "$head query { γ room; count(*) → n (Shop.stays) };" | tail -n 1
