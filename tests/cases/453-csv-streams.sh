# Inputs that are not plain regular files: standard input (csv('-') and /dev/stdin) through a
# pipe, a FIFO, a file under /proc whose size says 0, and gzip and zstd files recognised by
# their bytes. Compressed data that is cut short or corrupt, other compressed formats and a
# script that itself comes from standard input are errors naming the file.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
printf 'id,zip,name\n1,02139,a\n2,10001,b\n3,,c\n' > t.csv
run() { echo "== $1"; shift; "$@" 2>&1; echo "exit $?"; }
run "csv('-') from a pipe" sh -c "cat t.csv | '$RELIX' -e \"T := csv('-'); query { T };\""
run "csv('/dev/stdin') from a pipe" sh -c "cat t.csv | '$RELIX' -e \"T := csv('/dev/stdin'); query { T };\""
run "csv('-') twice" sh -c "cat t.csv | '$RELIX' -e \"T := csv('-'); U := csv('-'); query { T ∪ U };\""
run "csv('-') when the script is standard input" sh -c "echo \"T := csv('-'); query { T };\" | '$RELIX'"
mkfifo fifo
(timeout 20 sh -c 'cat t.csv > fifo' &)
run "a FIFO" timeout 20 "$RELIX" -e "T := csv('fifo'); query { T };"
run "a file under /proc (its size is 0)" "$RELIX" -e "T := csv('/proc/self/status', delimiter => ':', header => FALSE); query { π c1 (σ c1 = 'Name' (T)) };"
gzip -c t.csv > t.csv.gz
zstd -q -c t.csv > t.csv.zst
cp t.csv.gz data.txt
run "gzip and zstd, by their bytes" "$RELIX" -e "G := csv('t.csv.gz'); Z := csv('t.csv.zst'); D := csv('data.txt'); query { G }; query { γ count(*) → n (G ∪ Z ∪ D) };"
(gzip -c t.csv; gzip -c t.csv) > two.csv.gz
run "gzip with two members (cat a.gz b.gz), the second header a row" "$RELIX" -e "T := csv('two.csv.gz'); query { T };"
head -c 30 t.csv.gz > cut.csv.gz
run "gzip cut short" "$RELIX" -e "T := csv('cut.csv.gz'); query { T };"
head -c 20 t.csv.zst > cut.csv.zst
run "zstd cut short" "$RELIX" -e "T := csv('cut.csv.zst'); query { T };"
python3 -c "
import sys
b = bytearray(open('t.csv.gz', 'rb').read())
for i in range(len(b) - 8, len(b) - 4): b[i] ^= 0x5A
sys.stdout.buffer.write(bytes(b))" > bad.csv.gz
run "corrupt gzip (its checksum does not match)" "$RELIX" -e "T := csv('bad.csv.gz'); query { T };"
bzip2 -c t.csv > t.csv.bz2
xz -c t.csv > t.csv.xz
run "bzip2" "$RELIX" -e "T := csv('t.csv.bz2'); query { T };"
run "xz" "$RELIX" -e "T := csv('t.csv.xz'); query { T };"
cp t.csv named.csv.gz
run "named .gz but plain text" "$RELIX" -e "T := csv('named.csv.gz'); query { T };"
printf 'id,name\n1,a\n2,\x00\x01\x02\x03\n' > bin.csv
run "binary bytes in a text file" "$RELIX" -e "T := csv('bin.csv'); query { T };"
printf '\xff\xfei\x00d\x00\n\x001\x00\n\x00' > utf16.csv
run "UTF-16 text" "$RELIX" -e "T := csv('utf16.csv'); query { T };"
