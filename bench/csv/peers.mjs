// peers.mjs - the CSV reading peers for bench/csv/run.sh: DuckDB (2 threads) and Polars load
// the same file into memory and run the same selection; median of 3 runs each.
//
//   node peers.mjs FILE.csv
//
// Prints lines "engine load_s select_s rows_selected".
import { createRequire } from 'module';
import { DuckDBInstance } from '@duckdb/node-api';
const require = createRequire(import.meta.url);
const pl = require('nodejs-polars');

const file = process.argv[2];
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const secs = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;

{
  const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await inst.connect();
  const load = [], sel = [];
  let n = 0;
  for (let i = 0; i < 3; i++) {
    await con.run('DROP TABLE IF EXISTS x');
    let t0 = process.hrtime.bigint();
    await con.run(`CREATE TABLE x AS SELECT * FROM read_csv('${file}', header=true)`);
    load.push(secs(t0));
    await con.run('DROP TABLE IF EXISTS s');
    t0 = process.hrtime.bigint();
    await con.run("CREATE TABLE s AS SELECT * FROM x WHERE price > 990 AND sym = 'PHKV'");
    sel.push(secs(t0));
    n = (await con.runAndReadAll('SELECT count(*)::INTEGER FROM s')).getRows()[0][0];
  }
  console.log(`duckdb ${median(load).toFixed(3)} ${median(sel).toFixed(3)} ${n}`);
}
{
  const load = [], sel = [];
  let n = 0;
  for (let i = 0; i < 3; i++) {
    let t0 = process.hrtime.bigint();
    const df = pl.readCSV(file, { tryParseDates: true });
    load.push(secs(t0));
    t0 = process.hrtime.bigint();
    const s = df.filter(pl.col('price').gt(990).and(pl.col('sym').eq(pl.lit('PHKV'))));
    sel.push(secs(t0));
    n = s.height;
  }
  console.log(`polars ${median(load).toFixed(3)} ${median(sel).toFixed(3)} ${n}`);
}
