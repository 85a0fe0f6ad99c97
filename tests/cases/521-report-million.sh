# --report on a million-row interval join stays small and readable: the timeline draws the
# first 30 pairs and only their rows (never every interval), and under it a density strip of
# 120 bins counts every interval of both sides. The page is checked as 410-report checks pages
# (self-contained, balanced tags, the plan as --explain prints it, the root's actual rows the
# result's), with --explain analyze's figures on every operator, and its size stays under 1 MB.
set -u
export LC_ALL=C.UTF-8
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
awk 'BEGIN { print "id,s,e"; for (i = 0; i < 1000000; i++) { s = (i * 7919) % 10000000; printf "a%d,%d,%d\n", i, s, s + 1 + i % 20 } }' > a.csv
awk 'BEGIN { print "id,s,e"; for (i = 0; i < 1000000; i++) { s = (i * 104729) % 10000000; printf "b%d,%d,%d\n", i, s, s + 1 + i % 30 } }' > b.csv
cat > m.rx <<'RX'
A := csv('a.csv');
B := csv('b.csv');
query { γ count(*) → pairs (A IJOIN INTERSECTS (A.s, A.e, B.s, B.e) B) };
RX
"$root/$RELIX" --explain --report r.html m.rx > explain.txt 2> err.txt
echo "exit $? $(cat err.txt)"
sed -n 3p explain.txt
python3 "$root/tests/cases/410-report.py" r.html explain.txt
size=$(wc -c < r.html)
[ "$size" -lt 1000000 ] && echo "the page is under 1 MB" || echo "THE PAGE HAS $size BYTES"
