#!/usr/bin/env bash
# Secrets never leak: a password planted in the environment (PGPASSWORD) and in every spelling
# of a connection string must not appear on any channel relix writes to: standard output,
# standard error, the --report page, the -o file, the REPL history file ($RELIX_HISTORY) and
# the REPL's terminal (except the line the user typed). Each spelling is run with --explain,
# --report, --timing, -o and --format json; a string holding a password must be refused with
# an error that points at the string and names PGPASSWORD. Against a live PostgreSQL cluster
# (scripts/pg.sh; its server requires a password here) a wrong password must not leak through
# libpq's error, and a good one (from PGPASSWORD) must not appear in any output of a working run.
#
#   tests/data_safety_secrets.sh            from the repository root or anywhere in it
#   RELIX=path/to/relix tests/data_safety_secrets.sh
#
# One line per check ("ok  ..." or "FAIL ..."), then "secrets: N checks, N failed"; the exit
# status is non-zero when any check failed. Without PostgreSQL or tmux those checks fail too
# (they cannot be shown to pass).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
RELIX=${RELIX:-build/relix}
case "$RELIX" in /*) ;; *) RELIX="$root/$RELIX" ;; esac
if [ ! -x "$RELIX" ]; then make -s all >/dev/null || { echo "FAIL cannot build relix"; exit 1; }; fi
export LC_ALL=C.UTF-8
tmp=$(mktemp -d)
chmod 755 "$tmp"
. "$root/scripts/port.sh"
port=$(pick_port)   # nothing listens here until the live server of part 2 starts (on a port of its own)
sock="$tmp/tmux.sock"
cleanup() {
  tmux -S "$sock" kill-server >/dev/null 2>&1
  "$root/scripts/pg.sh" stop "$tmp/pg" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

checks=0
failed=0
ok() { checks=$((checks + 1)); echo "ok   $1"; }
bad() { checks=$((checks + 1)); failed=$((failed + 1)); echo "FAIL $1"; }
# check NAME FILE...: none of the files contains the secret, in clear or percent-encoded form
secret=Zq7-hunter-SECRET
enc=Zq7%2Dhunter%2DSECRET
check_clean() {
  local name=$1 f hit=""
  shift
  for f in "$@"; do
    [ -e "$f" ] || continue
    if grep -a -q -e "$secret" -e "$enc" -e "hunter-SEC" "$f"; then hit="$hit $(basename "$f")"; fi
  done
  if [ -z "$hit" ]; then ok "$name"; else bad "$name: the secret appears in$hit"; fi
}

sqlite3 "$tmp/lite.db" "CREATE TABLE t(id INTEGER PRIMARY KEY, w TEXT); INSERT INTO t VALUES (1, 'one');"
export PGPASSWORD=$secret
export PGCONNECT_TIMEOUT=3
unset PGSERVICE PGSERVICEFILE

# ---- 1. every spelling of a password in a connection string is refused, and never shown ----
# (label|connection string as written inside a Relix '...' literal)
spellings=(
  "URI userinfo|postgresql://relix:$secret@127.0.0.1:$port/postgres"
  "URI query ?password=|postgresql://relix@127.0.0.1:$port/postgres?password=$secret"
  "URI query &password=|postgresql://relix@127.0.0.1:$port/postgres?sslmode=disable&password=$secret"
  "URI percent-encoded key|postgresql://relix@127.0.0.1:$port/postgres?pass%77ord=$secret"
  "URI percent-encoded value|postgresql://relix@127.0.0.1:$port/postgres?password=$enc"
  "URI userinfo with a quote|postgresql://relix:it''s-$secret@127.0.0.1:$port/postgres"
  "keyword/value password=|host=127.0.0.1 port=$port dbname=postgres password=$secret"
  "keyword/value with a quote|host=127.0.0.1 port=$port password=it''s-$secret dbname=postgres"
  "keyword/value quoted|host=127.0.0.1 port=$port password = ''$secret'' dbname=postgres"
  "keyword/value PASSWORD=|host=127.0.0.1 port=$port PASSWORD=$secret"
  "keyword/value sslpassword=|host=127.0.0.1 port=$port sslpassword=$secret"
  "SQLite URI ?key=|sqlite:$tmp/lite.db?key=$secret"
)
for s in "${spellings[@]}"; do
  label=${s%%|*}
  conn=${s#*|}
  script="C := connect('$conn');
query { C.t };"
  printf '%s\n' "$script" > "$tmp/s.rx"
  for mode in "--explain" "--report FILE" "--timing" "-o FILE" "--format json" "-e"; do
    rm -f "$tmp/r.html" "$tmp/o.txt"
    case "$mode" in
      -e) "$RELIX" -e "$script" > "$tmp/out" 2> "$tmp/err" ;;
      "--report FILE") "$RELIX" --report "$tmp/r.html" "$tmp/s.rx" > "$tmp/out" 2> "$tmp/err" ;;
      "-o FILE") "$RELIX" -o "$tmp/o.txt" "$tmp/s.rx" > "$tmp/out" 2> "$tmp/err" ;;
      # shellcheck disable=SC2086
      *) "$RELIX" $mode "$tmp/s.rx" > "$tmp/out" 2> "$tmp/err" ;;
    esac
    rc=$?
    if [ "$rc" = 1 ] && grep -q "must not hold a" "$tmp/err" && grep -q "s.rx:1:14: error\|<command line>:1:14: error" "$tmp/err"; then
      ok "$label ($mode): refused, the error points at the string"
    else
      bad "$label ($mode): not refused at the string (exit $rc): $(head -n 1 "$tmp/err")"
    fi
    check_clean "$label ($mode): stdout, stderr, report, output file" "$tmp/out" "$tmp/err" "$tmp/r.html" "$tmp/o.txt"
  done
  case "$label" in SQLite*) ;; *)
    if grep -q "PGPASSWORD" "$tmp/err" && grep -q "pgpass" "$tmp/err" && grep -q "PGSERVICE" "$tmp/err"; then
      ok "$label: the error says where the password belongs"
    else
      bad "$label: the error does not name PGPASSWORD, ~/.pgpass and PGSERVICE"
    fi ;;
  esac
done

# a parse error later on a line that holds a password quotes that line: masked too
"$RELIX" -e "C := connect('postgresql://relix:$secret@127.0.0.1/postgres'); query { ( };" > "$tmp/out" 2> "$tmp/err"
if grep -q "\*\*\*" "$tmp/err"; then ok "a syntax error's quoted line masks the secret"; else bad "a syntax error's quoted line is not masked"; fi
check_clean "a syntax error's quoted line" "$tmp/out" "$tmp/err"

# ---- 2. a live server that requires a password ----------------------------------------------
if port=$("$root/scripts/pg.sh" start "$tmp/pg" 2>/dev/null); then
  uri="postgresql://postgres@127.0.0.1:$port/postgres"
  PGPASSWORD= psql -q -v ON_ERROR_STOP=1 "$uri" >/dev/null 2>&1 <<SQL
ALTER USER postgres PASSWORD '$secret';
CREATE TABLE t (id int8 PRIMARY KEY, w text);
INSERT INTO t VALUES (1, 'one'), (2, 'two');
SQL
  sed -i 's/ trust$/ scram-sha-256/' "$tmp/pg/data/pg_hba.conf"
  PGPASSWORD= psql -q -h "$tmp/pg" -p "$port" -U postgres -c "SELECT pg_reload_conf()" postgres >/dev/null 2>&1
  sleep 0.5
  # a wrong password (the right one must not appear either)
  PGPASSWORD=wrong-$secret "$RELIX" -e "PG := connect('$uri'); query { PG.t };" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ "$rc" = 1 ] && grep -q "password authentication failed" "$tmp/err"; then
    ok "live server, wrong password: refused by the server"
  else
    bad "live server, wrong password: not refused as expected (exit $rc): $(head -n 1 "$tmp/err")"
  fi
  check_clean "live server, wrong password: libpq's error" "$tmp/out" "$tmp/err"
  # no password at all
  PGPASSWORD= "$RELIX" -e "PG := connect('$uri'); query { PG.t };" > "$tmp/out" 2> "$tmp/err"
  if [ $? = 1 ]; then ok "live server, no password: refused"; else bad "live server, no password: accepted"; fi
  # the right password from PGPASSWORD: every output of a working run
  for mode in "--explain" "--report FILE" "--timing" "-o FILE" "--format json"; do
    rm -f "$tmp/r.html" "$tmp/o.txt"
    printf "PG := connect('%s');\nquery { σ id > 0 (PG.t) };\n" "$uri" > "$tmp/s.rx"
    case "$mode" in
      "--report FILE") "$RELIX" --report "$tmp/r.html" "$tmp/s.rx" > "$tmp/out" 2> "$tmp/err" ;;
      "-o FILE") "$RELIX" -o "$tmp/o.txt" "$tmp/s.rx" > "$tmp/out" 2> "$tmp/err" ;;
      # shellcheck disable=SC2086
      *) "$RELIX" $mode "$tmp/s.rx" > "$tmp/out" 2> "$tmp/err" ;;
    esac
    if grep -q "one" "$tmp/out" "$tmp/o.txt" "$tmp/r.html" 2>/dev/null; then
      ok "live server, PGPASSWORD ($mode): the query ran"
    else
      bad "live server, PGPASSWORD ($mode): the query did not run: $(head -n 1 "$tmp/err")"
    fi
    check_clean "live server, PGPASSWORD ($mode): stdout, stderr, report, output file" "$tmp/out" "$tmp/err" "$tmp/r.html" "$tmp/o.txt"
  done
  # errors after connecting: a missing table, a pushed statement the server rejects
  "$RELIX" --explain -e "PG := connect('$uri'); query { PG.missing };" > "$tmp/out" 2> "$tmp/err"
  if grep -q "no table 'missing'" "$tmp/err"; then ok "live server, PGPASSWORD: a missing table is an error"; else bad "live server: no error for a missing table"; fi
  check_clean "live server, PGPASSWORD: the missing table's error" "$tmp/out" "$tmp/err"
else
  bad "cannot start PostgreSQL (scripts/pg.sh)"
fi

# ---- 3. the REPL on a real terminal, with its history file ----------------------------------
if command -v tmux >/dev/null 2>&1; then
  tm() { tmux -u -S "$sock" -f /dev/null "$@"; }
  hist="$tmp/history"
  tm new-session -d -x 200 -y 50 -c "$tmp" \
    "env RELIX_HISTORY='$hist' HOME='$tmp' '$RELIX' 2>&1; echo \"exit \$?\" > '$tmp/rc'; sleep 30"
  type_line() { tm send-keys -H $(printf '%s' "$1" | od -An -tx1); tm send-keys Enter; sleep 0.4; }
  sleep 0.5
  type_line "A := connect('postgresql://relix:$secret@127.0.0.1/postgres');"
  type_line "B := connect('host=127.0.0.1 password=$secret');"
  type_line "C := connect('postgresql://relix@127.0.0.1/postgres?password=$secret"
  type_line "');"
  type_line "T := ["; type_line "| x |"; type_line "|---|"; type_line "| 1 |"; type_line "];"
  type_line "query { σ x = 1 (T) };"
  type_line '\q'
  for i in $(seq 50); do [ -e "$tmp/rc" ] && break; sleep 0.1; done
  tm capture-pane -p -S - -E - > "$tmp/pane"
  tm kill-server 2>/dev/null
  if [ -s "$hist" ] && grep -q "query" "$hist"; then ok "REPL: the history file was written"; else bad "REPL: no history file"; fi
  check_clean "REPL: history file" "$hist"
  # the terminal shows what was typed; everything relix printed must be clean
  grep -v "^relix> \|^  \.\.\.> " "$tmp/pane" > "$tmp/printed"
  if grep -q "must not hold a password" "$tmp/printed"; then ok "REPL: the lines were refused"; else bad "REPL: the lines were not refused"; fi
  check_clean "REPL: what relix printed on the terminal" "$tmp/printed"
else
  bad "tmux is not installed: the REPL cannot be checked"
fi

echo "secrets: $checks checks, $failed failed"
[ "$failed" = 0 ]
