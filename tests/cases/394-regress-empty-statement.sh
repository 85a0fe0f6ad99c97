# Regression, issue #7 (fuzzing finding parse-empty-statement): a lone ';' (or ';;') was
# accepted silently as an empty statement, though docs/grammar.md has none. It is an error at
# the ';' ("a statement expected, found ';'"), wherever it stands; the ';' inside
# γ keys; aggregates is not a statement end and still works.
P='T := [
| a |
|---|
| 1 |
];
'
run() { echo "== $1"; printf '%s' "$2" | "$RELIX" 2>&1; echo "exit $?"; }
run 'a lone ;' ';'
run 'two ;' ';;'
run '; before the first statement' ";
${P}query { T };"
run '; between two statements' "${P};
query { T };"
run ';; after a statement' "${P}query { T };;"
run '; after the last statement, on its own line' "${P}query { T };
;"
run 'γ keys; aggregates still parse' "${P}query { γ a; count(*) → n (T) };"
