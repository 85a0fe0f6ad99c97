# --report-key and --report-window: the interval-join timeline draws only the pairs whose left
# partition key is KEY and whose two intervals both meet [FROM, TO]; the AS-OF timeline only
# the probes whose key is KEY and whose match value lies in [FROM, TO]. The caption's count
# in focus must equal the rows of the same join (or of the probes) with that condition as a σ
# (computed independently by the engine). A window of another type than the endpoints, or a key for a
# join without one, gets a sentence instead of a drawing; a window without a comma is a usage
# error. Pages are read by 410-report.py.
set -u
export LC_ALL=C.UTF-8
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
awk 'BEGIN { print "id,k,s,e"; for (i = 0; i < 300; i++) { s = (i * 37) % 1000; printf "a%d,%d,%d,%d\n", i, i % 5, s, s + 5 + i % 30 } }' > a.csv
awk 'BEGIN { print "id,k,s,e"; for (i = 0; i < 300; i++) { s = (i * 53) % 1000; printf "b%d,%d,%d,%d\n", i, i % 5, s, s + 3 + i % 40 } }' > b.csv
head="A := csv('a.csv'); B := csv('b.csv');"
join="A IJOIN INTERSECTS (A.s, A.e, B.s, B.e) B"
printf '%s\nquery { σ k = k_r (%s) };\nquery { %s };\n' "$head" "$join" "$join" > f.rx
"$RELIX" --explain f.rx > explain.txt
# focus KEY WINDOW [the σ that selects the same pairs]
focus() {
  echo "== --report-key '$1' --report-window '$2'"
  local args=()
  [ -n "$1" ] && args+=(--report-key "$1")
  [ -n "$2" ] && args+=(--report-window "$2")
  "$RELIX" --report r.html "${args[@]}" f.rx > /dev/null 2> err.txt
  echo "exit $? $(cat err.txt)"
  python3 "$root/tests/cases/410-report.py" r.html explain.txt | grep -v '^   \(plan\|actual rows\|time, self\)'
  if [ -n "${3:-}" ]; then
    echo "σ $3: $("$RELIX" --count -e "$head query { σ $3 (σ k = k_r ($join)) };")"
  fi
}
focus 3 100,300 "k = 3 ∧ s <= 300 ∧ e >= 100 ∧ s_r <= 300 ∧ e_r >= 100"
focus 1 "" "k = 1"
focus "" 500,520 "s <= 520 ∧ e >= 500 ∧ s_r <= 520 ∧ e_r >= 500"
focus 7 "" "k = 7"
focus "" 2026-01-01,2026-02-01
awk 'BEGIN { print "sym,ts,qty"; for (i = 0; i < 200; i++) printf "S%d,%d,%d\n", i % 3, i * 5, i }' > t.csv
awk 'BEGIN { print "sym,ts,price"; for (i = 0; i < 120; i++) printf "S%d,%d,%d\n", i % 4, i * 9 + 2, 100 + i }' > q.csv
head="T := csv('t.csv'); Q := csv('q.csv');"
printf '%s\nquery { T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q };\n' "$head" > f.rx
"$RELIX" --explain f.rx > explain.txt
focus S1 100,400
echo "σ sym = 'S1' ∧ ts >= 100 ∧ ts <= 400 (T): $("$RELIX" --count -e "$head query { σ sym = 'S1' ∧ ts >= 100 ∧ ts <= 400 (T) };")"
focus S2 ""
echo "σ sym = 'S2' (T): $("$RELIX" --count -e "$head query { σ sym = 'S2' (T) };")"
focus S9 ""
"$RELIX" --report r.html --report-window 100 f.rx 2>&1 | head -n 1; echo "exit ${PIPESTATUS[0]}"
