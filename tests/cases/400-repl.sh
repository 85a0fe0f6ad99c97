# The REPL on a terminal, driven through tmux: a multi-line inline table, a query, an error
# and the recovery after it, \d and \d T, Tab completion of a relation and of a column, Ctrl-C
# at the prompt (the input is discarded), Ctrl-C during a query (the query stops, the session
# goes on), \q, and the history file it leaves in $HOME. After each step the text the step
# added to the pane is printed, trailing blanks stripped; a step waits until the pane has been
# still for a moment with a prompt on its last line, and each line typed waits for the prompt
# that follows it.
set -u
if ! command -v tmux >/dev/null 2>&1; then
  echo "tmux is not installed (scripts/deps.sh test installs it)"
  exit 1
fi
export LC_ALL=C.UTF-8
relix="$(cd "$(dirname "$RELIX")" && pwd)/$(basename "$RELIX")"
tmp=$(mktemp -d)
sock="$tmp/tmux.sock"
tm() { tmux -u -S "$sock" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT

# a relation whose self-join with a condition that is never true runs for many seconds
awk 'BEGIN { print "k,v"; for (i = 0; i < 30000; i++) print i "," i % 7 }' > "$tmp/big.csv"

# The pane, all of its history, trailing blanks and blank lines at the end removed.
screen() { tm capture-pane -p -S - -E - | sed 's/[[:space:]]*$//' | awk '{ a[NR] = $0 } $0 != "" { n = NR } END { for (i = 1; i <= n; i++) print a[i] }'; }
# Waits until the pane has not changed for 0.3 s and its last line is a prompt.
settle() {
  local prev="" cur same=0 i
  for i in $(seq 150); do
    sleep 0.1
    cur=$(screen)
    if [ "$cur" = "$prev" ]; then same=$((same + 1)); else same=0; fi
    prev=$cur
    if [ "$same" -ge 3 ] && printf '%s\n' "$cur" | tail -n 1 | grep -q '^\(relix>\|  \.\.\.>\)'; then return 0; fi
  done
  echo "(timed out waiting for a prompt)"
}
shown=0
# Prints the lines the pane gained since the last step, and its last line again (the prompt,
# which the next step's typing extends).
step() {
  settle
  echo "== $1"
  screen > "$tmp/screen"
  local total
  total=$(wc -l < "$tmp/screen")
  tail -n +"$((shown + 1))" "$tmp/screen"
  shown=$((total - 1))
}
# Types text literally (as bytes: tmux would read a trailing ';' as a command separator).
type_text() { tm send-keys -H $(printf '%s' "$1" | od -An -tx1); }
prompts() { screen | grep -c '^\(relix>\|  \.\.\.>\)'; }
# Types a line and Enter, then waits for the next prompt, so that nothing is typed ahead while
# relix is busy (the terminal would echo it out of place).
line() {
  local before i
  before=$(prompts)
  type_text "$1"
  tm send-keys Enter
  for i in $(seq 300); do
    [ "$(prompts)" -gt "$before" ] && screen | tail -n 1 | grep -q '^\(relix>\|  \.\.\.>\)$' && return 0
    sleep 0.05
  done
  echo "(timed out waiting for a prompt after: $1)"
}

tm new-session -d -x 100 -y 50 -c "$tmp" \
  "env -u RELIX_HISTORY HOME='$tmp' '$relix'; echo \"exit \$?\" > '$tmp/rc'"

step "start"
line 'T := ['
line '| sym  | ts                   | price |'
line '|------|----------------------|-------|'
line '| ACME | 2026-01-02T09:00:00Z | 10.00 |'
line '| INIT | 2026-01-02T09:01:00Z |  7.25 |'
line '| ACME | 2026-01-02T09:05:00Z | 10.50 |'
line '];'
line 'Trades := { pi sym, to_timestamp(ts) -> ts, price (T) };'
step "definitions over several lines"
line 'query { sigma price > 8 (T) };'
step "a query"
line 'query { pi volume (T) };'
step "an error"
line 'query { pi sym, price (T) };'
step "a query after the error"
line '\d'
step "\\d"
line '\d T'
step "\\d T"
type_text 'query { Tra'
tm send-keys Tab
step "Tab after 'query { Tra'"
line ' };'
step "the completed query"
type_text 'query { pi sym, pri'
tm send-keys Tab
step "Tab after 'pi sym, pri'"
line ' (Trades) };'
step "the completed query"
type_text 'query { sigma price >'
tm send-keys C-c
step "Ctrl-C at the prompt"
line "B := csv('big.csv');"
type_text 'query { gamma count(*) -> n (B JOIN B.k + C.k < 0 (B C)) };'
tm send-keys Enter
# wait until relix has taken the line (the cursor has left it), then interrupt the run
for i in $(seq 100); do
  y=$(tm display-message -p '#{cursor_y}')
  last=$(tm capture-pane -p | awk '$0 != "" { n = NR } END { print n }')
  [ "$y" -ge "$last" ] && break
  sleep 0.1
done
sleep 0.5
tm send-keys C-c
step "Ctrl-C during a query"
line 'query { gamma count(*) -> n (B) };'
step "the session goes on"
tm send-keys Up
step "Up recalls the last line"
tm send-keys Enter
step "and runs it again"
line '\d'
step "\\d with the CSV source"
type_text '\q'
tm send-keys Enter
for i in $(seq 150); do
  [ -s "$tmp/rc" ] && break
  sleep 0.1
done
echo "== \\q"
cat "$tmp/rc" 2>/dev/null || echo "(relix did not exit)"
echo "== ~/.relix_history"
cat "$tmp/.relix_history"
# a new session reads the history: Up brings back the last line of the first one (\q)
rm -f "$tmp/rc"
shown=0
tm new-session -d -x 100 -y 50 -c "$tmp" \
  "env -u RELIX_HISTORY HOME='$tmp' '$relix'; echo \"exit \$?\" > '$tmp/rc'"
step "a second session"
tm send-keys Up
step "Up in the second session"
tm send-keys Enter
for i in $(seq 150); do
  [ -s "$tmp/rc" ] && break
  sleep 0.1
done
echo "== \\q"
cat "$tmp/rc" 2>/dev/null || echo "(relix did not exit)"
