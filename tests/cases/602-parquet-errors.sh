# Parquet files Relix does not read give an error at the path that names the file and the
# feature (nested LIST / struct / MAP columns, encryption, LZ4, INTERVAL) or the damage (bad
# magic, truncated footer, a footer length or a column chunk past the end of the file, a
# truncated page); bad parquet(...) and into parquet(...) options and a DURATION column to
# write are errors at the option or the `into`, and leave no file behind.
root=$PWD
RELIX=$root/$RELIX
tests/parquet/peers.sh || { echo "the peers (node, DuckDB, Polars) are missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node tests/parquet/oracle.mjs unsupported "$tmp" || { echo "generating the files failed"; exit 1; }
cd "$tmp"
for f in list struct map encrypted lz4 interval; do
    "$RELIX" -e "P := parquet('$f.parquet'); query { P };"; echo "exit $?"
done
"$RELIX" -e "T := [
| id | name |
|----|------|
| 1  | a    |
| 2  | b    |
| 3  | NULL |
];
query { T } into parquet('good.parquet', compression => 'none');"; echo "exit $?"
python3 - <<'PY'
import struct
g = open("good.parquet", "rb").read()
n = len(g)
flen = struct.unpack("<I", g[n - 8:n - 4])[0]
open("magic.parquet", "wb").write(b"PAR0" + g[4:])
open("cut.parquet", "wb").write(g[:n - 3])
open("footlen.parquet", "wb").write(g[:n - 8] + struct.pack("<I", n) + b"PAR1")
# the footer cut short: a shorter footer length over the same bytes
open("shortfoot.parquet", "wb").write(g[:n - 8 - flen] + g[n - 8 - flen:n - 8 - flen // 2] + struct.pack("<I", flen - flen // 2) + b"PAR1")
# the first page's header damaged: its compressed size made huge (byte 5 onwards is the header)
b = bytearray(g)
b[4] = 0x15; b[5] = 0x00; b[6] = 0x15; b[7] = 0xfe; b[8] = 0xff; b[9] = 0xff; b[10] = 0xff; b[11] = 0x0f
open("page.parquet", "wb").write(bytes(b))
open("empty.parquet", "wb").write(b"")
open("text.parquet", "wb").write(b"id,name\n1,a\n")
PY
for f in magic cut footlen shortfoot page empty text missing; do
    "$RELIX" -e "P := parquet('$f.parquet'); query { P };"; echo "exit $?"
done
"$RELIX" -e "P := parquet('good.parquet', delimiter => ';'); query { P };"; echo "exit $?"
"$RELIX" -e "P := parquet('good.parquet'); query { P } into parquet('o1.parquet', compression => 'lz4');"; echo "exit $?"
"$RELIX" -e "P := parquet('good.parquet'); query { P } into parquet('o2.parquet', row_group_size => 0);"; echo "exit $?"
"$RELIX" -e "P := parquet('good.parquet'); query { P }; query { P } into parquet('o3.parquet', level => 3);"; echo "exit $?"  # before anything runs
"$RELIX" -e "P := parquet('good.parquet'); query { π id, DURATION 'P1D' → dur (P) } into parquet('o4.parquet');"; echo "exit $?"
"$RELIX" -e "P := parquet('good.parquet'); query { P } into json('o5.json');"; echo "exit $?"
ls o*.parquet 2>/dev/null || echo "no output file was left"
