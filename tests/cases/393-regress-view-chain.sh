# Regression, issue #7 (fuzzing finding optimize-view-chain): 50,000 views, each of the one
# before, inlined into a plan 50,000 deep, and optimize() recursed once per node into a stack
# overflow (SIGSEGV, exit 139; 2,900 views were enough in the sanitizer build). Inlining now
# bounds the plan (docs/grammar.md, "Limits"): no path holds more than 1,000 operators, which a
# chain of 1,000 views (V0 to V999, each a rename of the one before) reaches, and the plan no
# more than 100,000 operators in all. The error points at the view the query names. Also:
# - views defined in the opposite order (V0 uses V1, which uses V2 ...) are analyzed by
#   recursion; more than 1,000 in a row are an error at the first view;
# - a view that uses the one before twice doubles the plan at each level: 20 levels are a
#   million operators, an error, not minutes of work;
# - 499 views each with a σ over the one before (1,000 levels: ρ σ ρ σ ...) run, in well under a
#   second: the optimizer used to optimize again every subtree a condition moved into, time and
#   memory cubic in the depth (200 such views took 8 s and 1.8 GB).
# 5,000 views here rather than the finding's 50,000: defining that many takes a minute (the
# catalog looks names up one by one), the limit is the same.
P='T := [
| a |
|---|
| 1 |
];
'
run() { echo "== $1"; printf '%s' "$2" | "$RELIX" 2>&1; echo "exit $?"; }
# chain N BODY: views V1 to VN, each BODY with @ for the view before.
chain() { local i; for ((i = 1; i <= $1; i++)); do printf 'V%d := { %s };\n' "$i" "${2//@/V$((i - 1))}"; done; }
run '5,000 views, each of the one before' "${P}V0 := { T };
$(chain 5000 '@')
query { V5000 };"
run '1,001 views, each of the one before' "${P}V0 := { T };
$(chain 1000 '@')
query { V1000 };"
run 'a query that uses the chain of 1,000 views under an operator' "${P}V0 := { T };
$(chain 999 '@')
query { σ a = 1 (V999) };"
run '5,000 views, each of the next' "${P}$(for ((i = 0; i < 5000; i++)); do printf 'V%d := { V%d };\n' "$i" $((i + 1)); done)
V5000 := { T };
query { V0 };"
run '1,000 views, each of the next' "${P}$(for ((i = 0; i < 999; i++)); do printf 'V%d := { V%d };\n' "$i" $((i + 1)); done)
V999 := { T };
query { V0 };"
run '20 views, each the union of the one before with itself' "${P}V0 := { T };
$(chain 20 '@ ∪ @')
query { V20 };"
run '14 such views: 65,534 operators' "${P}V0 := { T };
$(chain 14 '@ ∪ @')
query { V14 };"
run '499 views, each a σ over the one before' "${P}V0 := { σ a = 1 (T) };
$(chain 499 'σ a = 1 (@)')
query { V499 };"
