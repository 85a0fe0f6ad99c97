# --format json prints one JSON document whatever the number of queries: a script of one query
# its array of rows, of none "[]", of several an array with one array of rows per query (also
# when a later query fails: the document is closed, the exit status is 1). --format jsonl
# prints one object per row and line, wrapped as {"query":N,"row":{...}} when the script has
# several queries. Each output is checked with python3's json module: NULL, NaN and infinities
# are null; durations are ISO-8601 strings that keep their months; unicode passes through and
# control characters are escaped.
set -u
RELIX="$(cd "$(dirname "$RELIX")" && pwd)/$(basename "$RELIX")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'id,t\n1,"tab\there, bell\007, nl\nend"\n2,"Grüße ☃ 日本"\n' > "$tmp/text.csv"
cat > "$tmp/defs.rx" <<'RX'
T := [
| id | x    | d        |
|----|------|----------|
| 1  | 1.5  | P1M2DT3H |
| 2  | NULL | NULL     |
];
X := csv('text.csv');
V := { π id, x, to_duration(d) → d, to_float('NaN') → nan, to_float('-Infinity') → ninf, TIMESTAMP '2026-01-02T09:00:00Z' → ts (T) };
RX
cp "$tmp/defs.rx" "$tmp/zero.rx"
{ cat "$tmp/defs.rx"; echo 'query { V };'; } > "$tmp/one.rx"
{ cat "$tmp/defs.rx"; echo 'query { V }; query { X }; query { σ id > 9 (T) };'; } > "$tmp/three.rx"
{ cat "$tmp/defs.rx"; echo "query { V }; query { π to_int(to_text(id) || 'x') → bad (T) };"; } > "$tmp/fails.rx"
check() { python3 -c 'import json, sys; d = json.load(sys.stdin); print("valid JSON:", type(d).__name__, len(d))'; }
checkl() { python3 -c '
import json, sys
n = 0
for line in sys.stdin:
    json.loads(line); n += 1
print("valid JSON lines:", n)'; }
cd "$tmp"
for s in zero one three fails; do
  echo "== json, $s.rx"
  "$RELIX" -f json $s.rx > out.json 2> err.txt
  echo "exit $?"
  cat out.json
  cat err.txt
  check < out.json
done
for s in zero one three; do
  echo "== jsonl, $s.rx"
  "$RELIX" -f jsonl $s.rx > out.jsonl
  echo "exit $?"
  cat out.jsonl
  checkl < out.jsonl
done
echo "== the duration reads back exactly"
"$RELIX" -f json one.rx | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["d"])'
echo "== -e with --format json and a bare expression"
"$RELIX" -f json -e "$(cat defs.rx) π id (T)" | check
