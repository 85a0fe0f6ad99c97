# The progress line of a streamed query, on a terminal (script(1) gives relix one): both passes
# over a file read by blocks show their progress — "reading quotes.csv N% (N MB of N MB)" while
# the file is checked (the second file: the first may be done within the second the meter waits
# before it draws anything), then "streaming: AsOfJoin backward N% (...)" over both files' bytes while
# the join runs — and the line is blanked before the result. The files are sized from a short
# measurement so that checking the files takes about five seconds on a fast or a loaded machine.
# Numbers are printed as N.
set -u
command -v script >/dev/null 2>&1 || { echo "script(1) is missing (bsdutils)"; exit 1; }
export LC_ALL=C.UTF-8 TERM=xterm
unset RELIX_PROGRESS
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
gen() {
  awk -v n="$1" 'BEGIN { print "sym,ts,qty"; for (i = 0; i < n; i++) printf "S%03d,%d,%d\n", i % 500, i * 5, i % 100 }' > trades.csv
  awk -v n="$1" 'BEGIN { print "sym,ts,bid"; for (i = 0; i < n; i++) printf "S%03d,%d,%d\n", (i * 7) % 500, i * 5 + 2, i % 1000 }' > quotes.csv
}
q='T := csv('"'"'trades.csv'"'"'); Q := csv('"'"'quotes.csv'"'"'); query { γ count(*) → n (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q) };'
# sized on a run that reads by blocks (1M rows, about 20 MB a file, above the 8 MB that
# --memory-limit 64M streams): checking both files then takes about five seconds, so that the
# second file is read well after the meter's first second
gen 1000000
secs=$("$RELIX" --memory-limit 64M --timing -e "$q" 2>&1 >/dev/null | sed -n 's/^timing: load \([0-9.]*\) s.*/\1/p')
rows=$(awk -v s="$secs" 'BEGIN { n = int(1000000 * 5.0 / (s > 0.001 ? s : 0.001)); print (n < 1000000 ? 1000000 : (n > 24000000 ? 24000000 : n)) }')
gen "$rows"
script -qefc "\"$RELIX\" --memory-limit 64M -e \"$q\"" typescript > /dev/null 2>&1; echo "exit $?"
# every line drawn, numbers as N, each distinct line once
tr '\r' '\n' < typescript | sed 's/\x1b\[K//g' | sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/[[:space:]]*$//' | grep -v '^Script ' | grep -v '^$' | awk '!seen[$0]++' > lines
grep -c '^reading quotes.csv N% (N MB of N MB) N s$' lines | awk '{ print ($1 > 0 ? "reading quotes.csv: shown" : "reading quotes.csv: not shown") }'
grep -c '^streaming: AsOfJoin backward N% (N MB of N MB) N s$' lines | awk '{ print ($1 > 0 ? "streaming: shown" : "streaming: not shown") }'
# the result: the count, on a line of its own after the progress line was blanked
n=$(tr '\r' '\n' < typescript | sed 's/\x1b\[K//g' | grep -a -E '^[[:space:]]*[0-9]+[[:space:]]*$' | tail -n 1 | tr -d ' ')
[ "$n" = "$rows" ] && echo "count right" || echo "count wrong: '$n' of $rows"
