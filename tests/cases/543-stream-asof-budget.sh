# A sorted AS-OF join of a 2M-row trades file with a 1M-row quotes file under --memory-limit
# 64M: both files are too large to hold, both are found sorted by ts while they are checked,
# so the join runs in one pass (stream_join.c) and the query streams: the same count and the
# same `into csv(...)` file as a run in memory without a limit. (The optimized build.)
[ -x build/relix ] || make -s all >/dev/null
relix=$PWD/build/relix
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
awk 'BEGIN { print "sym,ts,qty"; for (i = 0; i < 2000000; i++) { t = i * 10;
  printf "S%04d,2026-01-02T%02d:%02d:%02d.%03dZ,%d\n", (i * 7) % 5000, int(t / 3600000),
    int(t / 60000) % 60, int(t / 1000) % 60, t % 1000, i % 100 } }' > trades.csv
awk 'BEGIN { print "sym,ts,bid"; for (i = 0; i < 1000000; i++) { t = i * 20 + 3;
  printf "S%04d,2026-01-02T%02d:%02d:%02d.%03dZ,%d.%02d\n", (i * 11) % 5000, int(t / 3600000),
    int(t / 60000) % 60, int(t / 1000) % 60, t % 1000, i % 1000, i % 100 } }' > quotes.csv
cat > q.rx <<'RX'
T := csv('trades.csv'); Q := csv('quotes.csv');
query { γ count(*) → n, count(bid) → matched (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) };
query { σ qty = 7 (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) } into csv('out.csv');
RX
"$relix" --memory-limit 64M --format csv q.rx > limited.txt; echo "streamed: exit $?"
mv out.csv limited.csv
"$relix" --memory-limit 0 --no-stream --format csv q.rx > unlimited.txt; echo "in memory: exit $?"
cmp limited.txt unlimited.txt && echo "counts identical"
cmp limited.csv out.csv && echo "into files identical"
"$relix" --memory-limit 64M --explain -e "T := csv('trades.csv'); Q := csv('quotes.csv');
query { γ count(*) → n (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) };" | grep -c "Stream:"
