# A regular CSV file is read from disk a window at a time by each pass, never held whole;
# standard input is held whole. Both must give the same table, and the same error at the same
# line and column, on files of many windows and chunks (about 5 MB): quoted cells with
# delimiters, "" escapes and line ends (\n, \r\n) inside, CRLF records, NULLs, a dictionary
# column, a header longer than the first bytes read for it, a cell longer than a window; and
# faults late in the file: a bad date, a ragged row, text after a closing quote, a quote never
# closed, and a NUL byte after an earlier fault (the NUL is the error, as when held whole).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp" <<'PY'
import random, sys
d = sys.argv[1]
rng = random.Random(810)
notes = ['plain', '"say ""hi"", then\r\nleave"', '"a,b\nc"', '', '"x"', 'NULL']
rows = []
for i in range(1, 50001):
    note = notes[rng.randrange(len(notes))]
    if i == 30000:
        note = '"' + 'long ""cell""\n' * 40000 + '"'   # 600 KB: longer than a window
    rows.append('%d,%s,S%d,%d.%02d,2026-03-%02dT%02d:%02d:%02d.%06d+01:00,%s\r\n' % (
        i, note, rng.randrange(300), rng.randrange(-500, 500), rng.randrange(100),
        1 + rng.randrange(28), rng.randrange(24), rng.randrange(60), rng.randrange(60),
        rng.randrange(1000000), '' if rng.randrange(20) == 0 else '2026-04-%02d' % (1 + rng.randrange(30))))
text = 'id,note,sym,price,ts,d\r\n' + ''.join(rows)
open(d + '/good.csv', 'w', newline='').write(text)
wide = ','.join('column_%05d' % j for j in range(8000)) + '\n'   # 96 KB of header
wide += ','.join(str(j) for j in range(8000)) + '\n'
open(d + '/wide.csv', 'w', newline='').write(wide)
def at_row(t, i):
    return t.index('\r\n%d,' % i) + 2
def fault(name, i, old, new, t=text, n=None):
    a = at_row(t, i)
    b = t.index(old, a)
    t = t[:b] + new + t[b + (len(old) if n is None else n):]
    open('%s/%s.csv' % (d, name), 'w', newline='').write(t)
    return t
fault('bad-date', 45000, ',2026-03-', ',2026-02-30', n=11)          # no such day
fault('ragged', 41000, '\r\n', ',extra\r\n')
fault('after-quote', 42000, ',S', ',"x"y')
fault('nul', 49000, 'S', 'S\0', t=fault('nul', 40000, '\r\n', ',extra\r\n'))
open(d + '/open-quote.csv', 'w', newline='').write(text + '7,"never closed\r\n')
PY
for f in good wide bad-date ragged after-quote nul open-quote; do
  echo "== $f"
  "$RELIX" --format csv -e "X := csv('$tmp/$f.csv'); query { X };" > "$tmp/file.out" 2>&1
  echo "exit $?" >> "$tmp/file.out"
  "$RELIX" --format csv -e "X := csv('-'); query { X };" < "$tmp/$f.csv" > "$tmp/stdin.out" 2>&1
  echo "exit $?" >> "$tmp/stdin.out"
  sed -i "s|$tmp/$f.csv|F|g" "$tmp/file.out"
  sed -i "s|^-:|F:|; s|'-'|F|g" "$tmp/stdin.out"
  if cmp -s "$tmp/file.out" "$tmp/stdin.out"; then
    echo "the same from the file and from standard input: $(wc -l < "$tmp/file.out") lines, $(cksum < "$tmp/file.out" | cut -d' ' -f1) checksum"
  else
    echo "DIFFERENT:"; diff "$tmp/file.out" "$tmp/stdin.out" | head -20
  fi
  grep -a -A2 "error" "$tmp/file.out" | cut -c1-160
  tail -n 1 "$tmp/file.out"
done
