# --explain analyze: the plan as --explain prints it, each operator followed by what it did in
# the run, "(actual rows=N time=T ms self=S ms peak=M)", the peak followed by its share of the
# memory limit ("(3% of 18.8 GiB)": 80% of this machine's memory by default; case 591 checks
# the shares). Times and memory vary from run to run: they are masked to X after their shape
# is checked (the sed only masks well-formed figures, and
# the check below says when a self time exceeds its operator's time, or an operator's time is
# below one of its inputs'). The actual rows are what each operator really produced: each
# "check" runs a subexpression as a query of its own and compares its row count with the
# actual rows of the plan line it names. Covers hash and nested-loop joins, IJOIN, ASOF, σ, π,
# γ, δ, set operations, a query pushed down to SQLite (the pushed node reports the rows the
# database returned) and a query that fails (no plan printed), and the REPL's \explain analyze.
set -u
export LC_ALL=C.UTF-8
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RELIX=$root/$RELIX
cd "$tmp"
# 300 employees in 7 departments, 5 departments; intervals; trades and quotes by symbol
awk 'BEGIN { print "id,dept,salary"; for (i = 1; i <= 300; i++) printf "%d,%d,%d\n", i, i % 7, 50 + (i * 37) % 100 }' > emp.csv
awk 'BEGIN { print "dept,title"; for (d = 0; d < 5; d++) printf "%d,t%d\n", d, d }' > dept.csv
awk 'BEGIN { print "id,s,e"; for (i = 0; i < 200; i++) printf "i%d,%d,%d\n", i, (i * 13) % 500, (i * 13) % 500 + 1 + i % 9 }' > iv.csv
awk 'BEGIN { print "sym,ts,qty"; for (i = 0; i < 150; i++) printf "S%d,%d,%d\n", i % 3, i * 7, i }' > trades.csv
awk 'BEGIN { print "sym,ts,price"; for (i = 0; i < 90; i++) printf "S%d,%d,%d\n", i % 4, i * 11 + 5, 100 + i }' > quotes.csv
sqlite3 shop.db <<'SQL'
CREATE TABLE stays(id INTEGER PRIMARY KEY, room INT, guest TEXT, price REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120)
INSERT INTO stays SELECT i, 100 + i % 6, 'g' || (i % 17), i * 1.5 FROM n;
SQL
head="E := csv('emp.csv'); D := csv('dept.csv'); I := csv('iv.csv');
T := csv('trades.csv'); Q := csv('quotes.csv'); Shop := connect('sqlite:shop.db');"

mask() {
  sed -E 's/\(actual rows=([0-9]+) time=[0-9]+\.[0-9]{3} ms self=[0-9]+\.[0-9]{3} ms peak=([0-9]+ B|[0-9]+\.[0-9] [kMGT]B)( \((<1|[0-9]+)% of [0-9.]+ ([KMGT]i)?B\))?\)/(actual rows=\1 time=X self=X peak=X)/'
}
# Times: an operator's self time is at most its time, and its time at least each input's.
# Reads the plan lines of one query on stdin.
times_ok() {
  awk '
    /^Physical plan$/ { on = 1; n = 0; next }
    on && /^$/ { on = 0 }
    on {
      if (!match($0, /time=[0-9.]+ ms self=[0-9.]+ ms/)) next
      split(substr($0, RSTART, RLENGTH), f, /[= ]/); t = f[2] + 0; s = f[5] + 0
      if (s > t + 0.0005) print "SELF ABOVE TIME: " $0
      lead = match($0, /[├└]─ /) ? RSTART : 0
      depth[n] = lead; tm[n] = t; line[n] = $0
      for (k = n - 1; k >= 0; k--) if (depth[k] < lead) { if (tm[k] + 0.0005 < t) print "PARENT BELOW INPUT: " line[k]; break }
      n++
    }'
}
# q QUERY [ARGS]: the result's row count, then --explain analyze's plan, masked
q() {
  echo "== $1 ${*:2}"
  "$RELIX" --explain analyze "${@:2}" -e "$head query { $1 };" > out 2>&1
  echo "exit $?"
  times_ok < out
  grep -E '^\([0-9]+ rows?\)$|error' out
  awk '/^Physical plan$/ { on = 1 } on { print } on && /^$/ { exit }' out | mask
}
# [SUBARGS=...] check QUERY OPERATOR SUBEXPRESSION [ARGS]: the actual rows of OPERATOR's first
# line in QUERY's plan (run with ARGS) equal the rows of SUBEXPRESSION run on its own (with
# ARGS and SUBARGS)
check() {
  local got want
  got=$("$RELIX" --explain analyze "${@:4}" -e "$head query { $1 };" 2>&1 |
        awk -v op="$2" '/^Physical plan$/ { on = 1; next } on && index($0, op) { match($0, /actual rows=[0-9]+/); print substr($0, RSTART + 12, RLENGTH - 12); exit }')
  want=$("$RELIX" --count "${@:4}" ${SUBARGS:-} -e "$head query { $3 };" 2>&1 | sed -E 's/^\(([0-9]+) rows?\)$/\1/')
  if [ -n "$got" ] && [ "$got" = "$want" ]; then echo "check $2 in { $1 }: actual rows=$got = rows of { $3 }"
  else echo "CHECK FAILED: $2 in { $1 }: actual rows '$got', { $3 } has '$want' rows"; fi
}

