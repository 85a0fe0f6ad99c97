// oracle.mjs - DuckDB and Polars as the oracle for Relix's Parquet reader and writer.
//
//   node oracle.mjs gen DIR            writes the test files into DIR (DuckDB and Polars, every
//                                      type, encoding, compression and null pattern Relix reads)
//                                      and lists their names, one a line
//   node oracle.mjs unsupported DIR    writes files Relix must refuse, naming the feature:
//                                      list.parquet, struct.parquet, map.parquet (nested),
//                                      encrypted.parquet, lz4.parquet, interval.parquet
//   node oracle.mjs check FILE JSONL   compares what DuckDB reads from FILE with Relix's reading
//                                      of it (relix -f jsonl), cell by cell
//   node oracle.mjs polars FILE JSONL  the same with Polars as the reader
//
// check and polars print "FILE: ok (R rows, C columns)" or the first differences, and exit 1
// on a difference. Values are compared in a canonical form: integers as decimal text, floats
// as JS numbers, DATE as YYYY-MM-DD, TIMESTAMP as microseconds since 1970 (nanoseconds floored,
// as Relix stores them), TIME as microseconds since midnight, text as text.
import { createRequire } from 'module';
import { readFileSync } from 'fs';
import { basename, dirname, join } from 'path';
import { fileURLToPath } from 'url';
// the peers live in bench/node_modules (bench/install-peers.sh)
const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', '..', 'bench', 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');
const pl = require('nodejs-polars');

const [mode, a1, a2] = process.argv.slice(2);

async function duck() {
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await inst.connect();
  await con.run("SET TimeZone='UTC'");
  return con;
}

// The base table of the DuckDB-written files: N rows, each column NULL in its own pattern.
const N = 3000;
const BASE = `
  SELECT
    CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 7919 % 20011 - 10000)::INTEGER END AS i32,
    CASE WHEN i % 5 = 1 THEN NULL WHEN i = 0 THEN 9223372036854775807 WHEN i = 2 THEN -9223372036854775808
         ELSE i::BIGINT * 1000003 - 1500000000 END AS i64,
    (i % 100 - 50)::TINYINT AS i8,
    (i * 31)::UINTEGER AS u32,
    CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 0.25 - 100.5)::DOUBLE END AS f64,
    (i / 8.0)::FLOAT AS f32,
    CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 3.07 - 4000)::DECIMAL(9,2) END AS dec9,
    (i * 12345.6789 - 1e7)::DECIMAL(18,4) AS dec18,
    (i * 98765.4321)::DECIMAL(38,6) AS dec38,
    CASE WHEN i % 3 = 0 THEN NULL ELSE i % 2 = 0 END AS b,
    CASE WHEN i % 9 = 4 THEN NULL ELSE ['alpha', 'beta', 'gamma', 'δέλτα', '', 'x,y "q"'][i % 6 + 1] END AS sym,
    CASE WHEN i % 17 = 0 THEN NULL ELSE 'row-' || i::VARCHAR || repeat('z', i % 13) END AS txt,
    CASE WHEN i % 4 = 2 THEN NULL ELSE DATE '1970-01-01' + (i * 37 - 40000)::INTEGER END AS d,
    CASE WHEN i % 6 = 5 THEN NULL ELSE TIMESTAMP '2024-03-01 00:00:00' + to_microseconds((i * 1234567)::BIGINT) END AS ts,
    (TIMESTAMP '1960-06-01 12:00:00' + to_milliseconds((i * 999)::BIGINT))::TIMESTAMP_MS AS ts_ms,
    make_timestamp_ns(981173106000000000 + i * 1001007 - (i % 3) * 2000000000000000000) AS ts_ns,
    (TIMESTAMPTZ '2020-01-01 00:00:00+00' + to_seconds((i * 3600)::BIGINT)) AS tstz,
    CASE WHEN i % 10 = 9 THEN NULL ELSE TIME '00:00:00' + to_microseconds((i * 28123000)::BIGINT) END AS tm,
    ('0000000' || (i % 10)::VARCHAR || '-0000-4000-8000-' || lpad(i::VARCHAR, 12, '0'))::UUID AS uid,
    NULL::INTEGER AS all_null,
    i AS seq
  FROM range(${N}) t(i)`;

// [name, COPY options]: every compression, both page versions (V2 brings DELTA_BINARY_PACKED,
// DELTA_LENGTH_BYTE_ARRAY and BYTE_STREAM_SPLIT), small row groups, dictionary on and off.
const DUCK_FILES = [
  ['duck_snappy.parquet', "COMPRESSION snappy, ROW_GROUP_SIZE 1000"],
  ['duck_zstd.parquet', "COMPRESSION zstd, ROW_GROUP_SIZE 2048"],
  ['duck_gzip.parquet', "COMPRESSION gzip"],
  ['duck_none.parquet', "COMPRESSION uncompressed, ROW_GROUP_SIZE 700"],
  ['duck_v2.parquet', "COMPRESSION zstd, PARQUET_VERSION v2, ROW_GROUP_SIZE 1000"],
  ['duck_v2_none.parquet', "COMPRESSION uncompressed, PARQUET_VERSION v2"],
  ['duck_nodict.parquet', "COMPRESSION snappy, DICTIONARY_COMPRESSION_RATIO_THRESHOLD -1"],
];

