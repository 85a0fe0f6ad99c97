// peers.mjs - the CSV reading peers for bench/csv/run.sh: DuckDB (2 threads) and Polars load
// the same file into memory and run the same selection; the median of REPS runs each (3).
//
//   node peers.mjs FILE.csv NUM_COLUMN THRESHOLD TEXT_COLUMN VALUE [REPS]
//
// The selection is NUM_COLUMN > THRESHOLD AND TEXT_COLUMN = 'VALUE'. Prints lines
// "engine load_s select_s rows_selected".
import { createRequire } from 'module';
import { DuckDBInstance } from '@duckdb/node-api';
const require = createRequire(import.meta.url);
const pl = require('nodejs-polars');

const [file, num, threshold, text, value, repsArg] = process.argv.slice(2);
const reps = Number(repsArg || 3);
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const secs = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;

{
  const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await inst.connect();
  const load = [], sel = [];
  let n = 0;
  for (let i = 0; i < reps; i++) {
    await con.run('DROP TABLE IF EXISTS x');
    let t0 = process.hrtime.bigint();
    await con.run(`CREATE TABLE x AS SELECT * FROM read_csv('${file}', header=true)`);
    load.push(secs(t0));
    await con.run('DROP TABLE IF EXISTS s');
    t0 = process.hrtime.bigint();
    await con.run(`CREATE TABLE s AS SELECT * FROM x WHERE ${num} > ${threshold} AND ${text} = '${value}'`);
    sel.push(secs(t0));
    n = (await con.runAndReadAll('SELECT count(*)::INTEGER FROM s')).getRows()[0][0];
  }
  console.log(`duckdb ${median(load).toFixed(3)} ${median(sel).toFixed(3)} ${n}`);
}
{
  const load = [], sel = [];
  let n = 0;
  for (let i = 0; i < reps; i++) {
    let t0 = process.hrtime.bigint();
    const df = pl.readCSV(file, { tryParseDates: true });
    load.push(secs(t0));
    t0 = process.hrtime.bigint();
    const s = df.filter(pl.col(num).gt(Number(threshold)).and(pl.col(text).eq(pl.lit(value))));
    sel.push(secs(t0));
    n = s.height;
  }
  console.log(`polars ${median(load).toFixed(3)} ${median(sel).toFixed(3)} ${n}`);
}
