# Determinism: the same script on the same data prints the same bytes every run. The inputs are
# large enough that the two-thread paths run (kernel phases from 64K rows, gathers from 1M
# output rows); each parallel phase writes its own part of the output, so runs agree byte for
# byte, and agree with the single-threaded paths the small golden cases take.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import random, sys
d = sys.argv[1]
rng = random.Random(11)
for side in ("l", "r"):
    with open(f"{d}/{side}.csv", "w") as f:
        f.write("id,sym,s,e\n")
        for i in range(300000):
            s = rng.randrange(0, 3000000)
            f.write(f"{i},S{rng.randrange(200):03d},{s},{s + rng.randrange(1, 40)}\n")
PY
script="L := csv('$tmp/l.csv'); R := csv('$tmp/r.csv');
query { L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) R };
query { L ASOF L.sym = R.sym ∧ L.s >= R.s R };
query { L ⨝ L.sym = R.sym ∧ L.s = R.e R };
query { γ sym; count(*) → n, sum(e - s) → len (L) };"
for run in 1 2 3; do
  "$RELIX" --format csv -e "$script" | python3 -c "
import hashlib, sys
data = sys.stdin.buffer.read()
blocks = data.split(b'\n\n')
print(len(data), [b.count(b'\n') for b in blocks], hashlib.sha256(data).hexdigest()[:16])"
done | sort | uniq -c | sed 's/^ *//'
