-- revenue_rollup replaces revenue_monthly: the same site × month × country sums, plus the account-wide and
-- per-site grains by day and by month that large accounts need (see db/schema.ts). Kept exact by
-- statement-level triggers on revenue_daily, as before; must run on PostgreSQL 15 and PGlite (PostgreSQL 18).
DROP TRIGGER IF EXISTS "revenue_daily_rollup_insert" ON "revenue_daily";--> statement-breakpoint
DROP TRIGGER IF EXISTS "revenue_daily_rollup_update" ON "revenue_daily";--> statement-breakpoint
DROP TRIGGER IF EXISTS "revenue_daily_rollup_delete" ON "revenue_daily";--> statement-breakpoint
DROP TRIGGER IF EXISTS "revenue_daily_rollup_truncate" ON "revenue_daily";--> statement-breakpoint
DROP FUNCTION IF EXISTS "revenue_monthly_on_insert"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "revenue_monthly_on_update"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "revenue_monthly_on_delete"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "revenue_monthly_on_truncate"();--> statement-breakpoint
DROP TABLE "revenue_monthly" CASCADE;--> statement-breakpoint
CREATE TABLE "revenue_rollup" (
	"user_id" uuid NOT NULL,
	"site_id" uuid,
	"country" char(2),
	"grain" char(1) NOT NULL,
	"period" date NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"ad_requests" bigint DEFAULT 0 NOT NULL,
	"revenue_micros" bigint DEFAULT 0 NOT NULL,
	"rows" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "revenue_rollup_key" UNIQUE NULLS NOT DISTINCT("user_id","grain","site_id","period","country"),
	CONSTRAINT "revenue_rollup_grain_check" CHECK ("revenue_rollup"."grain" in ('d', 'm')),
	CONSTRAINT "revenue_rollup_month_check" CHECK ("revenue_rollup"."grain" = 'd' or extract(day from "revenue_rollup"."period") = 1)
);
--> statement-breakpoint
ALTER TABLE "revenue_daily" ADD COLUMN "ad_unit_id" text;--> statement-breakpoint
ALTER TABLE "revenue_rollup" ADD CONSTRAINT "revenue_rollup_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every write updates rollup rows in place: room on each page lets most of those be HOT updates.
ALTER TABLE "revenue_rollup" SET (fillfactor = 80);--> statement-breakpoint
-- The one statement that applies a set of daily rows to the rollup, as SQL text around `source`: a query of
-- revenue_daily-shaped rows plus `sign` (+1 for rows that arrive, -1 for rows that leave). Text, because
-- only the trigger function itself can see its transition tables, so it must EXECUTE the statement there.
-- - GROUPING SETS lists the grains of db/schema.ts; NULL site_id / country means "all".
-- - Groups whose delta is all zeros (an updated_at touch, say) are skipped.
-- - Only accounts that still exist are written: while an account is being deleted, its rows' DELETE
--   triggers must not put back rollup rows that its own cascade removes.
-- - ORDER BY takes the rows' locks in key order, so concurrent writers cannot deadlock on each other.
-- It returns where the groups left without rows are (their ctids in this transaction), for the caller to delete.
CREATE FUNCTION "revenue_rollup_upsert_sql"(source text) RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
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
        rows = r.rows + excluded.rows
      RETURNING r.rows, r.ctid
    )
    SELECT array_agg(ctid) FILTER (WHERE rows = 0) FROM applied
  $sql$, source)
$fn$;
--> statement-breakpoint
-- work_mem: a large statement's groups are hashed in memory instead of spilling to disk in batches.
CREATE FUNCTION "revenue_rollup_on_write"() RETURNS trigger LANGUAGE plpgsql SET work_mem = '64MB' AS $$
DECLARE
  emptied tid[];
BEGIN
  EXECUTE revenue_rollup_upsert_sql(CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT *, 1 AS sign FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT *, -1 AS sign FROM old_rows'
    ELSE 'SELECT *, 1 AS sign FROM new_rows UNION ALL SELECT *, -1 FROM old_rows'
  END) INTO emptied;
  IF emptied IS NOT NULL THEN
    DELETE FROM revenue_rollup WHERE ctid = ANY (emptied);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- TRUNCATE: empty the rollup too. `TRUNCATE sites CASCADE` (the seed) may already have emptied it in the
-- same statement, which still holds it open, and a second TRUNCATE would fail: only act when rows are left.
CREATE FUNCTION "revenue_rollup_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT FROM revenue_rollup) THEN
    TRUNCATE revenue_rollup;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The backfill reads all of revenue_daily: on a large database it outlasts the connection's statement_timeout
-- (db/client.ts). SET LOCAL ends with the migration's transaction.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
-- No write may slip between the backfill and the triggers: hold writers off until this migration commits.
LOCK TABLE "revenue_daily" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
DO $$ BEGIN EXECUTE revenue_rollup_upsert_sql('SELECT *, 1 AS sign FROM revenue_daily'); END $$;
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_insert" AFTER INSERT ON "revenue_daily"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "revenue_rollup_on_write"();
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_update" AFTER UPDATE ON "revenue_daily"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "revenue_rollup_on_write"();
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_delete" AFTER DELETE ON "revenue_daily"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "revenue_rollup_on_write"();
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_truncate" AFTER TRUNCATE ON "revenue_daily"
  FOR EACH STATEMENT EXECUTE FUNCTION "revenue_rollup_on_truncate"();
