# Temporal values out of range (years 0001 to 9999): literals, offsets that cross the edge,
# arithmetic past either end, conversions from numbers, the most negative DURATION, and the
# extreme values that are still valid. Errors name the range (exit 1); the edges run.
P='T := [
| a |
|---|
| 1 |
];
'
run() { echo "== $1"; "$RELIX" -e "${P}query { π $1 → x (T) };" 2>&1; echo "exit $?"; }
run "TIMESTAMP '0000-12-31T23:59:59Z'"
run "TIMESTAMP '10000-01-01T00:00:00Z'"
run "TIMESTAMP '9999-12-31T23:59:59-01:00'"
run "TIMESTAMP '0001-01-01T00:30:00+01:00'"
run "TIMESTAMP '2026-01-01T24:00:00Z'"
run "TIMESTAMP '2026-01-01T10:00:00+24:00'"
run "DATE '0000-01-01'"
run "DATE '9999-12-32'"
run "TIME '24:00:00'"
run "DURATION 'P9223372036854775807Y'"
run "DURATION 'PT9223372036854775808S'"
run "TIMESTAMP '9999-12-31T23:59:59.999999Z' + DURATION 'PT0.000001S'"
run "TIMESTAMP '0001-01-01T00:00:00Z' - DURATION 'PT0.000001S'"
run "TIMESTAMP '9999-12-31T00:00:00Z' + DURATION 'P1M' - DURATION 'P1M'"
run "TIMESTAMP '2026-01-01T00:00:00Z' + DURATION 'P10000Y'"
run "TIMESTAMP '2026-01-01T00:00:00Z' - DURATION '-P768614336404564650Y8M'"
run "TIMESTAMP '2026-01-01T00:00:00Z' - DURATION '-PT2562047788H54.775808S'"
run "DATE '9999-12-31' + 1"
run "DATE '0001-01-01' - 1"
run "DATE '2026-01-01' + 9223372036854775807"
run "DATE '9999-12-31' + DURATION 'PT24H'"
run "to_timestamp(253402300800)"
run "to_timestamp(253402300799.9999999)"
run "to_timestamp(-62135596801)"
run "to_timestamp(9223372036854775807)"
run "to_timestamp(1e300)"
run "to_timestamp('10000-01-01')"
run "to_duration(9223372036854775807)"
run "to_duration(1e300)"
run "date_trunc('year', TIMESTAMP '0001-03-01T00:00:00Z')"
run "TIMESTAMP '9999-12-31T23:59:59.999999Z' - TIMESTAMP '0001-01-01T00:00:00Z'"
run "DATE '9999-12-31' - DATE '0001-01-01'"
run "to_timestamp(253402300799.5)"
run "extract('epoch', TIMESTAMP '0001-01-01T00:00:00Z')"
run "DURATION '-PT2562047788H54.775808S'"
run "TIME '23:00:00' + DURATION 'PT2562047788H'"
