# The REPL on a terminal, driven through tmux: a multi-line inline table, a query, an error
# and the recovery after it, \d and \d T, Tab completion of a relation and of a column, Ctrl-C
# at the prompt (the input is discarded), Ctrl-C during a query (the query stops, the session
# goes on), \q, and the history file it leaves in $HOME. After each step the text the step
# added to the pane is printed, trailing blanks stripped; a step waits until the pane has been
# still for a moment with a prompt on its last line, and each line typed waits for the prompt
# that follows it.
set -u
. "$(dirname "$0")/../lib/term.sh"

# a relation whose self-join with a condition that is never true runs for many seconds
awk 'BEGIN { print "k,v"; for (i = 0; i < 30000; i++) print i "," i % 7 }' > "$tmp/big.csv"

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
