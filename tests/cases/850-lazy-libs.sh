# The client libraries are loaded on first use: the binary does not name libpq, libmariadb,
# libsqlite3, libbson, libedit or libsnappy (nor what they pull in) as NEEDED; a CSV-only run maps none
# of them (the dynamic loader's own log, and /proc/PID/maps of a run blocked on its input),
# while an SQLite run loads libsqlite3. A machine without a library gets an error at the point
# of use naming the library and its Debian package: the sonames are shadowed through
# LD_LIBRARY_PATH by files that cannot load, or by a library without the functions used. (The C++
# runtime is left out of the list: the sanitizer build links it; libsnappy stands for it.)
root=$PWD
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
RELIX=$root/$RELIX
cd "$tmp"
heavy='libpq|libmariadb|libsqlite3|libedit|libsnappy|libbson|libmongoc|libssl|libcrypto|libgssapi|libldap|libgnutls|libtinfo'

echo "== NEEDED entries of the binary that are loaded on first use"
readelf -d "$RELIX" | grep NEEDED | grep -E "$heavy" || echo "none"

printf 'k,v\n1,a\n2,b\n' > t.csv
echo "== libraries a CSV-only run loads"
LD_DEBUG=libs "$RELIX" -e "T := csv('t.csv'); query { T };" 2> ld.log; echo "exit $?"
grep -c 'calling init:' ld.log > /dev/null || echo "the loader's log is empty"
found=$(grep 'calling init:' ld.log | grep -E "$heavy" | sed 's/.*calling init: //')
echo "${found:-none}"

echo "== an SQLite run loads libsqlite3 when it connects"
sqlite3 shop.db 'CREATE TABLE t(k INT, v TEXT); INSERT INTO t VALUES (1, '"'x'"');'
LD_DEBUG=libs "$RELIX" -e "S := connect('sqlite:shop.db'); query { S.t };" 2> ld.log; echo "exit $?"
grep 'calling init:' ld.log | grep -E "$heavy" | sed 's/.*calling init: .*\///'

echo "== the mappings of a CSV-only run blocked on its input"
mkfifo in.csv
"$RELIX" -e "T := csv('in.csv'); query { T };" > /dev/null 2>&1 &
pid=$!
exec 3<> in.csv # opened read-write: never blocks; the run blocks reading it
printf 'k,v\n' >&3
for _ in $(seq 200); do grep -q 'libc[.-]' "/proc/$pid/maps" 2>/dev/null && break; sleep 0.05; done
grep -q 'libc[.-]' "/proc/$pid/maps" && echo "libc mapped"
found=$(grep -E "$heavy" "/proc/$pid/maps" | awk '{print $6}' | sort -u)
echo "${found:-none mapped}"
kill "$pid"; wait "$pid" 2>/dev/null
pid=
exec 3>&-

echo "== the libraries missing"
mkdir stub
for so in libpq.so.5 libmariadb.so.3 libsqlite3.so.0 libsnappy.so.1 libedit.so.2 libbson-1.0.so.0; do : > "stub/$so"; done
run() { LD_LIBRARY_PATH="$tmp/stub" "$RELIX" "$@" 2>&1 | sed "s#$tmp#TMP#g"; echo "exit ${PIPESTATUS[0]}"; }
run -e "T := csv('t.csv'); query { T };"
run -e "P := connect('postgresql://relix@127.0.0.1:1/db'); query { P.t };"
run -e "H := connect('h2://sa@127.0.0.1:1/mem'); query { H.t };"
run -e "M := connect('mysql://relix@127.0.0.1:1/db'); query { M.t };"
run -e "S := connect('sqlite:shop.db'); query { S.t };"
run -e "G := connect('mongodb://127.0.0.1:1/db'); query { G.t };"
"$RELIX" -e "T := csv('t.csv'); query { T } into parquet('snappy.parquet', compression => 'snappy');"
run -e "T := csv('t.csv'); query { T } into parquet('x.parquet', compression => 'snappy');"
ls x.parquet 2>/dev/null || echo "no x.parquet"
run -e "T := parquet('snappy.parquet'); query { T };"
echo "-- the prompt, on a terminal"
LD_LIBRARY_PATH="$tmp/stub" script -qec "$RELIX" /dev/null < /dev/null | tr -d '\r' | sed "s#$tmp#TMP#g"
echo "exit ${PIPESTATUS[0]}"

echo "== a library without the functions used"
rm stub/libsqlite3.so.0
echo 'int sqlite3_libversion_number(void) { return 3000000; }' > stub.c
cc -shared -fPIC -o stub/libsqlite3.so.0 stub.c
run -e "S := connect('sqlite:shop.db'); query { S.t };"
