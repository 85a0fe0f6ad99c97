# Issue #26: time zones against PostgreSQL's on a throwaway cluster (scripts/pg.sh), the second
# oracle after DuckDB (748): the same random rows around DST changes in fourteen zones, read on
# the wall clock (ts AT TIME ZONE z), back from it ((l AT TIME ZONE z), PostgreSQL's rule for
# skipped and repeated times), and truncated in a zone (date_trunc(field, ts, z)), must print
# the same CSV.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap '"$root/scripts/pg.sh" stop "$tmp/pg"; rm -rf "$tmp"' EXIT
port=$(scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
export PGPORT=$port
uri="postgresql://postgres@127.0.0.1/postgres"
node tests/diff/tz.mjs gen "$tmp/t.csv" || exit 1
chmod 644 "$tmp/t.csv"
F="'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'"
psql -q -v ON_ERROR_STOP=1 "$uri" > "$tmp/pg.csv" <<SQL || exit 1
SET TimeZone = 'UTC';
CREATE TABLE t (id int8, z text, ts timestamptz, l timestamp);
\copy t FROM '$tmp/t.csv' WITH (FORMAT csv, HEADER true)
\copy (SELECT id, to_char(ts AT TIME ZONE z, $F) AS local, to_char(l AT TIME ZONE z, $F) AS utc, to_char(date_trunc('day', ts, z), $F) AS d, to_char(date_trunc('week', ts, z), $F) AS w, to_char(date_trunc('month', ts, z), $F) AS m, to_char(date_trunc('year', ts, z), $F) AS y, to_char(date_trunc('hour', ts, z), $F) AS h FROM t ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER true)
SQL
cd "$tmp"
"$RELIX" -f csv -e "T := csv('t.csv', types => 'z TEXT, ts TIMESTAMP, l TIMESTAMP');
query { π id, at_time_zone(ts, z) → local, to_utc_timestamp(l, z) → utc, date_trunc('day', ts, z) → d,
  date_trunc('week', ts, z) → w, date_trunc('month', ts, z) → m, date_trunc('year', ts, z) → y,
  date_trunc('hour', ts, z) → h (T) };" > relix.csv || exit 1
if cmp -s pg.csv relix.csv; then
  echo "same as PostgreSQL: $(($(wc -l < relix.csv) - 1)) rows"
else
  echo "different from PostgreSQL:"
  diff pg.csv relix.csv | head -20
  exit 1
fi
