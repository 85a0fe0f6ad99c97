# The memory limit stops only what does not fit, and says where: over generated files, an
# interval join and an AS-OF join that need more than --memory-limit stop with an error that
# names the operator as EXPLAIN does, points at it in the script, and says the limit, what the
# operator held and asked for, and how to raise the limit (exit 1); a selection and a count
# over the same files run under the same limit; with the limit raised, 0 or "none" the joins
# finish with the rows of an unlimited run. The figures in the message vary with the machine
# (threads): they are masked to N after their shape is checked. Sizes: K/M/G/T, a share of the
# machine's memory ("50%"), "none"; anything else is a usage error (exit 2).
set -u
export LC_ALL=C.UTF-8
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
awk 'BEGIN { print "id,s,e"; for (i = 0; i < 100000; i++) { s = (i * 7919) % 1000000; printf "a%d,%d,%d\n", i, s, s + 1 + i % 300 } }' > iv.csv
awk 'BEGIN { print "sym,ts,qty"; for (i = 0; i < 200000; i++) printf "S%03d,%d,%d\n", i % 500, i * 5, i % 100 }' > trades.csv
awk 'BEGIN { print "sym,ts,bid"; for (i = 0; i < 200000; i++) printf "S%03d,%d,%d\n", (i * 7) % 500, i * 5 + 2, i % 1000 }' > quotes.csv
cat > ij.rx <<'RX'
A := csv('iv.csv');
query {
  A L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) A R
};
RX
cat > asof.rx <<'RX'
T := csv('trades.csv');
Q := csv('quotes.csv');
query { T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q };
RX
cat > fits.rx <<'RX'
A := csv('iv.csv');
query { γ count(*) → n, max(e) → last (σ s > 500000 (A)) };
RX

# the error's figures: what the run held at most and the allocation refused pass the limit
# together (each rounded to a tenth of its unit), and the operator held no more than the run
figures_ok() {
  awk '
    function bytes(v, u) { return v * (u == "kB" ? 1e3 : u == "MB" ? 1e6 : u == "GB" ? 1e9 : 1) }
    /memory limit of/ {
      match($0, /limit of [0-9]+ MiB/); split(substr($0, RSTART, RLENGTH), l, " "); lim = l[3] * 1048576
      match($0, /held [0-9.]+ [kMG]?B of its own/); split(substr($0, RSTART, RLENGTH), o, " ")
      match($0, /asked for [0-9.]+ [kMG]?B/); split(substr($0, RSTART, RLENGTH), a, " ")
      match($0, /run held [0-9.]+ [kMG]?B/); split(substr($0, RSTART, RLENGTH), r, " ")
      own = bytes(o[2], o[3]); ask = bytes(a[3], a[4]); run = bytes(r[3], r[4])
      if (run + ask + 0.1 * 1e6 <= lim) print "FIGURES DO NOT PASS THE LIMIT: " $0
      if (own > run + 0.1 * 1e6) print "THE OPERATOR HELD MORE THAN THE RUN: " $0
    }' "$@"
}
# the error's figures: checked, then masked
mask() {
  sed -E 's/it held [0-9.]+ [kMG]?B of its own and asked for [0-9.]+ [kMG]?B more \(the run held [0-9.]+ [kMG]?B at most\)/it held N of its own and asked for N more (the run held N at most)/'
}
run() {
  echo "== relix $*"
  "$RELIX" --count "$@" > out 2> err
  echo "exit $?"
  cat out
  figures_ok err
  mask < err
}
run --memory-limit 64M ij.rx
run --memory-limit 10M --no-stream asof.rx
run --memory-limit 64M fits.rx

# the same joins with room, or with no limit, give the rows of a run without a limit
want_ij=$("$RELIX" --count --memory-limit 0 ij.rx)
want_asof=$("$RELIX" --count --memory-limit 0 asof.rx)
echo "unlimited: ij $want_ij, asof $want_asof"
for lim in 512M none 0 90%; do
  got_ij=$("$RELIX" --count --memory-limit "$lim" ij.rx 2>&1)
  got_asof=$("$RELIX" --count --memory-limit "$lim" asof.rx 2>&1)
  [ "$got_ij" = "$want_ij" ] && [ "$got_asof" = "$want_asof" ] && echo "--memory-limit $lim: the same rows" ||
    echo "--memory-limit $lim: DIFFERENT: ij $got_ij, asof $got_asof"
done

# sizes
for size in 1.5G 2T 64k 100% 1% 101% -5M 5X 50%% 1e30 "" lots; do
  "$RELIX" --count --memory-limit "$size" fits.rx > out 2>&1
  echo "--memory-limit '$size': exit $? $(head -n 1 out)"
done
