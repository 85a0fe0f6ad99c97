#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for the tests: scripts/pg.sh start DIR PORT | stop DIR.
# The cluster lives in DIR (created), listens on 127.0.0.1:PORT and a socket in DIR, trusts
# local connections, and runs as the postgres user when invoked as root (PostgreSQL refuses
# to run as root). Prints nothing on success; exits non-zero if the server cannot start.
set -eu
cmd=${1:?usage: scripts/pg.sh start DIR PORT | stop DIR}
dir=${2:?directory}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bindir" ] && [ -x "$bindir/initdb" ] || { echo "pg.sh: no PostgreSQL server (apt-get install postgresql)" >&2; exit 1; }
as_pg() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}
case "$cmd" in
  start)
    port=${3:?port}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_pg "'$bindir/initdb' -D '$dir/data' -A trust -U postgres --no-sync -E UTF8 --locale=C.UTF-8" >/dev/null
    as_pg "'$bindir/pg_ctl' -D '$dir/data' -l '$dir/log' -w -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off\" start" >/dev/null
    ;;
  stop)
    [ -d "$dir/data" ] && as_pg "'$bindir/pg_ctl' -D '$dir/data' -m immediate stop" >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
esac
