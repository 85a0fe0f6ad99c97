# A cancelled query stops on the server: relix runs a statement on PostgreSQL (a throwaway
# cluster from scripts/pg.sh) that takes 30 seconds, receives SIGTERM or SIGINT (Ctrl-C), and
# within a few seconds pg_stat_activity shows no statement of it running any more; SQLite's
# long statement stops on Ctrl-C too.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/pg.sh stop "$tmp/pg"; rm -rf "$tmp"' EXIT
port=$(scripts/pg.sh start "$tmp/pg") || { echo "cannot start PostgreSQL"; exit 1; }
uri="postgresql://postgres@127.0.0.1:$port/postgres"
psql -q -v ON_ERROR_STOP=1 "$uri" <<'SQL'
CREATE VIEW slow AS SELECT g AS id FROM generate_series(1, 3) AS g WHERE pg_sleep(30) IS NOT NULL;
SQL
# the number of statements reading the view that run on the server
running() {
  psql -At "$uri" -c "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%\"slow\"%' AND pid <> pg_backend_pid()"
}
for sig in TERM INT; do
  "$RELIX" -e "PG := connect('$uri'); query { PG.slow };" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for i in $(seq 1 50); do [ "$(running)" = 1 ] && break; sleep 0.1; done
  echo "SIG$sig: running before: $(running)"
  kill -$sig $pid
  wait $pid
  echo "SIG$sig: relix exit $?"
  n=1
  for i in $(seq 1 30); do n=$(running); [ "$n" = 0 ] && break; sleep 0.1; done
  echo "SIG$sig: running after: $n"
done
sed "s/127.0.0.1:[0-9]*/127.0.0.1:PORT/g" "$tmp/err"
