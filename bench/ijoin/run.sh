#!/bin/sh
# run.sh - the interval-join benchmark, run by hand (not part of the test suite):
#
#   sh bench/ijoin/run.sh            every workload, DuckDB, bedtools and PostgreSQL
#   SKIP_PG=1 SKIP_BEDTOOLS=1 sh bench/ijoin/run.sh
#   WORKLOADS="intersects meets" SKIP_ENGINE=1 ROUNDS=1 sh bench/ijoin/run.sh
#
# Installs the peers (bench/install-peers.sh), builds gen and kernel_bench, generates the data
# once into $DATA (default /tmp/relix_ijoin_bench, about 7 GB: each relation at 1M x 1M and at
# 4M x 4M), then prints one table:
# workload | relix s | peer s | ratio (peer / relix) | floor s | pairs | checksums agree | peak MB.
# The first rows time the kernel (the join's own time on loaded keys, its result the ordered
# (left, right) row pairs) against DuckDB materializing (l.id, r.id) (2 threads), with the floor
# and the kernel's peak memory against 2 x (key columns + result); the "engine" rows time the
# whole engine on loaded columns, all six output columns materialized, against DuckDB
# materializing the same six; then bedtools and PostgreSQL, the cost of 1M -> 4M per relation
# (with the floor's own ratio), and what first touches of memory cost (bench/memtouch.c).
# Timings on a shared machine drift by tens of percent from minute to minute, so the Relix
# kernel, DuckDB and the Relix engine take turns over ROUNDS rounds (default 3), each round every
# workload once; every time printed is the median of its rounds' medians.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
DATA=${DATA:-/tmp/relix_ijoin_bench}
ALL1="intersects precedes preceded_by meets met_by overlaps overlapped_by starts started_by during
contains finishes finished_by equals"
ALL="$ALL1 $(for w in $ALL1; do printf '%s_4m ' "$w"; done)"
WORKLOADS=${WORKLOADS:-$ALL}
CC=${CC:-cc}
ROUNDS=${ROUNDS:-3}

