# A result large enough to be written in blocks on several threads (120,000 rows): CSV and TSV
# are byte for byte the same with --threads 1, 2 and 3; the CSV reads back to the same values
# (Python's csv module checks the text column: quotes, delimiters, line ends, spaces) and
# writes back to the same bytes.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import random, sys
d = sys.argv[1]
rng = random.Random(621)
texts = ['plain', 'a,b', 'say "hi"', 'two\nlines', ' lead', 'trail ', 'tab\there', 'back\\slash', 'é日本', 'S0042']
with open(f"{d}/in.csv", "w", newline="") as f:
    f.write("id,name,price,ts,day,flag,qty\n")
    for i in range(120000):
        t = rng.choice(texts)
        name = '"' + t.replace('"', '""') + '"' if rng.randrange(20) else ""
        price = "%d.%02d" % (rng.randrange(-100000, 100000), rng.randrange(100)) if rng.randrange(30) else ""
        if rng.randrange(7) == 0:
            price = repr(rng.uniform(-1e300, 1e300))
        us = rng.randrange(-10**15, 10**16)
        ts = "%s.%06dZ" % (__import__("datetime").datetime(1970, 1, 1) + __import__("datetime").timedelta(microseconds=us - us % 10**6), us % 10**6)
        ts = ts.replace(" ", "T")
        day = "%04d-%02d-%02d" % (rng.randrange(1, 10000), rng.randrange(1, 13), rng.randrange(1, 29))
        f.write("%d,%s,%s,%s,%s,%s,%d\n" % (i, name, price, ts, day, rng.choice(["true", "false", ""]),
                                             rng.randrange(-2**63, 2**63)))
PY
q="X := csv('$tmp/in.csv'); query { X };"
for fmt in csv tsv; do
  for t in 1 2 3; do "$RELIX" --threads $t --format $fmt -o "$tmp/out$t.$fmt" -e "$q" || echo "relix failed"; done
  cmp "$tmp/out1.$fmt" "$tmp/out2.$fmt" && cmp "$tmp/out1.$fmt" "$tmp/out3.$fmt" && echo "$fmt: the same bytes on 1, 2 and 3 threads"
done
"$RELIX" --format csv -o "$tmp/again.csv" -e "X := csv('$tmp/out1.csv'); query { X };"
cmp "$tmp/out1.csv" "$tmp/again.csv" && echo "csv: read back and written again, the same bytes"
python3 - "$tmp" <<'PY'
import csv, sys
d = sys.argv[1]
a = list(csv.reader(open(f"{d}/in.csv", newline="")))
b = list(csv.reader(open(f"{d}/out1.csv", newline="")))
print("rows:", len(b) - 1, "header:", ",".join(b[0]))
print("text column read back as written:", all(x[1] == y[1] for x, y in zip(a[1:], b[1:])))
print("integers read back as written:", all(x[6] == y[6] for x, y in zip(a[1:], b[1:])))
print("floats read back to the same doubles:", all((x[2] == "" and y[2] == "") or float(x[2]) == float(y[2]) for x, y in zip(a[1:], b[1:])))
PY
