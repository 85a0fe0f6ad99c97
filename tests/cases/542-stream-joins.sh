# Streaming joins (docs/memory.md): AS-OF and interval joins over CSV files, sorted by time
# (the one-pass joins of stream_join.c) and in random order (the out-of-core joins of ooc.c),
# run with --stream and with --no-stream: the same output, byte for byte, for σ over the join,
# a count, and an `into csv(...)` file. A join without a streaming form runs in memory either
# way, so this holds whichever forms exist.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
awk 'BEGIN { print "sym,ts,qty"; for (i = 0; i < 3000; i++)
  printf "S%d,2026-01-02T09:%02d:%02d.%03dZ,%d\n", i % 7, int(i / 60) % 60, i % 60, i % 1000, i % 13 }' > trades.csv
awk 'BEGIN { print "sym,ts,bid"; for (i = 0; i < 2000; i++)
  printf "S%d,2026-01-02T09:%02d:%02d.%03dZ,%d.5\n", i % 5, int(i * 1.5 / 60) % 60, int(i * 1.5) % 60, (i * 7) % 1000, i % 17 }' > quotes.csv
# the same rows in another order (not sorted by anything)
{ head -n 1 trades.csv; tail -n +2 trades.csv | awk '{ print (NR * 7919) % 3001 "\t" $0 }' | sort -n | cut -f 2; } > trades_r.csv
{ head -n 1 quotes.csv; tail -n +2 quotes.csv | awk '{ print (NR * 7919) % 2003 "\t" $0 }' | sort -n | cut -f 2; } > quotes_r.csv
awk 'BEGIN { print "id,s,e"; for (i = 0; i < 2000; i++) printf "%d,%d,%d\n", i, i * 50, i * 50 + (i * 37) % 300 }' > left.csv
awk 'BEGIN { print "id,s,e"; for (i = 0; i < 1500; i++) printf "%d,%d,%d\n", i, i * 66, i * 66 + (i * 53) % 200 }' > right.csv
{ head -n 1 left.csv; tail -n +2 left.csv | awk '{ print (NR * 7919) % 2003 "\t" $0 }' | sort -n | cut -f 2; } > left_r.csv
cat > q.rx <<'RX'
T := csv('trades.csv'); Q := csv('quotes.csv');
TR := csv('trades_r.csv'); QR := csv('quotes_r.csv');
L := csv('left.csv'); R := csv('right.csv'); LR := csv('left_r.csv');
query { γ count(*) → n, count(bid) → matched (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) };
query { σ qty = 3 (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) };
query { σ qty = 3 (TR ASOF TR.sym = QR.sym ∧ TR.ts >= QR.ts QR) };
query { γ count(*) → n (TR ASOF INNER TR.sym = QR.sym ∧ TR.ts >= QR.ts QR) };
query { γ count(*) → n (L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) R) };
query { γ count(*) → n (LR IJOIN INTERSECTS (LR.s, LR.e, R.s, R.e) R) };
query { σ L.id < 40 (L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) R) };
query { T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q } into csv('asof.csv');
query { LR IJOIN INTERSECTS (LR.s, LR.e, R.s, R.e) R } into csv('ijoin.csv');
RX
for mode in no-stream stream; do
  mkdir -p $mode
  "$RELIX" --$mode --format csv q.rx > $mode/stdout 2>&1; echo "exit $?" >> $mode/stdout
  mv asof.csv ijoin.csv $mode/
done
for f in stdout asof.csv ijoin.csv; do
  cmp -s no-stream/$f stream/$f && echo "$f: identical" || { echo "$f differs:"; diff no-stream/$f stream/$f | head -n 20; }
done
wc -l < stream/asof.csv
wc -l < stream/ijoin.csv
wc -l < stream/stdout
head -n 12 stream/stdout
