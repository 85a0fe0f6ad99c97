# PACK, GAPS, IMINUS and IINTERSECT on the BED rows of tests/data/iset as they come (unsorted:
# the operators sort them) and sorted by (chrom, start, end) (swept in place, no sort), both
# also with rows whose endpoints are NULL or empty mixed in: every result must be the same
# set of rows on both inputs (compared sorted, since PACK and GAPS list keys in order of first
# appearance). Aggregates over the merged rows that do not depend on their order.
set -u
root=$PWD
RELIX=$root/$RELIX
d=$root/tests/data/iset
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$d/a.bed" "$tmp/u.bed"
# rows that hold no point: a NULL start, a NULL end, a zero-length and an inverted interval
printf 'chr1\t\t500\tnull_s\nchr2\t700\t\tnull_e\nchr3\t800\t800\tempty\nchr4\t900\t850\tinverted\n' >> "$tmp/u.bed"
sort -k1,1 -k2,2n -k3,3n "$tmp/u.bed" > "$tmp/s.bed"
sort -k1,1 -k2,2n -k3,3n "$d/b.bed" > "$tmp/b.bed"
for form in u s; do
  defs="A := csv('$tmp/$form.bed', delimiter => '\t', header => FALSE, schema => 'chrom TEXT, s INT, e INT, name TEXT');
B := csv('$d/b.bed', delimiter => '\t', header => FALSE, schema => 'chrom TEXT, s INT, e INT, name TEXT');
BS := csv('$tmp/b.bed', delimiter => '\t', header => FALSE, schema => 'chrom TEXT, s INT, e INT, name TEXT');
AV := { σ s < e (A) };"
  i=0
  for q in 'PACK (s, e) BY chrom WITH count(*) → n, min(name) → lo, max(name) → hi, sum(e - s) → len (A)' \
           'PACK (s, e) BY chrom WITH count(*) → n, max(e) → last_end (AV)' \
           'PACK (s, e) (A)' \
           'GAPS (s, e) BY chrom WITHIN 0 TO 1000000 (A)' \
           'B IMINUS (B.s, B.e, A.s, A.e) ON B.chrom = A.chrom A' \
           'BS IINTERSECT (BS.s, BS.e, A.s, A.e) ON BS.chrom = A.chrom A' \
           'A IMINUS (A.s, A.e, BS.s, BS.e) ON A.chrom = BS.chrom BS'; do
    i=$((i + 1))
    "$RELIX" -f tsv -e "$defs query { $q };" > "$tmp/$form.$i.tsv" || { echo "relix failed on query $i ($form)"; exit 1; }
    sort "$tmp/$form.$i.tsv" > "$tmp/$form.$i"
  done
done
for ((k = 1; k <= i; k++)); do
  n=$(($(wc -l < "$tmp/s.$k") - 1))
  if cmp -s "$tmp/u.$k" "$tmp/s.$k"; then
    echo "query $k: $n rows, the same on unsorted and sorted input"
  else
    echo "query $k: differs between unsorted and sorted input"
    diff "$tmp/u.$k" "$tmp/s.$k" | head -5
  fi
done
