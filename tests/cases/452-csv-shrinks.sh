# A file that another program truncates while Relix reads it: never a crash (SIGBUS, as a
# mapping of the file gave), either the whole result as the file was when read or, when the
# truncation comes during the read, an error that names the file. The truncations come at
# several moments of the run, so one of them falls while the file or its TEXT values are in use.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c "
import sys
w = sys.stdout.write
w('id,name,note\n')
for i in range(600000):
    w('%d,name-%d,some text that makes the rows long enough %d\n' % (i, i % 1000, i))
" > "$tmp/big.csv"
rows=600001
(
  sleep 0.2; truncate -s 20000000 "$tmp/big.csv"
  sleep 0.3; truncate -s 5000000 "$tmp/big.csv"
  sleep 0.5; truncate -s 1000 "$tmp/big.csv"
) &
"$RELIX" --format csv -o "$tmp/out.csv" -e "X := csv('$tmp/big.csv'); query { X }; query { X };" 2> "$tmp/err"
rc=$?
wait
# Which of the two good outcomes comes depends on the machine's speed: both print the same.
if [ "$rc" -eq 0 ] && [ "$(wc -l < "$tmp/out.csv")" -ge "$rows" ]; then
  echo "no crash: every row as read, or an error naming the file (exit 1)"
elif [ "$rc" -eq 1 ] && grep -q "error: '$tmp/big.csv' shrank while it was read" "$tmp/err"; then
  echo "no crash: every row as read, or an error naming the file (exit 1)"
else
  echo "exit $rc"
  sed "s|$tmp|TMP|g" "$tmp/err"
fi
