# Every hash table of the engine (one index, src/base/hmap.h) on inputs large enough to make
# its tables grow, with keys that repeat and NULLs among them: the CSV loader's string
# dictionary, π's and δ's duplicate removal, ∩ and −, γ's group ids over two keys, the hash
# join's partition ids over a TEXT and an INT key, AS-OF by a TEXT key, the _r names of a
# product of one table with itself, and a CSV header's duplicate name. The figures were taken
# from the engine before the tables were merged into one index.
set -u
export LC_ALL=C.UTF-8
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
awk 'BEGIN { print "k,g,v,ts"; for (i = 0; i < 20000; i++) {
    k = (i * 7919) % 1501; key = k == 1500 ? "" : "k" k
    printf "%s,%d,%d,2026-01-01T%02d:%02d:%02dZ\n", key, i % 4, i, (i / 3600) % 24, (i / 60) % 60, i % 60 } }' > a.csv
awk 'BEGIN { print "k,g,w,ts"; for (i = 0; i < 15000; i++) {
    k = (i * 104729) % 2001; key = k == 2000 ? "" : "k" k
    printf "%s,%d,%d,2026-01-01T%02d:%02d:%02dZ\n", key, i % 3, i, (i / 3600) % 24, (i / 60) % 60, (i * 7) % 60 } }' > b.csv
printf 'a,b,c,d,b\n1,2,3,4,5\n' > dup.csv
cat > q.rx <<'RX'
A := csv('a.csv');
B := csv('b.csv');
T := [
| x | y |
|---|---|
| 1 | 2 |
];
query { γ count(*) → rows (π k, g (A)) };
query { γ count(*) → rows (δ (π k (A))) };
query { γ count(*) → rows ((π k, g (A)) ∩ (π k, g (B))) };
query { γ count(*) → rows ((π k, g (A)) − (π k, g (B))) };
query { γ count(*) → groups, sum(n) → rows, max(n) → biggest (γ k, g; count(*) → n (A)) };
query { γ count(*) → pairs, sum(v) → sv, sum(w) → sw (A ⨝ A.k = B.k ∧ A.g = B.g B) };
query { γ count(*) → pairs, sum(w) → sw (A ⨝ A.k = B.k B) };
query { γ count(*) → rows, count(w) → matched, sum(w) → sw (A ASOF A.k = B.k ∧ A.ts >= B.ts B) };
query { T × T × T };
RX
"$root/$RELIX" q.rx
echo "exit $?"
printf "D := csv('dup.csv');\nquery { D };\n" > d.rx
"$root/$RELIX" d.rx 2>&1 | sed 1q
