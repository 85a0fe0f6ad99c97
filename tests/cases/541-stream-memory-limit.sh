# Streaming under a memory limit (docs/memory.md): a 2M-row CSV file (about 74 MB) under
# --memory-limit 64M is too large to hold, so csv('...') checks it block by block and the
# queries that can stream do: σ, a count, and `into csv(...)`, with the results of a run
# without a limit. In memory (--no-stream) the same query stops with the limit's error, and
# leaves no `into` file. (The optimized build: a sanitizer build reserves too much address
# space to run under a limit.)
[ -x build/relix ] || make -s all >/dev/null
relix=$PWD/build/relix
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
awk 'BEGIN { print "sym,ts,qty,price,note";
  for (i = 0; i < 2000000; i++) { s = i % 86400;
    printf "S%04d,2026-01-02T%02d:%02d:%02dZ,%d,%d.%02d,%s\n", i % 5000, int(s / 3600),
      int(s % 3600 / 60), s % 60, i % 100, i % 1000, i % 100, (i % 7 ? "n" i % 11 : "\"q,\"\"x\"\"\"") } }' > big.csv
cat > q.rx <<'RX'
T := csv('big.csv');
query { γ count(*) → n, count(qty) → c (σ qty > 50 ∧ price < 500 (T)) };
query { σ qty = 7 ∧ price < 40 (T) } into csv('out.csv');
query { σ sym = 'S0042' ∧ ts < TIMESTAMP '2026-01-02T01:00:00Z' (T) };
RX
"$relix" --memory-limit 64M --format csv --timing q.rx > limited.txt 2> timing.txt; echo "streamed: exit $?"
grep -c "streamed" timing.txt
mv out.csv limited.csv
"$relix" --memory-limit 0 --no-stream --format csv q.rx > unlimited.txt; echo "in memory, no limit: exit $?"
cmp limited.txt unlimited.txt && echo "results identical"
cmp limited.csv out.csv && echo "into files identical"
wc -l < out.csv
cat limited.txt
rm out.csv
"$relix" --memory-limit 64M --no-stream q.rx > mem.txt 2>&1; echo "in memory under the limit: exit $?"
grep "error" mem.txt
ls out.csv 2>/dev/null || echo "no out.csv"
# a query that cannot stream (π removes duplicates) reads the file whole after all
"$relix" --memory-limit 0 --format csv -e "T := csv('big.csv'); query { π sym (σ qty = 3 ∧ price < 8 (T)) };"; echo "exit $?"
# Ctrl-C (SIGINT) once a streamed `into csv(...)` has begun writing: nothing is left behind
echo "T := csv('big.csv'); query { σ qty > 1 (T) } into csv('all.csv');" > i.rx
"$relix" --memory-limit 64M i.rx 2> /dev/null &
pid=$!
for _ in $(seq 400); do
  # the temporary the result is written to: a named one, or an unnamed O_TMPFILE ("dir/#N")
  ls -l /proc/$pid/fd 2> /dev/null | grep -q -e "$tmp/#" -e '/\.all\.csv\.' && break
  sleep 0.05
done
kill -INT $pid
wait $pid; echo "interrupted: exit $?"
ls -A | grep -c "all" || true
# a large result to standard output streams too, chunk after chunk (csv, jsonl, --count),
# byte for byte what the in-memory run prints
q="T := csv('big.csv'); query { σ qty > 10 (T) }; query { σ qty = 3 (T) };"
for f in csv jsonl; do
  "$relix" --memory-limit 64M --format $f -e "$q" > s.$f; echo "streamed $f: exit $?"
  "$relix" --memory-limit 0 --no-stream --format $f -e "$q" > m.$f
  cmp s.$f m.$f && echo "$f identical ($(wc -l < s.$f) lines)"
done
"$relix" --memory-limit 64M --count -e "$q"