sh "$here/../install-peers.sh" >&2
mkdir -p "$DATA"
chmod 755 "$DATA"
$CC -O2 -o "$DATA/gen" "$here/gen.c"
$CC -std=c11 -D_DEFAULT_SOURCE -O2 -march=native -I"$root/include" -I"$root/src" \
    -o "$DATA/kernel_bench" "$here/kernel_bench.c" "$root"/src/exec/ijoin*.c "$root/src/exec/kernel.c" "$root/src/exec/radix.c" \
    "$root/src/plan/engine.c" "$root/src/types/lang.c" \
    "$root"/src/base/*.c -lm -lpthread
if [ ! -f "$DATA/.generated" ] || [ "$here/gen.c" -nt "$DATA/.generated" ]; then
    echo "run.sh: generating workloads into $DATA" >&2
    "$DATA/gen" "$DATA" --csv --bed >&2
    touch "$DATA/.generated"
fi

# One round: the kernel, DuckDB and the engine, each over every workload, into *.$1.txt.
one_round() {
    echo "run.sh: round $1 of $ROUNDS: relix kernel" >&2
    : > "$DATA/relix.$1.txt"
    for w in $WORKLOADS; do   # one process each: the peak resident set is per process
        "$DATA/kernel_bench" "$DATA" "$w" >> "$DATA/relix.$1.txt"
    done
    echo "run.sh: round $1 of $ROUNDS: duckdb" >&2
    node "$here/duckdb_bench.mjs" "$DATA" $WORKLOADS > "$DATA/duckdb.$1.txt"
    # The whole engine on loaded columns (relix --timing "run": keys, kernel and every output
    # column materialized, six of them; compared with DuckDB materializing the same six),
    # median of 3; its row count must equal the kernel's. engine.txt: name rows seconds.
    : > "$DATA/engine.$1.txt"
    if [ -z "${SKIP_ENGINE:-}" ]; then
        echo "run.sh: round $1 of $ROUNDS: relix engine" >&2
        for w in $WORKLOADS; do
            rel=$(echo "${w%_4m}" | tr a-z A-Z)
            q="L := csv('$DATA/${w}_l.csv'); R := csv('$DATA/${w}_r.csv');
query { L IJOIN $rel (L.s, L.e, R.s, R.e) R };"
            runs=""
            for i in 1 2 3; do
                out=$("$root/build/relix" --timing --count -e "$q" 2>&1)
                runs="$runs $(printf '%s\n' "$out" | sed -n 's/^timing: .* run \([0-9.]*\) s.*/\1/p')"
                rows=$(printf '%s\n' "$out" | sed -n 's/^(\([0-9]*\) rows*)$/\1/p')
            done
            echo "$w ${rows:-0} $(printf '%s\n' $runs | sort -g | sed -n 2p)" >> "$DATA/engine.$1.txt"
        done
    fi
}
[ -n "${SKIP_ENGINE:-}" ] || make -s -C "$root" build/relix
r=1
while [ $r -le "$ROUNDS" ]; do one_round $r; r=$((r + 1)); done
# The median over the rounds of the given fields (counted from the end of the line when
# negative), per workload; the rest of each line as the first round printed it.
median_rounds() {   # median_rounds KIND FIELD...
    kind=$1
    shift
    awk -v fields="$*" '
    { key = $1; if (!(key in line)) { line[key] = $0; order[++n] = key }
      split(fields, f, " ")
      for (k in f) { i = f[k] < 0 ? NF + 1 + f[k] : f[k]; vals[key, k] = vals[key, k] " " $i } }
    END {
      for (o = 1; o <= n; o++) {
        key = order[o]; nw = split(line[key], w, " ")
        split(fields, f, " ")
        for (k in f) {
          c = split(vals[key, k], v, " ")
          for (a = 1; a <= c; a++) for (b = a + 1; b <= c; b++) if (v[b] + 0 < v[a] + 0) { t = v[a]; v[a] = v[b]; v[b] = t }
          i = f[k] < 0 ? nw + 1 + f[k] : f[k]
          w[i] = v[int((c + 1) / 2)]
        }
        out = w[1]; for (i = 2; i <= nw; i++) out = out " " w[i]
        print out
      }
    }' $(r=1; while [ $r -le "$ROUNDS" ]; do printf '%s ' "$DATA/$kind.$r.txt"; r=$((r + 1)); done)
}
median_rounds relix -4 -3 > "$DATA/relix.txt"
median_rounds duckdb 4 5 > "$DATA/duckdb.txt"
if [ -z "${SKIP_ENGINE:-}" ]; then median_rounds engine 3 > "$DATA/engine.txt"; else : > "$DATA/engine.txt"; fi
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
# duckdb.txt: name pairs checksum seconds (two columns) seconds (six columns); peers.txt: name
# pairs checksum seconds.
awk '
function fmt_ratio(p, r) { return r > 0 ? sprintf("%.1fx", p / r) : "-" }
FILENAME ~ /relix.txt$/ {
    n = NF; name = $1
    peak[name] = $(n - 1); bound[name] = $n
    floor_s[name] = $(n - 2); relix_s[name] = $(n - 3); sum[name] = $(n - 4); pairs[name] = $(n - 5)
    order[++count] = name; next
}
FILENAME ~ /engine.txt$/ { erows[$1] = $2; esec[$1] = $3; next }
{ peer[$1] = $4; psum[$1] = $3; ppairs[$1] = $2; porder[++pcount] = $1; if (NF > 4) peer_all[$1] = $5 }
END {
    printf "%-31s | %8s | %8s | %7s | %8s | %9s | %-15s | %s\n", "workload", "relix s", "peer s",
           "ratio", "floor s", "pairs", "checksums agree", "peak MB (bound)"
    printf "%s\n", "--------------------------------+----------+----------+---------+----------+-----------+-----------------+----------------"
    for (i = 1; i <= count; i++) {
        w = order[i]
        ok = (w in peer) ? ((psum[w] == sum[w] && ppairs[w] == pairs[w]) ? "yes" : "NO") : "-"
        printf "%-31s | %8.4f | %8s | %7s | %8.4f | %9s | %-15s | %s\n", w " (duckdb)", relix_s[w],
               (w in peer) ? sprintf("%.4f", peer[w]) : "-", (w in peer) ? fmt_ratio(peer[w], relix_s[w]) : "-",
               floor_s[w], pairs[w], ok, sprintf("%.0f (%.0f)", peak[w], bound[w])
    }
    for (i = 1; i <= count; i++) {
        w = order[i]
        if (!(w in esec)) continue
        printf "%-31s | %8.4f | %8s | %7s | %8s | %9s | %s\n", w " (engine, duckdb 6 cols)", esec[w],
               (w in peer_all) ? sprintf("%.4f", peer_all[w]) : "-", (w in peer_all) ? fmt_ratio(peer_all[w], esec[w]) : "-",
               "-", erows[w], (erows[w] == pairs[w]) ? "rows agree" : "ROWS DIFFER"
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
    printf "\n%-15s | %s\n", "1M -> 4M", "kernel time ratio (target <= 4.5x) | pairs ratio | floor time ratio"
    for (i = 1; i <= count; i++) {
        w = order[i]
        if (w ~ /_4m$/ || !((w "_4m") in relix_s) || relix_s[w] <= 0) continue
        printf "%-15s | %6.2fx | %5.2fx | %5s\n", w, relix_s[w "_4m"] / relix_s[w], pairs[w "_4m"] / pairs[w],
               (floor_s[w] > 0 ? sprintf("%.2fx", floor_s[w "_4m"] / floor_s[w]) : "-")
    }
}' "$DATA/relix.txt" "$DATA/duckdb.txt" "$DATA/peers.txt" $([ -s "$DATA/engine.txt" ] && [ -z "${SKIP_ENGINE:-}" ] && echo "$DATA/engine.txt")
# What first touches of memory cost in this run (the floor and the kernels pay them; see
# docs/ijoin.md on the 1M -> 4M ratios).
$CC -std=c11 -O2 -o "$DATA/memtouch" "$here/../memtouch.c" && "$DATA/memtouch" 512
