# MongoDB collections as relations, end to end through libmongoc against tests/mongo_fake.py, a
# stand-in server speaking MongoDB's wire protocol over documents held in memory (no MongoDB
# server installs from Debian 12's packages; the stand-in starts here on a free port and stops
# in the trap, and a stand-in that does not start fails the case). It logs each command Relix
# sends, so the case shows what reaches the server: finds with filter {} (nothing is pushed),
# sorted by _id, the projection of the top-level fields a query reads, batches and getMore.
# Shown: flattening (a.b columns, arrays as JSON, a field that is a document and a value),
# the type mapping, EXPLAIN's find, joins in the engine, the sample= option and its errors
# beyond the sample, a missing collection, and a login failure that never prints the password.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
cat > "$tmp/fixture.py" <<'PY'
DATA = {
  "shop.orders": [
    {"_id": 1, "sym": "A", "qty": 5, "px": 1.5, "ts": Date(1700000000000), "tags": ["x", "y"],
     "addr": {"city": "Oslo", "geo": {"lat": 59.9}}, "ok": True, "ref": ObjectId(bytes(range(12)))},
    {"_id": 2, "sym": "B", "qty": Int64(7), "px": 2, "ts": Date(1700000060500), "tags": [],
     "addr": {"city": "Bern"}, "ok": False},
    {"_id": 3, "sym": None, "qty": 9, "px": 3.25, "addr": "unknown", "mixed": 1},
    {"_id": 4, "sym": "it's \"q\"", "qty": 11, "px": -0.5, "ts": Date(-1), "mixed": "one"},
  ],
  "shop.ticks": [{"_id": i, "k": i % 3, "v": float(i) / 4} for i in range(2500)],
  "shop.late": [{"_id": 1, "a": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": 3, "b": "new"}],
  "shop.turn": [{"_id": 1, "a": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": "three"}],
  "shop.empty": [],
}
PY
/usr/bin/python3 tests/mongo_fake.py "$tmp/fixture.py" "$tmp/port" "$tmp/log" &
pid=$!
for _ in $(seq 1 100); do [ -s "$tmp/port" ] && break; sleep 0.1; done
[ -s "$tmp/port" ] || { echo "the stand-in MongoDB server did not start"; exit 1; }
port=$(cat "$tmp/port")
run() { # relix arguments...; the port is shown as PORT
  "$RELIX" "$@" > "$tmp/out" 2>&1
  echo "exit $?" >> "$tmp/out"
  sed "s/$port/PORT/g" "$tmp/out"
}
sent() { # the commands the server received since the last call
  sed "s/$port/PORT/g" "$tmp/log"
  : > "$tmp/log"
}
M="M := connect('mongodb://127.0.0.1:$port/shop');"
echo "== every column"
run -e "$M query { M.orders };"
sent
echo "== two columns: the find projects their top-level fields; EXPLAIN shows it"
run --explain -e "$M query { π sym, \"addr.city\" (σ qty > 6 (M.orders)) };"
sent
echo "== CSV output: exact values"
run --format csv -e "$M query { π _id, px, ts, ref, mixed (M.orders) };"
: > "$tmp/log"
echo "== a join and an aggregate run in the engine (nothing pushed), over 2500 documents in batches"
run --explain -e "$M K := [
| k | name |
|---|------|
| 0 | zero |
| 2 | two  |
]; query { γ name; count(*) → n, sum(v) → s (M.ticks ⋈ K) };"
sent
echo "== a field beyond the sample is an error, never dropped; sample=all sees it"
run -e "M := connect('mongodb://127.0.0.1:$port/shop?sample=2'); query { M.late };"
run -e "M := connect('mongodb://127.0.0.1:$port/shop?sample=all'); query { M.late };"
echo "== a value its inferred column cannot hold"
run -e "M := connect('mongodb://127.0.0.1:$port/shop?sample=2'); query { M.turn };"
run -e "$M query { M.turn };"
: > "$tmp/log"
echo "== no such collection, an empty one"
run -e "$M query { M.nothere };"
run -e "$M query { M.empty };"
: > "$tmp/log"
echo "== a user and MONGODB_PASSWORD: the stand-in has no login, and the password is never printed"
MONGODB_PASSWORD=s3cretPW9 run -e "M := connect('mongodb://relix@127.0.0.1:$port/shop'); query { M.orders };" > "$tmp/auth"
grep -c s3cretPW9 "$tmp/auth" || true
cat "$tmp/auth"
: > "$tmp/log"
