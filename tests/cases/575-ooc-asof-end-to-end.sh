# The out-of-core AS-OF from the command line: two 2M-row tick files in random order under
# --memory-limit 64M partition to --temp-dir and give exactly the in-memory run's file; a
# temporary directory that fills (RLIMIT_FSIZE, SIGXFSZ ignored by relix) is a clear error
# that leaves neither the output nor a temporary behind; Ctrl-C while spilling leaves nothing
# either. (The optimized build.)
[ -x build/relix ] || make -s all >/dev/null
relix=$PWD/build/relix
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir spill
awk 'BEGIN { print "sym,ts,qty"; for (i = 0; i < 2000000; i++) { t = (i * 7919) % 1000003;
  printf "S%03d,%d,%d\n", (i * 31) % 500, t, i % 97 } }' > trades.csv
awk 'BEGIN { print "sym,ts,bid"; for (i = 0; i < 2000000; i++) { t = (i * 104729) % 1000033;
  printf "S%03d,%d,%d\n", (i * 17) % 500, t, i % 89 } }' > quotes.csv
cat > q.rx <<'RX'
T := csv('trades.csv'); Q := csv('quotes.csv');
query { T ASOF (T.sym = Q.sym ∧ T.ts >= Q.ts) Q } into csv('out.csv');
RX
"$relix" --memory-limit 64M --temp-dir spill --timing q.rx 2> limited.err; echo "limited: exit $?"
grep -c "streamed" limited.err
mv out.csv limited.csv
"$relix" --memory-limit 0 --no-stream q.rx; echo "in memory: exit $?"
cmp limited.csv out.csv && echo "into files identical ($(wc -l < out.csv) lines)"
echo "left in spill: $(ls -A spill | wc -l)"
rm -f out.csv

# a temporary directory that fills: files may not grow past 1 MB
(ulimit -f 2048; "$relix" --memory-limit 64M --temp-dir spill q.rx) 2> full.err; echo "full: exit $?"
sed -E 's/relix-[A-Za-z0-9]+/relix-XXXXXX/; s/[0-9.]+ [kMG]?B/N/g' full.err
[ -e out.csv ] && echo "out.csv exists" || echo "no out.csv"
echo "left in spill: $(ls -A spill | wc -l)"

# Ctrl-C while the join spills
"$relix" --memory-limit 64M --temp-dir spill q.rx 2> int.err &
pid=$!
for i in $(seq 1 200); do [ -n "$(ls -A spill)" ] && break; sleep 0.02; done
kill -INT $pid; wait $pid; echo "interrupted: exit $?"
[ -e out.csv ] && echo "out.csv exists" || echo "no out.csv"
echo "left in spill: $(ls -A spill | wc -l)"
