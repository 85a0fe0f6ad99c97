# The throwaway servers of the tests (scripts/pg.sh, mariadb.sh, h2.sh) pick a free port
# themselves and try another when the one they picked is taken by the time the server binds it
# (two cases starting servers at once collided on a fixed port range): each script is handed a
# port on which another process listens as its first pick, and must come up on another port,
# print that port, and answer a query there. With an explicit port that is taken, the start
# fails and says why.
root=$PWD
tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=()
trap 'for s in pg mariadb h2; do scripts/$s.sh stop "$tmp/$s" >/dev/null 2>&1; done; kill "${pids[@]}" 2>/dev/null; rm -rf "$tmp"' EXIT
. scripts/port.sh
busy=$(pick_port) || { echo "no free port"; exit 1; }
/usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); print("ready", flush=True); time.sleep(600)' "$busy" > "$tmp/listener" &
pids+=($!)
for _ in $(seq 1 50); do grep -q ready "$tmp/listener" && break; sleep 0.1; done
grep -q ready "$tmp/listener" || { echo "the listener did not start"; exit 1; }
export RELIX_FIRST_PORT=$busy
for s in pg mariadb h2; do
  port=$(scripts/$s.sh start "$tmp/$s" 2>"$tmp/$s.err") || { echo "$s: did not start"; cat "$tmp/$s.err"; continue; }
  [ "$port" != "$busy" ] && echo "$s: moved to another port" || echo "$s: still on the taken port"
  [ -s "$tmp/$s.err" ] && { echo "$s: printed on stderr:"; cat "$tmp/$s.err"; }
  case $s in
    pg) out=$(psql -tA -h 127.0.0.1 -p "$port" -U postgres -c "SELECT 41 + 1" postgres 2>&1) ;;
    mariadb) out=$(mariadb --no-defaults -N -B -h 127.0.0.1 -P "$port" -u root -e "SELECT 41 + 1" 2>&1) ;;
    h2) out=$(PGPASSWORD=x psql -tA "postgresql://sa@127.0.0.1:$port/ports" -c "SELECT 41 + 1" 2>&1) ;;
  esac
  echo "$s: answers $out"
  scripts/$s.sh stop "$tmp/$s"
done
unset RELIX_FIRST_PORT
for s in pg mariadb h2; do
  if scripts/$s.sh start "$tmp/$s" "$busy" > "$tmp/$s.out" 2> "$tmp/$s.err"; then
    echo "$s: started on a taken explicit port"
  else
    echo "$s: a taken explicit port fails: $(grep -ciE 'address already in use|port may be in use|BindException' "$tmp/$s.err" | sed 's/^0$/no reason given/; s/^[1-9][0-9]*$/the address is in use/')"
  fi
  [ -s "$tmp/$s.out" ] && { echo "$s: printed on stdout:"; cat "$tmp/$s.out"; }
  scripts/$s.sh stop "$tmp/$s"
done
