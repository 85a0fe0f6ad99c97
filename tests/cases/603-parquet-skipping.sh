# A query reads only the columns it uses from a Parquet file, and a σ directly over the file
# skips the row groups whose min/max statistics prove a conjunct `column op constant` false
# (EXPLAIN: "reads K of N row groups"); the rows are those of the same query over the CSV
# the file was written from, whatever the row groups hold (NULLs only, NaN, text, dates).
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat > in.csv <<'CSV'
id,sym,px,d,ts
1,AAA,10.5,2024-01-01,2024-01-01T09:00:00Z
2,AAA,11,2024-01-02,2024-01-01T09:00:01Z
3,BBB,,2024-01-03,2024-01-01T09:00:02Z
4,BBB,,2024-01-04,2024-01-01T09:00:03.5Z
5,CCC,NaN,2024-01-05,
6,CCC,-3,2024-01-06,
7,DDD,9007199254740993,2024-01-07,2024-01-01T10:00:00Z
8,DDD,0,2024-01-08,2024-01-01T10:00:01Z
CSV
"$RELIX" -e "C := csv('in.csv'); query { C } into parquet('rg.parquet', row_group_size => 2);"; echo "exit $?"
for cond in "id >= 5" "id > 8" "2 > id" "sym = 'BBB'" "sym < 'B'" "px > 10" "px < 0" "px = 9007199254740993" \
            "d <= DATE '2024-01-02'" "ts >= TIMESTAMP '2024-01-01T09:00:03Z'" "id = 3 ∧ sym = 'BBB'" \
            "id = 3 ∨ id = 8" "px IS NULL"; do
    echo "== σ $cond"
    "$RELIX" --explain -e "P := parquet('rg.parquet'); query { σ $cond (P) };" | sed -n '/Physical plan/,$p' | grep Scan
    "$RELIX" -f csv -e "P := parquet('rg.parquet'); query { σ $cond (P) };" > p.out
    "$RELIX" -f csv -e "C := csv('in.csv'); query { σ $cond (C) };" > c.out
    cmp -s p.out c.out && echo "same rows as the CSV ($(($(wc -l < c.out) - 1)))" || { echo "rows differ:"; diff p.out c.out; }
done
echo "== a σ in a view, and one the optimizer pushes below a join"
"$RELIX" --explain -e "P := parquet('rg.parquet'); V := { σ id > 6 (P) }; query { V }; query { σ id > 6 (P ⨝ P X) };" | grep Scan
echo "== π: only the columns used are decoded"
"$RELIX" --explain -e "P := parquet('rg.parquet'); query { π sym (σ id > 6 (P)) };" | grep Scan
echo "== one session, the whole file and a part of it"
"$RELIX" -f csv -e "P := parquet('rg.parquet'); query { σ id > 6 (P) }; query { γ count(*) → n (P) }; query { σ id > 6 (P) };"
