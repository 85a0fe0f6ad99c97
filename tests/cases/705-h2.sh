# H2 connections against a throwaway H2 2.1 server speaking PostgreSQL's protocol (scripts/h2.sh,
# started and stopped here; the tables loaded through it with psql): every column type H2 has
# that Relix maps (TIMESTAMP, TIMESTAMP WITH TIME ZONE at other offsets, DATE, TIME, NUMERIC,
# DOUBLE PRECISION with hostile values, REAL, BOOLEAN, VARCHAR, CHAR, SMALLINT, INTEGER, BIGINT, INTERVAL
# of both kinds, UUID) and those it refuses (VARBINARY, ARRAY), the order of a table without a
# primary key (_ROWID_) and of a view, hostile names, 2000 random doubles read back bit for bit,
# pushdown in H2's dialect (σ π ⨝ γ τ TOP and IJOIN as one statement; text compared by its
# bytes; each query prints the same bytes with --no-pushdown), ASOF and FULL JOIN left to the
# engine with EXPLAIN saying why, a table named in the wrong case, a postgresql:// URI that
# reaches H2, a PostgreSQL server named h2://, a password in PGPASSWORD that never appears, and a
# URI with a password refused and redacted.
root=$PWD
RELIX=$root/$RELIX
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'scripts/h2.sh stop "$tmp/h2"; rm -rf "$tmp"' EXIT
port=$(scripts/h2.sh start "$tmp/h2") || { echo "cannot start H2"; exit 1; }
export PGPASSWORD=s3cr3t-do-not-print
# the first connection creates the database, with this user and password as its owner's
psql -q -v ON_ERROR_STOP=1 "postgresql://sa@127.0.0.1:$port/shop" >"$tmp/psql.log" 2>&1 <<'SQL' || { echo "cannot load H2"; cat "$tmp/psql.log"; exit 1; }
CREATE TABLE quotes (id BIGINT PRIMARY KEY, sym VARCHAR(8), ts TIMESTAMP(6), at TIMESTAMP(6) WITH TIME ZONE,
  price NUMERIC(10,2), live BOOLEAN, "day" DATE, t TIME(6), px DOUBLE PRECISION, r REAL, n INTEGER, s SMALLINT,
  note VARCHAR, c CHAR(3), lag INTERVAL DAY TO SECOND, span INTERVAL YEAR TO MONTH, u UUID);
INSERT INTO quotes VALUES
  (1, 'ACME', '2026-01-02 09:00:00', '2026-01-02 10:00:00+01', 10.00, TRUE, '2026-01-02', '09:00:00',
   CAST('0.1' AS DOUBLE PRECISION) + CAST('0.2' AS DOUBLE PRECISION), CAST('0.1' AS REAL), 2147483647, -32768,
   'a''b', 'ab', INTERVAL '1 02:03:04.5' DAY TO SECOND, INTERVAL '1-6' YEAR TO MONTH, '123e4567-e89b-12d3-a456-426614174000'),
  (3, 'acme', '2026-01-02 09:05:00.5', '2026-01-02 03:35:00.25-05:30', 10.25, FALSE, NULL, NULL,
   CAST('1e300' AS DOUBLE PRECISION), CAST('-1.5' AS REAL), NULL, NULL, NULL, NULL,
   INTERVAL '-0.000001' SECOND, INTERVAL '-2' YEAR, NULL),
  (2, 'A ', '2026-01-02 09:05:00', '1969-12-31 23:59:59.999999+00', -0.5, NULL, '1969-12-31', '23:59:59.5',
   CAST('-0.0' AS DOUBLE PRECISION), NULL, 0, 0, '', 'x', NULL, NULL, NULL),
  (4, 'é', '1900-02-28 00:00:00', NULL, 12345678.91, TRUE, '0001-01-01', '00:00:00.000001',
   CAST('4.9E-324' AS DOUBLE PRECISION), NULL, NULL, NULL, '𝄞 clef', NULL, INTERVAL '100' HOUR, NULL, NULL),
  (5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, CAST('Infinity' AS DOUBLE PRECISION), NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL),
  (6, 'NaN', NULL, NULL, NULL, NULL, NULL, NULL, CAST('NaN' AS DOUBLE PRECISION), NULL, NULL, NULL, NULL,
   NULL, NULL, NULL, NULL),
  (7, 'max', NULL, NULL, NULL, NULL, NULL, NULL, CAST('-1.7976931348623157E308' AS DOUBLE PRECISION), NULL, NULL, NULL,
   NULL, NULL, NULL, NULL, NULL);
