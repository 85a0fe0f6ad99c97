# --report FILE.html: the HTML page of what the engine did (src/io/report.c), for the spec's two
# worked examples (tests/data/report/hotel.rx, an interval join over ISO-8601 text, and
# tests/data/report/slippage.rx, AS-OF joins; inline tables), for endpoints of every orderable type (INT, FLOAT, DATE,
# TIMESTAMP, TIME, and TEXT that is not a time, which gets no timeline), for escaping, long
# tables and many pairs, and for a script that fails. tests/cases/410-report.py reads each page
# with html.parser: it must be self-contained (no script, no external reference, balanced
# tags), its plan lines must be --explain's, the root's actual rows the result's, and it prints
# what each timeline drew. Then Chromium renders the two examples headless, and the check looks
# at the pixels: not blank, and the bars', points' and probes' colours are there.
set -u
export LC_ALL=C.UTF-8
for t in python3; do
  command -v "$t" >/dev/null 2>&1 || { echo "$t is not installed (scripts/deps.sh test installs it)"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check="tests/cases/410-report.py"

run() {  # NAME SCRIPT: writes $tmp/NAME.html, $tmp/NAME.explain; prints the exit status if not 0
  local name=$1 script=$2 rc
  "$RELIX" --report "$tmp/$name.html" "$script" > "$tmp/$name.out" 2> "$tmp/$name.err"
  rc=$?
  "$RELIX" --explain "$script" > "$tmp/$name.explain" 2> /dev/null
  [ "$rc" -eq 0 ] || echo "$name: exit $rc"
}

echo "== tests/data/report/hotel.rx"
run hotel tests/data/report/hotel.rx
cmp -s "$tmp/hotel.out" <("$RELIX" tests/data/report/hotel.rx) || echo "hotel: --report changed the results"
python3 "$check" "$tmp/hotel.html" "$tmp/hotel.explain"

echo "== tests/data/report/slippage.rx"
run slippage tests/data/report/slippage.rx
python3 "$check" "$tmp/slippage.html" "$tmp/slippage.explain"

cat > "$tmp/types.rx" <<'EOF'
N := [
| id | s  | e  |
|----|----|----|
| a  | 1  | 5  |
| b  | 4  | 9  |
| c  | 10 | 12 |
];
F := [
| id | s   | e    |
|----|-----|------|
| x  | 0.5 | 2.25 |
| y  | 2   | 3.5  |
];
Dt := [
| id | s          | e          |
|----|------------|------------|
| d1 | 2026-03-01 | 2026-03-04 |
| d2 | 2026-03-03 | 2026-03-09 |
| d3 | 2026-03-10 | 2026-03-12 |
];
Tm := [
| id | s        | e        |
|----|----------|----------|
| t1 | 08:00:00 | 09:30:00 |
| t2 | 09:00:00 | 11:00:00 |
];
Words := [
| id | s      | e      |
|----|--------|--------|
| p  | apple  | melon  |
| q  | banana | cherry |
];
D  := { π id, to_date(s) → s, to_date(e) → e (Dt) };
TS := { π id, to_timestamp(s) → s, to_timestamp(e) → e (Dt) };
T  := { π id, to_time(s) → s, to_time(e) → e (Tm) };
query { N IJOIN OVERLAPS (N.s, N.e, M.s, M.e) N M };
query { F IJOIN INTERSECTS (F.s, F.e, G.s, G.e) F G };
query { D IJOIN INTERSECTS (D.s, D.e, E.s, E.e) D E };
query { TS IJOIN PRECEDES (TS.s, TS.e, U.s, U.e) TS U };
query { T IJOIN INTERSECTS (T.s, T.e, U.s, U.e) T U };
query { Words IJOIN INTERSECTS (Words.s, Words.e, V.s, V.e) Words V };
query { N ASOF N.s >= F.s F };
query { D ASOF INNER D.s <= TS.e TS };
query { Words ASOF Words.s > V.e Words V };
EOF
echo "== every endpoint type"
run types "$tmp/types.rx"
python3 "$check" "$tmp/types.html" "$tmp/types.explain"

# escaping, a table longer than the page shows, and more pairs than a timeline draws
awk 'BEGIN { print "id,s,e"; for (i = 0; i < 60; i++) printf "i%d,%d,%d\n", i, i, i + 3 }' > "$tmp/many.csv"
cat > "$tmp/edge.rx" <<'EOF'
E := [
| name            | note                   |
|-----------------|------------------------|
| <b>bold</b>     | a & b "q" 'r'          |
| </td></table>   | <script>x()</script>   |
];
M := csv('many.csv');
query { E };
query { M IJOIN INTERSECTS (M.s, M.e, O.s, O.e) M O };
query { π id (M) };
EOF
echo "== escaping, long tables, many pairs"
run edge "$tmp/edge.rx"
python3 "$check" "$tmp/edge.html" "$tmp/edge.explain"
grep -c '&lt;b&gt;bold&lt;/b&gt;' "$tmp/edge.html"
grep -c '<b>bold</b>\|<script>x' "$tmp/edge.html"

cat > "$tmp/fail.rx" <<'EOF'
N := [
| k | v |
|---|---|
| 1 | 0 |
];
query { N };
query { π k / v → q (N) };
EOF
echo "== a query that fails"
run fail "$tmp/fail.rx"
python3 "$check" "$tmp/fail.html" "$tmp/fail.explain"

echo "== a report that cannot be written"
"$RELIX" --report "$tmp/no/such/dir/r.html" tests/data/report/hotel.rx 2>&1 > /dev/null | sed "s|$tmp|TMP|g"
echo "exit ${PIPESTATUS[0]}"
[ -e "$tmp/no/such/dir/r.html" ] && echo "a report was left behind"
cp tests/data/report/hotel.rx "$tmp/script.rx"  # the script forgotten: its name taken for the report's
"$RELIX" --report "$tmp/script.rx" < /dev/null 2>&1 > /dev/null | sed "s|$tmp|TMP|g"; echo "exit ${PIPESTATUS[0]}"
cmp -s tests/data/report/hotel.rx "$tmp/script.rx" && echo "the script is untouched"
"$RELIX" --report "$tmp/hotel.html" tests/data/report/hotel.rx > /dev/null && echo "an earlier report is replaced: exit $?"
"$RELIX" --report 2>&1 > /dev/null | head -n 1; echo "exit ${PIPESTATUS[0]}"

echo "== rendered by Chromium"
if [ ! -x /usr/bin/chromium ]; then
  echo "chromium is not installed (scripts/deps.sh test installs it)"
  exit 1
fi
for name in hotel slippage; do  # both at once: Chromium mostly waits for itself
  timeout 120 /usr/bin/chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$tmp/chromium-$name" --screenshot="$tmp/$name.png" --window-size=1200,2000 \
    "file://$tmp/$name.html" > /dev/null 2>&1 &
done
wait
for name in hotel slippage; do
  python3 "$check" --png "$tmp/$name.png" "$name"
done
# RELIX_REPORT_SHOTS=DIR keeps the screenshots there, to look at them
if [ -n "${RELIX_REPORT_SHOTS:-}" ]; then mkdir -p "$RELIX_REPORT_SHOTS" && cp "$tmp"/*.png "$tmp"/*.html "$RELIX_REPORT_SHOTS"/; fi
