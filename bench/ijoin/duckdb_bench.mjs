// duckdb_bench.mjs - times DuckDB on gen.c's interval-join workloads (run.sh drives it).
//
//   node duckdb_bench.mjs DIR NAME...
//
// Loads DIR/NAME_l.csv and DIR/NAME_r.csv (id,s,e) into an in-memory DuckDB with 2 threads,
// then times `CREATE TABLE res AS SELECT l.id, r.id FROM l JOIN r ON <predicate>` (the result
// materialized), median of 3 runs, and the same with every column of both sides (`l.*`, `r.*`,
// six columns, as the Relix engine materializes its result). Prints: name, pairs, checksum (sum
// of lid*1000003 + rid mod 2^64, as kernel_bench prints it), median seconds of the two-column
// result, median seconds of the six-column result.
import { DuckDBInstance } from '@duckdb/node-api';

const PRED = {
  intersects: 'l.s < r.e AND r.s < l.e',
  precedes: 'l.e < r.s',
  preceded_by: 'l.s > r.e',
  meets: 'l.e = r.s',
  met_by: 'l.s = r.e',
  overlaps: 'l.s < r.s AND l.e > r.s AND l.e < r.e',
  overlapped_by: 'r.s < l.s AND r.e > l.s AND r.e < l.e',
  starts: 'l.s = r.s AND l.e < r.e',
  started_by: 'l.s = r.s AND r.e < l.e',
  during: 'r.s < l.s AND l.e < r.e',
  contains: 'l.s < r.s AND r.e < l.e',
  finishes: 'l.e = r.e AND r.s < l.s',
  finished_by: 'l.e = r.e AND l.s < r.s',
  equals: 'l.s = r.s AND l.e = r.e',
};

const [dir, ...names] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
const con = await instance.connect();
const cols = "columns={'id': 'INTEGER', 's': 'BIGINT', 'e': 'BIGINT'}";

for (const name of names) {
  const pred = PRED[name.replace(/_4m$/, '')];
  if (!pred) throw new Error(`no predicate for ${name}`);
  for (const side of ['l', 'r']) {
    await con.run(`CREATE OR REPLACE TABLE ${side} AS SELECT * FROM ` +
                  `read_csv('${dir}/${name}_${side}.csv', header=true, ${cols})`);
  }
  const median = async (select) => {
    const times = [];
    for (let run = 0; run < 3; run++) {
      await con.run('DROP TABLE IF EXISTS res');
      const t0 = process.hrtime.bigint();
      await con.run(`CREATE TABLE res AS SELECT ${select} FROM l JOIN r ON ${pred}`);
      times.push(Number(process.hrtime.bigint() - t0) / 1e9);
    }
    times.sort((a, b) => a - b);
    return times[1];
  };
  const all = await median('l.id AS lid, l.s AS ls, l.e AS le, r.id AS rid, r.s AS rs, r.e AS re');
  const two = await median('l.id AS lid, r.id AS rid');
  const reader = await con.runAndReadAll(
    'SELECT count(*)::VARCHAR, ' +
    '(coalesce(sum(lid::HUGEINT * 1000003 + rid), 0) % 18446744073709551616)::VARCHAR FROM res');
  const [count, sum] = reader.getRows()[0];
  console.log(`${name} ${count} ${sum} ${two.toFixed(4)} ${all.toFixed(4)}`);
  await con.run('DROP TABLE res');
}
