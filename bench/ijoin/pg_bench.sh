#!/bin/sh
# pg_bench.sh - INTERSECTS on PostgreSQL 15: int8range && with a GiST index on the right side.
#
#   sh pg_bench.sh DIR NAME
#
# Starts a throwaway cluster (initdb in a temporary folder, private port 55432, Unix socket in
# that folder, no TCP), loads DIR/NAME_l.csv and DIR/NAME_r.csv, times once (it takes seconds)
#   CREATE TABLE res AS SELECT l.id, r.id FROM l JOIN r ON l.rng && r.rng
# and prints: NAME pairs checksum seconds. The cluster is stopped and removed at the end. As root
# the server runs as the postgres user. int8range is half-open [s, e), as Relix's intervals.
set -eu
dir=$1
name=$2
port=55432
pgbin=/usr/lib/postgresql/15/bin
[ -x "$pgbin/initdb" ] || pgbin=$(dirname "$(command -v initdb || command -v pg_ctl)")
pgdir=$(mktemp -d /tmp/relix_pg_XXXXXX)
chmod 755 "$pgdir"

as_pg() {
    if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$1"; else sh -c "$1"; fi
}
[ "$(id -u)" = 0 ] && chown postgres "$pgdir"

cleanup() {
    as_pg "$pgbin/pg_ctl -D $pgdir/data -m fast stop" >/dev/null 2>&1 || true
    rm -rf "$pgdir"
}
trap cleanup EXIT INT TERM

as_pg "$pgbin/initdb -D $pgdir/data -A trust -U postgres" >/dev/null
as_pg "$pgbin/pg_ctl -D $pgdir/data -l $pgdir/log -w -o \"-p $port -k $pgdir -c listen_addresses='' -c shared_buffers=1GB -c work_mem=256MB -c max_parallel_workers_per_gather=2\" start" >/dev/null

psql_run() {
    as_pg "$pgbin/psql -X -q -h $pgdir -p $port -U postgres -d postgres -v ON_ERROR_STOP=1 $1"
}

cat > "$pgdir/load.sql" <<EOF
CREATE TABLE l (id int, s bigint, e bigint);
CREATE TABLE r (id int, s bigint, e bigint);
\copy l FROM '$dir/${name}_l.csv' WITH (FORMAT csv, HEADER true)
\copy r FROM '$dir/${name}_r.csv' WITH (FORMAT csv, HEADER true)
ALTER TABLE l ADD COLUMN rng int8range GENERATED ALWAYS AS (int8range(s, e)) STORED;
ALTER TABLE r ADD COLUMN rng int8range GENERATED ALWAYS AS (int8range(s, e)) STORED;
CREATE INDEX r_rng ON r USING gist (rng);
VACUUM ANALYZE l;
VACUUM ANALYZE r;
EOF
cat > "$pgdir/run.sql" <<EOF
\timing on
CREATE TABLE res AS SELECT l.id AS lid, r.id AS rid FROM l JOIN r ON l.rng && r.rng;
\timing off
\pset tuples_only on
\pset format unaligned
\pset fieldsep ' '
SELECT count(*), coalesce(sum(lid::numeric * 1000003 + rid), 0) % 18446744073709551616 FROM res;
EOF
chmod 644 "$pgdir/load.sql" "$pgdir/run.sql"
psql_run "-f $pgdir/load.sql" >/dev/null
out=$(psql_run "-f $pgdir/run.sql")
ms=$(echo "$out" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | head -1)
res=$(echo "$out" | grep -v '^Time:' | grep -v '^SELECT' | grep '[0-9]' | tail -1)
echo "$name $res $(echo "$ms" | awk '{printf "%.4f", $1 / 1000}')"
