# IJOIN over a set of relations, (R1 | R2 | ...): one pass that reports a pair matching several
# members once; the inner, LEFT, SEMI and ANTI forms against the ∪ of the members' joins; a set
# equal to one relation runs as it; the errors (a relation named twice, a word that is no
# relation, a stray '|'), each naming its token; EXPLAIN's label; and the SQL pushdown, which
# keeps the set in the engine with its reason and prints what the engine prints.
root=$PWD
relix=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
T='L := [
| id | s  | e  |
|----|----|----|
| a  | 1  | 5  |
| b  | 5  | 5  |
| c  | 9  | 12 |
| d  | 12 | 10 |
| e  | 3  | 8  |
| f  | 20 | 25 |
| g  | NULL | 4 |
];
R := [
| rid | s  | e  |
|-----|----|----|
| x   | 5  | 9  |
| y   | 12 | 20 |
| z   | 5  | 5  |
];'
run() { "$relix" -e "$T $1"; echo "exit $?"; }
# b = [5, 5) MEETS z = [5, 5) and is MET_BY it: one pair, not two
run 'query { π id, rid (L IJOIN (MEETS | MET_BY) (L.s, L.e, R.s, R.e) R) };'
run 'query { π id, rid (L IJOIN (PRECEDES | MEETS) (L.s, L.e, R.s, R.e) R) };'
run 'query { π id, rid (L IJOIN LEFT (OVERLAPS | DURING | STARTS) (L.s, L.e, R.s, R.e) R) };'
run 'query { π id (L IJOIN SEMI (PRECEDED_BY | MET_BY) (L.s, L.e, R.s, R.e) R) };'
run 'query { π id (L IJOIN ANTI (PRECEDED_BY | MET_BY) (L.s, L.e, R.s, R.e) R) };'
# the same rows as the ∪ of the members' joins (∪ removes duplicates, as the set reports once)
for set in 'MEETS | MET_BY' 'PRECEDES | MEETS' 'OVERLAPS | DURING | STARTS' 'INTERSECTS | PRECEDED_BY | EQUALS'; do
  union=$(echo "$set" | sed 's/ *| */\n/g' | sed 's/.*/(π id, rid (L IJOIN & (L.s, L.e, R.s, R.e) R))/' | paste -sd'#' | sed 's/#/ ∪ /g')
  "$relix" -e "$T query { τ id, rid (π id, rid (L IJOIN ($set) (L.s, L.e, R.s, R.e) R)) };" > set.txt
  "$relix" -e "$T query { τ id, rid ($union) };" > union.txt
  cmp -s set.txt union.txt && echo "($set): the rows of the union" || { echo "($set) differs"; diff set.txt union.txt; }
done
# a set equal to one relation runs as it
"$relix" --explain -e "$T query { L IJOIN (CONTAINS | STARTED_BY | FINISHED_BY | EQUALS) (L.s, L.e, R.s, R.e) R };" | grep IntervalJoin
"$relix" --explain -e "$T query { L IJOIN (MEETS) (L.s, L.e, R.s, R.e) R };" | grep IntervalJoin
"$relix" --explain -e "$T query { L IJOIN SEMI (STARTS | MEETS) (L.s, L.e, R.s, R.e) R };" | grep IntervalJoin
# errors
run 'query { L IJOIN (MEETS | PRECEDES | MEETS) (L.s, L.e, R.s, R.e) R };'
run 'query { L IJOIN (MEETS | BEFORE) (L.s, L.e, R.s, R.e) R };'
run 'query { L IJOIN (MEETS PRECEDES) (L.s, L.e, R.s, R.e) R };'
run 'query { L IJOIN (MEETS |) (L.s, L.e, R.s, R.e) R };'
run 'query { L IJOIN () (L.s, L.e, R.s, R.e) R };'
run 'query { L IJOIN (L.s, L.e, R.s, R.e) R };'
run 'query { π id | rid (L) };'
# pushdown: the set stays in the engine, with its reason
sqlite3 db.sqlite <<'SQL'
CREATE TABLE bookings(id TEXT, s INT, e INT);
INSERT INTO bookings VALUES ('a', 1, 5), ('b', 6, 8), ('c', 8, 9), ('d', NULL, 3);
CREATE TABLE stays(rid TEXT, s INT, e INT);
INSERT INTO stays VALUES ('x', 5, 7), ('y', 9, 10);
SQL
head="D := connect('sqlite:db.sqlite');"
q='D.bookings IJOIN (PRECEDES | MEETS) (bookings.s, bookings.e, stays.s, stays.e) D.stays'
"$relix" --explain -e "$head query { $q };" > pushed.txt 2>&1
grep -E 'PUSH-SQL|IntervalJoin|PushedSQL' pushed.txt | sed 's/  ~.*//'
sed -n '1,/^$/p' pushed.txt
"$relix" --no-pushdown -e "$head query { $q };" > engine.txt 2>&1
"$relix" -e "$head query { $q };" > plain.txt 2>&1
cmp -s plain.txt engine.txt && echo "same bytes without pushdown"
