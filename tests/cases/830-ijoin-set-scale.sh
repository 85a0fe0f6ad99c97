# A set of relations over inputs large enough that a scan of the set's bounding box would be
# quadratic: INTERSECTS bounds a right row's start only from above, so (INTERSECTS | MEETS |
# MET_BY)'s box holds every right row starting before the left row's end. 200,000 x 200,000
# short intervals; the join runs under a CPU-time limit of 20 s, which a quadratic scan (about
# 2e10 candidate tests) cannot meet, while the members, each run by its own kernel with the
# pairs an earlier member holds skipped, take well under a second. The pairs must be exactly
# the ones awk counts by a sweep of its own: every (b, s) with b.s <= s.e and s.s <= b.e.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk 'BEGIN { srand(830); print "id,s,e" > "'"$tmp"'/b.csv"; print "id,s,e" > "'"$tmp"'/r.csv";
  for (i = 0; i < 200000; i++) { s = int(rand() * 20000000); printf "%d,%d,%d\n", i, s, s + 1 + int(rand() * 100) > "'"$tmp"'/b.csv";
                                 s = int(rand() * 20000000); printf "%d,%d,%d\n", i, s, s + 1 + int(rand() * 100) > "'"$tmp"'/r.csv" } }'
(ulimit -t 20; "$RELIX" --count -e "B := csv('$tmp/b.csv'); S := csv('$tmp/r.csv');
  query { B IJOIN (INTERSECTS | MEETS | MET_BY) (B.s, B.e, S.s, S.e) S };")
echo "exit $?"
# the same pairs by brute force over a sorted sweep in Python (closed intervals touch or overlap)
/usr/bin/python3 - "$tmp" <<'PY'
import bisect, sys
d = sys.argv[1]
def load(p):
    return [tuple(map(int, l.split(","))) for l in open(p).read().split("\n")[1:] if l]
b, r = load(f"{d}/b.csv"), load(f"{d}/r.csv")
r.sort(key=lambda x: x[1])
starts = [x[1] for x in r]
n = 0
for _, s, e in b:
    # right rows with rs <= e (sorted by start); lengths are at most 101, so rs >= s - 101
    lo = bisect.bisect_left(starts, s - 101)
    hi = bisect.bisect_right(starts, e)
    n += sum(1 for k in range(lo, hi) if r[k][2] >= s)
print(f"({n} rows) by brute force")
PY
