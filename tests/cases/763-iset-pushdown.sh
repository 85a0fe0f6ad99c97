# The interval-set operators over database tables: none is pushed down (no exact SQL form that
# is not quadratic), but what is below them is, and the answer is the one the same data gives
# in memory.
set -u
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sqlite3 "$tmp/h.db" <<'SQL'
CREATE TABLE bookings (room TEXT, s INTEGER, e INTEGER, guest TEXT);
INSERT INTO bookings VALUES ('r1', 1, 3, 'ann'), ('r1', 3, 5, 'bob'), ('r1', 4, 6, 'cyd'), ('r1', 8, 9, 'dee'),
  ('r2', 2, 7, 'eve'), ('r2', 5, 5, 'fay'), ('r3', NULL, 4, 'gil');
CREATE TABLE closed (room TEXT, s INTEGER, e INTEGER);
INSERT INTO closed VALUES ('r1', 2, 4), ('r2', 6, 10);
SQL
cd "$tmp"
q="H := connect('sqlite:h.db');
query { PACK (s, e) BY room WITH count(*) → n (σ guest <> 'dee' (H.bookings)) };
query { GAPS (s, e) BY room WITHIN 0 TO 12 (H.bookings) };
query { H.bookings IMINUS (bookings.s, bookings.e, closed.s, closed.e) ON bookings.room = closed.room H.closed };
query { H.bookings IINTERSECT (bookings.s, bookings.e, closed.s, closed.e) ON bookings.room = closed.room (σ e > 5 (H.closed)) };
query { NORMALIZE (s, e) BY room (H.bookings) };"
"$RELIX" --explain -e "$q" | grep -v "^ *$" | grep -v "^Rewrites\|(none)"
echo "--- the same data in memory"
"$RELIX" -f csv -e "$q" > db.csv
sqlite3 -csv -header h.db "SELECT * FROM bookings" > b.csv
sqlite3 -csv -header h.db "SELECT * FROM closed" > c.csv
mem=$(printf '%s' "$q" | sed -e "s/H := connect('sqlite:h.db');/bookings := csv('b.csv'); closed := csv('c.csv');/" -e 's/H\.bookings/bookings/g' -e 's/H\.closed/closed/g')
"$RELIX" -f csv -e "$mem" > mem.csv
cmp -s db.csv mem.csv && echo "identical ($(wc -l < db.csv) lines)" || diff db.csv mem.csv
