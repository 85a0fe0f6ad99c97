# ASOF NEAREST's errors, each naming its token: a word given twice, a condition without an
# ordering comparison, WITHIN over text; and EXPLAIN's label of the rule for equal distances.
relix=$PWD/$RELIX
T='T := [
| sym | ts |
|-----|----|
| A   | 5  |
];
Q := [
| sym | ts |
|-----|----|
| A   | 4  |
];'
run() { "$relix" -e "$T $1"; echo "exit $?"; }
run 'query { T ASOF NEAREST NEAREST T.ts >= Q.ts Q };'
run 'query { T ASOF NEAREST INNER INNER T.ts >= Q.ts Q };'
run 'query { T ASOF NEAREST T.sym = Q.sym Q };'
run 'query { T ASOF NEAREST T.sym >= Q.sym WITHIN DURATION '"'PT1M'"' Q };'
"$relix" --explain -e "$T"' query { T ASOF NEAREST T.ts < Q.ts Q };' | grep AsOfJoin
"$relix" --explain -e "$T"' query { T ASOF NEAREST INNER T.ts >= Q.ts TIES(FIRST) Q };' | grep AsOfJoin
