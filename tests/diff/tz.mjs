// tz.mjs - DuckDB (its ICU time zones) as the oracle for Relix's time zones: at_time_zone,
// to_utc_timestamp, date_trunc in a zone and time_bucket in a zone.
//
//   node tz.mjs gen CSV           writes random rows: a zone (one per row, from zones whose rules
//                                 ICU and the tz database agree on), an instant ts and a wall-clock
//                                 time l, both crowded around the small hours of the Sundays of
//                                 March, April, September, October and November (where the DST
//                                 gaps and overlaps are), the rest spread from 1975 to 2060
//   node tz.mjs check CSV DIR     runs the DuckDB form of each query over CSV and compares it with
//                                 Relix's answer in DIR/<name>.jsonl (relix -f jsonl), row by row
//
// Prints "<name>: ok (R rows)" per query, or the first differences and exit status 1.
import { createRequire } from 'module';
import { readFileSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { fileURLToPath } from 'url';
const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', '..', 'bench', 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');

const [mode, csv, dir] = process.argv.slice(2);

function rng(seed) {
  return () => {
    seed |= 0; seed = (seed + 0x6D2B79F5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'America/St_Johns',
  'Pacific/Auckland', 'Europe/London', 'America/Los_Angeles', 'Asia/Tokyo', 'Australia/Lord_Howe',
  'America/Chicago', 'Europe/Helsinki', 'Pacific/Chatham', 'UTC'];

function iso(ms, z) {
  const s = new Date(ms).toISOString().replace('.000Z', 'Z');
  return z ? s : s.replace('Z', '');
}

if (mode === 'gen') {
  const r = rng(748);
  const rows = ['id,z,ts,l'];
  const pick = () => {
    if (r() < 0.6) {
      // a Sunday of a DST month, in the small hours (UTC for instants, wall clock for l)
      const y = 1980 + Math.floor(r() * 60), mo = [2, 3, 8, 9, 10][Math.floor(r() * 5)];
      const first = new Date(Date.UTC(y, mo, 1)).getUTCDay();
      const sunday = 1 + ((7 - first) % 7) + 7 * Math.floor(r() * 4);
      const hour = r() < 0.7 ? Math.floor(r() * 4) : Math.floor(r() * 24);
      return Date.UTC(y, mo, sunday, hour, Math.floor(r() * 4) * 15 + (r() < 0.2 ? Math.floor(r() * 15) : 0),
                      r() < 0.2 ? Math.floor(r() * 60) : 0);
    }
    return Date.UTC(1975, 0, 1) + Math.floor(r() * 85 * 365.25 * 86400) * 1000;
  };
  for (let i = 0; i < 4000; i++)
    rows.push([i, ZONES[Math.floor(r() * ZONES.length)], iso(pick(), true), iso(pick(), false)].join(','));
  writeFileSync(csv, rows.join('\n') + '\n');
  process.exit(0);
}

const ISO = (e) => `strftime(${e}, '%Y-%m-%dT%H:%M:%SZ')`;
// a day or longer: truncated on the wall clock and back; an hour: the offset at ts kept
const TRUNC = (f) => ISO(`timezone(z, date_trunc('${f}', timezone(z, ts)))`);
const QUERIES = {
  convert: `SELECT id, ${ISO('timezone(z, ts)')} AS local, ${ISO('timezone(z, l)')} AS utc FROM t ORDER BY id`,
  trunc: `SELECT id, ${TRUNC('day')} AS d, ${TRUNC('week')} AS w, ${TRUNC('month')} AS m, ${TRUNC('year')} AS y,
      ${ISO("ts - (timezone(z, ts) - date_trunc('hour', timezone(z, ts)))")} AS h FROM t ORDER BY id`,
  buckets: `SELECT id, ${ISO("time_bucket(INTERVAL 1 DAY, ts, z)")} AS d1, ${ISO("time_bucket(INTERVAL 7 DAY, ts, z)")} AS d7,
      ${ISO("time_bucket(INTERVAL 1 MONTH, ts, z)")} AS m1, ${ISO("time_bucket(INTERVAL 3 MONTH, ts, z)")} AS m3,
      ${ISO("time_bucket(INTERVAL 1 YEAR, ts, z)")} AS y1, ${ISO("time_bucket(INTERVAL 1 HOUR, ts, z)")} AS h1,
      ${ISO("time_bucket(INTERVAL 15 MINUTE, ts, z)")} AS m15, ${ISO("time_bucket(INTERVAL 90 MINUTE, ts, z)")} AS m90
    FROM t ORDER BY id`,
  bucket_group: `SELECT z, ${ISO('b')} AS b, n FROM (
      SELECT z, time_bucket(INTERVAL 1 MONTH, ts, z) AS b, count(*) AS n FROM t GROUP BY z, b) ORDER BY z, b`,
};

const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await inst.connect();
await con.run("SET TimeZone='UTC'");
await con.run(`CREATE TABLE t AS SELECT id::BIGINT AS id, z, ts::TIMESTAMPTZ AS ts, l::TIMESTAMP AS l
  FROM read_csv('${csv}', header = true, all_varchar = true)`);
let failed = false;
for (const [name, sql] of Object.entries(QUERIES)) {
  const res = await con.runAndReadAll(sql);
  const cols = res.columnNames();
  const norm = (v) => (typeof v === 'bigint' ? Number(v) : v);
  const want = res.getRows().map((r) => Object.fromEntries(cols.map((c, i) => [c, norm(r[i])])));
  const got = readFileSync(join(dir, name + '.jsonl'), 'utf8').split('\n').filter((l) => l).map((l) => JSON.parse(l));
  const diffs = [];
  if (got.length !== want.length) diffs.push(`rows: relix ${got.length}, duckdb ${want.length}`);
  for (let i = 0; i < Math.min(got.length, want.length) && diffs.length < 8; i++)
    for (const c of cols)
      if (String(got[i][c]) !== String(want[i][c]))
        diffs.push(`row ${i} (${JSON.stringify(want[i].id ?? want[i].z)}) ${c}: relix ${JSON.stringify(got[i][c])}, duckdb ${JSON.stringify(want[i][c])}`);
  if (diffs.length) {
    failed = true;
    console.log(`${name}: DIFFERENT\n  ` + diffs.join('\n  '));
  } else {
    console.log(`${name}: ok (${want.length} rows)`);
  }
}
process.exit(failed ? 1 : 0);
