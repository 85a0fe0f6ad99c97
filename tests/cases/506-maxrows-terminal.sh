# relix script.rx with its output on a terminal (a tmux pane) shows a table of more than 40
# rows as its first 20 and last 20 with a line between; --max-rows N changes the count and 0
# shows all. Into a pipe, a file (-o) or in another format every row is written.
set -u
. "$(dirname "$0")/../lib/term.sh"
awk 'BEGIN { print "k,sq"; for (i = 1; i <= 1000; i++) print i "," i * i }' > "$tmp/n.csv"
cat > "$tmp/n.rx" <<'RX'
N := csv('n.csv');
query { N };
query { σ k <= 3 (N) };
RX
# Runs relix with the arguments in a pane 120 lines high and prints what it showed.
on_terminal() {
  rm -f "$tmp/done"
  tm new-session -d -x 100 -y 120 -c "$tmp" "'$relix' $*; echo \"exit \$?\" > '$tmp/done'; sleep 30"
  for i in $(seq 100); do
    [ -s "$tmp/done" ] && break
    sleep 0.1
  done
  tm capture-pane -p -S - -E - | sed 's/[[:space:]]*$//' | awk '{ a[NR] = $0 } $0 != "" { n = NR } END { for (i = 1; i <= n; i++) print a[i] }'
  cat "$tmp/done"
  tm kill-server >/dev/null 2>&1
}
echo "== on a terminal: 1000 rows cut to the first and last 20, 3 rows whole"
on_terminal n.rx
echo "== --max-rows 6"
on_terminal --max-rows 6 n.rx
echo "== --max-rows 0: every row (lines counted)"
on_terminal --max-rows 0 n.rx | wc -l
echo "== --max-rows 1: the first row only"
on_terminal --max-rows 1 n.rx | head -6
echo "== into a pipe: every row"
cd "$tmp" && "$relix" n.rx | wc -l
echo "== -o file: every row"
"$relix" -o out.txt n.rx && wc -l < out.txt
echo "== --format csv on a terminal: every row (lines counted)"
on_terminal -f csv n.rx | wc -l
echo "== --max-rows with a bad value"
"$relix" --max-rows -3 n.rx; echo "exit $?"
"$relix" --max-rows lots n.rx; echo "exit $?"
