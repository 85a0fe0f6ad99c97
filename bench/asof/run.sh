#!/bin/bash
# run.sh - the AS-OF join benchmark, by hand (not part of the test suite):
#
#   bench/asof/run.sh            ASOF_SIZES="1000000 10000000" ASOF_DATA=/tmp/relix-asof-bench
#
# Installs the peers (bench/install-peers.sh), builds gen.c and kernel_bench.c, generates the
# trades x quotes workloads once, then runs on each size and order (rand, sorted by (sym, ts)):
# the Relix kernel (backward with the symbol as partition: outer, inner, WITHIN 1 s), DuckDB's
# ASOF LEFT JOIN (materialized), Polars' joinAsof (by sym, with its sort on rand data), pandas'
# merge_asof (with its sort), and PostgreSQL's LEFT JOIN LATERAL ... ORDER BY ts DESC LIMIT 1 over
# an index on (sym, ts) at 1M rows only, in a throwaway cluster under /tmp on a private port run
# as the postgres user and stopped afterwards. Every engine prints the matched count and the sum
# of the matched quotes' ids; "agree" says whether all of them printed the same pair. Prints one
# table; ratios are the peer's seconds over Relix's. Besides the kernel, each size and order also
# times the whole engine on loaded columns (relix --timing "run"), against the peers that
# materialize the same columns: (t.id, qid) for DuckDB and PostgreSQL, every column for Polars
# and pandas.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=${ASOF_DATA:-/tmp/relix-asof-bench}
sizes=${ASOF_SIZES:-"1000000 10000000"}
pgdir=/tmp/relix-asof-pg
pgport=55437
PY=/usr/bin/python3   # Debian's python3, where python3-pandas installs

sh "$root/bench/install-peers.sh" >&2
mkdir -p "$data"
chmod 755 "$data"
cc=${CC:-gcc}
$cc -O2 -o "$data/gen" "$here/gen.c"
$cc -std=c11 -D_DEFAULT_SOURCE -O2 -I"$root/include" -I"$root/src" -o "$data/kernel_bench" \
    "$here/kernel_bench.c" "$root/src/exec/asof.c" "$root/src/exec/kernel.c" "$root/src/exec/radix.c" \
    "$root/src/types/lang.c" "$root"/src/base/*.c -lm -lpthread
for n in $sizes; do
    [ -f "$data/quotes_${n}_rand.csv" ] || { echo "generating $n" >&2; "$data/gen" "$data" "$n"; }
done

pg_stop() {
    if [ -f "$pgdir/data/postmaster.pid" ]; then
        su postgres -c "pg_ctl -D $pgdir/data stop -m fast -w" >/dev/null 2>&1 || true
    fi
}
trap pg_stop EXIT

# postgres N VARIANT -> "seconds matched sum"
postgres_run() {
    local n=$1 v=$2 bin
    bin=$(dirname "$(command -v pg_ctl 2>/dev/null || echo /usr/lib/postgresql/15/bin/pg_ctl)")
    pg_stop
    rm -rf "$pgdir"
    mkdir -p "$pgdir"
    chown postgres "$pgdir"
    su postgres -c "$bin/initdb -D $pgdir/data -A trust" >/dev/null
    su postgres -c "$bin/pg_ctl -D $pgdir/data -l $pgdir/log -w start -o \"-p $pgport -k $pgdir -c listen_addresses='' -c shared_buffers=1GB -c work_mem=256MB -c max_parallel_workers_per_gather=2\"" >/dev/null
    cat > "$pgdir/bench.sql" <<SQL
CREATE TABLE t (sym text, ts bigint, id bigint, val float8);
CREATE TABLE q (sym text, ts bigint, id bigint, val float8);
COPY t FROM '$data/trades_${n}_${v}.csv' CSV HEADER;
COPY q FROM '$data/quotes_${n}_${v}.csv' CSV HEADER;
CREATE INDEX ON q (sym, ts);
VACUUM ANALYZE t;
VACUUM ANALYZE q;
\timing on
CREATE TABLE res AS SELECT t.id, l.id AS qid FROM t LEFT JOIN LATERAL
  (SELECT q.id FROM q WHERE q.sym = t.sym AND q.ts <= t.ts ORDER BY q.ts DESC LIMIT 1) l ON true;
\timing off
SELECT 'RESULT ' || count(qid) || ' ' || coalesce(sum(qid), 0) FROM res;
SQL
    chown postgres "$pgdir/bench.sql"
    su postgres -c "psql -h $pgdir -p $pgport -d postgres -qAt -f $pgdir/bench.sql" > "$pgdir/out" 2>&1
    pg_stop
    awk '/^Time:/ { ms = $2 } /^RESULT/ { r = $2 " " $3 } END { printf "%.4f %s\n", ms / 1000, r }' "$pgdir/out"
}

# The whole engine on loaded columns (relix --timing "run": keys, kernel and the materialized
# result), median of 3. relix_e2e N VARIANT QUERY -> seconds
relix_e2e() {
    local runs=() i
    for i in 1 2 3; do
        runs+=("$("$root/build/relix" --timing --count -e "T := csv('$data/trades_$1_$2.csv');
Q := csv('$data/quotes_$1_$2.csv'); query { $3 };" 2>&1 | sed -n 's/^timing: .* run \([0-9.]*\) s.*/\1/p')")
    done
    printf '%s\n' "${runs[@]}" | sort -g | sed -n 2p
}
# The engine's count of matches and sum of the matched quote ids, as the peers print them.
relix_check() {
    "$root/build/relix" --format tsv -e "T := csv('$data/trades_$1_$2.csv');
Q := csv('$data/quotes_$1_$2.csv');
query { γ count(qid) → n, sum(qid) → s (π T.id, Q.id → qid (T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q)) };" |
        tail -n 1
}
ASOF_Q="T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts Q"
make -s -C "$root" build/relix

