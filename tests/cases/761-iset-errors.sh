# The interval-set operators' errors, each naming its token: endpoints of a type that has no
# points or of two types, an unknown column, a key that is an endpoint, a side mixed up, an ON
# condition that is not a conjunction of equalities, WITH and WITHIN on the wrong operator, a
# WITHIN bound of another type or NULL, a missing TO, too many endpoints, an aggregate that is
# not one; and EXPLAIN's labels.
relix=$PWD/$RELIX
T='B := [
| room | s | e | g   |
|------|---|---|-----|
| a    | 1 | 3 | ann |
];
O := [
| room | s | e |
|------|---|---|
| a    | 2 | 4 |
];'
run() { "$relix" -e "$T $1"; echo "exit $?"; }
run 'query { PACK (room, e) (B) };'
run 'query { PACK (s, g) (B) };'
run 'query { PACK (s, ee) BY room (B) };'
run 'query { PACK (s, s) (B) };'
run 'query { PACK (s, e) BY s (B) };'
run 'query { PACK (s, e) BY room, room (B) };'
run 'query { PACK (s, e) WITH g → x (B) };'
run 'query { PACK (s, e) WITH count(*) → s (B) };'
run 'query { PACK (s, e) WITHIN 0 TO 9 (B) };'
run 'query { GAPS (s, e) WITH count(*) → n (B) };'
run 'query { GAPS (s, e) WITHIN 0 (B) };'
run 'query { GAPS (s, e) WITHIN 0.5 TO 9 (B) };'
run 'query { GAPS (s, e) WITHIN NULL TO 9 (B) };'
run 'query { GAPS (s, e, g) (B) };'
run 'query { B IMINUS (B.s, B.e, O.s) O };'
run 'query { B IMINUS (O.s, B.e, O.s, O.e) O };'
run 'query { B IMINUS (B.s, B.e, O.s, O.e) ON B.room <> O.room O };'
run 'query { B IINTERSECT (B.s, B.e, O.s, O.e) ON B.room = O.s O };'
run 'query { B IINTERSECT (B.s, B.e, O.s, O.e) ON B.room = B.g O };'
run 'query { B NORMALIZE (B.s, B.e, O.s, O.room) O };'
run 'query { B IMINUS (B.s, B.e, O.s, O.e) ON B.zz = O.room O };'
"$relix" --explain -e "$T"' query { PACK (s, e) BY room WITH count(*) → n (B) };' | grep -A2 "^Physical"
"$relix" --explain -e "$T"' query { GAPS (s, e) BY room WITHIN 0 TO 9 (B) };' | grep -A2 "^Physical"
"$relix" --explain -e "$T"' query { NORMALIZE (s, e) (B) };' | grep -A2 "^Physical"
"$relix" --explain -e "$T"' query { B IMINUS (B.s, B.e, O.s, O.e) ON B.room = O.room O };' | grep -A3 "^Physical"
"$relix" --explain -e "$T"' query { B IINTERSECT (B.s, B.e, O.s, O.e) O };' | grep -A3 "^Physical"
"$relix" --explain -e "$T"' query { B NORMALIZE (B.s, B.e, O.s, O.e) ON B.room = O.room O };' | grep -A3 "^Physical"
run 'query { PACK (s, e) (π s, to_float(e) → e (B)) };'
run 'query { B IMINUS (B.s, B.e, s, e) (π to_float(s) → s, e (O)) };'
