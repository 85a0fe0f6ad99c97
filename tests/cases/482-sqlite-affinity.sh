# SQLite's type affinity lets a column hold values of other types; each is read faithfully or
# is an error naming the column and row (the error points at the table in the query), never
# changed silently, and a pushed statement agrees with the engine:
#   a BOOLEAN holding 2 (read as true before), a NUMERIC holding an integer a double rounds,
#   an INTEGER holding text, a REAL holding a blob, an INTEGER holding a REAL;
#   length() and substr() of TEXT with an embedded NUL (SQLite's stop at the NUL: not pushed);
#   the negation of a REAL 0 (SQLite's -x is 0 - x, which loses the sign of -0).
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sqlite3 "$tmp/a.db" <<'SQL'
CREATE TABLE flags(id INTEGER PRIMARY KEY, ok BOOLEAN);
INSERT INTO flags VALUES (1, 1), (2, 0), (3, NULL), (4, 'true');
CREATE TABLE flags2(id INTEGER PRIMARY KEY, ok BOOLEAN);
INSERT INTO flags2 VALUES (1, 1), (2, 2);
CREATE TABLE big(id INTEGER PRIMARY KEY, n NUMERIC);
INSERT INTO big VALUES (1, 9007199254740992), (2, 9007199254740993);
CREATE TABLE itext(id INTEGER PRIMARY KEY, n INTEGER);
INSERT INTO itext VALUES (1, 5), (2, 'five');
CREATE TABLE ireal(id INTEGER PRIMARY KEY, n INTEGER);
INSERT INTO ireal VALUES (1, 5), (2, 2.5);
CREATE TABLE rblob(id INTEGER PRIMARY KEY, x REAL);
INSERT INTO rblob VALUES (1, 1.5), (2, x'00ff');
CREATE TABLE nul(id INTEGER PRIMARY KEY, s TEXT);
INSERT INTO nul VALUES (1, 'ab' || char(0) || 'cd'), (2, 'plain');
CREATE TABLE zero(id INTEGER PRIMARY KEY, f REAL);
INSERT INTO zero VALUES (1, 0.0), (2, 1.5);
SQL
run() {
  echo "== $1"
  a=$("$RELIX" --format csv -e "Db := connect('sqlite:$tmp/a.db'); query { $1 };" 2>&1; echo "exit $?")
  b=$("$RELIX" --format csv --no-pushdown -e "Db := connect('sqlite:$tmp/a.db'); query { $1 };" 2>&1; echo "exit $?")
  printf '%s\n' "$a" | sed "s#$tmp#TMP#g"
  [ "$a" = "$b" ] && echo "(the engine prints the same)" || printf 'THE ENGINE DIFFERS:\n%s\n' "$b" | sed "s#$tmp#TMP#g"
}
run "Db.flags"
run "Db.flags2"
run "Db.big"
run "Db.itext"
run "Db.ireal"
run "Db.rblob"
run "π id, length(s) → n (Db.nul)"
run "π id (σ length(s) = 5 (Db.nul))"
run "π id, substr(s, 4, 2) → t (Db.nul)"
run "π id, -(f) → m (Db.zero)"
"$RELIX" --explain -e "Db := connect('sqlite:$tmp/a.db'); query { π id, length(s) → n, -(f) → m (Db.nul N ⨝ N.id = Z.id Db.zero Z) };" 2>&1 | grep "PushedSQL\|Project" | sed "s#$tmp#TMP#g"
