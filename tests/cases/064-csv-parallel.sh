# A CSV file large enough to be read in several chunks on several threads (about 14 MB: the
# reader cuts at about 4 MB, after a newline, and verifies the cut), full of quoted fields
# with newlines in them (most of the file's newlines), so that cuts inside quotes are likely. The table must be
# the one a plain reading gives (Python's csv module computes the expected answers), and
# errors late in the file must name the first bad line in file order, counted with the
# quoted newlines, whichever chunk or thread met it.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import csv, io, random, sys
d = sys.argv[1]
rng = random.Random(63)
rows = []
long_note = "\n".join("line %d" % j for j in range(24))  # 181 characters on 24 lines
for i in range(1, 150001):
    k = rng.randrange(4)
    note = [long_note, 'say ""hi""\n', "x,y\r\nz", ""][k]
    grp = "g%d" % rng.randrange(30)
    v = "%d.%02d" % (rng.randrange(-500, 500), rng.randrange(100))
    ts = "2026-01-%02dT%02d:%02d:%02dZ" % (1 + i * 28 // 150001, rng.randrange(24), rng.randrange(60), rng.randrange(60))
    rows.append('%d,"%s",%s,%s,%s\n' % (i, note, grp, v, ts))
text = "id,note,grp,v,ts\n" + "".join(rows)
open(f"{d}/big.csv", "w", newline="").write(text)
# the answers, from Python's own CSV reader
recs = list(csv.reader(io.StringIO(text, newline="")))[1:]
print("python: %d rows, sum(id) %d, sum(length(note)) %d, min(ts) %s, max(ts) %s, %d notes of 24 lines, %d groups, sum(v) %.2f" % (
    len(recs), sum(int(r[0]) for r in recs), sum(len(r[1]) for r in recs),
    min(r[4] for r in recs), max(r[4] for r in recs),
    sum(r[1] == long_note for r in recs), len({r[2] for r in recs}),
    sum(float(r[3]) for r in recs)))
# Errors: a timestamp that is not a date in row 140000 (its line is 1 plus the newlines
# before it)
a = text.index("\n140000,") + 1
b = text.index("\n", text.index("Z", a))
bad = text[:a] + text[a:b - 20] + "2026-02-30T12:00:00Z" + text[b:]
open(f"{d}/bad-date.csv", "w", newline="").write(bad)
print("python: row 140000 starts on line %d" % (1 + text[:a].count("\n")))
# a ragged row near the end, and an earlier one after it in the file's second half: the
# earlier is reported
c = text.index("\n149000,") + 1
ragged = text[:c] + "149000,x\n" + text[text.index("\n", text.index("Z", c)) + 1:]
e = ragged.index("\n120000,") + 1
ragged = ragged[:e] + "120000,\"one\ntwo\",g1\n" + ragged[ragged.index("\n", ragged.index("Z", e)) + 1:]
open(f"{d}/ragged.csv", "w", newline="").write(ragged)
print("python: row 120000 starts on line %d" % (1 + ragged[:e].count("\n")))
PY
cat > "$tmp/q.rx" <<RX
X := csv('$tmp/big.csv');
query { γ count(*) → n, sum(id) → ids, sum(length(note)) → chars, min(ts) → lo, max(ts) → hi (X) };
query { γ count(*) → long_notes (σ length(note) = 181 (X)) };
query { γ count(*) → groups (γ grp; count(*) → n (X)) };
query { γ sum(v) → v (X) };
query { TOP 3 (τ id (π id, length(note) → len, grp, v, ts (σ id > 74998 (X)))) };
RX
"$RELIX" "$tmp/q.rx" 2>&1; echo "exit $?"
echo "== a bad date in row 140000"
"$RELIX" -e "X := csv('$tmp/bad-date.csv'); query { γ count(*) → n (σ ts > to_timestamp('2026-01-01T00:00:00Z') (X)) };" 2>&1 | sed "s|$tmp|TMP|"; echo "exit ${PIPESTATUS[0]}"
echo "== a short row 120000 (two lines) before a short row 149000"
"$RELIX" -e "X := csv('$tmp/ragged.csv'); query { γ count(*) → n (X) };" 2>&1 | sed "s|$tmp|TMP|"; echo "exit ${PIPESTATUS[0]}"
