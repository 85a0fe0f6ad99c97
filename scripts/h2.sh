#!/usr/bin/env bash
# A throwaway H2 database server for the tests, speaking PostgreSQL's protocol:
#   scripts/h2.sh start DIR [PORT] | stop DIR
# The server (H2 from apt's libh2-java, under java from default-jre-headless) keeps its
# databases in DIR (created), listens on 127.0.0.1:PORT and creates a database on its first
# connection (-ifNotExists): the user and password of that connection become its
# administrator's. Its pid is in DIR/pid, its output in DIR/log. Without PORT it picks a free
# one (scripts/port.sh), tries another if the server finds it taken, and prints the port it
# listens on; with PORT it prints nothing. Exits non-zero, with the server's output on standard
# error, if the server cannot start or does not answer within 60 seconds.
set -eu
cmd=${1:?usage: scripts/h2.sh start DIR [PORT] | stop DIR}
. "$(dirname "$0")/port.sh"
dir=${2:?directory}
jar=${H2_JAR:-/usr/share/java/h2.jar}
case "$cmd" in
  start)
    want=${3:-}
    command -v java >/dev/null 2>&1 || { echo "h2.sh: no java (apt-get install default-jre-headless)" >&2; exit 1; }
    [ -r "$jar" ] || { echo "h2.sh: no $jar (apt-get install libh2-java)" >&2; exit 1; }
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    for attempt in 1 2 3 4 5 6 7 8; do
      port=${want:-$(pick_port "$attempt")} || { echo "h2.sh: no free port" >&2; exit 1; }
      # a small heap and the quick compiler: the server answers a few test queries
      java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Duser.timezone=UTC -cp "$jar" org.h2.tools.Server \
        -pg -pgPort "$port" -baseDir "$dir/data" -ifNotExists >"$dir/log" 2>&1 &
      echo $! >"$dir/pid"
      for _ in $(seq 1 600); do
        # the server is up once it says so and its port accepts a connection (a connection alone
        # could reach another process that took the port first)
        if grep -q "PG server running" "$dir/log" && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
          [ -n "$want" ] || echo "$port"
          exit 0
        fi
        kill -0 "$(cat "$dir/pid")" 2>/dev/null || break
        sleep 0.1
      done
      # a port another process took between the pick and the bind: try another one
      if [ -z "$want" ] && ! kill -0 "$(cat "$dir/pid")" 2>/dev/null && port_in_use "$dir/log"; then continue; fi
      break
    done
    echo "h2.sh: the server did not start on port $port; its log:" >&2
    tail -n 20 "$dir/log" >&2 || true
    kill "$(cat "$dir/pid")" 2>/dev/null || true
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
  *) echo "usage: scripts/h2.sh start DIR [PORT] | stop DIR" >&2; exit 2 ;;
esac
