# Determinism at every thread count: the same script on the same data prints the same bytes
# with --threads 1 and --threads 2, through RELIX_THREADS, and across repeated runs. The inputs
# are above the thresholds of the two-thread paths (tests/cases/032-determinism.rx lists them):
# the interval join for all fourteen relations, the AS-OF join (with and without equality keys,
# INNER, WITHIN, TIES) and the hash join each start a thread at --threads 2 (checked one query at
# a time when this test was written), and so do the gathers of γ, τ and TOP inputs of more than
# a million rows; a partitioned interval join and a γ over a table run on one thread whatever
# the setting. strace shows that --threads 1 (or RELIX_THREADS=1) starts no thread and
# --threads 2 does, so the comparison is between the two paths; the --threads option wins over
# the variable.
set -u
for t in strace python3; do
  command -v "$t" >/dev/null 2>&1 || { echo "$t is not installed (scripts/deps.sh test installs it)"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import datetime, random, sys
d = sys.argv[1]
rng = random.Random(11)
t0 = datetime.datetime(2026, 1, 1)
# L and R: 140,000 intervals in [0, 1,000,000), 1 to 79 long (INTERSECTS gives about 1.6M
# pairs); t is s as a timestamp (seconds from 2026-01-01), b a bucket of s for a hash join.
for side in ("l", "r"):
    with open(f"{d}/{side}.csv", "w") as f:
        f.write("id,sym,s,e,b,t\n")
        for i in range(140000):
            s = rng.randrange(0, 1000000)
            t = (t0 + datetime.timedelta(seconds=s)).strftime("%Y-%m-%dT%H:%M:%SZ")
            f.write(f"{i},S{rng.randrange(200):03d},{s},{s + rng.randrange(1, 80)},{s // 60},{t}\n")
# For PRECEDES and PRECEDED_BY, whose results are quadratic on data like the above: L2 late but
# for one early row, R2 early but for four late rows, so that no row can be ruled out before the
# sweep and the result stays under a million pairs.
with open(f"{d}/l2.csv", "w") as f:
    f.write("id,s,e\n-1,-10,-5\n")
    for i in range(140000):
        s = rng.randrange(2000000, 3000000)
        f.write(f"{i},{s},{s + rng.randrange(1, 80)}\n")
with open(f"{d}/r2.csv", "w") as f:
    f.write("id,s,e\n")
    for i in range(140000):
        s = rng.randrange(0, 1000000)
        f.write(f"{i},{s},{s + rng.randrange(1, 80)}\n")
    for i in range(4):
        f.write(f"{140000 + i},{3500000 + i},{3500010 + i}\n")
PY
script="L := csv('$tmp/l.csv'); R := csv('$tmp/r.csv');
L2 := csv('$tmp/l2.csv'); R2 := csv('$tmp/r2.csv');
$(grep -v '^--' tests/cases/032-determinism.rx)"
# One line per run: the exit status, the row count of each query, a hash of all the bytes.
summary() {
  python3 - "$1" "$2" <<'PY'
import hashlib, sys
data = open(sys.argv[1], "rb").read()
blocks = data.split(b"\n\n")
rows = [len(b.strip(b"\n").split(b"\n")) - 1 for b in blocks]
print("exit", sys.argv[2], len(blocks), "queries, rows", rows,
      "sha256", hashlib.sha256(data).hexdigest()[:16])
PY
}
# run NAME [VAR=value] [relix options]: one run under strace; its summary in $tmp/NAME and the
# threads it started (clone with CLONE_THREAD; LeakSanitizer, which would add its own and
# cannot run under strace, is off) in $tmp/NAME.threads.
run() {
  local name=$1
  shift
  ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=clone,clone3 -o "$tmp/$name.trace" \
    env "$@" --format csv -e "$script" > "$tmp/$name.out" 2> "$tmp/$name.err"
  summary "$tmp/$name.out" $? > "$tmp/$name"
  grep -c CLONE_THREAD "$tmp/$name.trace" > "$tmp/$name.threads"
  head -c 2000 "$tmp/$name.err"
}
threads() { [ "$(cat "$tmp/$1.threads")" -gt 0 ] && echo "threads started" || echo "no thread started"; }
run a "$RELIX" --threads 1
run b "$RELIX" --threads 2
run c RELIX_THREADS=1 "$RELIX"
run d RELIX_THREADS=1 "$RELIX" --threads 2
cat "$tmp/a"
same() { cmp -s "$tmp/a" "$tmp/$1" && echo "same bytes" || echo "DIFFERENT: $(cat "$tmp/$1")"; }
echo "--threads 1: $(same a), $(threads a)"
echo "--threads 2: $(same b), $(threads b)"
echo "RELIX_THREADS=1: $(same c), $(threads c)"
echo "RELIX_THREADS=1 --threads 2: $(same d), $(threads d)"
