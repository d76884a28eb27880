-- Spans of days and quarters for some sites by country: a range's partial months were read day by day from
-- revenue_daily (50 of big@example.com's sites by country, 365 days ending on the 10th: 200,000 daily rows, 242 ms of
-- EXPLAIN ANALYZE) and its whole months as up to a dozen month rows. Now a run of days within a month is the
-- difference of two prefixes of a Fenwick tree over the month's days, each at most five nodes: a single day (from
-- revenue_daily) or a span of 2, 4, 8 or 16 days ending on a day divisible by its length (here); the months of a year
-- are read by month, quarter and year (lib/reports/day-spans.ts).
ALTER TABLE "revenue_rollup" DROP CONSTRAINT "revenue_rollup_grain_check";--> statement-breakpoint
ALTER TABLE "revenue_rollup" DROP CONSTRAINT "revenue_rollup_month_check";--> statement-breakpoint
ALTER TABLE "revenue_rollup" ADD CONSTRAINT "revenue_rollup_span_check" CHECK ("revenue_rollup"."grain" not in ('t', 'f', 'e', 's', 'q') or ("revenue_rollup"."site_id" is not null and "revenue_rollup"."country" is not null));--> statement-breakpoint
ALTER TABLE "revenue_rollup" ADD CONSTRAINT "revenue_rollup_grain_check" CHECK ("revenue_rollup"."grain" in ('d', 't', 'f', 'e', 's', 'm', 'q', 'y'));--> statement-breakpoint
ALTER TABLE "revenue_rollup" ADD CONSTRAINT "revenue_rollup_month_check" CHECK ("revenue_rollup"."grain" in ('d', 't', 'f', 'e', 's') or extract(day from "revenue_rollup"."period") = 1);--> statement-breakpoint
-- The first day of the Fenwick node of `span` days (2, 4, 8, 16) that holds `d`, or null when none does: the month's
-- days in blocks of `span` from the 1st, and a block is a node when its number k (from 0) is even, as the node then
-- ends on day (k + 1) × span, whose lowest set bit is `span`.
CREATE FUNCTION "revenue_day_span"(d date, span int) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN ((extract(day from d)::int - 1) / span) % 2 = 0
    THEN date_trunc('month', d)::date + ((extract(day from d)::int - 1) / span) * span END
$$;
--> statement-breakpoint
-- The statement of 0017_rollup_site_country_years.sql with the spans and quarters of some sites by country added.
CREATE OR REPLACE FUNCTION "revenue_rollup_upsert_sql"(source text) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
  SELECT format($sql$
    WITH deltas AS (
      SELECT d.user_id, d.site_id, d.country,
             CASE WHEN grouping(d.day) = 0 THEN 'd' WHEN grouping(d.two) = 0 THEN 't' WHEN grouping(d.four) = 0 THEN 'f'
                  WHEN grouping(d.eight) = 0 THEN 'e' WHEN grouping(d.sixteen) = 0 THEN 's'
                  WHEN grouping(d.month) = 0 THEN 'm' WHEN grouping(d.quarter) = 0 THEN 'q' ELSE 'y' END AS grain,
             coalesce(d.day, d.two, d.four, d.eight, d.sixteen, d.month, d.quarter, d.year) AS period,
             sum(d.sign * d.impressions) AS impressions, sum(d.sign * d.clicks) AS clicks,
             sum(d.sign * d.ad_requests) AS ad_requests, sum(d.sign * d.revenue_micros) AS revenue_micros,
             sum(d.sign) AS rows
      FROM (SELECT s.*, date_trunc('month', s.day::timestamp)::date AS month,
                   date_trunc('quarter', s.day::timestamp)::date AS quarter,
                   date_trunc('year', s.day::timestamp)::date AS year,
                   revenue_day_span(s.day, 2) AS two, revenue_day_span(s.day, 4) AS four,
                   revenue_day_span(s.day, 8) AS eight, revenue_day_span(s.day, 16) AS sixteen FROM (%s) AS s) AS d
      GROUP BY GROUPING SETS (
        (d.user_id, d.day), (d.user_id, d.month),
        (d.user_id, d.day, d.country), (d.user_id, d.month, d.country),
        (d.user_id, d.site_id, d.day), (d.user_id, d.site_id, d.month),
        (d.user_id, d.site_id, d.month, d.country), (d.user_id, d.site_id, d.year, d.country),
        (d.user_id, d.site_id, d.two, d.country), (d.user_id, d.site_id, d.four, d.country),
        (d.user_id, d.site_id, d.eight, d.country), (d.user_id, d.site_id, d.sixteen, d.country),
        (d.user_id, d.site_id, d.quarter, d.country))
      HAVING sum(d.sign) <> 0 OR sum(d.sign * d.impressions) <> 0 OR sum(d.sign * d.clicks) <> 0
          OR sum(d.sign * d.ad_requests) <> 0 OR sum(d.sign * d.revenue_micros) <> 0
    ), applied AS (
      INSERT INTO revenue_rollup AS r (user_id, site_id, country, grain, period, impressions, clicks, ad_requests, revenue_micros, rows)
      SELECT * FROM deltas WHERE period IS NOT NULL AND EXISTS (SELECT FROM users WHERE users.id = deltas.user_id)
      ORDER BY user_id, grain, site_id, period, country
      ON CONFLICT (user_id, grain, site_id, period, country) DO UPDATE SET
        impressions = r.impressions + excluded.impressions,
        clicks = r.clicks + excluded.clicks,
        ad_requests = r.ad_requests + excluded.ad_requests,
        revenue_micros = r.revenue_micros + excluded.revenue_micros,
        rows = r.rows + excluded.rows,
        updated_at = now()
      RETURNING r.rows, r.ctid
    )
    SELECT array_agg(ctid) FILTER (WHERE rows = 0) FROM applied
  $sql$, source)
$fn$;
--> statement-breakpoint
-- The backfill reads all of revenue_daily; SET LOCAL ends with the migration's transaction.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
-- No write may slip between the backfill and the new statement: hold writers off until this migration commits.
LOCK TABLE "revenue_daily" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO "revenue_rollup" ("user_id", "site_id", "country", "grain", "period", "impressions", "clicks", "ad_requests",
    "revenue_micros", "rows")
  SELECT d."user_id", d."site_id", d."country", n.grain, n.period, sum(d."impressions"), sum(d."clicks"),
    sum(d."ad_requests"), sum(d."revenue_micros"), count(*)
  FROM "revenue_daily" AS d CROSS JOIN LATERAL (VALUES
    ('t', revenue_day_span(d."day", 2)), ('f', revenue_day_span(d."day", 4)), ('e', revenue_day_span(d."day", 8)),
    ('s', revenue_day_span(d."day", 16)), ('q', date_trunc('quarter', d."day"::timestamp)::date)) AS n(grain, period)
  WHERE n.period IS NOT NULL
  GROUP BY d."user_id", d."site_id", d."country", n.grain, n.period;