CREATE TABLE trades (id INTEGER PRIMARY KEY, sym VARCHAR(8), ts TIMESTAMP, qty SMALLINT);
INSERT INTO trades VALUES (1, 'ACME', '2026-01-02 09:03:00', 100), (2, 'acme', '2026-01-02 09:07:00', 50),
  (3, 'INIT', '2026-01-02 09:12:00', 75), (4, 'A ', '2026-01-02 09:06:00', 5);
CREATE TABLE keys_ (k VARCHAR(8), n INTEGER);
INSERT INTO keys_ VALUES ('b', 1), ('A', 2), ('a ', 3), ('a', 4), (NULL, 5), ('a', 6), ('B', 7), ('𝄞', 8), ('￿', 9), ('é', 10);
CREATE TABLE "we;ird""name" ("col--x" INTEGER, "sel ect" VARCHAR);
INSERT INTO "we;ird""name" VALUES (1, 'a''b'), (2, 'DROP TABLE quotes; --'), (3, '?1 $1');
CREATE TABLE "UPPER" (id INTEGER);
CREATE TABLE blobs (id INTEGER PRIMARY KEY, b VARBINARY(8));
CREATE TABLE arrays (id INTEGER PRIMARY KEY, a INTEGER ARRAY);
CREATE TABLE stays (id INTEGER PRIMARY KEY, room INTEGER, s INTEGER, e INTEGER);
INSERT INTO stays VALUES (1, 101, 1, 5), (2, 101, 8, 10), (3, 102, 3, 7);
CREATE TABLE asks (id INTEGER PRIMARY KEY, room INTEGER, s INTEGER, e INTEGER);
INSERT INTO asks VALUES (1, 101, 4, 9), (2, 102, 1, 3), (3, 102, 10, 12);
CREATE VIEW cheap AS SELECT sym, px FROM quotes WHERE id < 4;
SQL
uri="h2://sa@127.0.0.1:$port/shop"
run() { "$RELIX" "$@" 2>&1; echo "exit $?"; }
all=$(
run -e "H := connect('$uri'); query { H.quotes }; query { H.\"we;ird\"\"name\" }; query { H.keys_ }; query { H.cheap };"
# a PostgreSQL URI that reaches H2 is H2
run -e "H := connect('postgresql://sa@127.0.0.1:$port/shop'); query { π id, sym (H.trades) };"
# pushdown in H2's dialect; each query prints the same bytes with --no-pushdown
q() {
  "$RELIX" --explain -e "H := connect('$uri'); query { $1 };" 2>&1
  a=$("$RELIX" -e "H := connect('$uri'); query { $1 };" 2>&1)
  b=$("$RELIX" --no-pushdown -e "H := connect('$uri'); query { $1 };" 2>&1)
  [ "$a" = "$b" ] && echo "(the engine prints the same)" || printf 'THE ENGINE DIFFERS:\n%s\n' "$b"
  echo
}
q "σ k = 'a' (H.keys_)"
q "σ k > 'a' (H.keys_)"
q "δ (π k (H.keys_))"
q "γ k; count(*) → n, min(n) → lo (H.keys_)"
q "τ k DESC, n (H.keys_)"
q "γ min(k) → lo, max(k) → hi, count(k) → n, count(DISTINCT k) → d (H.keys_)"
q "γ live; count(*) → n, min(sym) → s (H.quotes)"
q "TOP 2 BY n DESC (σ k ≠ 'b' (H.keys_))"
q "π T.id, Q.id → qid, Q.price (σ T.qty > 10 (H.trades T) ⨝ T.sym = Q.sym σ Q.px < 1 (H.quotes Q))"
q "π A.id, S.id → sid (σ A.room = S.room (H.asks A IJOIN INTERSECTS (A.s, A.e, S.s, S.e) H.stays S))"
q "π A.id, S.id → sid (H.asks A IJOIN PRECEDES (A.s, A.e, S.s, S.e) H.stays S)"
q "σ \"sel ect\" = 'a''b' ∨ \"sel ect\" = '?1 \$1' (H.\"we;ird\"\"name\")"
q "σ ts >= TIMESTAMP '2026-01-02T09:05:00Z' ∧ day ≠ DATE '2026-01-02' (H.quotes)"
q "σ at < TIMESTAMP '2026-01-02T09:00:00.000001Z' (H.quotes)"
# what H2 lacks stays in the engine: LATERAL (so every ASOF), FULL JOIN
q "π T.id, Q.id → qid (H.trades T ASOF T.sym = Q.sym ∧ T.ts >= Q.ts H.quotes Q)"
q "π T.id, Q.id → qid (H.trades T ⟗ T.sym = Q.sym H.quotes Q)"
run -e "H := connect('$uri'); query { H.blobs };"
run -e "H := connect('$uri'); query { H.arrays };"
run -e "H := connect('$uri'); query { H.upper };"
run -e "H := connect('$uri'); query { H.missing };"
run -e "H := connect('h2://sa:hunter2@127.0.0.1:$port/shop'); query { H.quotes };"
run -e "H := connect('h2://sa@127.0.0.1:$port/shop?password=hunter2'); query { H.quotes };"
PGPASSWORD=wrong-one run -e "H := connect('$uri'); query { H.quotes };"
run -e "H := connect('h2://sa@127.0.0.1:1/shop'); query { H.quotes };"
)
printf '%s\n' "$all" | sed "s/127\.0\.0\.1:$port/127.0.0.1:PORT/g; s/port $port/port PORT/g; s|$tmp|TMP|g"
if printf '%s' "$all" | grep -q "s3cr3t\|hunter2\|wrong-one"; then echo "A PASSWORD WAS PRINTED"; else echo "no password appears"; fi
# 2000 random doubles (every exponent, subnormals) stored by their shortest text and
# read back: each must be the same 64 bits
/usr/bin/python3 - "$RELIX" "postgresql://sa@127.0.0.1:$port/shop" "$uri" <<'PY'
import random, struct, subprocess, sys
relix, pg, uri = sys.argv[1:]
rng = random.Random(7)
xs = [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0] for _ in range(1900)]
xs += [rng.uniform(-1, 1) * 10 ** rng.randrange(-320, 300) for _ in range(96)] + [5e-324, 2.0 ** 53 + 2, 0.1]
# H2 stores no NaN payloads, and -0.0 as 0.0 (row 2 of quotes above)
xs = [x for x in xs if x == x and abs(x) != float("inf") and x != 0]
sql = "CREATE TABLE dbl (id INTEGER PRIMARY KEY, x DOUBLE PRECISION);\n"
sql += "".join(f"INSERT INTO dbl VALUES ({i}, CAST('{x!r}' AS DOUBLE PRECISION));\n" for i, x in enumerate(xs))
subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", pg], input=sql, text=True, check=True, capture_output=True)
out = subprocess.run([relix, "--format", "csv", "-e", f"H := connect('{uri}'); query {{ π x (H.dbl) }};"],
                     capture_output=True, text=True)
got = out.stdout.splitlines()[1:]
same = len(got) == len(xs) and all(struct.pack("<d", float(g)) == struct.pack("<d", x) for g, x in zip(got, xs))
print(f"{len(xs)} doubles read back: {'bit for bit' if same else 'NOT THE SAME'}")
if not same:
    bad = [(g, x) for g, x in zip(got, xs) if struct.pack("<d", float(g)) != struct.pack("<d", x)]
    print(out.stderr[:400], len(got), bad[:5])
PY
