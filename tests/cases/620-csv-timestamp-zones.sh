# ISO timestamps in every form the reader takes quickly (no zone, Z, z, +HH:MM, -HHMM, +HH; 'T',
# 't' or a space before the clock; 1 to 6 fraction digits) read as the same instants as the
# general parser gives, detected as TIMESTAMP and written back in UTC; values that only look
# like one (an hour 24, a zone past 23:59, a result before year 1) are errors naming the file,
# line and column.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/ts.csv" <<'CSV'
id,ts
1,2026-03-02T14:28:40
2,2026-03-02T14:28:40Z
3,2026-03-02t14:28:40.5z
4,2026-03-02 14:28:40.123456+05:30
5,2026-03-02T14:28:40.1-0800
6,2026-03-02T14:28:40+01
7,2026-03-02T23:59:59.999999-23:59
8,0001-01-01T00:00:00-00:01
9,9999-12-31T23:59:59.999999+01
CSV
"$RELIX" --format csv -e "X := csv('$tmp/ts.csv'); query { X }; query { π ts (σ id = 4 (X)) };"
echo "exit $?"
for bad in "2026-03-02T24:00:00" "2026-03-02T14:28:40+24:00" "0001-01-01T00:00:00+00:01" \
           "2026-03-02T14:28:40.1234567Z"; do
  printf 'id,ts\n1,2026-03-02T14:28:40Z\n2,%s\n' "$bad" > "$tmp/bad.csv"
  "$RELIX" --format csv -e "X := csv('$tmp/bad.csv'); query { X };" > "$tmp/out" 2>&1
  rc=$?
  sed "s|$tmp|TMP|g" "$tmp/out"
  echo "exit $rc"
done
