# γ over a time_bucket key differentially: γ groups time_bucket(W, ts) over times that never
# decrease by the buckets' runs, without the buckets as a column (keys_group_buckets), and keeps
# a dictionary-coded key's coding for FILL and ω above; the same query over time_bucket(W, ts +
# PT0S) and sym || '' takes the general path (a computed bucket column, hashed or run-grouped;
# a key of plain strings). Random CSVs - ties, runs that cross bucket edges, NULL symbols, NULL
# times, unsorted times, one row, one group, empty input after σ, files large enough (4,096
# rows) for the CSV reader to code the symbols - under widths of 1 s to 1 h, with the bucket key
# first, last or alone, beside a second key, under FILL and ω, must print the same bytes.
exec /usr/bin/python3 - "$RELIX" <<'PY'
import os, random, shutil, subprocess, sys, tempfile

relix = sys.argv[1]
rng = random.Random(860)
tmp = tempfile.mkdtemp()

def dataset(k):
    n = [1, 2, 3, 4, 50, 400][k % 6] if k < 12 else rng.randint(2, 600) if k < 30 else rng.randint(4100, 6000)
    shape = k % 5   # 0-2: sorted; 3: unsorted; 4: a NULL time
    syms = ["S%d" % i for i in range(1 if k % 7 == 0 else rng.randint(1, 12))]
    t, rows = 1767344400 + rng.randint(-90, 90), []
    for _ in range(n):
        t += rng.choice([0, 0, 1, 2, 7, 30, 61])
        ts = t
        if shape == 3 and rng.random() < 0.1:
            ts = t - rng.randint(1, 200)
        s = "" if rng.random() < 0.05 else rng.choice(syms)
        tv = ""
        if not (shape == 4 and rng.random() < 0.05):
            hh, rem = divmod(ts % 86400, 3600)
            tv = "2026-01-%02dT%02d:%02d:%02dZ" % (1 + ts // 86400 - 20454, hh, rem // 60, rem % 60)
        q = "" if rng.random() < 0.1 else str(rng.randint(-5, 500))
        rows.append("%s,%s,%.2f,%s" % (s, tv, rng.uniform(90, 110), q))
    if n and not any(r.split(",")[1] for r in rows):   # keep ts a TIMESTAMP column
        rows[0] = "S0,2026-01-02T09:00:00Z,100.00,1"
    path = os.path.join(tmp, "d%d.csv" % k)
    with open(path, "w") as f:
        f.write("sym,ts,price,qty\n" + "".join(r + "\n" for r in rows))
    return path, n

QUERIES = [
    "γ {k}, time_bucket(DURATION '{w}', {t}) → b; last(price) → close, sum(qty) → qty, count(*) → n (T)",
    "γ time_bucket(DURATION '{w}', {t}) → b, {k}; first(price) → open, max(price) → hi, min(qty) → lo (T)",
    "γ time_bucket(DURATION '{w}', {t}) → b; count(qty) → n, avg(price) → p (T)",
    "γ {k}, qty, time_bucket(DURATION '{w}', {t}) → b; count(*) → n (T)",
    "γ {k}, time_bucket(DURATION '{w}', {t}) → b; sum(qty) → q (σ price > 100 (T))",
    "γ {k}, time_bucket(DURATION '{w}', {t}) → b; count(*) → n (σ price > 1000 (T))",
    "FILL b EVERY DURATION '{w}' PER sym USING close => previous (γ {k}, time_bucket(DURATION '{w}', {t}) → b; max(price) → close (T))",
    "ω PER sym BY b; lag(q) → p, row_number() → r (γ {k}, time_bucket(DURATION '{w}', {t}) → b; sum(qty) → q (T))",
]

def run(path, w, t, k="sym"):
    script = "T := csv('%s');\n" % path + "".join("query { %s };\n" % q.format(w=w, t=t, k=k) for q in QUERIES)
    r = subprocess.run([relix, "-f", "csv", "-e", script], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr

cases = diffs = 0
for k in range(36):
    path, n = dataset(k)
    for w in ["PT1S", "PT7S", "PT1M", "PT1H"][k % 4:] + ["PT1M"]:
        fast = run(path, w, "ts")
        slow = run(path, w, "ts + DURATION 'PT0S'", "sym || '' → sym")
        cases += 1
        if fast != slow:
            diffs += 1
            if diffs <= 3:
                print("difference: dataset %d (%d rows), width %s" % (k, n, w))
                print("fast:", fast[0], fast[2], fast[1][:800])
                print("slow:", slow[0], slow[2], slow[1][:800])
        elif fast[0] != 0:
            print("failed: dataset %d width %s: %s" % (k, w, fast[2]))
            diffs += 1
print("%d datasets x widths, %d queries each: %d differences" % (cases, len(QUERIES), diffs))
# one small result written out, so that both paths agreeing on a wrong answer fails too
path = os.path.join(tmp, "fixed.csv")
with open(path, "w") as f:
    f.write("sym,ts,price,qty\nA,2026-01-02T09:00:59Z,1.5,3\nB,2026-01-02T09:00:59Z,2.5,\n"
            "A,2026-01-02T09:01:00Z,3.5,4\n,2026-01-02T09:01:30Z,4.5,5\nA,2026-01-02T09:02:00Z,5.5,6\n")
print(run(path, "PT1M", "ts")[1], end="")
shutil.rmtree(tmp)
sys.exit(1 if diffs else 0)
PY
