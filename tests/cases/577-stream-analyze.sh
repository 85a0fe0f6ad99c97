# A query run chunk by chunk shows what each operator did, as an in-memory run does: EXPLAIN
# ANALYZE gives every operator of a streamed AS-OF join (sorted inputs, one pass) and of a
# streamed out-of-core interval join its rows, time and peak memory against the limit, and
# --timing lists each operator's peak. Rows must equal the in-memory run's; times and sizes
# vary with the machine and are masked after their shape is checked, and each operator's peak
# must lie within the run's.
set -u
export LC_ALL=C.UTF-8
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
awk 'BEGIN { print "sym,ts,qty"; for (i = 0; i < 150000; i++) printf "S%03d,%d,%d\n", i % 500, i * 5, i % 100 }' > trades.csv
awk 'BEGIN { print "sym,ts,bid"; for (i = 0; i < 150000; i++) printf "S%03d,%d,%d\n", (i * 7) % 500, i * 5 + 2, i % 1000 }' > quotes.csv
awk 'BEGIN { print "id,s,e"; for (i = 0; i < 60000; i++) { s = (i * 7919) % 1000000; printf "a%d,%d,%d\n", i, s, s + 1 + i % 300 } }' > iv.csv
cat > q.rx <<'RX'
T := csv('trades.csv');
Q := csv('quotes.csv');
A := csv('iv.csv');
query { γ count(*) → n, count(bid) → matched (σ qty < 50 (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q)) };
query { γ count(*) → pairs (A L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) A R) };
RX
mask() {
  sed -E 's/time=[0-9.]+ ms self=[0-9.]+ ms/time=T self=T/; s/peak=[0-9.]+ (B|kB|MB|GB) \(([0-9]+|<1)% of 64 MiB\)/peak=P (S% of 64 MiB)/; s/\(join [0-9.]+ s\)/(join T)/; s/(load|analyze|run) [0-9.]+ s/\1 T/g; s/peak [0-9.]+ (B|kB|MB|GB) \(([0-9]+|<1)% of 64 MiB\)/peak P (S% of 64 MiB)/'
}
echo "== streamed, EXPLAIN ANALYZE"
"$RELIX" --stream --memory-limit 64M --explain analyze q.rx > s.out 2>&1; echo "exit $?"
grep -c "never ran" s.out
grep -E "actual rows" s.out | mask
grep "Stream:" s.out
echo "== in memory: the same rows"
"$RELIX" --no-stream --memory-limit none --explain analyze q.rx > m.out 2>&1; echo "exit $?"
rows() { grep -E "actual rows" "$1" | sed -E 's/.*actual rows=([0-9]+).*/\1/' | tr '\n' ' '; echo; }
[ "$(rows s.out)" = "$(rows m.out)" ] && echo "rows agree: $(rows s.out)" || { echo "rows differ"; rows s.out; rows m.out; }
echo "== streamed, --timing"
"$RELIX" --stream --memory-limit 64M --timing q.rx > t.out 2>&1; echo "exit $?"
grep -E "^timing|^memory|peak=" t.out | mask
# every operator's peak (bytes) is at most the run's peak for its statement
awk '
  function bytes(v, u) { return v * (u == "kB" ? 1e3 : u == "MB" ? 1e6 : u == "GB" ? 1e9 : 1) }
  /^memory: peak/ { split($0, a, " "); run = bytes(a[3], a[4]); next }
  /peak=/ { match($0, /peak=[0-9.]+ [a-zA-Z]+/); split(substr($0, RSTART + 5, RLENGTH - 5), b, " ");
            if (bytes(b[1], b[2]) <= 0 || bytes(b[1], b[2]) > run * 1.001) bad++; n++ }
  END { printf "%d operator peaks, %d outside (0, run peak]\n", n, bad + 0 }' t.out
