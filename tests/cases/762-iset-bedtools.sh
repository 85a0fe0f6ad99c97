# bedtools as a second oracle of the interval-set operators, on the BED files of
# tests/data/iset (gen.py): merge (PACK with a count), complement (GAPS within the
# chromosome), subtract (IMINUS) and intersect against the merged right side (IINTERSECT).
# Every result must equal bedtools' line for line once both are sorted.
set -u
root=$PWD
RELIX=$root/$RELIX
d=$root/tests/data/iset
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v bedtools >/dev/null || { echo "bedtools is missing (scripts/deps.sh test installs it)"; exit 1; }
sort -k1,1 -k2,2n "$d/a.bed" > "$tmp/a.bed"
sort -k1,1 -k2,2n "$d/b.bed" > "$tmp/b.bed"
bedtools merge -i "$tmp/a.bed" -c 2 -o count > "$tmp/merge.want"
bedtools complement -i "$tmp/a.bed" -g "$d/genome.txt" > "$tmp/complement.want"
bedtools subtract -a "$d/a.bed" -b "$d/b.bed" > "$tmp/subtract.want"
bedtools merge -i "$tmp/b.bed" > "$tmp/b.merged.bed"
bedtools intersect -a "$d/a.bed" -b "$tmp/b.merged.bed" > "$tmp/intersect.want"
defs="A := csv('$d/a.bed', delimiter => '\t', header => FALSE, schema => 'chrom TEXT, s INT, e INT, name TEXT');
B := csv('$d/b.bed', delimiter => '\t', header => FALSE, schema => 'chrom TEXT, s INT, e INT, name TEXT');"
run() {   # run OP QUERY: the query's rows as tab-separated lines, without the header
  "$RELIX" -f tsv -e "$defs query { $2 };" > "$tmp/$1.tsv" || { echo "relix failed on $1"; exit 1; }
  tail -n +2 "$tmp/$1.tsv" > "$tmp/$1.got"
}
run merge 'PACK (s, e) BY chrom WITH count(*) → n (A)'
run complement 'GAPS (s, e) BY chrom WITHIN 0 TO 1000000 (A)'
run subtract 'A IMINUS (A.s, A.e, B.s, B.e) ON A.chrom = B.chrom B'
run intersect 'A IINTERSECT (A.s, A.e, B.s, B.e) ON A.chrom = B.chrom B'
for op in merge complement subtract intersect; do
  sort "$tmp/$op.want" > "$tmp/$op.w"
  sort "$tmp/$op.got" > "$tmp/$op.g"
  n=$(wc -l < "$tmp/$op.w")
  if cmp -s "$tmp/$op.w" "$tmp/$op.g"; then
    echo "$op: $n rows, identical to bedtools"
  else
    echo "$op: differs from bedtools ($n rows expected, $(wc -l < "$tmp/$op.g") given)"
    diff "$tmp/$op.w" "$tmp/$op.g" | head -5
  fi
done
