#!/usr/bin/env bash
# A throwaway MariaDB server for the tests: scripts/mariadb.sh start DIR [PORT] | stop DIR.
# The data directory, socket (DIR/sock), pid file and log live in DIR (created); the server
# listens on 127.0.0.1:PORT, runs as the mysql user when invoked as root (mariadbd refuses to
# run as root without --user), and starts with --skip-grant-tables, so that any user name
# connects without a password. It reads no option file but its own. Without PORT it picks a free
# one (scripts/port.sh), tries another if the server finds it taken, and prints the port it
# listens on; with PORT it prints nothing. Exits non-zero, with the server's errors on standard
# error, if the server cannot start within 60 seconds.
set -eu
cmd=${1:?usage: scripts/mariadb.sh start DIR [PORT] | stop DIR}
. "$(dirname "$0")/port.sh"
dir=${2:?directory}
server=$(command -v mariadbd || ls /usr/sbin/mariadbd 2>/dev/null || true)
installdb=$(command -v mariadb-install-db || true)
[ -n "$server" ] && [ -n "$installdb" ] || { echo "mariadb.sh: no MariaDB server (apt-get install mariadb-server)" >&2; exit 1; }
case "$cmd" in
  start)
    want=${3:-}
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    user=()
    if [ "$(id -u)" = 0 ]; then chown mysql "$dir"; user=(--user=mysql); fi
    write_cnf() {
      cat >"$dir/my.cnf" <<CNF
[mariadbd]
datadir=$dir/data
socket=$dir/sock
pid-file=$dir/pid
log-error=$dir/log.err
port=$1
bind-address=127.0.0.1
skip-grant-tables
skip-name-resolve
innodb-buffer-pool-size=16M
innodb-log-file-size=8M
skip-log-bin
character-set-server=utf8mb4
collation-server=utf8mb4_general_ci
CNF
    }
    write_cnf "${want:-0}"
    "$installdb" --defaults-file="$dir/my.cnf" "${user[@]}" --auth-root-authentication-method=normal \
      --skip-test-db >"$dir/install.log" 2>&1 || { cat "$dir/install.log" >&2; exit 1; }
    for attempt in 1 2 3 4 5 6 7 8; do
      port=${want:-$(pick_port "$attempt")} || { echo "mariadb.sh: no free port" >&2; exit 1; }
      write_cnf "$port"
      rm -f "$dir/log.err"
      "$server" --defaults-file="$dir/my.cnf" "${user[@]}" >>"$dir/log" 2>&1 &
      pid=$!
      for _ in $(seq 1 600); do
        if [ -S "$dir/sock" ] && mariadb-admin --no-defaults --socket="$dir/sock" -u root ping >/dev/null 2>&1; then
          [ -n "$want" ] || echo "$port"
          exit 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      # a port another process took between the pick and the bind: try another one
      if [ -z "$want" ] && ! kill -0 "$pid" 2>/dev/null && port_in_use "$dir/log.err"; then continue; fi
      break
    done
    echo "mariadb.sh: the server did not start on port $port; its errors:" >&2
    { grep -E '\[ERROR\]' "$dir/log.err" || tail -n 20 "$dir/log.err"; } >&2 || true
    kill "$pid" 2>/dev/null || true
    exit 1
    ;;
  stop)
    if [ -f "$dir/pid" ]; then
      pid=$(cat "$dir/pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
    ;;
  *) echo "usage: scripts/mariadb.sh start DIR [PORT] | stop DIR" >&2; exit 2 ;;
esac
