# tests/lib/term.sh - what the cases that drive relix on a real terminal (tmux) share; sourced
# by them (400-repl, 505-repl-commands, 506-maxrows-terminal). It needs $RELIX and sets:
#   relix   the binary's absolute path;  tmp  a temporary folder, removed on exit;
#   tm      tmux on a private socket (killed on exit);
#   screen  the pane, all of its history, trailing blanks and blank lines at the end removed;
#   settle  waits until the pane has not changed for 0.3 s and its last line is a prompt (any
#           line when any_line is 1: a recalled entry of two lines ends in its second);
#   step NAME   prints "== NAME" and the lines the pane gained since the last step, and its
#           last line again (the prompt, which the next step's typing extends), through
#           step_filter (a function the case may redefine; cat by default);
#   type_text   types text literally (as bytes: tmux would read a trailing ';' as a command
#           separator);  line TEXT  types a line and Enter, then waits for the next prompt, so
#           that nothing is typed ahead while relix is busy.
# A case that cannot have tmux fails (scripts/deps.sh test installs it).
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
# The pane, all of its history, trailing blanks and blank lines at the end removed.
screen() { tm capture-pane -p -S - -E - | sed 's/[[:space:]]*$//' | awk '{ a[NR] = $0 } $0 != "" { n = NR } END { for (i = 1; i <= n; i++) print a[i] }'; }
# Waits until the pane has not changed for 0.3 s and its last line is a prompt (any line when
# any_line is 1: a recalled entry of two lines ends in its second).
any_line=0
settle() {
  local prev="" cur same=0 i
  for i in $(seq 150); do
    sleep 0.1
    cur=$(screen)
    if [ "$cur" = "$prev" ]; then same=$((same + 1)); else same=0; fi
    prev=$cur
    if [ "$same" -ge 3 ] && { [ "$any_line" = 1 ] || printf '%s\n' "$cur" | tail -n 1 | grep -q '^\(relix>\|  \.\.\.>\)'; }; then return 0; fi
  done
  echo "(timed out waiting for a prompt)"
}
shown=0
step_filter() { cat; }
# Prints the lines the pane gained since the last step, and its last line again (the prompt,
# which the next step's typing extends).
step() {
  settle
  echo "== $1"
  screen > "$tmp/screen"
  local total
  total=$(wc -l < "$tmp/screen")
  tail -n +"$((shown + 1))" "$tmp/screen" | step_filter
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
