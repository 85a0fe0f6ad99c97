#!/bin/bash
# peers_nearest.sh - ASOF NEAREST against pandas' merge_asof(direction='nearest') and Polars'
# joinAsof(strategy: 'nearest'), by symbol, on gen.py's trades x quotes (quote times distinct per
# symbol, so the rules for equal times coincide). Relix's `>=` (equal distances: the earlier
# quote) is pandas' rule; the script also prints how many rows differ under `<=` (the later),
# so Polars' rule shows whichever it is. By hand, not part of the test suite:
#
#   bench/temporal/peers_nearest.sh [N]     (default 20000)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
n=${1:-20000}
PY=/usr/bin/python3   # Debian's python3, where python3-pandas installs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$PY "$here/gen.py" "$tmp" "$n"
for op in '>=' '<='; do
  "${RELIX:-$root/build/relix}" --format csv -e "T := csv('$tmp/trades_$n.csv'); Q := csv('$tmp/quotes_$n.csv');
    query { π T.id, Q.id → qid (T ASOF NEAREST T.sym = Q.sym ∧ T.ts $op Q.ts Q) };" > "$tmp/relix_$op.csv"
done
$PY - "$tmp" "$n" <<'PYEOF'
import sys
import pandas as pd
d, n = sys.argv[1], sys.argv[2]
t = pd.read_csv(f"{d}/trades_{n}.csv").sort_values("ts")
q = pd.read_csv(f"{d}/quotes_{n}.csv").rename(columns={"id": "qid"}).sort_values("ts")
r = pd.merge_asof(t, q[["sym", "ts", "qid"]], on="ts", by="sym", direction="nearest")
r.sort_values("id")[["id", "qid"]].to_csv(f"{d}/pandas.csv", index=False, float_format="%.0f")
PYEOF
(cd "$root/bench" && node --input-type=module -e "
import pl from 'nodejs-polars';
const t = pl.readCSV('$tmp/trades_$n.csv').sort('ts');
const q = pl.readCSV('$tmp/quotes_$n.csv').rename({ id: 'qid' }).sort('ts');
const r = t.joinAsof(q.select('sym', 'ts', 'qid'), { on: 'ts', by: 'sym', strategy: 'nearest' }).sort('id');
r.select('id', 'qid').writeCSV('$tmp/polars.csv');
")
norm() { tail -n +2 "$1" | sed 's/\.0$//' | sort -t, -k1,1n; }
for peer in pandas polars; do
  for op in '>=' '<='; do
    d=$(diff <(norm "$tmp/relix_$op.csv") <(norm "$tmp/$peer.csv") | grep -c '^<' || true)
    echo "$peer vs Relix NEAREST $op: $d of $n rows differ"
  done
done
