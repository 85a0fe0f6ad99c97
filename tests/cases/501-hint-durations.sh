# DURATION literals, to_duration() and WITHIN in everyday spellings: each error names the ISO
# forms and, when the text reads as a duration, offers its ISO spelling; a text that reads as
# none gets no guess; an ISO text with a mistake keeps its own reason.
P='One := [
| x |
|---|
| 1 |
];
'
for d in '2 minutes' '5m' '1h30m' '2 hours' '1 day' '90s' '250ms' '00:02:30' '1 week, 2 days' \
         '3 months' '1.5 hours' '2 hours and 10 sec' 'soon' '5 parsecs' 'P1H'; do
  echo "== DURATION '$d'"
  "$RELIX" -e "${P}query { π DURATION '$d' → d (One) };" 2>&1
  echo "exit $?"
done
echo "== to_duration('5m')"
"$RELIX" -e "${P}query { π to_duration('5m') → d (One) };" 2>&1
echo "exit $?"
echo "== to_duration('5 furlongs'): no guess"
"$RELIX" -e "${P}query { π to_duration('5 furlongs') → d (One) };" 2>&1
echo "exit $?"
echo "== and the ISO spellings run"
"$RELIX" -e "${P}query { π DURATION 'PT2M' → a, DURATION 'PT1H30M' → b, DURATION 'PT0.25S' → c, DURATION 'P9D' → e (One) };" 2>&1
echo "exit $?"
