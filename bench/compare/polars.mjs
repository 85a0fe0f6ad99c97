// polars.mjs - Polars' side of bench/compare.sh (nodejs-polars): one whole process that reads
// the CSV files, joins them and writes the result as CSV, like the relix script it is timed
// against.
//
//   node polars.mjs asof DIR OUT    trades joinAsof quotes (by sym, backward, left) -> OUT (id,qid)
//   node polars.mjs ijoin DIR OUT   left x right where l.s < r.e and r.s < l.e      -> OUT (id,rid)
//
// join_asof needs both frames sorted on ts, so the sort is part of the work. nodejs-polars 0.25.2
// has no join_where, so the interval join is an equi-join on buckets plus a filter: with W the
// longest interval of either side, a right interval can intersect [s, e) only if its start lies
// in (s - W, e), so each left row is exploded over the buckets floor(start / W) of that range,
// joined to the right rows of its bucket, and the exact predicate filters the candidates.
import pl from 'nodejs-polars';

const [work, dir, out] = process.argv.slice(2);
let res;
if (work === 'asof') {
  const t = pl.readCSV(`${dir}/trades.csv`).sort('ts');
  const q = pl.readCSV(`${dir}/quotes.csv`).rename({ id: 'qid' }).sort('ts');
  res = t.joinAsof(q, { on: 'ts', by: 'sym', strategy: 'backward' }).select('id', 'qid');
} else if (work === 'ijoin') {
  const l = pl.readCSV(`${dir}/left.csv`);
  const r = pl.readCSV(`${dir}/right.csv`).rename({ id: 'rid', s: 'rs', e: 'rendp' });
  const w = Math.max(1, Number(l.select(pl.col('e').minus(pl.col('s')).max()).getColumn('e').get(0)),
                     Number(r.select(pl.col('rendp').minus(pl.col('rs')).max()).getColumn('rendp').get(0)));
  const bucket = (e) => e.divideBy(w).floor().cast(pl.Int64);
  const lb = l.withColumns(
    pl.intRanges(bucket(pl.col('s').minus(w - 1)), bucket(pl.col('e').minus(1)).plus(1)).alias('b'),
  ).explode('b');
  const rb = r.withColumns(bucket(pl.col('rs')).alias('b'));
  res = lb.join(rb, { on: 'b' })
    .filter(pl.col('s').lt(pl.col('rendp')).and(pl.col('rs').lt(pl.col('e'))))
    .select('id', 'rid');
} else {
  console.error(`polars.mjs: unknown workload '${work}' (asof or ijoin)`);
  process.exit(2);
}
res.writeCSV(out);
