#!/usr/bin/env bash
# Data safety: Relix never loses, corrupts or leaks the user's files (docs/files.md).
#
#   tests/data_safety.sh            uses build/relix (RELIX=path to choose another)
#
# Sections: 1 output over the run's own input, 2 usage errors leave -o's file alone, 3 a full
# disk (ulimit -f) leaves the old target whole and no temporary, 4 Ctrl-C stops a long join
# at once with exit 130 and no output file, 5 secrets (tests/data_safety_secrets.sh).
# One line per check: "ok N.M what" or "FAIL N.M what (detail)"; exits 1 when any check failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
RELIX=${RELIX:-$root/build/relix}
case "$RELIX" in /*) ;; *) RELIX=$root/$RELIX ;; esac
[ -x "$RELIX" ] || { echo "FAIL no relix binary at $RELIX (run make)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0

ok() { echo "ok $1"; }
fail() { echo "FAIL $1${2:+ ($2)}"; failures=$((failures + 1)); }
check() { # check ID WHAT CONDITION...
    local id=$1 what=$2
    shift 2
    if "$@"; then ok "$id $what"; else fail "$id $what"; fi
}
# True when the folder holds nothing but the files named (no temporary left behind).
only_files() {
    local dir=$1
    shift
    local want have
    want=$(printf '%s\n' "$@" | sort)
    have=$(cd "$dir" && ls -A | sort)
    [ "$want" = "$have" ]
}

make_csv() { # make_csv FILE ROWS
    awk -v n="$2" 'BEGIN { print "id,v,name"; for (i = 0; i < n; i++) print i "," (i % 7) ",name" i }' > "$1"
}

# ---- 1: output over the run's own input ------------------------------------------------------
mkdir s1 && cd s1
make_csv t.csv 200000
awk -F, 'NR == 1 || $2 == 3' t.csv > want.csv  # TEXT points into the mapped input
"$RELIX" -e "T := csv('t.csv'); query { σ v = 3 (T) } into csv('t.csv');" > out 2> err
rc=$?
check 1.1 "into csv over its own input exits 0" [ "$rc" = 0 ]
check 1.2 "into csv over its own input writes the filtered rows" cmp -s t.csv want.csv
make_csv u.csv 200000
"$RELIX" -o u.csv -f csv -e "T := csv('u.csv'); query { σ v = 3 (T) };" > out 2> err
rc=$?
check 1.3 "-o over the script's own input exits 0" [ "$rc" = 0 ]
check 1.4 "-o over the script's own input writes the filtered rows" cmp -s u.csv want.csv
chmod 640 u.csv
"$RELIX" -o u.csv -f csv -e "T := csv('u.csv'); query { T };" > out 2> err
check 1.5 "a replaced file keeps its mode" [ "$(stat -c %a u.csv)" = 640 ]
# a link that cannot be resolved (as /dev/stdout to a pipe, or a dangling one) is written
# through, never replaced
ln -s made.csv link.csv
"$RELIX" -o link.csv -f csv -e "T := csv('u.csv'); query { σ id = 3 (T) };" > out 2> err
check 1.7 "-o through a dangling link keeps the link" [ -L link.csv ]
check 1.8 "-o through a dangling link writes the file it names" [ "$(cat made.csv)" = "$(printf 'id,v,name\n3,3,name3')" ]
rm -f link.csv made.csv
check 1.6 "no temporary is left" only_files . t.csv want.csv u.csv out err
cd ..

# ---- 2: usage errors with -o over an existing file -------------------------------------------
mkdir s2 && cd s2
make_csv data.csv 100
cp data.csv data.orig
printf "query { [ | a |\n|---|\n| 1 | ] };\n" > script.rx
cp script.rx script.orig
"$RELIX" -o data.csv --bogus-flag script.rx > out 2> err
rc=$?
check 2.1 "-o with a bogus flag: usage error" [ "$rc" = 2 ]
check 2.2 "-o with a bogus flag leaves the file" cmp -s data.csv data.orig
"$RELIX" -o data.csv missing.rx > out 2> err
rc=$?
check 2.3 "-o with a missing script: error" [ "$rc" = 1 ]
check 2.4 "-o with a missing script leaves the file" cmp -s data.csv data.orig
"$RELIX" -o script.rx script.rx > out 2> err
rc=$?
check 2.5 "-o naming the script: usage error" [ "$rc" = 2 ]
check 2.6 "-o naming the script leaves the script" cmp -s script.rx script.orig
"$RELIX" -o ./script.rx "$PWD/script.rx" > out 2> err
check 2.7 "-o naming the script in another spelling leaves it" cmp -s script.rx script.orig
"$RELIX" -o data.csv -e "query { nosuch };" > out 2> err
rc=$?
check 2.8 "-o with a script error: error" [ "$rc" = 1 ]
check 2.9 "-o with a script error leaves the file" cmp -s data.csv data.orig
"$RELIX" -o x.html --report x.html script.rx > out 2> err
rc=$?
check 2.10 "-o X --report X: usage error" [ "$rc" = 2 ]
check 2.11 "-o X --report X writes nothing" [ ! -e x.html ]
printf '<!DOCTYPE html>\n' > r.html
cp r.html r.orig
ln r.html r-link.html
ln -s r.html r-sym.html
"$RELIX" -o r-link.html --report ./r.html script.rx > out 2> err
rc=$?
check 2.12 "-o and --report as hard links of one file: usage error" [ "$rc" = 2 ]
"$RELIX" -o r.html --report r-sym.html script.rx > out 2> err
rc2=$?
check 2.13 "-o and --report through a symbolic link: usage error" [ "$rc2" = 2 ]
check 2.14 "the linked file is untouched" cmp -s r.html r.orig
check 2.15 "no temporary is left" only_files . data.csv data.orig script.rx script.orig out err \
    r.html r.orig r-link.html r-sym.html
cd ..

# ---- 3: a full disk mid-write ----------------------------------------------------------------
mkdir s3 && cd s3
make_csv big.csv 300000
printf 'id,v\nold,contents\n' > target.csv
cp target.csv target.orig
(ulimit -f 100; exec "$RELIX" -e "T := csv('big.csv'); query { T } into csv('target.csv');") > out 2> err
rc=$?
check 3.1 "into csv on a full disk exits 1" [ "$rc" = 1 ]
check 3.2 "the error names the file and the OS error" grep -q "target.csv.*File too large" err
check 3.3 "the old target is intact" cmp -s target.csv target.orig
(ulimit -f 100; exec "$RELIX" -o target.csv -f csv -e "T := csv('big.csv'); query { T };") > out 2> err
rc=$?
check 3.4 "-o on a full disk exits 1" [ "$rc" = 1 ]
check 3.5 "the -o error names the file and the OS error" grep -q "target.csv.*File too large" err
check 3.6 "the old -o target is intact" cmp -s target.csv target.orig
check 3.7 "no temporary is left" only_files . big.csv target.csv target.orig out err
cd ..

# ---- 4: Ctrl-C stops a long join -------------------------------------------------------------
mkdir s4 && cd s4
awk 'BEGIN { print "x"; for (i = 0; i < 40000; i++) print i }' > a.csv
awk 'BEGIN { print "y"; for (i = 0; i < 40000; i++) print i }' > b.csv
# An equi-join as a nested loop (1.6 G comparisons, minutes) and a theta join.
for q in "--no-hashjoin|A ⨝ x = y B" "|A ⨝ x < y B"; do
    opt=${q%%|*}
    join=${q#*|}
    rm -f out.csv
    "$RELIX" $opt -o out.csv -e "A := csv('a.csv'); B := csv('b.csv'); query { γ count(*) → n ($join) };" \
        > out 2> err &
    pid=$!
    sleep 2
    if ! kill -0 "$pid" 2> /dev/null; then
        wait "$pid"
        fail "4 $join runs long enough to interrupt" "it ended within 2 s"
        continue
    fi
    kill -INT "$pid"
    start=$(date +%s%N)
    # wait at most 5 s, then kill it, so that a hang fails the check instead of the suite
    for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2> /dev/null && kill -KILL "$pid"
    wait "$pid"
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    check "4 $join" "exits 130 on SIGINT" [ "$rc" = 130 ]
    check "4 $join" "stops within a second" [ "$ms" -lt 1000 ]
    check "4 $join" "leaves no output file" [ ! -e out.csv ]
    check "4 $join" "says it was interrupted, in one line" \
        [ "$(cat err)" = "relix: interrupted" ]
done
# SIGTERM ends the process at once; the old -o target stays as it was
printf 'old\n' > keep.csv
"$RELIX" --no-hashjoin -o keep.csv -e "A := csv('a.csv'); B := csv('b.csv'); query { γ count(*) → n (A ⨝ x = y B) };" \
    > out 2> err &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
rc=$?
check 4.8 "SIGTERM ends the run (exit 143)" [ "$rc" = 143 ]
check 4.9 "SIGTERM leaves the -o target as it was" [ "$(cat keep.csv)" = old ]
rm -f keep.csv
check 4.10 "no temporary is left" only_files . a.csv b.csv out err
cd ..

# ---- section 5: secrets (credentials never written or shown) -----------------------------------
if [ -f "$root/tests/data_safety_secrets.sh" ]; then
    # its own lines are one a check; here its failures and its closing count
    if out=$(RELIX="$RELIX" bash "$root/tests/data_safety_secrets.sh" 2>&1); then
        echo "ok 5 $(printf '%s\n' "$out" | tail -n 1)"
    else
        printf '%s\n' "$out" | grep -v '^ok '
        echo "FAIL 5 secrets (tests/data_safety_secrets.sh)"
        failures=$((failures + 1))
    fi
else
    fail 5 "tests/data_safety_secrets.sh is missing"
fi

if [ "$failures" -gt 0 ]; then
    echo "data safety: $failures check(s) failed"
    exit 1
fi
echo "data safety: all checks passed"
