# Parameters ($1, :name) belong to prepared queries (rx_prepare, relix.query(params=...)): the
# command line runs scripts whole, so a parameter there is an error at the parameter, and a
# malformed one is a syntax error at its token.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$RELIX" in /*) ;; *) RELIX=$PWD/$RELIX ;; esac
T='T := [
| a |
|---|
| 1 |
];
'
printf '%squery { σ a = $1 (T) };\n' "$T" > "$tmp/p1.rx"
(cd "$tmp" && "$RELIX" p1.rx); echo "exit $?"
printf '%squery { σ a = :lo (T) };\n' "$T" > "$tmp/p2.rx"
(cd "$tmp" && "$RELIX" p2.rx); echo "exit $?"
printf '%squery { σ a = $0 (T) };\n' "$T" > "$tmp/p3.rx"
(cd "$tmp" && "$RELIX" p3.rx); echo "exit $?"
printf '%squery { σ a = $ (T) };\n' "$T" > "$tmp/p4.rx"
(cd "$tmp" && "$RELIX" p4.rx); echo "exit $?"
printf '%squery { σ a = : (T) };\n' "$T" > "$tmp/p5.rx"
(cd "$tmp" && "$RELIX" p5.rx); echo "exit $?"