async function gen(dir) {
  const con = await duck();
  const names = [];
  for (const [name, opts] of DUCK_FILES) {
    await con.run(`COPY (${BASE}) TO '${join(dir, name)}' (FORMAT parquet, ${opts})`);
    names.push(name);
  }
  // Polars: its own writer (data page v2 by default, dictionary for strings), three codecs
  const df = pl.DataFrame({
    a: Array.from({ length: N }, (_, i) => (i % 8 === 0 ? null : i * 3 - 1000)),
    f: Array.from({ length: N }, (_, i) => (i % 5 === 0 ? null : i / 3)),
    s: Array.from({ length: N }, (_, i) => (i % 7 === 0 ? null : ['red', 'green', 'blue', 'ünï'][i % 4])),
    t: Array.from({ length: N }, (_, i) => `long text ${i} ${'w'.repeat(i % 20)}`),
    b: Array.from({ length: N }, (_, i) => (i % 6 === 0 ? null : i % 3 === 1)),
  }).withColumns(
    pl.col('a').cast(pl.Int64),
    pl.col('a').cast(pl.Int32).alias('a32'),
    pl.lit(1700000000000).add(pl.col('a').fillNull(0).mul(1000)).cast(pl.Datetime('ms')).alias('ts_ms'),
    pl.lit(1700000000000000).add(pl.col('a').fillNull(0).mul(1000003)).cast(pl.Datetime('us')).alias('ts_us'),
    pl.col('a').fillNull(5).cast(pl.Date).alias('d'),
  );
  for (const c of ['snappy', 'zstd', 'gzip', 'uncompressed']) {
    const name = `polars_${c}.parquet`;
    df.writeParquet(join(dir, name), { compression: c });
    names.push(name);
  }
  console.log(names.join('\n'));
}

// ---- canonical values ----------------------------------------------------------------------

// days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil)
function daysFromCivil(y, m, d) {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
function tsMicros(s) {
  const m = /^(-?\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?Z$/.exec(s);
  if (!m) return `bad timestamp ${s}`;
  const days = BigInt(daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3])));
  const secs = days * 86400n + BigInt(m[4]) * 3600n + BigInt(m[5]) * 60n + BigInt(m[6]);
  const frac = ((m[7] || '') + '000000').slice(0, 6);
  return (secs * 1000000n + BigInt(frac)).toString();
}
function timeMicros(s) {
  const m = /^(\d\d):(\d\d):(\d\d)(?:\.(\d+))?$/.exec(s);
  if (!m) return `bad time ${s}`;
  const frac = ((m[4] || '') + '000000').slice(0, 6);
  return ((BigInt(m[1]) * 3600n + BigInt(m[2]) * 60n + BigInt(m[3])) * 1000000n + BigInt(frac)).toString();
}
function floorDiv(a, b) {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

// Relix's rows: jsonl lines {"query":..,"row":{...}} or {...}; big integers kept as text.
function relixRows(path) {
  const rows = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const safe = line.replace(/":(-?\d{16,})(?=[,}])/g, '":"$1"');
    const o = JSON.parse(safe);
    rows.push(o.row || o);
  }
  return rows;
}

// A canonical form by kind: 'int', 'float', 'text', 'date', 'ts', 'time', 'bool'.
function canon(kind, v) {
  if (v === null || v === undefined) return null;
  switch (kind) {
    case 'int': return BigInt(v).toString();
    case 'float': return Number(v);
    case 'bool': return v === true || v === 'true' ? 'true' : 'false';
    case 'ts': return typeof v === 'string' && v.includes('T') ? tsMicros(v) : String(v);
    case 'time': return typeof v === 'string' && v.includes(':') ? timeMicros(v) : String(v);
    default: return String(v);
  }
}

function kindOfDuck(t) {
  t = t.toUpperCase();
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|HUGEINT)$/.test(t)) return 'int';
  if (/^(FLOAT|DOUBLE|DECIMAL.*)$/.test(t)) return 'float';
  if (t === 'BOOLEAN') return 'bool';
  if (t === 'DATE') return 'date';
  if (t.startsWith('TIMESTAMP')) return 'ts';
  if (t.startsWith('TIME')) return 'time';
  return 'text';
}

