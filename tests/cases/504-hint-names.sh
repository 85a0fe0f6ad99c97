# The nearest name is offered only when it is close (Damerau-Levenshtein: one edit for names of
# up to four characters, two beyond, a swap of neighbours counting one); a far name gets none.
P='Trades := [
| sym  | price |
|------|-------|
| ACME | 10    |
];
'
run() { echo "== $1"; "$RELIX" -e "${P}query { $1 };" 2>&1; echo "exit $?"; }
run 'π lenght(sym) → n (Trades)'
run 'π uper(sym) → n (Trades)'
run 'π to_timestmap(sym) → n (Trades)'
run 'γ cuont(*) → n (Trades)'
run 'π frobnicate(sym) → n (Trades)'
run 'π sym (Trade)'
run 'π sym (Tardes)'
run 'π sym (Orders)'
run 'π prcie (Trades)'
run 'π volume (Trades)'
