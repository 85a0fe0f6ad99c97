# Malformed thread counts: --threads and RELIX_THREADS take a whole number from 1 to 1024; any
# other value is a usage error (exit 2) naming it. An empty RELIX_THREADS means the default, and
# --threads wins over the variable, a malformed one included. Valid settings run the script.
S='T := [
| a |
|---|
| 1 |
];
query { T };'
run() { echo "== $1"; shift; "$@" -e "$S" 2>&1; echo "exit $?"; }
run '--threads 0' "$RELIX" --threads 0
run '--threads -1' "$RELIX" --threads -1
run '--threads two' "$RELIX" --threads two
run '--threads 1025' "$RELIX" --threads 1025
run '--threads 99999999999999999999' "$RELIX" --threads 99999999999999999999
run '--threads 1.5' "$RELIX" --threads 1.5
run '--threads " 2"' "$RELIX" --threads ' 2'
run '--threads=' "$RELIX" --threads=
echo "== --threads with no value"; "$RELIX" -e "$S" --threads 2>&1; echo "exit $?"
run 'RELIX_THREADS=0' env RELIX_THREADS=0 "$RELIX"
run 'RELIX_THREADS=many' env RELIX_THREADS=many "$RELIX"
run 'RELIX_THREADS= (empty: the default)' env RELIX_THREADS= "$RELIX"
run 'RELIX_THREADS=many --threads 1 (the option wins)' env RELIX_THREADS=many "$RELIX" --threads 1
run '--threads=1024' "$RELIX" --threads=1024
run '--threads 1' "$RELIX" --threads 1
