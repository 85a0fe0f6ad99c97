# Issue #26: time zones against DuckDB's (ICU) on the same random data (tests/diff/tz.mjs): instants
# and wall-clock times crowded around DST changes in fourteen zones (half-hour and 45-minute
# offsets, southern hemisphere, a 30-minute DST), one zone per row. at_time_zone and
# to_utc_timestamp (gaps and overlaps by PostgreSQL's rule, which ICU shares), date_trunc in a zone,
# and time_bucket in a zone by days, weeks, months, quarters, years and by exact lengths, also
# under γ, must give DuckDB's values.
root=$PWD
RELIX=$root/$RELIX
tests/parquet/peers.sh || { echo "the peers (node, DuckDB) are missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node tests/diff/tz.mjs gen "$tmp/t.csv" || exit 1
cd "$tmp"
T="T := csv('t.csv', types => 'z TEXT, ts TIMESTAMP, l TIMESTAMP');"
"$RELIX" -f jsonl -e "$T query { π id, at_time_zone(ts, z) → local, to_utc_timestamp(l, z) → utc (T) };" > convert.jsonl || exit 1
"$RELIX" -f jsonl -e "$T query { π id, date_trunc('day', ts, z) → d, date_trunc('week', ts, z) → w,
  date_trunc('month', ts, z) → m, date_trunc('year', ts, z) → y, date_trunc('hour', ts, z) → h (T) };" > trunc.jsonl || exit 1
"$RELIX" -f jsonl -e "$T query { π id, time_bucket(DURATION 'P1D', ts, z) → d1, time_bucket(DURATION 'P7D', ts, z) → d7,
  time_bucket(DURATION 'P1M', ts, z) → m1, time_bucket(DURATION 'P3M', ts, z) → m3, time_bucket(DURATION 'P1Y', ts, z) → y1,
  time_bucket(DURATION 'PT1H', ts, z) → h1, time_bucket(DURATION 'PT15M', ts, z) → m15,
  time_bucket(DURATION 'PT90M', ts, z) → m90 (T) };" > buckets.jsonl || exit 1
"$RELIX" -f jsonl -e "$T query { τ z, b (γ z, time_bucket(DURATION 'P1M', ts, z) → b; count(*) → n (T)) };" > bucket_group.jsonl || exit 1
node "$root/tests/diff/tz.mjs" check t.csv .
