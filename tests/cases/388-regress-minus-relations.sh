# Regression: `π dept (D) - π dept (E)` stopped with "unknown function 'dept'": the parser took
# `dept (D) - …` for a call of an unknown function followed by a scalar '-'. After '-', a name,
# '(' or a relational operator now keeps the relational reading (ASCII '-' as well as '−'),
# while a call of an unknown function followed by '-' and a number still names the function.
P='D := [
| dept  | site |
|-------|------|
| sales | A    |
| ops   | B    |
| hr    | A    |
];
E := [
| dept  | n |
|-------|---|
| ops   | 3 |
];
'
run() { echo "== $1"; "$RELIX" -e "${P}query { $1 };" 2>&1; echo "exit $?"; }
for q in 'π dept (D) - π dept (E)' 'π dept (D) − π dept (E)' 'π dept (D) - (π dept (E))' \
         'π dept (D) - PI dept (E)' 'π dept (D) - ρ dept → dept (π dept (E))' \
         'π dept, site (D) - π dept, site (D)' 'π lenght(dept) - 1 → x (D)'; do
  run "$q"
done
