# A join over unsorted files goes out of core only under a limit its inputs held whole would
# not fit: without a limit the two 1M-row files (14 MB each) are joined in memory; under 100M
# they are read by blocks (above an eighth of the limit) and the join spills, with the same
# rows; under 40M too little is left beside the blocks for the join to make progress, which is
# the limit's error, leaving no file. (The optimized build.)
[ -x build/relix ] || make -s all >/dev/null
relix=$PWD/build/relix
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
awk 'BEGIN { print "sym,ts,qty"; for (i = 0; i < 1000000; i++) { t = (i * 7919) % 1000003;
  printf "S%03d,%d,%d\n", (i * 31) % 500, t, i % 97 } }' > trades.csv
awk 'BEGIN { print "sym,ts,bid"; for (i = 0; i < 1000000; i++) { t = (i * 104729) % 1000033;
  printf "S%03d,%d,%d\n", (i * 17) % 500, t, i % 89 } }' > quotes.csv
cat > q.rx <<'RX'
T := csv('trades.csv'); Q := csv('quotes.csv');
query { T ASOF (T.sym = Q.sym ∧ T.ts >= Q.ts) Q } into csv('out.csv');
RX
"$relix" --memory-limit none q.rx; mv out.csv want.csv
for lim in none 100M 40M; do
  "$relix" --memory-limit $lim --timing q.rx 2> err; echo "--memory-limit $lim: exit $?"
  grep -q ", streamed" err && echo "  out of core" || echo "  in memory"
  cmp -s out.csv want.csv && echo "  the unlimited run's rows"
  [ -e out.csv ] || echo "  no out.csv"
  rm -f out.csv
done
