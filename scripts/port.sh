# Sourced by the scripts that start throwaway test servers (pg.sh, mariadb.sh, h2.sh).
#
# pick_port: prints a TCP port on 127.0.0.1 on which nothing listens at the moment of the call,
# chosen at random below the kernel's ephemeral port range, so that no client connection of this
# machine holds it as its local port. Two servers started at once may still pick the same port:
# the callers retry with a new one when their server reports that the address is in use.
# Returns non-zero if fifty picks all found a listener. With the argument 1 (a caller's first
# attempt) and RELIX_FIRST_PORT set, prints that port unchecked: the tests of the retry use it to
# hand a server a port that is taken.
pick_port() {
  local lo=20000 hi=32000 eph p
  if [ "${1:-}" = 1 ] && [ -n "${RELIX_FIRST_PORT:-}" ]; then
    echo "$RELIX_FIRST_PORT"
    return 0
  fi
  if read -r eph _ < /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null && [ "$eph" -gt $((lo + 1000)) ] && [ "$eph" -le "$hi" ]; then
    hi=$eph
  fi
  for _ in $(seq 1 50); do
    p=$((lo + (RANDOM * 32768 + RANDOM) % (hi - lo)))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

# port_in_use FILE: true if the server log FILE says that its port was taken.
port_in_use() {
  grep -qiE 'address already in use|port may be in use|BindException' "$1" 2>/dev/null
}
