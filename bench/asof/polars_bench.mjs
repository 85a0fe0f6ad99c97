// polars_bench.mjs - times Polars' join_asof (nodejs-polars) on gen.c's trades x quotes.
//
//   node polars_bench.mjs DIR N VARIANT
//
// Reads DIR/{trades,quotes}_N_VARIANT.csv (untimed). "rand" times sorting both frames by ts, as
// join_asof requires, plus joinAsof(by: 'sym', strategy: 'backward'); "sorted" frames (ordered by
// (sym, ts), so sorted on ts within every symbol, which is what the by-join reads) time the join
// alone. Median of 3. Prints: seconds matched sum_qid.
import pl from 'nodejs-polars';

const [dir, n, variant] = process.argv.slice(2);
const t = pl.readCSV(`${dir}/trades_${n}_${variant}.csv`);
const q = pl.readCSV(`${dir}/quotes_${n}_${variant}.csv`).rename({ id: 'qid' });
const times = [];
let res;
for (let rep = 0; rep < 3; rep++) {
  const t0 = process.hrtime.bigint();
  const ts = variant === 'rand' ? t.sort('ts') : t;
  const qs = variant === 'rand' ? q.sort('ts') : q;
  res = ts.joinAsof(qs, { on: 'ts', by: 'sym', strategy: 'backward' });
  times.push(Number(process.hrtime.bigint() - t0) / 1e9);
}
times.sort((a, b) => a - b);
const qid = res.getColumn('qid');
const matched = qid.len() - qid.nullCount();
const sum = matched ? BigInt(qid.cast(pl.Float64).sum()) : 0n;
console.log(`${times[1].toFixed(4)} ${matched} ${sum}`);
