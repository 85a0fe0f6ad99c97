# IJOIN-001: joins written with endpoint comparisons run as interval joins; EXPLAIN names the
# rewrite and the plan shows the IntervalJoin. Also the joins it leaves alone: a lone
# inequality (PRECEDES' shape, a large share of the product), two left-to-right
# comparisons of the same direction (no interval relation), an outer join whose condition keeps
# another comparison, endpoints that do not order alike. Every query prints the same rows with
# --no-optimize (the rewrite off).
relix=$PWD/$RELIX
T='B := [
| id | s  | e  | k | name |
|----|----|----|---|------|
| b1 | 1  | 5  | 1 | a    |
| b2 | 6  | 8  | 2 | b    |
| b3 | 10 | 12 | 1 | c    |
| b4 | NULL | 3 | 1 | d   |
];
S := [
| sid | s | e  | k | name |
|-----|---|----|---|------|
| x   | 4 | 7  | 1 | a    |
| y   | 7 | 9  | 2 | z    |
];'
for q in 'σ B.s < S.e ∧ S.s < B.e (B × S)' \
         'B ⨝ S.s < B.e ∧ B.k = S.k ∧ B.s < S.e ∧ S.sid <> B.id S' \
         'B ⟕ B.s < S.e ∧ S.s < B.e S' \
         'B ⋉ B.s < S.e ∧ B.k = S.k ∧ B.e > S.s S' \
         'B ▷ B.s < S.e ∧ B.e > S.s S' \
         'σ B.s < S.s ∧ B.e > S.s ∧ B.e < S.e (B × S)' \
         'σ S.s > B.s ∧ S.s < B.e ∧ S.e < B.e (B × S)' \
         'B ⨝ B.s <= S.s ∧ B.e >= S.e S' \
         'B ⨝ S.s > B.e S' \
         'B ⨝ B.s < S.s ∧ B.e < S.e S' \
         'B ⟕ B.s < S.e ∧ S.s < B.e ∧ B.name = S.name ∧ B.id <> S.sid S' \
         'B ⨝ B.s < S.e ∧ S.name < B.name S'; do
  echo "== $q"
  "$relix" --explain -e "$T query { $q };" > out.txt 2>&1
  grep -E 'IJOIN-001|IntervalJoin|HashJoin|NestedLoopJoin' out.txt | sed 's/  ~.*//'
  "$relix" -e "$T query { $q };" > on.txt 2>&1
  "$relix" --no-optimize -e "$T query { $q };" > off.txt 2>&1
  cmp -s on.txt off.txt && echo "same rows with --no-optimize" || diff on.txt off.txt
  rm -f out.txt on.txt off.txt
done
