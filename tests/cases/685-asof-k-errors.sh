# ASOF k and TIES(ALL): their errors, each naming its token (k out of range, k given twice,
# a TIES word that is none of FIRST, LAST, ALL), the rank column's name when the inputs have a
# rank already, and EXPLAIN's label.
relix=$PWD/$RELIX
T='T := [
| sym | ts | rank |
|-----|----|------|
| A   | 5  | 9    |
];
Q := [
| sym | ts |
|-----|----|
| A   | 4  |
| A   | 6  |
];'
run() { "$relix" -e "$T $1"; echo "exit $?"; }
run 'query { T ASOF 0 T.ts >= Q.ts Q };'
run 'query { T ASOF 2000000 T.ts >= Q.ts Q };'
run 'query { T ASOF 2 NEAREST 3 T.ts >= Q.ts Q };'
run 'query { T ASOF 2 T.ts >= Q.ts TIES(SOME) Q };'
run 'query { T ASOF 2 T.ts >= Q.ts TIES ALL Q };'
run 'query { T ASOF 2 NEAREST T.ts >= Q.ts Q };'
run 'query { T ASOF T.ts <= Q.ts TIES(ALL) Q };'
"$relix" --explain -e "$T"' query { T ASOF 3 NEAREST INNER T.sym = Q.sym ∧ T.ts < Q.ts TIES(ALL) Q };' | grep AsOfJoin
