# Regression, issue #7 (fuzzing findings on parse.c's messages): each of these exited 1 with a
# position, but the message did not name the cause. σ (T), π (T), τ (T) and γ (T) read (T) as
# the condition or item, then reported "relation ... expected, found '}'"; TOP (T) and
# TOP 1.5 (T) said "'}' expected"; γ count(* (T) said "expression expected, found '*'"; τ a ASC
# DESC (T) read DESC as a relation. Now the message says what is missing, at the group that was
# meant as the operand. The same shapes with what was missing still run.
P='T := [
| a | b |
|---|---|
| 1 | 2 |
];
'
run() { echo "== $1"; "$RELIX" -e "${P}query { $1 };" 2>&1; echo "exit $?"; }
for q in 'σ (T)' 'σ (a = 1)' 'π (T)' 'π a, (T)' 'π a, b, (T)' 'τ (T)' 'τ a, (T)' 'τ a ASC DESC (T)' \
         'τ a DESC ASC (T)' 'γ (T)' 'γ count(*), (T)' 'γ a; (T)' 'γ a; count(*), (T)' \
         'γ count(* (T)' 'γ count(*, a) (T)' 'TOP (T)' 'TOP 1.5 (T)' 'TOP -1 (T)' 'TOP − 2 (T)' \
         'TOP 1 PER (T)' 'TOP 1 PER a, (T)' 'TOP 1 BY (T)' 'TOP 1 BY a, (T)'; do
  run "$q"
done
echo "== and what now has its parts"
for q in 'σ (a = 1) (T)' 'π (a) (T)' 'π a, (b) (T)' 'τ (a) DESC (T)' 'γ (a); count(*) → n (T)' \
         'TOP 1 (T)' 'TOP 1 PER (a) (T)' 'TOP 1 BY (a) DESC (T)' 'γ count(*) → n (T)'; do
  run "$q"
done
