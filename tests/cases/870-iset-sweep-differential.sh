# IMINUS and IINTERSECT against a brute-force oracle (tests/lib/iset_oracle.py), row for
# row and in order, on random inputs that exercise both ways of finding a left row's right
# intervals: left sides in (key, start, end) order (one merge sweep with a cursor) and shuffled
# (a search per row), right sides sorted and not; many keys, one hot key, NULL keys, NULL
# endpoints, zero-length, inverted, adjacent and duplicate intervals, an empty side and a
# single row; endpoints INT, FLOAT, DATE and TIMESTAMP. Prints one line per scenario.
set -u
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
oracle=$root/tests/lib/iset_oracle.py
fails=0
for sc in many-keys hot-key nulls touching one-row empty-left empty-right long-right; do
  bad=0 rows=0
  for ty in INT FLOAT DATE TIMESTAMP; do
    "$py" "$oracle" gen "$sc" "$ty" "$tmp" && "$py" "$oracle" want "$ty" "$tmp" || { echo "$sc $ty: the oracle failed"; exit 1; }
    for op in IMINUS IINTERSECT; do
      for form in sorted shuffled; do
        schema="k TEXT, s $ty, e $ty, name TEXT"
        q="L := csv('$tmp/l.$form.csv', schema => '$schema'); R := csv('$tmp/r.$form.csv', schema => '$schema');
query { L $op (L.s, L.e, R.s, R.e) ON L.k = R.k R };"
        "$RELIX" -f tsv -e "$q" > "$tmp/got" 2> "$tmp/err" || { echo "$sc $ty $op $form: relix failed"; cat "$tmp/err"; bad=1; continue; }
        cp "$tmp/want.$op.$form" "$tmp/want"
        rows=$((rows + $(wc -l < "$tmp/got") - 1))
        if ! cmp -s "$tmp/got" "$tmp/want"; then
          echo "$sc $ty $op $form: differs from the oracle"
          diff "$tmp/want" "$tmp/got" | head -5
          bad=1
        fi
      done
    done
  done
  if [ $bad = 0 ]; then
    echo "$sc: every type, operator and order agrees with the oracle ($rows rows in all)"
  else
    fails=1
  fi
done
exit $fails
