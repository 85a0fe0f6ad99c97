# --memory-limit counts what the engine allocates, not the mapping of an input file: a 40 MB
# CSV whose one loaded column fits loads under a 30 MB limit (the text column is never
# loaded); a query that needs more than the limit stops with the limit named, exit 1.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
awk 'BEGIN { pad = sprintf("%1000s", ""); gsub(/ /, "x", pad); print "id,blob";
             for (i = 0; i < 40000; i++) print i "," pad i }' > wide.csv
"$RELIX" --memory-limit 30M -e "W := csv('wide.csv'); query { γ count(*) → n, sum(id) → s (W) };" 2>&1
echo "exit $?"
# the figures of the limit's error vary with the machine: masked to N
"$RELIX" --memory-limit 30M -e "W := csv('wide.csv'); query { γ count(*) → n (π id (W) × π id (W)) };" 2>&1 | sed -E 's/held [0-9.]+ [kMG]?B of its own and asked for [0-9.]+ [kMG]?B more \(the run held [0-9.]+ [kMG]?B at most\)/held N of its own and asked for N more (the run held N at most)/'
echo "exit ${PIPESTATUS[0]}"