human() { case $1 in 1000000) echo 1M ;; 10000000) echo 10M ;; *) echo "$1" ;; esac; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == 0) print "-"; else printf "%.1fx", a / b }'; }

rows=()
mem=()
for n in $sizes; do
    for v in rand sorted; do
        echo "running $n $v" >&2
        relix=$("$data/kernel_bench" "$data" "$n" "$v")
        read -r _ rs rc rsum _ _ _ rpeak rbound <<< "$(echo "$relix" | grep '^outer')"
        mem+=("$(human "$n") $v: kernel peak $rpeak MB, bound $rbound MB")
        duck=$(node "$here/duckdb_bench.mjs" "$data" "$n" "$v" 2>/dev/null)
        polars=$(node "$here/polars_bench.mjs" "$data" "$n" "$v" 2>/dev/null)
        pandas=$($PY "$here/pandas_bench.py" "$data" "$n" "$v" 2>/dev/null)
        if [ "$n" -le 1000000 ]; then pg=$(postgres_run "$n" "$v"); else pg="- - -"; fi
        agree=yes
        for r in "$duck" "$polars" "$pandas" "$pg"; do
            read -r s c sum <<< "$r"
            [ "$s" = "-" ] && continue
            [ "$c $sum" = "$rc $rsum" ] || agree="NO ($c $sum vs $rc $rsum)"
        done
        ds=${duck%% *}; ps=${polars%% *}; pds=${pandas%% *}; pgs=${pg%% *}
        rows+=("$(human "$n") $v outer, kernel|$rs|$ds|$ps|$pds|$pgs|duckdb $(ratio "$ds" "$rs"), polars $(ratio "$ps" "$rs"), pandas $(ratio "$pds" "$rs"), pg $(ratio "$pgs" "$rs")|$agree ($rc matched)")
        # Like with like: DuckDB and PostgreSQL materialize (t.id, qid), Polars and pandas the
        # whole joined frame; the engine does the same through π or without it.
        e2=$(relix_e2e "$n" "$v" "π T.id, Q.id → qid ($ASOF_Q)")
        ea=$(relix_e2e "$n" "$v" "$ASOF_Q")
        read -r ec esum <<< "$(relix_check "$n" "$v" | tr '\t' ' ')"
        eagree=yes
        [ "$ec $esum" = "$rc $rsum" ] || eagree="NO ($ec $esum vs $rc $rsum)"
        rows+=("$(human "$n") $v outer, engine (t.id, qid)|$e2|$ds|-|-|$pgs|duckdb $(ratio "$ds" "$e2"), pg $(ratio "$pgs" "$e2")|$eagree")
        rows+=("$(human "$n") $v outer, engine (all columns)|$ea|-|$ps|$pds|-|polars $(ratio "$ps" "$ea"), pandas $(ratio "$pds" "$ea")|$eagree")
        for mode in inner within; do
            read -r _ s c _ _ _ _ <<< "$(echo "$relix" | grep "^$mode")"
            rows+=("$(human "$n") $v $mode|$s|-|-|-|-|-|relix only ($c matched)")
        done
    done
done

printf '\n| workload | relix s | duckdb s | polars s | pandas s | postgres s | ratios (peer / relix) | results agree |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
printf '\nPeak memory of the outer join (inputs + output + the most held on top, against 2 x (inputs + output)):\n'
printf '  %s\n' "${mem[@]}"
