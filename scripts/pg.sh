#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for the tests: scripts/pg.sh start DIR [PORT] | stop DIR.
# The cluster lives in DIR (created), listens on 127.0.0.1:PORT and a socket in DIR, trusts
# local connections, and runs as the postgres user when invoked as root (PostgreSQL refuses
# to run as root). Without PORT it picks a free one (scripts/port.sh), tries another if the
# server finds it taken, and prints the port it listens on; with PORT it prints nothing. Exits
# non-zero, with the server's log on standard error, if the server cannot start.
set -eu
cmd=${1:?usage: scripts/pg.sh start DIR [PORT] | stop DIR}
. "$(dirname "$0")/port.sh"
dir=${2:?directory}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bindir" ] && [ -x "$bindir/initdb" ] || { echo "pg.sh: no PostgreSQL server (apt-get install postgresql)" >&2; exit 1; }
as_pg() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}
case "$cmd" in
  start)
    want=${3:-}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_pg "'$bindir/initdb' -D '$dir/data' -A trust -U postgres --no-sync -E UTF8 --locale=C.UTF-8" >/dev/null
    for attempt in 1 2 3 4 5 6 7 8; do
      port=${want:-$(pick_port "$attempt")} || { echo "pg.sh: no free port" >&2; exit 1; }
      rm -f "$dir/log"
      if as_pg "'$bindir/pg_ctl' -D '$dir/data' -l '$dir/log' -w -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off\" start" >"$dir/pg_ctl.out" 2>&1; then
        [ -n "$want" ] || echo "$port"
        exit 0
      fi
      # a port another process took between the pick and the bind: try another one
      if [ -z "$want" ] && port_in_use "$dir/log"; then continue; fi
      break
    done
    echo "pg.sh: the server did not start on port $port; its log:" >&2
    cat "$dir/pg_ctl.out" >&2 || true
    tail -n 20 "$dir/log" >&2 || true
    exit 1
    ;;
  stop)
    [ -d "$dir/data" ] && as_pg "'$bindir/pg_ctl' -D '$dir/data' -m immediate stop" >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
esac
