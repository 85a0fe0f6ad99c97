-- bench/pushdown/gen.sql - the tables of bench/pushdown.sh on PostgreSQL (psql -v rows=N):
-- trades(id, sym, ts, qty) and quotes(id, sym, ts, bid, ask) with 200 symbols over one trading
-- day (microsecond timestamps, some equal), bid NULL in 1% of quotes, both with a (sym, ts)
-- index; ivl_l and ivl_r(id, k, s, e) with starts uniform over [0, 1e9], lengths 1-300, 20 keys.
-- ivl_few(id, k, s, e): ROWS/10000 rows (at least 10) near the axis' start, the partner of the
-- relations that match across a gap (PRECEDES, PRECEDED_BY), whose result over two large tables
-- would be quadratic whichever way it runs. setseed makes the data the same on every run.
SELECT setseed(0.42);
DROP TABLE IF EXISTS trades, quotes, ivl_l, ivl_r, ivl_few;
CREATE TABLE trades (id int8 PRIMARY KEY, sym text, ts timestamptz, qty int8);
CREATE TABLE quotes (id int8 PRIMARY KEY, sym text, ts timestamptz, bid float8, ask float8);
INSERT INTO trades SELECT g, 'S' || lpad((floor(random() * 200))::int::text, 3, '0'),
  timestamptz '2026-01-05 09:30:00+00' + floor(random() * 23400e6) * interval '1 microsecond',
  1 + floor(random() * 1000)::int8 FROM generate_series(1, :rows) AS g;
INSERT INTO quotes SELECT g, 'S' || lpad((floor(random() * 200))::int::text, 3, '0'),
  timestamptz '2026-01-05 09:30:00+00' + floor(random() * 23400e6) * interval '1 microsecond',
  CASE WHEN random() < 0.01 THEN NULL ELSE 100 + random() END, 101 + random() FROM generate_series(1, :rows) AS g;
CREATE INDEX ON trades (sym, ts);
CREATE INDEX ON quotes (sym, ts);
CREATE TABLE ivl_l (id int8 PRIMARY KEY, k int8, s int8, e int8);
CREATE TABLE ivl_r (id int8 PRIMARY KEY, k int8, s int8, e int8);
INSERT INTO ivl_l SELECT g, floor(random() * 20), x, x + 1 + floor(random() * 300)
  FROM (SELECT g, floor(random() * 1e9)::int8 AS x FROM generate_series(1, :rows) AS g) AS t;
INSERT INTO ivl_r SELECT g, floor(random() * 20), x, x + 1 + floor(random() * 300)
  FROM (SELECT g, floor(random() * 1e9)::int8 AS x FROM generate_series(1, :rows) AS g) AS t;
CREATE TABLE ivl_few (id int8 PRIMARY KEY, k int8, s int8, e int8);
INSERT INTO ivl_few SELECT g, floor(random() * 20), x, x + 1 + floor(random() * 300)
  FROM (SELECT g, floor(random() * 1e5)::int8 AS x FROM generate_series(1, greatest(10, :rows / 10000)) AS g) AS t;
CREATE INDEX ON ivl_l (k, s);
CREATE INDEX ON ivl_r (k, s);
ANALYZE;
