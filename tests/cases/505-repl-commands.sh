# The REPL's commands and bare queries on a terminal, driven through tmux as 400-repl.sh does:
# an expression on its own runs as a query (an AS-OF join among them), \i runs a script file
# into the session (its definitions stay; its errors point into the file; a bare expression
# there is an error), \timing and \explain toggle and take on|off, \o FILE collects results
# in a file that appears whole when \o ends it, a large table shows its first and last rows
# (\set maxrows N changes how many, 0 shows all), \format json prints one document for two
# queries, and a statement typed over several lines is one history entry.
set -u
. "$(dirname "$0")/../lib/term.sh"
step_filter() { sed -E '/^timing:/s/[0-9][0-9]*\.[0-9]*/N/g; /^memory:/s/peak [^;]*;/peak N;/; /^  <stdin>:[0-9]+  /s/peak=.*/peak=N/'; }


cat > "$tmp/market.rx" <<'RX'
Trades := [
| sym  | ts                   | price |
|------|----------------------|-------|
| ACME | 2026-01-02T09:00:05Z | 10.00 |
| INIT | 2026-01-02T09:01:00Z |  7.25 |
];
Quotes := [
| sym  | ts                   | bid  |
|------|----------------------|------|
| ACME | 2026-01-02T09:00:00Z | 9.90 |
| INIT | 2026-01-02T09:00:30Z | 7.20 |
];
T := { π sym, to_timestamp(ts) → ts, price (Trades) };
Q := { π sym, to_timestamp(ts) → qts, bid (Quotes) };
query { γ count(*) → trades (T) };
RX
cat > "$tmp/bad.rx" <<'RX'
Extra := { σ price > 8 (T) };
query { π sym, volume (T) };
RX
printf 'Extra2 := { T };\nT;\n' > "$tmp/bare.rx"
awk 'BEGIN { print "k"; for (i = 1; i <= 100; i++) print i }' > "$tmp/hundred.csv"

tm new-session -d -x 100 -y 50 -c "$tmp" \
  "env RELIX_HISTORY='$tmp/hist' '$relix'; echo \"exit \$?\" > '$tmp/rc'"
step "start"
line '\i market.rx'
step "\\i runs a script: its query prints"
line 'T ASOF T.ts >= Q.qts Q;'
step "a bare AS-OF join"
line 'σ price > 8'
line '  (T);'
step "a bare expression over two lines"
tm send-keys Up
any_line=1
step "Up recalls both lines as one entry"
any_line=0
tm send-keys Enter
step "and Enter runs it again"
line '\i bad.rx'
step "\\i with an error: it points into the file"
line '\i bare.rx'
step "\\i: a bare expression in a script file is an error"
line '\i missing.rx'
step "\\i of a missing file"
line '\d'
step "\\d: what market.rx defined is there"
line '\timing'
step "\\timing toggles it on"
line 'γ count(*) → n (T);'
step "a query with timing (the times vary; shown as N)"
line '\timing off'
step "\\timing off"
line '\explain'
step "\\explain toggles it on"
line 'π sym (T);'
step "a query with its plan"
line '\explain'
step "\\explain toggles it off"
line '\explain maybe'
step "\\explain with a wrong argument"
line '\o out.txt'
line 'π sym (T);'
line 'σ price < 8 (T);'
[ -e "$tmp/out.txt" ] && echo "out.txt exists before \\o ends" || echo "(out.txt does not exist yet)"
step "\\o out.txt: two results go to the file, nothing to the terminal"
line '\o'
step "\\o alone: back to the terminal"
echo "== out.txt"
cat "$tmp/out.txt"
ls "$tmp" | grep -c 'relix-' | sed 's/^/temporary files left: /'
line "H := csv('hundred.csv');"
line 'H;'
step "100 rows: the first and last 20"
line '\set maxrows 4'
line 'H;'
step "\\set maxrows 4"
line '\set maxrows 0'
line 'σ k <= 12 (H);'
step "\\set maxrows 0 shows all"
line '\set maxrows many'
step "\\set maxrows with a wrong number"
line '\format json'
line 'σ k = 1 (H); σ k = 2 (H);'
step "\\format json: two queries, one document"
type_text '\q'
tm send-keys Enter
for i in $(seq 150); do
  [ -s "$tmp/rc" ] && break
  sleep 0.1
done
echo "== \\q"
cat "$tmp/rc" 2>/dev/null || echo "(relix did not exit)"
echo "== the history file: one entry per statement or command"
cat "$tmp/hist"
