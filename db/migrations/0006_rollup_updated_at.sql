-- When a group's figures last changed: new groups take the column's default, changed ones now() (the
-- writing transaction's start). Rows that exist already keep the time of this migration.
ALTER TABLE "revenue_rollup" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- The statement of 0004_revenue_rollup.sql, with updated_at set on every change.
CREATE OR REPLACE FUNCTION "revenue_rollup_upsert_sql"(source text) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
  SELECT format($sql$
    WITH deltas AS (
      SELECT d.user_id, d.site_id, d.country,
             CASE WHEN grouping(d.day) = 0 THEN 'd' ELSE 'm' END AS grain,
             coalesce(d.day, d.month) AS period,
             sum(d.sign * d.impressions) AS impressions, sum(d.sign * d.clicks) AS clicks,
             sum(d.sign * d.ad_requests) AS ad_requests, sum(d.sign * d.revenue_micros) AS revenue_micros,
             sum(d.sign) AS rows
      FROM (SELECT s.*, date_trunc('month', s.day::timestamp)::date AS month FROM (%s) AS s) AS d
      GROUP BY GROUPING SETS (
        (d.user_id, d.day), (d.user_id, d.month),
        (d.user_id, d.day, d.country), (d.user_id, d.month, d.country),
        (d.user_id, d.site_id, d.day), (d.user_id, d.site_id, d.month),
        (d.user_id, d.site_id, d.month, d.country))
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
