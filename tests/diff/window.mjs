// window.mjs - DuckDB as the oracle for ω (window functions), time_bucket/date_bin and FILL.
//
//   node window.mjs gen CSV              writes random ticks: several keys (one NULL), times with
//                                        ties, gaps and NULLs from 1990 to 2030, INT and FLOAT
//                                        values with NULLs
//   node window.mjs check CSV DIR        runs the DuckDB form of each query over CSV and compares
//                                        it with Relix's answer in DIR/<name>.jsonl (relix -f
//                                        jsonl), row by row in id order
//
// Prints "<name>: ok (R rows)" per query, or the first differences and exit status 1. FLOATs
// agree within 1e-9 relative (a sliding sum adds in another order than DuckDB's segment tree);
// everything else exactly. Timestamps compare as ISO text.
import { createRequire } from 'module';
import { readFileSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { fileURLToPath } from 'url';
const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', '..', 'bench', 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');

const [mode, csv, dir] = process.argv.slice(2);

// A small deterministic generator (mulberry32), so that a failure reproduces.
function rng(seed) {
  return () => {
    seed |= 0; seed = (seed + 0x6D2B79F5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function iso(ms) { return new Date(ms).toISOString().replace('.000Z', 'Z'); }

if (mode === 'gen') {
  const r = rng(26);
  const keys = ['a', 'b', 'c', 'd', ''];
  const rows = ['id,k,ts,x,f'];
  let n = 0;
  // dense runs (ties and short gaps, for frames and FILL) and a spread (for buckets)
  for (let key = 0; key < keys.length; key++) {
    let t = Date.UTC(2026, 0, 2, 9, 0, 0) + Math.floor(r() * 600) * 1000;
    for (let i = 0; i < 900; i++) {
      const step = r() < 0.25 ? 0 : r() < 0.9 ? Math.floor(r() * 90) * 1000 : Math.floor(r() * 900) * 1000;
      t += step;
      rows.push([n++, keys[Math.floor(r() * keys.length)], r() < 0.03 ? '' : iso(t),
                 r() < 0.1 ? '' : Math.floor(r() * 2001) - 1000,
                 r() < 0.1 ? '' : (Math.floor(r() * 40000) / 16 - 1000).toString()].join(','));
    }
  }
  for (let i = 0; i < 1500; i++) {
    const t = Date.UTC(1990, 0, 1) + Math.floor(r() * 40 * 365.25 * 86400) * 1000;
    rows.push([n++, keys[i % 4], iso(t), Math.floor(r() * 100), (r() * 100).toFixed(3)].join(','));
  }
  writeFileSync(csv, rows.join('\n') + '\n');
  process.exit(0);
}

const W = 'PARTITION BY k ORDER BY ts ASC NULLS LAST';
const WI = 'PARTITION BY k ORDER BY ts ASC NULLS LAST, id';
const ISO = (e) => `strftime(${e}, '%Y-%m-%dT%H:%M:%SZ')`;
const QUERIES = {
  window: `SELECT id,
      row_number() OVER (${WI}) AS rn, rank() OVER (${W}) AS rk, dense_rank() OVER (${W}) AS dr,
      lag(x) OVER (${WI}) AS lg, lead(x, 2, -1) OVER (${WI}) AS ld, lag(f, 0) OVER (${WI}) AS l0,
      sum(x) OVER (${WI} ROWS UNBOUNDED PRECEDING) AS rs,
      count(x) OVER (${WI} ROWS 3 PRECEDING) AS c3,
      avg(f) OVER (${WI} ROWS 4 PRECEDING) AS a4,
      sum(x) OVER (${W} RANGE BETWEEN INTERVAL 5 MINUTE PRECEDING AND CURRENT ROW) AS s5,
      count(*) OVER (${W} RANGE BETWEEN INTERVAL 5 MINUTE PRECEDING AND CURRENT ROW) AS n5,
      min(x) OVER (${W} RANGE BETWEEN INTERVAL 5 MINUTE PRECEDING AND CURRENT ROW) AS mn5,
      max(f) OVER (${W} RANGE BETWEEN INTERVAL 90 SECOND PRECEDING AND CURRENT ROW) AS mx90,
      avg(x) OVER (${W} RANGE BETWEEN INTERVAL 1 HOUR PRECEDING AND CURRENT ROW) AS a1h,
      first_value(x) OVER (${W} RANGE BETWEEN INTERVAL 5 MINUTE PRECEDING AND CURRENT ROW) AS fv,
      last_value(f) OVER (${WI} ROWS UNBOUNDED PRECEDING) AS lv,
      max(x) OVER (${WI} ROWS 7 PRECEDING) AS mx7
    FROM t ORDER BY id`,
  buckets: `SELECT id, ${ISO("time_bucket(INTERVAL 5 MINUTE, ts)")} AS b5,
      ${ISO("time_bucket(INTERVAL 7 DAY, ts)")} AS wk, ${ISO("time_bucket(INTERVAL 1 MONTH, ts)")} AS mo,
      ${ISO("time_bucket(INTERVAL 3 MONTH, ts)")} AS q,
      ${ISO("time_bucket(INTERVAL 15 MINUTE, ts, TIMESTAMP '2026-01-02 09:07:00')")} AS db
    FROM t ORDER BY id`,
  bucket_group: `SELECT ${ISO('b')} AS b, n, sx FROM (
      SELECT time_bucket(INTERVAL 1 HOUR, ts) AS b, count(*) AS n, sum(x) AS sx FROM t
      WHERE ts IS NOT NULL GROUP BY b) ORDER BY b`,
  // FILL ts EVERY PT1M PER k USING v => previous, fv => linear over one bar per key and minute:
  // each key's minutes from its first to its last, a gap taking the last bar before it (v) or
  // the line between its neighbours (fv)
  fill: `WITH bars AS (
        SELECT k, time_bucket(INTERVAL 1 MINUTE, ts) AS ts, max(x) AS v, avg(f) AS fv
        FROM t WHERE ts IS NOT NULL AND ts >= TIMESTAMP '2026-01-01' AND ts < TIMESTAMP '2026-02-01' GROUP BY k, time_bucket(INTERVAL 1 MINUTE, ts)),
      span AS (SELECT k, min(ts) AS lo, max(ts) AS hi FROM bars GROUP BY k),
      grid AS (SELECT span.k, g.ts FROM span, LATERAL (SELECT unnest(generate_series(lo, hi, INTERVAL 1 MINUTE)) AS ts) g),
      joined AS (
        SELECT grid.k, grid.ts, bars.v, bars.fv, bars.ts IS NOT NULL AS has,
          max(bars.ts) OVER (PARTITION BY grid.k ORDER BY grid.ts ROWS UNBOUNDED PRECEDING) AS pt,
          min(bars.ts) OVER (PARTITION BY grid.k ORDER BY grid.ts ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS nt
        FROM grid LEFT JOIN bars ON grid.k IS NOT DISTINCT FROM bars.k AND grid.ts = bars.ts)
      SELECT j.k, ${ISO('j.ts')} AS ts,
        CASE WHEN j.has THEN j.v ELSE p.v END AS v,
        CASE WHEN j.has THEN j.fv
             ELSE p.fv + (nx.fv - p.fv) * (epoch_us(j.ts) - epoch_us(j.pt))::DOUBLE / (epoch_us(j.nt) - epoch_us(j.pt))::DOUBLE END AS fv
      FROM joined j
      LEFT JOIN bars p ON p.k IS NOT DISTINCT FROM j.k AND p.ts = j.pt
      LEFT JOIN bars nx ON nx.k IS NOT DISTINCT FROM j.k AND nx.ts = j.nt
      ORDER BY (SELECT min(id) FROM t WHERE t.k IS NOT DISTINCT FROM j.k), j.ts`,
};

function same(a, b) {
  if (a === null || b === null) return a === b;
  if (typeof a === 'number' && typeof b === 'number') {
    if (a === b) return true;
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  }
  return String(a) === String(b);
}

function norm(v) {
  if (typeof v === 'bigint') return Number(v);
  if (v !== null && typeof v === 'object' && 'toDouble' in v) return v.toDouble();
  if (v !== null && typeof v === 'object') return String(v);
  return v;
}

const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await inst.connect();
await con.run("SET TimeZone='UTC'");
await con.run(`CREATE TABLE t AS SELECT id::BIGINT AS id, NULLIF(k, '') AS k, ts::TIMESTAMP AS ts, x::BIGINT AS x, f::DOUBLE AS f
  FROM read_csv('${csv}', header = true, all_varchar = true, nullstr = '')`);
let failed = false;
for (const [name, sql] of Object.entries(QUERIES)) {
  const res = await con.runAndReadAll(sql);
  const cols = res.columnNames();
  const want = res.getRows().map((r) => Object.fromEntries(cols.map((c, i) => [c, norm(r[i])])));
  const got = readFileSync(join(dir, name + '.jsonl'), 'utf8').split('\n').filter((l) => l).map((l) => JSON.parse(l));
  const diffs = [];
  if (got.length !== want.length) diffs.push(`rows: relix ${got.length}, duckdb ${want.length}`);
  for (let i = 0; i < Math.min(got.length, want.length) && diffs.length < 5; i++)
    for (const c of cols)
      if (!same(got[i][c], want[i][c]))
        diffs.push(`row ${i} (${JSON.stringify(want[i].id ?? want[i].k)}) ${c}: relix ${JSON.stringify(got[i][c])}, duckdb ${JSON.stringify(want[i][c])}`);
  if (diffs.length) {
    failed = true;
    console.log(`${name}: DIFFERENT\n  ` + diffs.join('\n  '));
  } else {
    console.log(`${name}: ok (${want.length} rows)`);
  }
}
process.exit(failed ? 1 : 0);
