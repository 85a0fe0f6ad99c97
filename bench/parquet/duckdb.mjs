// duckdb.mjs - DuckDB's side of bench/parquet/run.sh.
//   node duckdb.mjs write IN.csv OUT.parquet   the CSV (sym,ts,id,val; ts epoch microseconds)
//                                              as Parquet: sym VARCHAR, ts TIMESTAMP WITH TIME
//                                              ZONE, id INTEGER, val DOUBLE, Snappy
//   node duckdb.mjs read FILE.parquet REPS     the median seconds of CREATE TABLE AS SELECT *
//                                              FROM read_parquet(FILE)
import { createRequire } from 'module';
import { dirname, join } from 'path';
import { fileURLToPath } from 'url';
const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');

const [mode, a, b] = process.argv.slice(2);
const con = await (await DuckDBInstance.create(':memory:')).connect();
await con.run("SET TimeZone='UTC'");
if (mode === 'write') {
  await con.run(`COPY (SELECT sym, make_timestamp(ts)::TIMESTAMPTZ AS ts, id::INTEGER AS id, val
                 FROM read_csv('${a}', header=true, columns={'sym':'VARCHAR','ts':'BIGINT','id':'BIGINT','val':'DOUBLE'}))
                 TO '${b}' (FORMAT parquet, COMPRESSION snappy)`);
} else {
  const times = [];
  for (let i = 0; i < Number(b || 3); i++) {
    await con.run('DROP TABLE IF EXISTS x');
    const t0 = process.hrtime.bigint();
    await con.run(`CREATE TABLE x AS SELECT * FROM read_parquet('${a}')`);
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  times.sort((x, y) => x - y);
  console.log(times[Math.floor(times.length / 2)].toFixed(3));
}
