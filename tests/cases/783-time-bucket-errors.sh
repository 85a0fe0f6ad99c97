# time_bucket / date_bin errors, each at its argument: a width that is not a DURATION, zero,
# negative, mixing months with a fixed length, months in date_bin, a value or origin that is no
# time, the argument counts; then run-time errors of a width per row (zero) and of a bucket
# that starts before year 1.
relix=$PWD/$RELIX
T='Raw := [
| ts                   | w    |
|----------------------|------|
| 2026-01-02T09:00:00Z | PT0S |
| 0001-01-01T00:10:00Z | PT1H |
];
T := { π to_timestamp(ts) → ts, to_duration(w) → w (Raw) };'
run() { "$relix" -e "$T $1"; echo "exit $?"; }
run 'query { π time_bucket(5, ts) → b (T) };'
run 'query { π time_bucket(DURATION '"'"'PT0S'"'"', ts) → b (T) };'
run 'query { π time_bucket(DURATION '"'"'-PT5M'"'"', ts) → b (T) };'
run 'query { π time_bucket(DURATION '"'"'P1MT1H'"'"', ts) → b (T) };'
run 'query { π date_bin(DURATION '"'"'P1M'"'"', ts, ts) → b (T) };'
run 'query { π time_bucket(DURATION '"'"'PT5M'"'"', w) → b (T) };'
run 'query { π time_bucket(DURATION '"'"'PT5M'"'"', ts, 0) → b (T) };'
run 'query { π date_bin(DURATION '"'"'PT5M'"'"', ts) → b (T) };'
run 'query { π time_bucket(DURATION '"'"'PT5M'"'"') → b (T) };'
run 'query { π time_bucket(w, ts) → b (T) };'
run 'query { π date_bin(DURATION '"'"'PT1H'"'"', ts, TIMESTAMP '"'"'2026-01-01T00:30:00Z'"'"') → b (T) };'
