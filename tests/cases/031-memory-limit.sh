# --memory-limit: a query that needs more memory than the limit stops with an error that names
# the limit, instead of meeting the machine's OOM killer. (The optimized build: a sanitizer
# build reserves too much address space to run under a limit, so it sets none.)
[ -x build/relix ] || make -s all >/dev/null
relix=$PWD/build/relix
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
python3 -c "
import sys
with open('t.csv', 'w') as f:
    f.write('id,v\n')
    for i in range(200000): f.write(f'{i},{i % 7}\n')
"
# the figures of the limit's error vary with the machine: masked to N
"$relix" --memory-limit 150M -e "T := csv('t.csv'); query { γ count(*) → n (T × T) };" 2>&1 | sed -E 's/held [0-9.]+ [kMG]?B of its own and asked for [0-9.]+ [kMG]?B more \(the run held [0-9.]+ [kMG]?B at most\)/held N of its own and asked for N more (the run held N at most)/'
echo "exit ${PIPESTATUS[0]}"
"$relix" --memory-limit 150M -e "T := csv('t.csv'); query { γ v; count(*) → n (T) };" 2>&1 | tail -n 3
echo "exit ${PIPESTATUS[0]}"
"$relix" --memory-limit lots -e "query { T };" 2>&1; echo "exit $?"
