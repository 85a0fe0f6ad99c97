# The temporal join forms against a brute-force oracle (tests/temporal_oracle.py): IJOIN LEFT,
# SEMI and ANTI over the sixteen relations, IJOIN over a set of relations (R1 | R2 | ...), IJOIN AT (inner, LEFT, SEMI, ANTI) and ASOF NEAREST
# (four comparisons, TIES, INNER, with and without a key), ASOF k [NEAREST] with TIES(FIRST, LAST,
# ALL) and its rank column, and range joins written by hand (σ over
# ×, ⨝, ⟕, ⋉, ▷ with endpoint comparisons: the optimizer's IJOIN-001, off under --no-optimize),
# on random small tables with NULLs,
# duplicates, equal, empty and inverted intervals. Each seed's cases run under every planner
# switch; every output must equal the oracle's, byte for byte.
relix=$PWD/$RELIX
oracle=$PWD/tests/temporal_oracle.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
total=0
for seed in 1 2 3 4 5; do
  python3 "$oracle" $seed 400 s.rx want.csv
  n=$(grep -c '^query' s.rx)
  for sw in "" "--ijoin-algo nested-loop" "--ijoin-algo fast" "--asof-algo nested-loop" \
            "--asof-algo binary-search" "--asof-algo merge" "--no-optimize" "--threads 1"; do
    "$relix" $sw --format csv s.rx > got.csv 2> err.txt
    rc=$?
    if [ $rc -ne 0 ] || ! cmp -s got.csv want.csv; then
      echo "seed $seed ${sw:-default}: exit $rc, differs"
      diff want.csv got.csv | head -n 10
      head -n 5 err.txt
    fi
    total=$((total + n))
  done
done
[ $total -gt 5000 ] && echo "over 5000 queries compared"
echo "done"
