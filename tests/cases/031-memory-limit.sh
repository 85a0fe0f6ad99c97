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
"$relix" --memory-limit 150M -e "T := csv('t.csv'); query { γ count(*) → n (T × T) };" 2>&1
echo "exit $?"
"$relix" --memory-limit 150M -e "T := csv('t.csv'); query { γ v; count(*) → n (T) };" 2>&1 | tail -n 3
echo "exit ${PIPESTATUS[0]}"
"$relix" --memory-limit lots -e "query { T };" 2>&1; echo "exit $?"
