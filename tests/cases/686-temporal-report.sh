# The HTML report (--report) over the new temporal forms: NEAREST, ASOF k, IJOIN LEFT, SEMI, ANTI,
# AT, COVERS and a range join written by hand each get their plan line and a timeline section,
# and the run succeeds, with the same results under --no-stream and --stream (sorted inputs: the
# one-pass joins must not take these forms).
relix=$PWD/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
printf 'sym,ts,px\nA,10,1\nA,20,2\nB,5,3\n' > q.csv
printf 'id,sym,ts\nt1,A,15\nt2,B,9\nt3,C,1\n' > t.csv
printf 'id,s,e\na,1,5\nb,6,8\nc,9,9\n' > l.csv
printf 'id,s,e\nx,4,7\ny,7,10\n' > r.csv
cat > q.rx <<'RX'
Q := csv('q.csv'); T := csv('t.csv'); L := csv('l.csv'); R := csv('r.csv');
query { T ASOF NEAREST T.sym = Q.sym ∧ T.ts >= Q.ts Q };
query { T ASOF 2 NEAREST T.ts <= Q.ts Q };
query { L IJOIN LEFT INTERSECTS (L.s, L.e, R.s, R.e) R };
query { L IJOIN SEMI INTERSECTS (L.s, L.e, R.s, R.e) R };
query { L IJOIN ANTI COVERS (L.s, L.e, R.s, R.e) R };
query { T IJOIN AT (T.ts, R.s, R.e) R };
query { σ L.s < R.e ∧ R.s < L.e (L × R) };
RX
for mode in --no-stream --stream; do
  "$relix" $mode --report report.html q.rx > out.txt 2> err.txt; echo "$mode: exit $?"
  cat err.txt
  for label in 'AsOfJoin nearest' '2 nearest, ranked' 'IntervalJoin left INTERSECTS' 'IntervalJoin semi INTERSECTS' \
               'IntervalJoin anti COVERS' 'IntervalJoin AT' 'IJOIN-001'; do
    grep -q "$label" report.html && echo "  report shows: $label" || echo "  MISSING: $label"
  done
  mv out.txt "out$mode.txt"
done
cmp -s out--no-stream.txt out--stream.txt && echo "the same results with --stream and --no-stream"