q "σ salary > 100 (E ⨝ E.dept = D.dept D)"
check "σ salary > 100 (E ⨝ E.dept = D.dept D)" "HashJoin" "E ⨝ E.dept = D.dept D" --no-optimize
check "σ salary > 100 (E ⨝ E.dept = D.dept D)" "Select" "σ salary > 100 (E ⨝ E.dept = D.dept D)" --no-optimize
q "σ salary > 100 (E ⨝ E.dept = D.dept D)" --no-optimize
q "E ⨝ E.dept < D.dept D"
check "E ⨝ E.dept < D.dept D" "NestedLoopJoin" "E ⨝ E.dept < D.dept D"
check "π E.id (E ⨝ E.dept = D.dept D)" "NestedLoopJoin" "E ⨝ E.dept = D.dept D" --no-hashjoin
q "π L.id, R.id → rid (I L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) I R)"
check "π L.id (I L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) I R)" "IntervalJoin" "I L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) I R"
check "π L.id (I L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) I R)" "Project" "π L.id (I L IJOIN INTERSECTS (L.s, L.e, R.s, R.e) I R)"
q "T ASOF INNER T.sym = Q.sym ∧ T.ts >= Q.ts Q"
check "T ASOF INNER T.sym = Q.sym ∧ T.ts >= Q.ts Q" "AsOfJoin" "T ASOF INNER T.sym = Q.sym ∧ T.ts >= Q.ts Q"
check "σ qty > 10 (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q)" "AsOfJoin" "T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q" --no-optimize
q "γ dept; count(*) → n, max(salary) → top (σ salary >= 90 (E))"
check "γ dept; count(*) → n (σ salary >= 90 (E))" "Select" "σ salary >= 90 (E)"
check "γ dept; count(*) → n (σ salary >= 90 (E))" "Aggregate" "γ dept; count(*) → n (σ salary >= 90 (E))"
q "δ (π dept, salary (E))"
check "δ (π dept, salary (E))" "Distinct" "δ (π dept, salary (E))"
check "π dept (E)" "Project" "π dept (E)"
q "π dept (E) ∪ π dept (D)"
check "π dept (E) ∪ π dept (D)" "Union" "π dept (E) ∪ π dept (D)"
check "π dept (E) − π dept (D)" "Except" "π dept (E) − π dept (D)"
check "π dept (E) ∩ π dept (D)" "Intersect" "π dept (E) ∩ π dept (D)"
# pushed down: the node's rows are the rows SQLite returned; the same with --no-pushdown
q "σ price > 90 (Shop.stays)"
SUBARGS=--no-pushdown check "σ price > 90 (Shop.stays)" "PushedSQL" "σ price > 90 (Shop.stays)"
q "γ room; count(*) → n (Shop.stays) ⨝ room = E.id E"
SUBARGS=--no-pushdown check "γ room; count(*) → n (Shop.stays) ⨝ room = E.id E" "PushedSQL" "γ room; count(*) → n (Shop.stays)"
# a query that fails prints no plan; --explain=analyze is --explain analyze, another mode is
# an error
q "π salary / (salary - salary) → x (E)"
"$RELIX" --explain=analyze -e "$head query { δ (π dept (D)) };" 2>&1 | mask | tail -n 3
"$RELIX" --explain=fast -e "$head query { D };" 2>&1 | head -n 1
# plain --explain is unchanged: no figures
echo "--explain: $("$RELIX" --explain -e "$head query { δ (π dept (D)) };" 2>&1 | grep -c 'actual rows') lines with figures"
# a script file named after --explain is still the script, when it is not "analyze"
printf '%s\nquery { π dept (D) };\n' "$head" > s.rx
echo "--explain s.rx: $("$RELIX" --explain s.rx | grep -c 'actual rows') lines with figures"
echo "--explain analyze s.rx: $("$RELIX" --explain analyze s.rx | grep -c 'actual rows') lines with figures"
# the REPL (on a terminal, through script(1)): \explain analyze, then \explain on goes back
# to the plain plan
printf '%s\n\\explain analyze\nquery { δ (π dept (D)) };\n\\explain on\nquery { δ (π dept (D)) };\n\\q\n' "$head" > in.txt
timeout 60 script -qec "$RELIX" /dev/null < in.txt | tr -d '\r' > repl.out 2>&1
echo "REPL: $(grep -c '^Distinct  ~[0-9]* rows  (actual rows=' repl.out) plan line with figures, $(grep -cx 'Distinct  ~[0-9]* rows' repl.out) without"
