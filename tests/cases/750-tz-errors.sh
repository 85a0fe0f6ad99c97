# Issue #26: the errors of the time zone functions. A constant zone is checked before anything
# runs, at its literal, with the nearest database name as a hint; a zone from a column fails at
# run time naming the value; no path outside the database is ever opened; a missing database
# says how to install one; results outside the TIMESTAMP range are errors.
T='A := [
| ts                   | z             |
|----------------------|---------------|
| 2026-01-02T09:00:00Z | Europe/Berlin |
| 2026-01-02T10:00:00Z | Mars/Olympus  |
];
B := { π to_timestamp(ts) → ts, z (A) };
'
run() { "$RELIX" -e "$T$1" 2>&1; echo "exit $?"; }
run "query { π at_time_zone(ts, 'Europe/Berln') → w (B) };"
run "query { π at_time_zone(ts, 'Berlin') → w (B) };"
run "query { π date_trunc('day', ts, 'Nowhere/Special') → w (B) };"
run "query { π at_time_zone(ts, z) → w (B) };"
run "query { π at_time_zone(ts, '../../../etc/passwd') → w (B) };"
run "query { π at_time_zone(ts, 'zone1970.tab') → w (B) };"
run "query { π at_time_zone(ts, '+24:00') → w (B) };"
run "query { π at_time_zone(ts, 5) → w (B) };"
run "query { π at_time_zone(to_date(ts), 'UTC') → w (B) };"
run "query { π date_trunc('day', to_date(ts), 'UTC') → w (B) };"
run "query { π time_bucket(DURATION 'P1D', to_date(ts), 'UTC') → w (B) };"
run "query { π time_bucket(DURATION 'P1D', ts, 7) → w (B) };"
run "query { π strftime(to_date(ts), '%F', 'UTC') → w (B) };"
run "query { π at_time_zone(TIMESTAMP '9999-12-31T23:00:00Z', 'Asia/Tokyo') → w (B) };"
run "query { π to_utc_timestamp(TIMESTAMP '9999-12-31T23:00:00Z', 'America/New_York') → w (B) };"
# no database: TZDIR names an empty directory (UTC and offsets need none)
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
TZDIR="$empty/none" "$RELIX" -e "${T}query { π at_time_zone(ts, 'Europe/Berlin') → w (B) };" 2>&1; echo "exit $?"
TZDIR="$empty" "$RELIX" -e "${T}query { π at_time_zone(ts, 'UTC') → w, at_time_zone(ts, '-03:30') → nf (B) };" 2>&1; echo "exit $?"
# a file in the database that is not TZif
mkdir -p "$empty/Bad"
printf 'TZif2 but not really' > "$empty/Bad/Zone"
TZDIR="$empty" "$RELIX" -e "${T}query { π at_time_zone(ts, 'Bad/Zone') → w (B) };" 2>&1; echo "exit $?"
