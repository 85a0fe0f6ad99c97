# The progress line on a terminal (src/base/progress.c), driven through tmux: loading a CSV file
# that takes over a second shows "reading/loading big.csv N% (N MB of N MB) N s" on standard
# error and blanks it before the result; a long interval join shows "IJOIN ... (N × N rows)";
# Ctrl-C during the load stops it at once with the error on a clean line; and nothing is drawn
# with standard error redirected to a file, with RELIX_PROGRESS=0, with --no-progress or with the
# results going into a pipe (those runs are stopped with Ctrl-C after 1.5 s, which must work
# without a display too). The file and
# the join are sized from a short measurement so that they take about three seconds, on a
# fast machine and on a loaded one alike. Numbers in what the pane shows are printed as N.
set -u
for t in tmux awk; do
  command -v "$t" >/dev/null 2>&1 || { echo "$t is not installed (scripts/deps.sh test installs it)"; exit 1; }
done
export LC_ALL=C.UTF-8
unset RELIX_PROGRESS
relix="$(cd "$(dirname "$RELIX")" && pwd)/$(basename "$RELIX")"
tmp=$(mktemp -d)
sock="$tmp/tmux.sock"
tm() { tmux -u -S "$sock" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
tm new-session -d -s keep "sleep 600"   # one server for every run
tm set-option -g remain-on-exit on      # a pane stays readable after its shell ends

# ---- data sized for two to three seconds
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ,%04d-%02d-%02d,%d.%d\n", 1990 + i % 30, 1 + i % 12, 1 + i % 28, i % 24, i % 60, (i * 7) % 60, i * 37 % 1000000, 1990 + i % 31, 1 + i % 12, 1 + i % 27, i, i * 13 }' > "$tmp/chunk.csv"
# N copies of the chunk after a header, by doubling (a cat per copy is slow on a busy machine)
make_big() {
  local n=$1
  echo "ts,d,f" > "$tmp/big.csv"
  cp "$tmp/chunk.csv" "$tmp/pow.csv"
  while [ "$n" -gt 0 ]; do
    [ $((n & 1)) -eq 1 ] && cat "$tmp/pow.csv" >> "$tmp/big.csv"
    n=$((n >> 1))
    [ "$n" -gt 0 ] && cat "$tmp/pow.csv" "$tmp/pow.csv" > "$tmp/pow2.csv" && mv "$tmp/pow2.csv" "$tmp/pow.csv"
  done
  rm -f "$tmp/pow.csv"
}
# The file is loaded twice (two bindings, one result: the union of a table with itself), so that
# the largest file, capped below 1 GB so that its sizes print in MB, still loads for over 3 s:
# this machine's loader reads 32 chunks in 0.06 s, and one load of 900 chunks was over at 1.7 s.
load='B := csv('"'"'big.csv'"'"'); C := csv('"'"'big.csv'"'"'); query { γ max(ts) → t, min(d) → d, max(f) → f (B ∪ C) };'
make_big 32
# The faster of two measurements (a process's first touches of memory cost this VM up to 20
# times what later ones do, bench/memtouch.c); at most 900 chunks.
load_secs() { (cd "$tmp" && "$relix" --timing -e "$load" 2>&1 >/dev/null | sed -n 's/^timing: load \([0-9.]*\) s.*/\1/p'); }
secs=$(printf '%s\n%s\n' "$(load_secs)" "$(load_secs)" | sort -g | head -n 1)
chunks=$(awk -v s="$secs" 'BEGIN { n = int(32 * 3.5 / (s > 0.001 ? s : 0.001)) + 1; print (n < 96 ? 96 : (n > 900 ? 900 : n)) }')
make_big "$chunks"
join='A := csv('"'"'iv.csv'"'"'); query { γ count(*) → pairs (A IJOIN INTERSECTS (A.s, A.e, B.s, B.e) A B) };'
make_iv() { awk -v n="$1" 'BEGIN { print "s,e"; for (i = 0; i < n; i++) print i * 10 "," i * 10 + 5 }' > "$tmp/iv.csv"; }
make_iv 6000
join_secs() { (cd "$tmp" && "$relix" --timing --ijoin-algo nested-loop -e "$join" 2>&1 >/dev/null | sed -n 's/.*(join \([0-9.]*\) s).*/\1/p'); }
secs=$(printf '%s\n%s\n' "$(join_secs)" "$(join_secs)" | sort -g | head -n 1)
make_iv "$(awk -v s="$secs" 'BEGIN { n = int(6000 * sqrt(2.5 / (s > 0.001 ? s : 0.001))); print (n < 9000 ? 9000 : (n > 99999 ? 99999 : n)) }')"

# ---- the pane
cur=""
screen() { tm capture-pane -p -t "$cur" | sed 's/[[:space:]]*$//' | awk '{ a[NR] = $0 } $0 != "" { n = NR } END { for (i = 1; i <= n; i++) print a[i] }'; }
numbers() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g'; }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }
n_run=0
# Starts a shell command line in a new pane.
start() {
  n_run=$((n_run + 1))
  cur="run$n_run"
  rm -f "$tmp/rc" "$tmp/seen"
  tm new-session -d -s "$cur" -x 120 -y 30 -c "$tmp" "$1; echo \"exit \$?\" > '$tmp/rc'; sleep 600"
}
# Records every line the pane shows until relix ends, or (with an argument) until that many
# seconds have passed, then presses Ctrl-C. A run is given 240 s (by the clock, not by a count
# of looks at the pane, which a busy machine makes slow) before it counts as not ended.
watch() {
  local t0 i s
  t0=$(date +%s.%N)
  while :; do
    screen >> "$tmp/seen"
    [ -s "$tmp/rc" ] && break
    s=$(since "$t0")
    if [ -n "${1:-}" ] && awk -v s="$s" -v l="$1" 'BEGIN { exit !(s >= l) }'; then
      interrupt
      break
    fi
    awk -v s="$s" 'BEGIN { exit !(s >= 240) }' && break
    sleep 0.05
  done
  for i in $(seq 200); do [ -s "$tmp/rc" ] && break; sleep 0.05; done
  screen >> "$tmp/seen"
}
# Ctrl-C, and whether relix ended within 2 s of it.
interrupt() {
  local t1 i
  tm send-keys -t "$cur" C-c
  t1=$(date +%s.%N)
  for i in $(seq 400); do [ -s "$tmp/rc" ] && break; sleep 0.02; done
  if awk -v s="$(since "$t1")" 'BEGIN { exit !(s < 2) }'; then echo "stopped within 2 s of Ctrl-C"
  else echo "still running 2 s after Ctrl-C"; fi
}
# The progress lines the pane showed: each must have the form of its step; the step that is
# reported is the one sure to be shown (the second pass may be the only one past the delay).
progress_lines() {
  local bad
  bad=$(grep -E '^(reading|loading) |^IJOIN' "$tmp/seen" | grep -vE '^(reading|loading) big\.csv [0-9]+% \([0-9.]+ [KMG]?B of [0-9.]+ [KMG]?B\) [0-9]+\.[0-9] s$|^IJOIN INTERSECTS \([0-9]+ × [0-9]+ rows\)( [0-9.]+[KMG]? pairs)? [0-9]+\.[0-9] s$' | sort -u)
  [ -n "$bad" ] && printf 'a line of another form: %s\n' "$bad"
  grep -E '^loading big\.csv|^IJOIN' "$tmp/seen" | numbers | sort -u
}
final() { screen | grep -v '^exit '; cat "$tmp/rc" 2>/dev/null || echo "(relix did not end)"; }
# After Ctrl-C: the error's first line (whether it stopped the reading or the loading decides
# which token the caret is under, so positions are N) and the exit status.
stopped() { screen | grep -E 'error:|relix: interrupted' | numbers; cat "$tmp/rc" 2>/dev/null || echo "(relix did not end)"; }

echo "== loading a big CSV file on a terminal"
start "'$relix' -e \"$load\""
watch
progress_lines
echo "-- the pane at the end"
final

echo "== Ctrl-C while it loads"
start "'$relix' -e \"$load\""
# in the second step, early enough that Ctrl-C lands while the line is shown (the steps speed
# up and slow down with the machine: any share below 90% will do)
for i in $(seq 400); do
  line=$(screen | grep -E '^loading big\.csv [0-8]?[0-9]%')
  [ -n "$line" ] && break
  [ -s "$tmp/rc" ] && break
  sleep 0.05
done
printf '%s\n' "$line" | numbers
interrupt
echo "-- the pane at the end"
stopped

echo "== standard error redirected to a file (Ctrl-C after 1.5 s)"
start "'$relix' -e \"$load\" 2> '$tmp/err'"
watch 1.5
progress_lines
stopped
echo "-- standard error: $(grep -c $'\r' "$tmp/err") lines with a carriage return"
grep -E 'error:|relix: interrupted' "$tmp/err" | numbers

echo "== RELIX_PROGRESS=0 (Ctrl-C after 1.5 s)"
start "RELIX_PROGRESS=0 '$relix' -e \"$load\""
watch 1.5
progress_lines
stopped

echo "== --no-progress (Ctrl-C after 1.5 s)"
start "'$relix' --no-progress -e \"$load\""
watch 1.5
progress_lines
stopped

echo "== --format json into a pipe (Ctrl-C after 1.5 s)"
start "'$relix' --format json -e \"$load\" | cat > '$tmp/out.json'"
watch 1.5
progress_lines
stopped

echo "== a long interval join"
start "'$relix' --ijoin-algo nested-loop -e \"$join\""
watch
progress_lines | grep -v ' pairs ' | head -n 1   # the gather after the kernel is too short to rely on
echo "-- the pane at the end"
final | numbers
