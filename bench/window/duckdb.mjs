// duckdb.mjs WORKLOAD CSV - one bench/window workload in DuckDB (2 threads) as a whole process:
// read the CSV, run the query, materialize the result (CREATE TABLE AS); prints the row count.
import { DuckDBInstance } from '@duckdb/node-api';

const [work, csv] = process.argv.slice(2);
const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
const con = await inst.connect();
await con.run("SET TimeZone='UTC'");
await con.run(`CREATE TABLE t AS SELECT sym, ts::TIMESTAMP AS ts, price::DOUBLE AS price, qty::BIGINT AS qty
               FROM read_csv('${csv}', header = true, types = {'ts': 'VARCHAR'})`);
const W = 'PARTITION BY sym ORDER BY ts';
const Q = {
  window: `SELECT *, lag(price) OVER (${W}) AS prev, row_number() OVER (${W}) AS n,
             sum(qty) OVER (${W} RANGE BETWEEN INTERVAL 5 MINUTE PRECEDING AND CURRENT ROW) AS q5m,
             max(price) OVER (${W} RANGE BETWEEN INTERVAL 5 MINUTE PRECEDING AND CURRENT ROW) AS hi5m FROM t`,
  bucket: `SELECT sym, time_bucket(INTERVAL 1 MINUTE, ts) AS b, last(price ORDER BY ts) AS close, sum(qty) AS qty
           FROM t GROUP BY sym, b`,
  gapfill: `WITH bars AS (SELECT sym, time_bucket(INTERVAL 1 MINUTE, ts) AS b, max(price) AS close FROM t GROUP BY sym, b),
            span AS (SELECT sym, min(b) AS lo, max(b) AS hi FROM bars GROUP BY sym),
            grid AS (SELECT sym, unnest(generate_series(lo, hi, INTERVAL 1 MINUTE)) AS b FROM span)
            SELECT g.sym, g.b, last_value(bars.close IGNORE NULLS) OVER (PARTITION BY g.sym ORDER BY g.b) AS close
            FROM grid g LEFT JOIN bars ON bars.sym = g.sym AND bars.b = g.b`,
};
await con.run(`CREATE TABLE res AS ${Q[work]}`);
const n = (await con.runAndReadAll('SELECT count(*)::BIGINT FROM res')).getRows()[0][0];
console.log(`${n}`);
