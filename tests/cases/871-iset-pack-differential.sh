# PACK … WITH count(*) (counted by the sweep, also under two names, and beside another
# aggregate, which reads the merged rows instead) and GAPS against a brute-force oracle
# (tests/lib/iset_oracle.py) on the random inputs of case 870, in (key, start, end) order
# (swept in place) and shuffled (sorted first); lines compared sorted, since the keys come in
# the order of their partitions. Prints one line per scenario.
set -u
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
oracle=$root/tests/lib/iset_oracle.py
fails=0
for sc in many-keys hot-key nulls touching one-row empty-left; do
  bad=0 rows=0
  for ty in INT FLOAT DATE TIMESTAMP; do
    "$py" "$oracle" gen "$sc" "$ty" "$tmp" && "$py" "$oracle" packs "$ty" "$tmp" || { echo "$sc $ty: the oracle failed"; exit 1; }
    for form in sorted shuffled; do
      defs="L := csv('$tmp/l.$form.csv', schema => 'k TEXT, s $ty, e $ty, name TEXT');"
      i=0
      for q in 'PACK (s, e) BY k WITH count(*) → n (L)' \
               'π k, s, e, m (PACK (s, e) BY k WITH count(*) → n, count(*) → m (L))' \
               'π k, s, e, m (PACK (s, e) BY k WITH count(*) → n, count(name) → m (L))' \
               'GAPS (s, e) BY k (L)'; do
        i=$((i + 1))
        if ! "$RELIX" -f tsv -e "$defs query { $q };" > "$tmp/out" 2> "$tmp/err"; then
          echo "$sc $ty $form query $i: relix failed"; cat "$tmp/err"; bad=1; continue
        fi
        { head -1 "$tmp/out" | sed 's/\tm$/\tn/'; tail -n +2 "$tmp/out" | LC_ALL=C sort; } > "$tmp/got"
        if [ $i = 4 ]; then want=$tmp/want.GAPS; else want=$tmp/want.PACK; fi
        rows=$((rows + $(wc -l < "$tmp/got") - 1))
        if ! cmp -s "$tmp/got" "$want"; then
          echo "$sc $ty $form query $i: differs from the oracle"
          diff "$want" "$tmp/got" | head -5
          bad=1
        fi
      done
    done
  done
  if [ $bad = 0 ]; then
    echo "$sc: every type, query and order agrees with the oracle ($rows rows in all)"
  else
    fails=1
  fi
done
exit $fails
