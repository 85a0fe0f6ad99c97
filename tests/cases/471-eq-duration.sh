# 471-eq-duration.rx as a golden case, then the same queries with nested-loop joins and with no
# rewrites: every switch must print the same bytes.
a=$("$RELIX" tests/cases/471-eq-duration.rx 2>&1)
printf '%s\n' "$a"
for sw in --no-hashjoin --no-optimize; do
  b=$("$RELIX" $sw tests/cases/471-eq-duration.rx 2>&1)
  [ "$a" = "$b" ] && echo "$sw: the same" || { echo "$sw DIFFERS:"; diff <(printf '%s\n' "$a") <(printf '%s\n' "$b"); }
done
