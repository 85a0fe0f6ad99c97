// duckdb.mjs - DuckDB (2 threads) on bench/algebra's workloads, the same queries as run.sh's
// Relix scripts: tables loaded first, then CREATE TABLE res AS <query> timed (materialized),
// median of 3. Prints "workload seconds rows".
import { DuckDBInstance } from '@duckdb/node-api';

const dir = process.argv[2];
const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
const con = await inst.connect();
const load = async (t, f) => con.run(`CREATE TABLE ${t} AS SELECT * FROM read_csv('${dir}/${f}', header=true)`);
await load('req', 'hotel_req.csv');
await load('conf', 'hotel_conf.csv');
await load('fact', 'fact.csv');
await load('dim', 'dim.csv');
await load('groups', 'groups.csv');

const work = {
  hotel: `SELECT * FROM req r JOIN conf c ON r.room = c.room
          AND r.from_date < c.checkout AND c.checkin < r.to_date`,
  hashjoin: 'SELECT * FROM fact f JOIN dim d ON f.k = d.k',
  groupby: `SELECT g, count(*) AS n, sum(x) AS s, avg(x) AS a, min(x) AS lo, max(x) AS hi
            FROM groups GROUP BY g`,
};
for (const [name, q] of Object.entries(work)) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    await con.run('DROP TABLE IF EXISTS res');
    const t0 = process.hrtime.bigint();
    await con.run(`CREATE TABLE res AS ${q}`);
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  times.sort((a, b) => a - b);
  const n = (await con.runAndReadAll('SELECT count(*)::INTEGER FROM res')).getRows()[0][0];
  console.log(`${name} ${times[1].toFixed(3)} ${n}`);
}
