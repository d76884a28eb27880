-- Running totals for some sites by country: the rollup keeps, per site, country and day the site has rows, the
-- sums of that site and country from its first day through that day (grain c), so any range of days is two reads
-- per site: its totals at the range's last day less those at the day before its first (lib/reports/revenue-source.ts).
-- The Fenwick spans, quarters and years of 0017 and 0020 read 7 signed pieces per site and country instead: a year of
-- 50 of big@example.com's sites by country was 2,410 buffers and 29.5 ms warm, 140 ms when they were not in shared
-- buffers; as running totals 584 buffers and 7.9 ms (EXPLAIN (ANALYZE, BUFFERS), docs/scaling.md). Their grains go.
--
-- Density is per site: on each day a site has rows, every country the site had rows in by then has a row, so the
-- totals at any day x are the rows at the site's last such day on or before x, one index descent. The site × country
-- month rows stay (the rollup's tests read them; 1/30 of the running rows).
ALTER TABLE "revenue_rollup" DROP CONSTRAINT "revenue_rollup_year_check";--> statement-breakpoint
ALTER TABLE "revenue_rollup" DROP CONSTRAINT "revenue_rollup_span_check";--> statement-breakpoint
ALTER TABLE "revenue_rollup" DROP CONSTRAINT "revenue_rollup_grain_check";--> statement-breakpoint
ALTER TABLE "revenue_rollup" DROP CONSTRAINT "revenue_rollup_month_check";--> statement-breakpoint
DELETE FROM "revenue_rollup" WHERE "grain" IN ('t', 'f', 'e', 's', 'q', 'y');--> statement-breakpoint
ALTER TABLE "revenue_rollup" ADD CONSTRAINT "revenue_rollup_running_check" CHECK ("revenue_rollup"."grain" <> 'c' or ("revenue_rollup"."site_id" is not null and "revenue_rollup"."country" is not null));--> statement-breakpoint
ALTER TABLE "revenue_rollup" ADD CONSTRAINT "revenue_rollup_grain_check" CHECK ("revenue_rollup"."grain" in ('d', 'm', 'c'));--> statement-breakpoint
ALTER TABLE "revenue_rollup" ADD CONSTRAINT "revenue_rollup_month_check" CHECK ("revenue_rollup"."grain" in ('d', 'c') or extract(day from "revenue_rollup"."period") = 1);--> statement-breakpoint
DROP FUNCTION "revenue_day_span"(date, int);--> statement-breakpoint
-- The statement of 0004_revenue_rollup.sql with 0006's updated_at: the additive grains (account, country, site by
-- day and month, site × country by month).
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
--> statement-breakpoint
-- A statement wrote some days and countries of a site; its running totals follow, reading its rows again only for
-- what the statement can have changed (it returns how many running rows it wrote):
-- 1. a day written on which the site has no rows left has no running rows;
-- 2. the countries written, from the first day written on: their totals before it (the site's last running rows
--    before it) plus their daily rows since, on each day the site has rows (its day rows in the rollup, which the
--    additive statement has just made exact);
-- 3. on each day written that is new to the site, every other country the site had rows in by then: its totals of
--    the site's day before, as it has no rows of its own that day.
-- A correction of one past row rewrites that country's later totals (a year of days: 365 rows), a new day of an
-- account one row per site and country, a restated month every later total of its sites (docs/scaling.md).
-- Writers of one site take turns (an advisory lock until commit), and the next one reads what the first committed:
-- revenue_daily is written in READ COMMITTED, where each statement of this function sees the latest commits.
CREATE FUNCTION "revenue_running_rebuild"(uid uuid, sid uuid, days date[], countries char(2)[]) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  from_day date := (SELECT min(d) FROM unnest(days) AS d);
  new_day date;
  written bigint;
  carried bigint;
