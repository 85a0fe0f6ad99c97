#!/bin/sh
# run.sh - the interval-join benchmark, run by hand (not part of the test suite):
#
#   sh bench/ijoin/run.sh            every workload, DuckDB, bedtools and PostgreSQL
#   SKIP_PG=1 SKIP_BEDTOOLS=1 sh bench/ijoin/run.sh
#   WORKLOADS="intersects meets" sh bench/ijoin/run.sh
#
# Installs the peers (bench/install-peers.sh), builds gen and kernel_bench, generates the data
# once into $DATA (default /tmp/relix_ijoin_bench, about 1.5 GB), then prints one table:
# workload | relix s | peer s | ratio (peer / relix) | floor s | pairs | checksums agree.
# The peer is DuckDB (2 threads, result materialized) unless the workload names another.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
DATA=${DATA:-/tmp/relix_ijoin_bench}
ALL="intersects intersects_4m precedes preceded_by meets met_by overlaps overlapped_by starts
started_by during contains finishes finished_by equals"
WORKLOADS=${WORKLOADS:-$ALL}
CC=${CC:-cc}

sh "$here/../install-peers.sh" >&2
mkdir -p "$DATA"
chmod 755 "$DATA"
$CC -O2 -o "$DATA/gen" "$here/gen.c"
$CC -std=c11 -D_DEFAULT_SOURCE -O2 -march=native -I"$root/include" -I"$root/src" \
    -o "$DATA/kernel_bench" "$here/kernel_bench.c" "$root/src/exec/ijoin.c" \
    "$root"/src/base/*.c -lm -lpthread
if [ ! -f "$DATA/.generated" ] || [ "$here/gen.c" -nt "$DATA/.generated" ]; then
    echo "run.sh: generating workloads into $DATA" >&2
    "$DATA/gen" "$DATA" --csv --bed >&2
    touch "$DATA/.generated"
fi

echo "run.sh: relix kernel" >&2
"$DATA/kernel_bench" "$DATA" $WORKLOADS > "$DATA/relix.txt"
echo "run.sh: duckdb" >&2
node "$here/duckdb_bench.mjs" "$DATA" $WORKLOADS > "$DATA/duckdb.txt"
: > "$DATA/peers.txt"
if [ -z "${SKIP_BEDTOOLS:-}" ] && echo " $WORKLOADS " | grep -q " intersects "; then
    echo "run.sh: bedtools" >&2
    for mode in sorted unsorted; do
        if [ $mode = sorted ]; then a=intersects_l.sorted.bed; b=intersects_r.sorted.bed; flag=-sorted
        else a=intersects_l.bed; b=intersects_r.bed; flag=; fi
        t0=$(date +%s.%N)
        bedtools intersect $flag -wa -wb -a "$DATA/$a" -b "$DATA/$b" > "$DATA/bedtools.out"
        t1=$(date +%s.%N)
        sum=$(cut -f4,8 "$DATA/bedtools.out" | "$DATA/kernel_bench" --sum)
        echo "intersects:bedtools-$mode $sum $(echo "$t0 $t1" | awk '{printf "%.4f", $2 - $1}')" \
            >> "$DATA/peers.txt"
        rm -f "$DATA/bedtools.out"
    done
fi
if [ -z "${SKIP_PG:-}" ] && echo " $WORKLOADS " | grep -q " intersects "; then
    echo "run.sh: postgresql (one run, slow)" >&2
    sh "$here/pg_bench.sh" "$DATA" intersects | sed 's/^intersects /intersects:postgres-gist /' \
        >> "$DATA/peers.txt"
fi

# relix.txt: name strategy... pairs checksum seconds floor (strategy may hold spaces);
# duckdb.txt and peers.txt: name pairs checksum seconds.
awk '
function fmt_ratio(p, r) { return r > 0 ? sprintf("%.1fx", p / r) : "-" }
FILENAME ~ /relix.txt$/ {
    n = NF; name = $1
    floor_s[name] = $n; relix_s[name] = $(n - 1); sum[name] = $(n - 2); pairs[name] = $(n - 3)
    order[++count] = name; next
}
{ peer[$1] = $4; psum[$1] = $3; ppairs[$1] = $2; porder[++pcount] = $1 }
END {
    printf "%-31s | %8s | %8s | %7s | %8s | %9s | %s\n", "workload", "relix s", "peer s",
           "ratio", "floor s", "pairs", "checksums agree"
    printf "%s\n", "--------------------------------+----------+----------+---------+----------+-----------+----------------"
    for (i = 1; i <= count; i++) {
        w = order[i]
        ok = (w in peer) ? ((psum[w] == sum[w] && ppairs[w] == pairs[w]) ? "yes" : "NO") : "-"
        printf "%-31s | %8.4f | %8s | %7s | %8.4f | %9s | %s\n", w " (duckdb)", relix_s[w],
               (w in peer) ? sprintf("%.4f", peer[w]) : "-", (w in peer) ? fmt_ratio(peer[w], relix_s[w]) : "-",
               floor_s[w], pairs[w], ok
    }
    for (i = 1; i <= pcount; i++) {
        k = porder[i]
        split(k, parts, ":")
        w = parts[1]
        if (parts[2] == "" || !(w in relix_s)) continue
        ok = (psum[k] == sum[w] && ppairs[k] == pairs[w]) ? "yes" : "NO"
        printf "%-31s | %8.4f | %8.4f | %7s | %8.4f | %9s | %s\n", w " (" parts[2] ")", relix_s[w],
               peer[k], fmt_ratio(peer[k], relix_s[w]), floor_s[w], pairs[w], ok
    }
}' "$DATA/relix.txt" "$DATA/duckdb.txt" "$DATA/peers.txt"
