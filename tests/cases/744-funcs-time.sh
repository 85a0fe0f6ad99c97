# Issue #26: now() is the statement time, one value per query; RELIX_NOW pins it for tests.
RELIX_NOW=2026-03-04T05:06:07Z "$RELIX" tests/cases/744-funcs-time.rx
echo "exit $?"
# unpinned: the clock, the same value everywhere in the query
"$RELIX" -e "One := [
| x |
|---|
| 1 |
];
query { π now() = now() → same, now() > TIMESTAMP '2026-01-01' → after (One) };"
echo "exit $?"
