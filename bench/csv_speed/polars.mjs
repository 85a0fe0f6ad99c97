// polars.mjs - Polars' side of bench/csv_speed.sh (nodejs-polars): one whole process that scans
// the CSV files, joins them and writes the result as CSV, like the relix script it is timed
// against.
//
//   node polars.mjs asof TRADES QUOTES OUT     scanCSV -> sort on ts -> joinAsof (by sym,
//                                              backward) -> writeCSV (sym,ts,qty,price,qts,bid,ask)
//   node polars.mjs intersects LEFT RIGHT OUT  l.s < r.e and r.s < l.e -> OUT (id,rid)
//   node polars.mjs during LEFT RIGHT OUT      r.s < l.s and l.e < r.e -> OUT (id,rid)
//
// joinAsof needs both sides sorted on ts, so the sort is part of the work. nodejs-polars has no
// join_where, so the interval joins are an equi-join on buckets plus a filter (as in
// bench/compare/polars.mjs): with W the longest interval of either side, a right interval can
// meet [s, e) only if its start lies in (s - W, e); DURING pairs intersect, so the same
// candidates serve both.
import pl from 'nodejs-polars';

const [work, a, b, out] = process.argv.slice(2);
let res;
if (work === 'asof') {
  const t = pl.scanCSV(a, { tryParseDates: true }).sort('ts');
  const q = pl.scanCSV(b, { tryParseDates: true }).withColumns(pl.col('ts').alias('qts')).sort('ts');
  res = t.joinAsof(q, { on: 'ts', by: 'sym', strategy: 'backward' })
    .select('sym', 'ts', 'qty', 'price', 'qts', 'bid', 'ask').collectSync();
} else if (work === 'intersects' || work === 'during') {
  const l = pl.readCSV(a);
  const r = pl.readCSV(b).rename({ id: 'rid', s: 'rs', e: 'rendp' });
  const w = Math.max(1, Number(l.select(pl.col('e').minus(pl.col('s')).max()).getColumn('e').get(0)),
                     Number(r.select(pl.col('rendp').minus(pl.col('rs')).max()).getColumn('rendp').get(0)));
  const bucket = (e) => e.divideBy(w).floor().cast(pl.Int64);
  const lb = l.withColumns(
    pl.intRanges(bucket(pl.col('s').minus(w - 1)), bucket(pl.col('e').minus(1)).plus(1)).alias('b'),
  ).explode('b');
  const rb = r.withColumns(bucket(pl.col('rs')).alias('b'));
  const keep = work === 'intersects'
    ? pl.col('s').lt(pl.col('rendp')).and(pl.col('rs').lt(pl.col('e')))
    : pl.col('rs').lt(pl.col('s')).and(pl.col('e').lt(pl.col('rendp')));
  res = lb.join(rb, { on: 'b' }).filter(keep).select('id', 'rid');
} else {
  console.error(`polars.mjs: unknown workload '${work}' (asof, intersects or during)`);
  process.exit(2);
}
res.writeCSV(out);
