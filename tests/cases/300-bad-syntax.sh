# Malformed scripts: every rule of docs/grammar.md broken at least once, each run with -e and
# printed as "== what is broken", relix's message, then the exit status (always 1).
P='T := [
| a | b | s | e |
|---|---|---|---|
| 1 | x | 1 | 5 |
];
U := { T };
'
run() { echo "== $1"; "$RELIX" -e "$P$2" 2>&1; echo "exit $?"; }
raw() { echo "== $1"; "$RELIX" -e "$2" 2>&1; echo "exit $?"; }

# script, statement
raw 'script: a lone ;' ';'
raw 'script: ;; after a statement' 'T := { T };;'
raw 'statement: name without :=' 'T;'
raw 'statement: = instead of :=' 'T = { T };'
raw 'statement: nothing after :=' 'T := ;'
raw 'statement: no name before :=' ':= { T };'
raw 'statement: number as a name' '1 := { T };'
raw 'statement: query without {' 'query T;'
raw 'statement: query without }' 'query { T ;'
raw 'statement: query without ;' 'query { T }'
raw 'statement: empty query' 'query { };'
raw 'statement: view without ;' 'V := { T } query { V };'
raw 'statement: view without }' 'V := { T ;'
raw 'statement: unknown word' 'select * from T;'
raw 'statement: into without csv' "query { T } into 'x.csv';"
raw 'statement: into json(...)' "query { T } into json('x.json');"
raw 'statement: into csv() without a path' 'query { T } into csv();'
raw 'statement: into csv(path) not a string' 'query { T } into csv(out);'
raw 'statement: into csv without )' "query { T } into csv('x.csv';"
raw 'statement: into csv(...) without ;' "query { T } into csv('x.csv')"
# connect(...)
raw 'connect: no URI' 'C := connect();'
raw 'connect: URI not a string' 'C := connect(sqlite);'
raw 'connect: two arguments' "C := connect('sqlite:a.db', 'b');"
raw 'connect: no )' "C := connect('sqlite:a.db';"
raw 'connect: no ;' "C := connect('sqlite:a.db')"
# csv(...)
raw 'csv: no path' 'X := csv();'
raw 'csv: path not a string' 'X := csv(data);'
raw 'csv: no ) ' "X := csv('a.csv';"
raw 'csv: option without =>' "X := csv('a.csv', delimiter ';');"
raw 'csv: option without name' "X := csv('a.csv', => ';');"
raw 'csv: option without value' "X := csv('a.csv', delimiter => );"
raw 'csv: no comma between options' "X := csv('a.csv', header => FALSE null => 'NA');"
raw 'csv: no ;' "X := csv('a.csv')"
# table, header, separator, row, cell
raw 'table: no ]' 'T := [
| a |
|---|
| 1 |
query { T };'
raw 'table: header only' 'T := [
| a |
];'
raw 'table: nothing at all' 'T := [
];'
raw 'header: no leading |' 'T := [
a | b |
|---|---|
];'
raw 'header: no trailing |' 'T := [
| a | b
|---|---|
];'
raw 'header: empty name' 'T := [
| a |  |
|---|---|
];'
raw 'header: two columns with one name' 'T := [
| a | a |
|---|---|
| 1 | 2 |
];'
raw 'separator: fewer columns than the header' 'T := [
| a | b |
|---|
| 1 | 2 |
];'
raw 'separator: not dashes' 'T := [
| a |
|-x-|
| 1 |
];'
raw 'separator: missing' 'T := [
| a |
| 1 |
];'
raw 'row: fewer cells than the header' 'T := [
| a | b |
|---|---|
| 1 |
];'
raw 'row: more cells than the header' 'T := [
| a | b |
|---|---|
| 1 | 2 | 3 |
];'
raw 'row: no leading |' 'T := [
| a |
|---|
1 |
];'
raw 'row: text after the last | that is not a comment' 'T := [
| a |
|---|
| 1 | two
];'
raw 'cell: unterminated quote' "T := [
| a |
|---|
| 'abc |
];"
raw 'table: no ; after ]' 'T := [
| a |
|---|
| 1 |
]
query { T };'
# rel_unary
run 'σ: no condition' 'query { σ (T) };'
run 'σ: no operand' 'query { σ a = 1 };'
run 'π: no items' 'query { π (T) };'
run 'π: trailing comma' 'query { π a, (T) };'
run 'π: no operand' 'query { π a };'
run 'ρ: nothing to rename' 'query { ρ (T) };'
run 'ρ: no new name after →' 'query { ρ a → (T) };'
run 'ρ: new name not a name' 'query { ρ a → 1 (T) };'
run 'ρ: two names without →' 'query { ρ a b (T) };'
run 'ρ: trailing comma' 'query { ρ a → x, (T) };'
run 'ρ: → without the old name' 'query { ρ → x (T) };'
run 'δ: a number as operand' 'query { δ 1 };'
run 'δ: no operand' 'query { δ };'
run 'τ: no sort key' 'query { τ (T) };'
run 'τ: ASC and DESC' 'query { τ a ASC DESC (T) };'
run 'τ: NULLS without FIRST or LAST' 'query { τ a NULLS MIDDLE (T) };'
run 'TOP: no count' 'query { TOP (T) };'
run 'TOP: negative count' 'query { TOP -1 (T) };'
run 'TOP: fractional count' 'query { TOP 1.5 (T) };'
run 'TOP: count too large' 'query { TOP 99999999999999999999 (T) };'
run 'TOP: PER without keys' 'query { TOP 1 PER (T) };'
run 'TOP: BY without keys' 'query { TOP 1 BY (T) };'
run 'γ: nothing' 'query { γ (T) };'
run 'γ: keys without aggregates' 'query { γ a; (T) };'
run 'γ: empty key list' 'query { γ ; count(*) (T) };'
# joins and set operations
run 'join: no right operand' 'query { T ⨝ };'
run 'join: condition without right operand' 'query { T ⨝ a = 1 };'
run 'join: condition that does not end' 'query { T ⨝ T.a = (T) };'
run 'join: × with a condition' 'query { T × T.a = 1 T };'
run 'join: JOIN JOIN' 'query { T JOIN JOIN T };'
run 'join: ⟕ without right operand' 'query { T ⟕ };'
run 'join: ▷ with a condition but no comparison' 'query { T ▷ a + 1 U };'
run 'join: FJOIN with a condition that does not end' 'query { T FJOIN T.a = };'
run 'setop: no right operand' 'query { T ∪ };'
run 'setop: two operators' 'query { T ∪ ∪ T };'
run 'setop: MINUS without left' 'query { MINUS T };'
# operand, alias, item
run 'operand: no )' 'query { (T };'
run 'operand: empty ()' 'query { () };'
run 'operand: two aliases' 'query { T A B };'
run 'operand: a number' 'query { 1 };'
run 'operand: unknown relation' 'query { Nope };'
run 'operand: connection without table name' 'query { T. };'
run 'operand: alias that is a keyword' 'query { T JOIN };'
run 'item: → without name' 'query { π a → (T) };'
run 'item: → a string' "query { π a → 'x' (T) };"
# ijoin
run 'IJOIN: no relation' 'query { T IJOIN (T.s, T.e, U.s, U.e) U };'
run 'IJOIN: unknown relation' 'query { T IJOIN BEFORE (T.s, T.e, U.s, U.e) U };'
run 'IJOIN: three endpoints' 'query { T IJOIN OVERLAPS (T.s, T.e, U.s) U };'
run 'IJOIN: five endpoints' 'query { T IJOIN OVERLAPS (T.s, T.e, U.s, U.e, U.a) U };'
run 'IJOIN: endpoints without (' 'query { T IJOIN OVERLAPS T.s, T.e, U.s, U.e U };'
run 'IJOIN: endpoints without )' 'query { T IJOIN OVERLAPS (T.s, T.e, U.s, U.e U };'
run 'IJOIN: endpoint not a column' 'query { T IJOIN OVERLAPS (T.s + 1, T.e, U.s, U.e) U };'
run 'IJOIN: no right operand' 'query { T IJOIN OVERLAPS (T.s, T.e, U.s, U.e) };'
# asof
run 'ASOF: no condition' 'query { T ASOF U };'
run 'ASOF: WITHIN without bound' 'query { T ASOF T.s >= U.s WITHIN U };'
run 'ASOF: TIES without (' 'query { T ASOF T.s >= U.s TIES FIRST U };'
run 'ASOF: TIES (MIDDLE)' 'query { T ASOF T.s >= U.s TIES (MIDDLE) U };'
run 'ASOF: TIES without )' 'query { T ASOF T.s >= U.s TIES (FIRST U };'
run 'ASOF: no right operand' 'query { T ASOF T.s >= 1 };'
run 'ASOF: INNER without condition' 'query { T ASOF INNER U };'
run 'ASOF: WITHIN after TIES' 'query { T ASOF T.s >= U.s TIES (FIRST) WITHIN 1 U };'
# expr, and, not, cmp
run 'expr: or without right side' 'query { σ a = 1 or (T) };'
run 'and: ∧ without right side' 'query { σ a = 1 ∧ (T) };'
run 'not: ¬ without operand' 'query { σ ¬ (T) };'
run 'cmp: = =' 'query { σ a = = 1 (T) };'
run 'cmp: chained comparison' 'query { σ 1 < a < 3 (T) };'
run 'cmp: IS without NULL' 'query { σ a IS 1 (T) };'
run 'cmp: IS NOT without NULL' 'query { σ a IS NOT (T) };'
run 'cmp: IN without (' 'query { σ a IN 1, 2 (T) };'
run 'cmp: IN ()' 'query { σ a IN () (T) };'
run 'cmp: IN without )' 'query { σ a IN (1, 2 (T) };'
run 'cmp: IN with trailing comma' 'query { σ a IN (1, 2,) (T) };'
run 'cmp: NOT BETWEEN without AND' 'query { σ a NOT BETWEEN 1 (T) };'
run 'cmp: NOT without IN or BETWEEN' 'query { σ a NOT 1 (T) };'
run 'cmp: BETWEEN without AND' 'query { σ a BETWEEN 1 (T) };'
run 'cmp: BETWEEN ... OR' 'query { σ a BETWEEN 1 OR 2 (T) };'
# add, mul, unary
run 'add: + without right side' 'query { π a + (T) };'
run 'add: || without right side' 'query { π b || (T) };'
run 'mul: * without right side' 'query { π a * (T) };'
run 'mul: % without left side' 'query { π % a (T) };'
run 'unary: - alone' 'query { π - (T) };'
# primary
run 'primary: TIMESTAMP without a string' 'query { π TIMESTAMP 1 (T) };'
run 'primary: CASE without WHEN' 'query { π CASE a END (T) };'
run 'primary: CASE WHEN without THEN' 'query { π CASE WHEN a = 1 (T) };'
run 'primary: CASE without END' 'query { π CASE WHEN a = 1 THEN 2 (T) };'
run 'primary: ELSE without value' 'query { π CASE WHEN a = 1 THEN 2 ELSE END (T) };'
run 'primary: CASE END' 'query { π CASE END (T) };'
run 'primary: call without )' 'query { π abs(a (T) };'
run 'primary: call with trailing comma' 'query { π abs(a,) (T) };'
run 'primary: unknown function' 'query { π absolute(a) + 1 → x (T) };'
run 'primary: DATE with a number' 'query { π DATE 2026 → x (T) };'
run 'primary: CASE WHEN THEN without condition' 'query { π CASE WHEN THEN 1 END (T) };'
run 'primary: count(* without )' 'query { γ count(* (T) };'
run 'primary: DISTINCT without argument' 'query { γ count(DISTINCT) (T) };'
run 'primary: ( expr without )' 'query { π (a + 1 (T) };'
run 'primary: empty ( )' 'query { π () (T) };'
# colref, name, string, integer, number
run 'colref: qualifier without name' 'query { π T. (T) };'
run 'colref: name after . is a number' 'query { π T.1 (T) };'
run 'colref: three parts' 'query { π T.a.b (T) };'
run 'name: unterminated quoted name' 'query { π "a (T) };'
run 'name: empty quoted name' 'query { π "" (T) };'
run 'string: unterminated' "query { π 'abc (T) };"
run 'integer: too large' 'query { π 99999999999999999999 → n (T) };'
run 'number: exponent without digits' 'query { π 1e → n (T) };'
run 'number: two points' 'query { π 1.5.5 → n (T) };'
run 'number: letters after digits' 'query { π 12abc → n (T) };'
run 'number: hexadecimal' 'query { π 0x1F → n (T) };'
run 'number: out of range' 'query { π 1e999 → n (T) };'
# characters
run 'character: $' 'query { π $a (T) };'
run 'character: single :' 'query { π a : (T) };'
run 'character: single !' 'query { σ !a (T) };'
run 'character: single |' 'query { π a | b (T) };'
run 'character: control byte' "query { π a$(printf '\001') (T) };"
run 'character: unknown symbol' 'query { π a € b (T) };'
