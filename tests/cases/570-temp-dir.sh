# --temp-dir: an existing directory is accepted (a query that does not spill leaves it as it
# was, with no relix-* directory in it); a missing path or a file is refused before anything
# runs (exit 2), saying which.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir spill
touch afile
cat > s.rx <<'RX'
T := [
| a |
|---|
| 1 |
];
query { T };
RX
"$RELIX" --temp-dir spill s.rx; echo "exit $?"
ls -A spill | wc -l
"$RELIX" --temp-dir=spill s.rx >/dev/null; echo "exit $?"
"$RELIX" --temp-dir no/such/dir s.rx; echo "exit $?"
"$RELIX" --temp-dir afile s.rx; echo "exit $?"
"$RELIX" --temp-dir "" s.rx; echo "exit $?"
"$RELIX" --help | grep -A1 -- --temp-dir
