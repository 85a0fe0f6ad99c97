// duckdb.mjs DIR OP OUT - DuckDB (2 threads) on one of bench/iset's workloads, as a whole
// process: reads DIR's BED files, computes, writes OUT (tab-separated, no header).
//   merge  PACK as the gaps-and-islands window query: a row starts an island when it starts
//          after every earlier row's end (touching rows merge, as in bedtools merge)
import { DuckDBInstance } from '@duckdb/node-api';

const [dir, op, out] = process.argv.slice(2);
const inst = await DuckDBInstance.create(':memory:', { threads: '2' });
const con = await inst.connect();
const bed = (f) => `read_csv('${dir}/${f}', delim='\t', header=false,
  columns={'chrom': 'VARCHAR', 's': 'BIGINT', 'e': 'BIGINT', 'name': 'VARCHAR'})`;
const queries = {
  merge: `WITH o AS (SELECT chrom, s, e, max(e) OVER (PARTITION BY chrom ORDER BY s, e
                       ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_end FROM ${bed('a.bed')}),
          g AS (SELECT chrom, s, e, sum(CASE WHEN prev_end IS NULL OR s > prev_end THEN 1 ELSE 0 END)
                       OVER (PARTITION BY chrom ORDER BY s, e ROWS UNBOUNDED PRECEDING) AS island FROM o)
          SELECT chrom, min(s) AS s, max(e) AS e, count(*) AS n FROM g GROUP BY chrom, island`,
};
if (!queries[op]) throw new Error(`no DuckDB form for ${op}`);
await con.run(`COPY (${queries[op]}) TO '${out}' (DELIMITER '\t', HEADER false)`);
