// duckdb_bench.mjs - times DuckDB's ASOF JOIN on gen.c's trades x quotes (run.sh drives it).
//
//   node duckdb_bench.mjs DIR N VARIANT
//
// Loads DIR/{trades,quotes}_N_VARIANT.csv into an in-memory DuckDB with 2 threads (untimed), then
// times `CREATE TABLE res AS SELECT t.id, q.id AS qid FROM t ASOF LEFT JOIN q ON t.sym = q.sym
// AND t.ts >= q.ts` (the result materialized), median of 3. Prints: seconds matched sum_qid.
import { DuckDBInstance } from '@duckdb/node-api';

const [dir, n, variant] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
const con = await instance.connect();
const cols = "columns={'sym':'VARCHAR','ts':'BIGINT','id':'UBIGINT','val':'DOUBLE'}";
await con.run(`CREATE TABLE t AS SELECT * FROM read_csv('${dir}/trades_${n}_${variant}.csv', header=true, ${cols})`);
await con.run(`CREATE TABLE q AS SELECT * FROM read_csv('${dir}/quotes_${n}_${variant}.csv', header=true, ${cols})`);
const times = [];
for (let rep = 0; rep < 3; rep++) {
  await con.run('DROP TABLE IF EXISTS res');
  const t0 = process.hrtime.bigint();
  await con.run('CREATE TABLE res AS SELECT t.id, q.id AS qid FROM t ASOF LEFT JOIN q ON t.sym = q.sym AND t.ts >= q.ts');
  times.push(Number(process.hrtime.bigint() - t0) / 1e9);
}
times.sort((a, b) => a - b);
const r = await con.runAndReadAll('SELECT count(qid)::VARCHAR, coalesce(sum(qid), 0)::VARCHAR FROM res');
const [matched, sum] = r.getRows()[0];
console.log(`${times[1].toFixed(4)} ${matched} ${sum}`);
