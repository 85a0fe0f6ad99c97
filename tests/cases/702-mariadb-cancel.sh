# A cancelled query stops on MariaDB: relix runs a statement that takes 30 seconds on a throwaway
# server (scripts/mariadb.sh), receives SIGTERM or SIGINT (Ctrl-C), and within a few seconds the
# server's process list shows no statement of it running any more (KILL QUERY was sent over a
# second connection: a CPU-bound statement, which the server would not stop on its own when the
# client goes away).
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/mariadb.sh stop "$tmp/my"; rm -rf "$tmp"' EXIT
port=$(scripts/mariadb.sh start "$tmp/my") || { echo "cannot start MariaDB"; exit 1; }
my() { mariadb --no-defaults -N -B -h 127.0.0.1 -P "$port" -u root "$@"; }
my -e "CREATE DATABASE shop; CREATE TABLE shop.t (id INT PRIMARY KEY); INSERT INTO shop.t VALUES (1), (2);
CREATE VIEW shop.slow AS SELECT id FROM shop.t WHERE BENCHMARK(20000000, MD5(id)) = 0;" || exit 1
uri="mysql://root@127.0.0.1:$port/shop"
# the number of statements reading the view that run on the server
running() {
  my -e "SELECT count(*) FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query' AND INFO LIKE '%\"slow\"%' AND ID <> CONNECTION_ID()"
}
for sig in TERM INT; do
  "$RELIX" -e "M := connect('$uri'); query { M.slow };" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for i in $(seq 1 100); do [ "$(running)" = 1 ] && break; sleep 0.1; done
  echo "SIG$sig: running before: $(running)"
  kill -$sig $pid
  wait $pid
  echo "SIG$sig: relix exit $?"
  n=1
  for i in $(seq 1 30); do n=$(running); [ "$n" = 0 ] && break; sleep 0.1; done
  echo "SIG$sig: running after: $n"
done
sed "s/127.0.0.1:[0-9]*/127.0.0.1:PORT/g" "$tmp/err"
