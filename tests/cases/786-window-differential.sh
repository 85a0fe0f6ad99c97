# ω, time_bucket/date_bin and FILL against DuckDB on the same random data (tests/diff/window.mjs):
# several keys (one NULL), times with ties, gaps and NULLs from 1990 to 2030, INT and FLOAT values
# with NULLs; every window function and frame, fixed, weekly, monthly and quarterly buckets and an
# origin, γ over buckets, and gap filling with previous and linear values must give DuckDB's rows.
root=$PWD
RELIX=$root/$RELIX
tests/parquet/peers.sh || { echo "the peers (node, DuckDB) are missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node tests/diff/window.mjs gen "$tmp/t.csv" || exit 1
cd "$tmp"
T="T := csv('t.csv', types => 'k TEXT, ts TIMESTAMP, x INT, f FLOAT');"
"$RELIX" -f jsonl -e "$T query { π id, rn, rk, dr, lg, ld, l0, rs, c3, a4, s5, n5, mn5, mx90, a1h, fv, lv, mx7 (
  ω PER k BY ts; row_number() → rn, rank() → rk, dense_rank() → dr, lag(x) → lg, lead(x, 2, -1) → ld,
  lag(f, 0) → l0, sum(x) → rs, count(x) OVER 3 ROWS PRECEDING → c3, avg(f) OVER 4 ROWS PRECEDING → a4,
  sum(x) OVER DURATION 'PT5M' PRECEDING → s5, count(*) OVER DURATION 'PT5M' PRECEDING → n5,
  min(x) OVER DURATION 'PT5M' PRECEDING → mn5, max(f) OVER DURATION 'PT90S' PRECEDING → mx90,
  avg(x) OVER DURATION 'PT1H' PRECEDING → a1h, first_value(x) OVER DURATION 'PT5M' PRECEDING → fv,
  last_value(f) → lv, max(x) OVER 7 ROWS PRECEDING → mx7 (T)) };" > window.jsonl || exit 1
"$RELIX" -f jsonl -e "$T query { π id, time_bucket(DURATION 'PT5M', ts) → b5, time_bucket(DURATION 'P7D', ts) → wk,
  time_bucket(DURATION 'P1M', ts) → mo, time_bucket(DURATION 'P3M', ts) → q,
  date_bin(DURATION 'PT15M', ts, TIMESTAMP '2026-01-02T09:07:00Z') → db (T) };" > buckets.jsonl || exit 1
"$RELIX" -f jsonl -e "$T query { τ b (γ time_bucket(DURATION 'PT1H', ts) → b; count(*) → n, sum(x) → sx (σ ts IS NOT NULL (T))) };" > bucket_group.jsonl || exit 1
"$RELIX" -f jsonl -e "$T query { FILL ts EVERY DURATION 'PT1M' PER k USING v => previous, fv => linear (
  γ k, time_bucket(DURATION 'PT1M', ts) → ts; max(x) → v, avg(f) → fv (σ ts ≥ TIMESTAMP '2026-01-01' ∧ ts < TIMESTAMP '2026-02-01' (T))) };" > fill.jsonl || exit 1
node "$root/tests/diff/window.mjs" check t.csv .
