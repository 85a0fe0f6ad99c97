// duckdb.mjs - DuckDB's side of bench/compare.sh: one whole process that reads the CSV files,
// joins them and writes the result as CSV, like the relix script it is timed against.
//
//   node duckdb.mjs asof DIR OUT    trades ASOF LEFT JOIN quotes on sym, ts >= -> OUT (id,qid)
//   node duckdb.mjs ijoin DIR OUT   left JOIN right on l.s < r.e AND r.s < l.e -> OUT (id,rid)
//
// One COPY statement each: read_csv, the join, COPY ... TO (header, NULL as an empty field).
// DuckDB uses its default number of threads.
import { DuckDBInstance } from '@duckdb/node-api';

const [work, dir, out] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
const ticks = "header=true, columns={'sym':'VARCHAR','ts':'BIGINT','id':'BIGINT','val':'DOUBLE'}";
const spans = "header=true, columns={'id':'BIGINT','s':'BIGINT','e':'BIGINT'}";
let query;
if (work === 'asof') {
  query = `SELECT t.id, q.id AS qid
           FROM read_csv('${dir}/trades.csv', ${ticks}) t
           ASOF LEFT JOIN read_csv('${dir}/quotes.csv', ${ticks}) q ON t.sym = q.sym AND t.ts >= q.ts`;
} else if (work === 'ijoin') {
  query = `SELECT l.id, r.id AS rid
           FROM read_csv('${dir}/left.csv', ${spans}) l
           JOIN read_csv('${dir}/right.csv', ${spans}) r ON l.s < r.e AND r.s < l.e`;
} else {
  console.error(`duckdb.mjs: unknown workload '${work}' (asof or ijoin)`);
  process.exit(2);
}
await con.run(`COPY (${query}) TO '${out}' (FORMAT csv, HEADER true)`);
