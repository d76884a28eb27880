-- A year grain for some sites by country, the one grain whose reads grow with the sites and the months: by
-- country, two years of 50 of big@example.com's sites were 240,000 month rows to sum (108 ms of a 177 ms report,
-- EXPLAIN ANALYZE), and are 20,000 year rows, with months and days at the ends (lib/reports/revenue-source.ts).
ALTER TABLE "revenue_rollup" DROP CONSTRAINT "revenue_rollup_grain_check";--> statement-breakpoint
ALTER TABLE "revenue_rollup" ADD CONSTRAINT "revenue_rollup_year_check" CHECK ("revenue_rollup"."grain" <> 'y' or (extract(month from "revenue_rollup"."period") = 1 and "revenue_rollup"."site_id" is not null and "revenue_rollup"."country" is not null));--> statement-breakpoint
ALTER TABLE "revenue_rollup" ADD CONSTRAINT "revenue_rollup_grain_check" CHECK ("revenue_rollup"."grain" in ('d', 'm', 'y'));--> statement-breakpoint
-- The statement of 0006_rollup_updated_at.sql with the grouping set (account, site, year, country) added.
CREATE OR REPLACE FUNCTION "revenue_rollup_upsert_sql"(source text) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
  SELECT format($sql$
    WITH deltas AS (
      SELECT d.user_id, d.site_id, d.country,
             CASE WHEN grouping(d.day) = 0 THEN 'd' WHEN grouping(d.month) = 0 THEN 'm' ELSE 'y' END AS grain,
             coalesce(d.day, d.month, d.year) AS period,
             sum(d.sign * d.impressions) AS impressions, sum(d.sign * d.clicks) AS clicks,
             sum(d.sign * d.ad_requests) AS ad_requests, sum(d.sign * d.revenue_micros) AS revenue_micros,
             sum(d.sign) AS rows
      FROM (SELECT s.*, date_trunc('month', s.day::timestamp)::date AS month,
                   date_trunc('year', s.day::timestamp)::date AS year FROM (%s) AS s) AS d
      GROUP BY GROUPING SETS (
        (d.user_id, d.day), (d.user_id, d.month),
        (d.user_id, d.day, d.country), (d.user_id, d.month, d.country),
        (d.user_id, d.site_id, d.day), (d.user_id, d.site_id, d.month),
        (d.user_id, d.site_id, d.month, d.country), (d.user_id, d.site_id, d.year, d.country))
      HAVING sum(d.sign) <> 0 OR sum(d.sign * d.impressions) <> 0 OR sum(d.sign * d.clicks) <> 0
          OR sum(d.sign * d.ad_requests) <> 0 OR sum(d.sign * d.revenue_micros) <> 0
    ), applied AS (
      INSERT INTO revenue_rollup AS r (user_id, site_id, country, grain, period, impressions, clicks, ad_requests, revenue_micros, rows)
      SELECT * FROM deltas WHERE EXISTS (SELECT FROM users WHERE users.id = deltas.user_id)
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
-- No write may slip between the backfill and the new statement: hold writers off until this migration commits.
LOCK TABLE "revenue_daily" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
-- The years from the months, which hold the same sums (their last change as the year's).
INSERT INTO "revenue_rollup" ("user_id", "site_id", "country", "grain", "period", "impressions", "clicks", "ad_requests",
    "revenue_micros", "rows", "updated_at")
  SELECT "user_id", "site_id", "country", 'y', date_trunc('year', "period"::timestamp)::date, sum("impressions"),
    sum("clicks"), sum("ad_requests"), sum("revenue_micros"), sum("rows"), max("updated_at")
  FROM "revenue_rollup" WHERE "grain" = 'm' AND "site_id" IS NOT NULL AND "country" IS NOT NULL
  GROUP BY "user_id", "site_id", "country", date_trunc('year', "period"::timestamp);
