#!/bin/sh
# instructions.sh - how the interval-join kernel's work grows from 1M x 1M to 4M x 4M, counted in
# instructions rather than seconds (run by hand, after run.sh has generated the data):
#
#   DATA=/tmp/relix_ijoin_bench sh bench/ijoin/instructions.sh [RELATION...]
#
# Times on a shared VM depend on what fresh memory costs at the moment; an instruction count
# under callgrind does not (the same binary and input give the same count). For each relation
# (default: all fourteen) it runs kernel_bench once per size on one thread, counting only the
# instructions inside ij_join, and prints both counts, their ratio, and the pairs' ratio.
# An n log n + k join grows by about 4.4x here (4x the rows, log n from 20 to 22 bits, 4x the
# pairs); a quadratic term would show as 16x.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
DATA=${DATA:-/tmp/relix_ijoin_bench}
[ -f "$DATA/.generated" ] || { echo "instructions.sh: run bench/ijoin/run.sh first (it generates the data into $DATA)" >&2; exit 2; }
command -v valgrind >/dev/null 2>&1 || { echo "instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
# Without -march=native: valgrind does not decode every instruction of this CPU (AVX-512).
${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -O2 -I"$root/include" -I"$root/src" -o "$DATA/kernel_bench_vg" \
    "$here/kernel_bench.c" "$root"/src/exec/ijoin*.c "$root/src/exec/kernel.c" "$root/src/exec/radix.c" \
    "$root/src/plan/engine.c" "$root/src/types/lang.c" "$root"/src/base/*.c -lm -lpthread
ALL="intersects precedes preceded_by meets met_by overlaps overlapped_by starts started_by during
contains finishes finished_by equals"
RELS=${*:-$ALL}
count() {   # count WORKLOAD: prints "instructions pairs"
    out="$DATA/callgrind.$1.out"
    pairs=$(KERNEL_BENCH_ONCE=1 RELIX_THREADS=1 valgrind --tool=callgrind --toggle-collect=ij_join \
        --callgrind-out-file="$out" "$DATA/kernel_bench_vg" "$DATA" "$1" 2>/dev/null | awk '{print $(NF - 5)}')
    ins=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out" | head -n 1)
    [ -n "$ins" ] || ins=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out" | head -n 1)
    rm -f "$out"
    echo "$ins $pairs"
}
printf '%-14s | %15s | %15s | %6s | %s\n' relation "1M instructions" "4M instructions" ratio "pairs ratio"
for w in $RELS; do
    set -- $(count "$w") $(count "${w}_4m")
    awk -v w="$w" -v a="$1" -v p="$2" -v b="$3" -v q="$4" \
        'BEGIN { printf "%-14s | %15.0f | %15.0f | %5.2fx | %5.2fx\n", w, a, b, b / a, q / p }'
done
