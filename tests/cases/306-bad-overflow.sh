# Integer overflow: in each arithmetic operator, unary minus, abs, round, conversions, and in
# sum() per group and overall. An overflow is an error at the operator (exit 1), never a
# wrapped value; a sum whose partial totals pass 64 bits but whose total fits is that total;
# INT64_MIN % -1 and the division of INT64_MIN by -1 (a FLOAT) are defined. FLOAT arithmetic is
# IEEE 754's (docs/grammar.md): past about 1.8e308 it gives Infinity, in operators and in sum
# and avg alike, and Infinity − Infinity is NaN; division by zero is an error for FLOAT too.
P='T := [
| a | mn | mx |
|---|---|---|
| 1 | -9223372036854775808 | 9223372036854775807 |
];
G := [
| g | v |
|---|---|
| up | 9223372036854775807 |
| up | 1 |
| down | -9223372036854775808 |
| down | -1 |
| back | 9223372036854775807 |
| back | 1 |
| back | -2 |
| none | |
];
D := [
| g | d |
|---|---|
| up | PT2562047788H |
| up | PT2562047788H |
| back | PT2562047788H |
| back | PT2562047788H |
| back | -PT2562047788H |
];
'
run() { echo "== $1"; "$RELIX" -e "${P}query { $1 };" 2>&1; echo "exit $?"; }
for e in "mx + a" "mn - a" "mx * 2" "mn * -1" "-mn" "-(mn)" "abs(mn)" "mx * mx" "mn + mn" \
         "round(mx, -1)" "round(mx, -19)" "round(mx, -20)" "to_int(9223372036854775807.0)" \
         "to_int('-9223372036854775809')" "to_int(-1e19)" "mn % -1" "mn / -1" "mx % 0"; do
  run "π $e → x (T)"
done
run "γ sum(v) → s (G)"
run "γ g; sum(v) → s (G)"
run "γ g; sum(v) → s (σ g = 'back' ∨ g = 'none' (G))"
run "γ g; count(v) → n, avg(v) → m (σ g = 'up' ∨ g = 'down' (G))"
run "γ g; sum(to_duration(d)) → s (σ g = 'up' (D))"
run "γ g; sum(to_duration(d)) → s (σ g = 'back' (D))"
run "π DURATION 'PT2562047788H' * 2 → x (T)"
F='F := [
| g | f |
|---|---|
| a | 1e308 |
| a | 1e308 |
| b | -1e308 |
| b | -1e308 |
];
'
runf() { echo "== $1"; "$RELIX" -e "${F}query { $1 };" 2>&1; echo "exit $?"; }
runf "π g, f * 10 → x, f + f → y, (f * 10) - (f * 10) → z (F)"
runf "γ g; sum(f) → s, avg(f) → m, min(f) → lo (F)"
runf "γ sum(f) → s (F)"
runf "π f / 0.0 → x (F)"
runf "π to_int(f * 10) → x (F)"
