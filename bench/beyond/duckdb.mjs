// duckdb.mjs - DuckDB's side of bench/beyond_memory.sh: one whole process that reads the CSV
// files, joins them and counts the result, like the relix script it is timed against.
//
//   node duckdb.mjs asof DIR BUDGET TMP    DIR/trades.csv ASOF LEFT JOIN DIR/quotes.csv on sym,
//                                          ts >= -> "n matched" (rows, rows with a quote)
//   node duckdb.mjs ijoin DIR BUDGET TMP   DIR/left.csv JOIN DIR/right.csv on l.s < r.e AND
//                                          r.s < l.e -> "n" (pairs)
//
// BUDGET: "none" (DuckDB's default limit, 80% of RAM) or bytes, set as memory_limit; TMP is
// DuckDB's temp_directory, where it spills. DuckDB uses its default number of threads.
import { DuckDBInstance } from '@duckdb/node-api';

const [work, dir, budget, tmp] = process.argv.slice(2);
const opts = { temp_directory: tmp };
if (budget !== 'none') opts.memory_limit = `${budget}B`;
const instance = await DuckDBInstance.create(':memory:', opts);
const con = await instance.connect();
const trades = "header=true, columns={'sym':'VARCHAR','ts':'TIMESTAMP','qty':'BIGINT','price':'DOUBLE'}";
const quotes = "header=true, columns={'sym':'VARCHAR','ts':'TIMESTAMP','bid':'DOUBLE','ask':'DOUBLE'}";
const spans = "header=true, columns={'id':'BIGINT','s':'BIGINT','e':'BIGINT'}";
let query;
if (work === 'asof') {
  query = `SELECT count(*)::VARCHAR, count(q.ts)::VARCHAR
           FROM read_csv('${dir}/trades.csv', ${trades}) t
           ASOF LEFT JOIN read_csv('${dir}/quotes.csv', ${quotes}) q ON t.sym = q.sym AND t.ts >= q.ts`;
} else if (work === 'ijoin') {
  query = `SELECT count(*)::VARCHAR
           FROM read_csv('${dir}/left.csv', ${spans}) l
           JOIN read_csv('${dir}/right.csv', ${spans}) r ON l.s < r.e AND r.s < l.e`;
} else {
  console.error(`duckdb.mjs: unknown workload '${work}' (asof or ijoin)`);
  process.exit(2);
}
const rows = (await con.runAndReadAll(query)).getRows();
console.log(rows[0].join(' '));
