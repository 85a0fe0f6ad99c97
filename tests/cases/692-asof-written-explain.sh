# ASOF-001 in EXPLAIN: the rewritten γ runs over an AsOfJoin and the log names the rewrite; with
# --no-optimize, or where the result would differ (a count of the pairs), the range join stays.
relix=$PWD/$RELIX
T='T := [
| id | sym | ts |
|----|-----|----|
| t1 | A   | 5  |
];
Q := [
| sym | ts |
|-----|----|
| A   | 4  |
];'
"$relix" --explain -e "$T query { γ T.id; max(Q.ts) → qts (T ⨝ T.sym = Q.sym ∧ T.ts >= Q.ts Q) };" | grep -v '^ *$'
"$relix" --explain --no-optimize -e "$T query { γ T.id; max(Q.ts) → qts (T ⨝ T.sym = Q.sym ∧ T.ts >= Q.ts Q) };" | grep -c 'ASOF-001\|AsOfJoin'
"$relix" --explain -e "$T query { γ T.id; max(Q.ts) → qts, count(*) → n (T ⨝ T.sym = Q.sym ∧ T.ts >= Q.ts Q) };" | grep -c 'ASOF-001\|AsOfJoin'
