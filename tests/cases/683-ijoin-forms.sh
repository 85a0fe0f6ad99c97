# IJOIN LEFT, SEMI, ANTI and AT: their errors (each naming its token), EXPLAIN's labels, and
# the SQL pushdown on SQLite (LEFT as LEFT JOIN … ON, SEMI and ANTI as [NOT] EXISTS; AT stays in
# the engine), each printing the same bytes as the engine alone (--no-pushdown).
root=$PWD
relix=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
T='L := [
| id | s | e  | t  |
|----|---|----|----|
| a  | 1 | 5  | 4  |
| b  | 6 | 8  | 8  |
| c  | 9 | 9  | 30 |
];
R := [
| rid | s | e  | txt |
|-----|---|----|-----|
| x   | 4 | 7  | q   |
| y   | 8 | 10 | r   |
];'
run() { "$relix" -e "$T $1"; echo "exit $?"; }
run 'query { L IJOIN LEFT (L.s, L.e, R.s, R.e) R };'
run 'query { L IJOIN OUTER INTERSECTS (L.s, L.e, R.s, R.e) R };'
run 'query { L IJOIN AT (L.t, L.e, R.s, R.e) R };'
run 'query { L IJOIN AT (R.s, R.s, R.e) R };'
run 'query { L IJOIN SEMI AT (L.t, R.txt, R.e) R };'
run 'query { L IJOIN AT L.t, R.s, R.e R };'
run 'query { π rid (L IJOIN SEMI INTERSECTS (L.s, L.e, R.s, R.e) R) };'
for q in 'L IJOIN LEFT INTERSECTS (L.s, L.e, R.s, R.e) R' 'L IJOIN SEMI MEETS (L.s, L.e, R.s, R.e) R' \
         'L IJOIN ANTI AT (L.t, R.s, R.e) R' 'σ rid = NULL ∨ L.s > 1 (L IJOIN LEFT AT (L.t, R.s, R.e) R)'; do
  "$relix" --explain -e "$T query { $q };" | grep -E 'IntervalJoin|Select|PUSH'
done
# pushdown
sqlite3 db.sqlite <<'SQL'
CREATE TABLE bookings(id TEXT, s INT, e INT, t INT);
INSERT INTO bookings VALUES ('a', 1, 5, 4), ('b', 6, 8, 8), ('c', 9, 9, 30), ('d', NULL, 3, 1), ('e', 2, 9, 7);
CREATE TABLE stays(rid TEXT, s INT, e INT);
INSERT INTO stays VALUES ('x', 4, 7), ('y', 8, 10), ('z', 7, 7);
SQL
head="D := connect('sqlite:db.sqlite');"
for q in 'D.bookings IJOIN LEFT INTERSECTS (bookings.s, bookings.e, stays.s, stays.e) D.stays' \
         'D.bookings IJOIN SEMI OVERLAPS (bookings.s, bookings.e, stays.s, stays.e) D.stays' \
         'D.bookings IJOIN ANTI INTERSECTS (bookings.s, bookings.e, stays.s, stays.e) D.stays' \
         'D.bookings IJOIN LEFT AT (bookings.t, stays.s, stays.e) D.stays'; do
  echo "== $q"
  "$relix" --explain -e "$head query { $q };" > pushed.txt 2>&1
  grep -E 'PushedSQL|IntervalJoin' pushed.txt | sed 's/  ~.*//'
  sed -n '1,/^$/p' pushed.txt
  "$relix" --no-pushdown -e "$head query { $q };" > engine.txt 2>&1
  "$relix" -e "$head query { $q };" > plain.txt 2>&1
  cmp -s plain.txt engine.txt && echo "same bytes without pushdown"
done
