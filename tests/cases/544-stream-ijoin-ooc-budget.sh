# An interval join of two 1M-row files in random order under --memory-limit 64M: not sorted,
# so the out-of-core join (ooc.c) partitions them to temporary files and the query streams:
# the same count and `into csv(...)` file as a run in memory without a limit, and no
# temporary file left in --temp-dir. (The optimized build.)
[ -x build/relix ] || make -s all >/dev/null
relix=$PWD/build/relix
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir spill
awk 'BEGIN { print "id,s,e"; for (i = 0; i < 1000000; i++) { s = (i * 7919) % 1000000007;
  printf "%d,%d,%d\n", i, s, s + 1 + (i * 37) % 300 } }' > left.csv
awk 'BEGIN { print "id,s,e"; for (i = 0; i < 1000000; i++) { s = (i * 104729) % 1000000009;
  printf "%d,%d,%d\n", i, s, s + 1 + (i * 53) % 300 } }' > right.csv
cat > q.rx <<'RX'
L := csv('left.csv'); R := csv('right.csv');
query { γ count(*) → n (L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) R) };
query { L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) R } into csv('out.csv');
RX
TMPDIR=$tmp/spill "$relix" --memory-limit 64M --format csv q.rx > limited.txt; echo "streamed: exit $?"
mv out.csv limited.csv
"$relix" --memory-limit 0 --no-stream --format csv q.rx > unlimited.txt; echo "in memory: exit $?"
cmp limited.txt unlimited.txt && echo "counts identical"
cmp limited.csv out.csv && echo "into files identical"
ls -A spill | wc -l