function compare(file, cols, want, got) {
  const diffs = [];
  if (want.length !== got.length) diffs.push(`row count: oracle ${want.length}, relix ${got.length}`);
  const n = Math.min(want.length, got.length);
  for (let r = 0; r < n && diffs.length < 10; r++) {
    for (const [name, kind] of cols) {
      if (!(name in got[r])) {
        diffs.push(`column ${name} missing in relix's result`);
        break;
      }
      const a = want[r][name], b = canon(kind, got[r][name]);
      const same = kind === 'float' ? (a === null ? b === null : b !== null && (a === b || (isNaN(a) && isNaN(b)))) : a === b;
      if (!same) diffs.push(`row ${r + 1} column ${name}: oracle ${a}, relix ${b}`);
    }
  }
  if (diffs.length) {
    console.log(`${basename(file)}: DIFFERENT\n  ${diffs.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`${basename(file)}: ok (${n} rows, ${cols.length} columns)`);
}

async function checkDuck(file, jsonl) {
  const con = await duck();
  const desc = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`)).getRows();
  const cols = desc.map((r) => [r[0], kindOfDuck(String(r[1]))]);
  const sel = cols.map(([name, kind], i) => {
    const q = `"${name.replace(/"/g, '""')}"`;
    const t = String(desc[i][1]).toUpperCase();
    if (kind === 'ts') return t === 'TIMESTAMP_NS' ? `epoch_ns(${q})::VARCHAR` : `epoch_us(${q})::VARCHAR`;
    if (kind === 'time') return `(epoch_us(DATE '1970-01-01' + ${q}))::VARCHAR`;
    if (kind === 'float') return `${q}::DOUBLE::VARCHAR`;
    return `${q}::VARCHAR`;
  });
  const rows = (await con.runAndReadAll(`SELECT ${sel.join(', ')} FROM read_parquet('${file}')`)).getRows();
  const want = rows.map((row) => {
    const o = {};
    cols.forEach(([name, kind], i) => {
      let v = row[i];
      if (v !== null && kind === 'ts' && String(desc[i][1]).toUpperCase() === 'TIMESTAMP_NS') v = floorDiv(BigInt(v), 1000n).toString();
      o[name] = v === null ? null : kind === 'float' ? Number(v) : kind === 'bool' ? String(v) : String(v);
    });
    return o;
  });
  compare(file, cols, want, relixRows(jsonl));
}

function kindOfPolars(dt) {
  const s = dt.variant || String(dt);
  if (/^(Int|UInt)/.test(s)) return 'int';
  if (/^Float/.test(s)) return 'float';
  if (s === 'Bool') return 'bool';
  if (s === 'Date') return 'date';
  if (s.startsWith('Datetime')) return 'ts';
  if (s === 'Time') return 'time';
  return 'text';
}

function checkPolars(file, jsonl) {
  const df = pl.readParquet(file);
  const cols = df.columns.map((name) => [name, kindOfPolars(df.getColumn(name).dtype)]);
  const series = cols.map(([name, kind]) => {
    const s = df.getColumn(name);
    const dt = String(s.dtype);
    if (kind === 'ts') {
      const unit = /\(ns/.test(dt) ? 1000n : /\(ms/.test(dt) ? -1000n : 1n;
      return s.cast(pl.Int64).toArray().map((v) => {
        if (v === null) return null;
        const b = BigInt(v);
        return (unit === 1000n ? floorDiv(b, 1000n) : unit === -1000n ? b * 1000n : b).toString();
      });
    }
    if (kind === 'time') return s.cast(pl.Int64).toArray().map((v) => (v === null ? null : floorDiv(BigInt(v), 1000n).toString()));
    if (kind === 'date') return s.cast(pl.Utf8).toArray();
    if (kind === 'int') return s.cast(pl.Utf8).toArray();
    return s.toArray().map((v) => (v === null ? null : kind === 'float' ? Number(v) : String(v)));
  });
  const want = [];
  for (let r = 0; r < df.height; r++) {
    const o = {};
    cols.forEach(([name], i) => (o[name] = series[i][r]));
    want.push(o);
  }
  compare(file, cols, want, relixRows(jsonl));
}

async function unsupported(dir) {
  const con = await duck();
  const q = (name, sel, opts = '') =>
    con.run(`COPY (SELECT ${sel} FROM range(5) t(i)) TO '${join(dir, name)}' (FORMAT parquet${opts})`);
  await q('list.parquet', 'i, [i, i + 1] AS l');
  await q('struct.parquet', "i, {'a': i, 'b': 'x'} AS s");
  await q('map.parquet', "i, MAP {'k': i} AS m");
  await q('lz4.parquet', 'i', ', COMPRESSION lz4');
  await q('interval.parquet', 'i, INTERVAL (i) DAY AS iv');
  // a test file, not a secret: the key is here, and the writer's weak crypto module will do
  await con.run("SET force_mbedtls_unsafe = 'true'");
  await con.run("PRAGMA add_parquet_key('k1', '0123456789112345')");
  await q('encrypted.parquet', 'i', ", ENCRYPTION_CONFIG {footer_key: 'k1'}");
}

if (mode === 'gen') await gen(a1);
else if (mode === 'unsupported') await unsupported(a1);
else if (mode === 'check') await checkDuck(a1, a2);
else if (mode === 'polars') checkPolars(a1, a2);
else {
  console.error('usage: node oracle.mjs gen DIR | unsupported DIR | check FILE JSONL | polars FILE JSONL');
  process.exit(2);
}