BEGIN
  -- As in the additive statement: while an account is deleted, its rows' triggers must not write rows of it.
  IF NOT EXISTS (SELECT FROM users WHERE id = uid) THEN
    RETURN 0;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('revenue_running ' || sid::text, 0));
  DELETE FROM revenue_rollup AS c WHERE c.user_id = uid AND c.grain = 'c' AND c.site_id = sid AND c.period = ANY (days)
    AND NOT EXISTS (SELECT FROM revenue_rollup AS d WHERE d.user_id = uid AND d.grain = 'd' AND d.site_id = sid
      AND d.country IS NULL AND d.period = c.period);
  DELETE FROM revenue_rollup WHERE user_id = uid AND grain = 'c' AND site_id = sid AND period >= from_day
    AND country = ANY (countries);
  INSERT INTO revenue_rollup (user_id, site_id, country, grain, period, impressions, clicks, ad_requests,
      revenue_micros, rows)
  WITH base AS (
    SELECT country, impressions, clicks, ad_requests, revenue_micros, rows FROM revenue_rollup
    WHERE user_id = uid AND grain = 'c' AND site_id = sid AND country = ANY (countries)
      AND period = (SELECT max(period) FROM revenue_rollup
        WHERE user_id = uid AND grain = 'c' AND site_id = sid AND period < from_day)
  ), site_days AS (
    SELECT period AS day FROM revenue_rollup
    WHERE user_id = uid AND grain = 'd' AND site_id = sid AND country IS NULL AND period >= from_day
  ), daily AS (
    SELECT day, country, impressions, clicks, ad_requests, revenue_micros FROM revenue_daily
    WHERE user_id = uid AND site_id = sid AND day >= from_day AND country = ANY (countries)
  ), running AS (
    SELECT c.country, site_days.day,
           coalesce(b.impressions, 0) + sum(coalesce(d.impressions, 0)) OVER w AS impressions,
           coalesce(b.clicks, 0) + sum(coalesce(d.clicks, 0)) OVER w AS clicks,
           coalesce(b.ad_requests, 0) + sum(coalesce(d.ad_requests, 0)) OVER w AS ad_requests,
           coalesce(b.revenue_micros, 0) + sum(coalesce(d.revenue_micros, 0)) OVER w AS revenue_micros,
           coalesce(b.rows, 0) + count(d.country) OVER w AS rows
    FROM site_days
    CROSS JOIN (SELECT country FROM base UNION SELECT country FROM daily) AS c
    LEFT JOIN base AS b ON b.country = c.country
    LEFT JOIN daily AS d ON d.day = site_days.day AND d.country = c.country
    WINDOW w AS (PARTITION BY c.country ORDER BY site_days.day)
  )
  -- A country's days before its first row are no rows: nothing to add there.
  SELECT uid, sid, country, 'c', day, impressions, clicks, ad_requests, revenue_micros, rows FROM running
  WHERE rows > 0 ORDER BY day, country;
  GET DIAGNOSTICS written = ROW_COUNT;
  -- In order, so that each new day carries what the one before it was given.
  FOR new_day IN SELECT period FROM revenue_rollup WHERE user_id = uid AND grain = 'd' AND site_id = sid
      AND country IS NULL AND period = ANY (days) ORDER BY period LOOP
    INSERT INTO revenue_rollup (user_id, site_id, country, grain, period, impressions, clicks, ad_requests,
        revenue_micros, rows)
    SELECT uid, sid, country, 'c', new_day, impressions, clicks, ad_requests, revenue_micros, rows FROM revenue_rollup
    WHERE user_id = uid AND grain = 'c' AND site_id = sid AND NOT (country = ANY (countries))
      AND period = (SELECT max(period) FROM revenue_rollup
        WHERE user_id = uid AND grain = 'c' AND site_id = sid AND period < new_day)
    ORDER BY country
    ON CONFLICT (user_id, grain, site_id, period, country) DO NOTHING;
    GET DIAGNOSTICS carried = ROW_COUNT;
    written := written + carried;
  END LOOP;
  RETURN written;
END $$;
--> statement-breakpoint
-- 0004's function, then the running totals of every site the statement wrote, with the days and countries it wrote,
-- in the sites' order (so that writers of several sites take their turns in one order and cannot deadlock).
CREATE OR REPLACE FUNCTION "revenue_rollup_on_write"() RETURNS trigger LANGUAGE plpgsql SET work_mem = '64MB' AS $$
DECLARE
  source text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT *, 1 AS sign FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT *, -1 AS sign FROM old_rows'
    ELSE 'SELECT *, 1 AS sign FROM new_rows UNION ALL SELECT *, -1 FROM old_rows'
  END;
  emptied tid[];
BEGIN
  EXECUTE revenue_rollup_upsert_sql(source) INTO emptied;
  IF emptied IS NOT NULL THEN
    DELETE FROM revenue_rollup WHERE ctid = ANY (emptied);
  END IF;
  EXECUTE format('SELECT sum(revenue_running_rebuild(user_id, site_id, days, countries)) FROM (
      SELECT user_id, site_id, array_agg(DISTINCT day) AS days, array_agg(DISTINCT country) AS countries
      FROM (%s) AS s GROUP BY user_id, site_id ORDER BY site_id, user_id
    ) AS written', source);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The backfill reads all of revenue_daily; SET LOCAL ends with the migration's transaction.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
-- No write may slip between the backfill and the new function: hold writers off until this migration commits.
LOCK TABLE "revenue_daily" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
SELECT sum("revenue_running_rebuild"("user_id", "site_id", "days", "countries")) FROM (
  SELECT "user_id", "site_id", array_agg(DISTINCT "day") AS "days", array_agg(DISTINCT "country") AS "countries"
  FROM "revenue_daily" GROUP BY "user_id", "site_id" ORDER BY "site_id", "user_id"
) AS "written";
