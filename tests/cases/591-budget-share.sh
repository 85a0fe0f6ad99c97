# Each operator's peak memory against the budget: under --memory-limit, EXPLAIN ANALYZE ends
# every operator's figures with its peak's share of the limit, "peak=4.9 MB (2% of 256 MiB)",
# and --timing adds the run's peak against the limit and every operator's peak, one line each
# in EXPLAIN order. Every share shown is checked against its peak and limit, and the AS-OF
# join's peak is at least the match array it must build (4 bytes per left row): the counter is
# exact, not sampled. Without --memory-limit the limit is 80% of the machine's memory (its
# MemTotal); with "none" no share is shown. Figures vary from run to run: they are masked to X
# after these checks.
set -u
export LC_ALL=C.UTF-8
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
awk 'BEGIN { print "sym,ts,qty"; for (i = 0; i < 200000; i++) printf "S%03d,%d,%d\n", i % 500, i * 5, i % 100 }' > trades.csv
awk 'BEGIN { print "sym,ts,bid"; for (i = 0; i < 200000; i++) printf "S%03d,%d,%d\n", (i * 7) % 500, i * 5 + 2, i % 1000 }' > quotes.csv
cat > m.rx <<'RX'
T := csv('trades.csv');
Q := csv('quotes.csv');
query { γ sym; count(*) → n, max(bid) → top (σ qty > 10 (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q)) };
RX

# Every "peak=P (S% of L)" in the input: S is P's share of L (to the rounding of both); prints
# what is wrong, and how many shares were checked.
shares_ok() {
  awk '
    function bytes(v, u) { return v * (u == "kB" ? 1e3 : u == "MB" ? 1e6 : u == "GB" ? 1e9 : 1) }
    function lim(v, u) { return v * (u == "KiB" ? 1024 : u == "MiB" ? 1048576 : u == "GiB" ? 1073741824 : u == "TiB" ? 1099511627776 : 1) }
    {
      line = $0
      while (match(line, /peak=[0-9.]+ [kMGT]?B \((<1|[0-9]+)% of [0-9.]+ [KMGT]?i?B\)/)) {
        f = substr(line, RSTART + 5, RLENGTH - 5); line = substr(line, RSTART + RLENGTH)
        gsub(/[()%]/, "", f); split(f, x, " ")   # P unit S "of" L unit
        share = 100 * bytes(x[1], x[2]) / lim(x[5], x[6])
        ok = x[3] == "<1" ? share < 1 : (share - x[3] <= 1.5 && x[3] - share <= 1.5)
        if (!ok) print "WRONG SHARE: " $0
        n++
      }
    }
    END { print n + 0 " shares checked" }'
}
mask() {
  sed -E 's/time=[0-9]+\.[0-9]{3} ms self=[0-9]+\.[0-9]{3} ms/time=X self=X/; s/peak=[0-9.]+ [kMGT]?B \((<1|[0-9]+)% of/peak=X (X% of/; s/^(memory: peak) [0-9.]+ [kMGT]?B \((<1|[0-9]+)% of/\1 X (X% of/; s/^(timing:).*/\1 .../'
}

echo "== --explain analyze --memory-limit 256M"
"$RELIX" --explain analyze --memory-limit 256M m.rx > out 2>&1
echo "exit $?"
shares_ok < out
awk '/^Physical plan$/ { on = 1 } on { print } on && /^$/ { exit }' out > plan
awk 'index($0, "AsOfJoin") { match($0, /peak=[0-9.]+ [kMGT]?B/); split(substr($0, RSTART + 5, RLENGTH - 5), p, " ")
       b = p[1] * (p[2] == "kB" ? 1e3 : p[2] == "MB" ? 1e6 : p[2] == "GB" ? 1e9 : 1)
       print (b >= 200000 * 4 ? "AsOfJoin peak: at least its match array" : "AsOfJoin PEAK BELOW ITS MATCH ARRAY: " $0) }' plan
mask < plan

echo "== --timing --memory-limit 256M"
"$RELIX" --timing --count --memory-limit 256M m.rx > out 2> err
echo "exit $? $(cat out)"
shares_ok < err
mask < err

echo "== --timing, the default limit"
"$RELIX" --timing --count m.rx > out 2> err
echo "exit $? $(cat out)"
# 80% of MemTotal, printed as rx_format_size prints it (GiB with one decimal, or whole)
want=$(awk '/^MemTotal:/ { b = $2 * 1024 * 0.8; v = b / 1073741824
                           if (b % 1073741824 == 0) printf "%d GiB", v; else printf "%.1f GiB", v }' /proc/meminfo)
grep -q "^memory: peak .* of $want); per operator:\$" err && echo "the default limit is 80% of MemTotal" ||
  echo "NOT 80% OF MEMTOTAL ($want): $(grep '^memory:' err)"
shares_ok < err

echo "== --timing --memory-limit none"
"$RELIX" --timing --count --memory-limit none m.rx > out 2> err
echo "exit $? $(cat out)"
sed -E 's/^(timing:).*/\1 .../; s/peak( |=)[0-9.]+ [kMGT]?B/peak\1X/' err
