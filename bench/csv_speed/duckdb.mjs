// duckdb.mjs - DuckDB's side of bench/csv_speed.sh: one whole process that reads the CSV files,
// joins them and writes the result as CSV (one COPY statement), like the relix script it is
// timed against. DuckDB uses its default number of threads.
//
//   node duckdb.mjs asof TRADES QUOTES OUT     trades ASOF LEFT JOIN quotes on sym, ts >=
//                                              -> OUT (sym,ts,qty,price,qts,bid,ask)
//   node duckdb.mjs intersects LEFT RIGHT OUT  l.s < r.e AND r.s < l.e -> OUT (id,rid)
//   node duckdb.mjs during LEFT RIGHT OUT      r.s < l.s AND l.e < r.e -> OUT (id,rid)
import { DuckDBInstance } from '@duckdb/node-api';

const [work, a, b, out] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
const trades = "header=true, columns={'sym':'VARCHAR','ts':'TIMESTAMP','qty':'BIGINT','price':'DOUBLE'}";
const quotes = "header=true, columns={'sym':'VARCHAR','ts':'TIMESTAMP','bid':'DOUBLE','ask':'DOUBLE'}";
const spans = "header=true, columns={'id':'BIGINT','s':'BIGINT','e':'BIGINT'}";
let query;
if (work === 'asof') {
  query = `SELECT t.sym, t.ts, t.qty, t.price, q.ts AS qts, q.bid, q.ask
           FROM read_csv('${a}', ${trades}) t
           ASOF LEFT JOIN read_csv('${b}', ${quotes}) q ON t.sym = q.sym AND t.ts >= q.ts`;
} else if (work === 'intersects' || work === 'during') {
  const on = work === 'intersects' ? 'l.s < r.e AND r.s < l.e' : 'r.s < l.s AND l.e < r.e';
  query = `SELECT l.id, r.id AS rid
           FROM read_csv('${a}', ${spans}) l JOIN read_csv('${b}', ${spans}) r ON ${on}`;
} else {
  console.error(`duckdb.mjs: unknown workload '${work}' (asof, intersects or during)`);
  process.exit(2);
}
await con.run(`COPY (${query}) TO '${out}' (FORMAT csv, HEADER true)`);
