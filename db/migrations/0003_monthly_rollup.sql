CREATE TABLE "revenue_monthly" (
	"site_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"month" date NOT NULL,
	"country" char(2) NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"ad_requests" bigint DEFAULT 0 NOT NULL,
	"revenue_micros" bigint DEFAULT 0 NOT NULL,
	"days" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "revenue_monthly_site_id_month_country_pk" PRIMARY KEY("site_id","month","country"),
	CONSTRAINT "revenue_monthly_month_check" CHECK (extract(day from "revenue_monthly"."month") = 1)
);
--> statement-breakpoint
ALTER TABLE "revenue_monthly" ADD CONSTRAINT "revenue_monthly_site_owner_fk" FOREIGN KEY ("site_id","user_id") REFERENCES "public"."sites"("id","user_id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
-- revenue_monthly is kept equal to revenue_daily summed per (site, UTC month, country) by the statement-level
-- triggers below; each applies one aggregated delta per touched month instead of work per row. Must run on
-- PostgreSQL 15 and PGlite (PostgreSQL 18) alike. The reports rely on it being exact (lib/reports/revenue-source.ts).

-- INSERT (also the insert half of INSERT … ON CONFLICT DO UPDATE): add the new rows' sums and count.
-- Grouping by user_id too is safe (a site has one owner, enforced by the foreign key) and hashes faster.
-- ORDER BY takes the month rows' locks in key order, so concurrent loads cannot deadlock on each other.
CREATE FUNCTION "revenue_monthly_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO revenue_monthly AS m (site_id, user_id, month, country, impressions, clicks, ad_requests, revenue_micros, days)
  SELECT site_id, user_id, date_trunc('month', day::timestamp)::date AS month, country,
         sum(impressions), sum(clicks), sum(ad_requests), sum(revenue_micros), count(*)
  FROM new_rows
  GROUP BY site_id, user_id, month, country
  ORDER BY site_id, month, country
  ON CONFLICT (site_id, month, country) DO UPDATE SET
    impressions = m.impressions + excluded.impressions,
    clicks = m.clicks + excluded.clicks,
    ad_requests = m.ad_requests + excluded.ad_requests,
    revenue_micros = m.revenue_micros + excluded.revenue_micros,
    days = m.days + excluded.days;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- UPDATE: new rows count +1, old rows -1; keys whose delta is all zeros (an updated_at touch, an owner change
-- the foreign key's own cascade has already carried over) are skipped. A month left without rows is deleted.
-- Rows that changed site (sites.id renamed: revenue_monthly's cascade may already have moved that site's
-- months, so a delta would count them twice) instead rebuild their site-months from revenue_daily.
CREATE FUNCTION "revenue_monthly_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  emptied uuid[];
BEGIN
  IF EXISTS (SELECT site_id FROM new_rows EXCEPT SELECT site_id FROM old_rows) THEN
    DELETE FROM revenue_monthly AS m
    USING (SELECT site_id, date_trunc('month', day::timestamp)::date AS month FROM new_rows
           UNION SELECT site_id, date_trunc('month', day::timestamp)::date FROM old_rows) AS r
    WHERE m.site_id = r.site_id AND m.month = r.month;
    INSERT INTO revenue_monthly (site_id, user_id, month, country, impressions, clicks, ad_requests, revenue_micros, days)
    SELECT d.site_id, d.user_id, r.month, d.country,
           sum(d.impressions), sum(d.clicks), sum(d.ad_requests), sum(d.revenue_micros), count(*)
    FROM (SELECT site_id, date_trunc('month', day::timestamp)::date AS month FROM new_rows
          UNION SELECT site_id, date_trunc('month', day::timestamp)::date FROM old_rows) AS r
    JOIN revenue_daily AS d ON d.site_id = r.site_id AND d.day >= r.month AND d.day < (r.month + interval '1 month')::date
    GROUP BY d.site_id, d.user_id, r.month, d.country;
    RETURN NULL;
  END IF;

  WITH applied AS (
    INSERT INTO revenue_monthly AS m (site_id, user_id, month, country, impressions, clicks, ad_requests, revenue_micros, days)
    SELECT site_id, (array_agg(user_id ORDER BY days DESC))[1], month, country,
           sum(impressions), sum(clicks), sum(ad_requests), sum(revenue_micros), sum(days)
    FROM (
      SELECT site_id, user_id, date_trunc('month', day::timestamp)::date AS month, country,
             impressions, clicks, ad_requests, revenue_micros, 1 AS days
      FROM new_rows
      UNION ALL
      SELECT site_id, user_id, date_trunc('month', day::timestamp)::date, country,
             -impressions, -clicks, -ad_requests, -revenue_micros, -1
      FROM old_rows
    ) AS d
    GROUP BY site_id, month, country
    HAVING sum(days) <> 0 OR sum(impressions) <> 0 OR sum(clicks) <> 0 OR sum(ad_requests) <> 0 OR sum(revenue_micros) <> 0
    ORDER BY site_id, month, country
    ON CONFLICT (site_id, month, country) DO UPDATE SET
      impressions = m.impressions + excluded.impressions,
      clicks = m.clicks + excluded.clicks,
      ad_requests = m.ad_requests + excluded.ad_requests,
      revenue_micros = m.revenue_micros + excluded.revenue_micros,
      days = m.days + excluded.days
    RETURNING m.site_id, m.days
  )
  SELECT array_agg(DISTINCT site_id) INTO emptied FROM applied WHERE days = 0;
  IF emptied IS NOT NULL THEN
    DELETE FROM revenue_monthly WHERE site_id = ANY (emptied) AND days = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- DELETE: subtract, updating existing month rows only: when a site (or its account) is deleted, the
-- foreign key's cascade may already have removed its month rows, and nothing must come back.
CREATE FUNCTION "revenue_monthly_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  emptied uuid[];
BEGIN
  WITH applied AS (
    UPDATE revenue_monthly AS m SET
      impressions = m.impressions - d.impressions,
      clicks = m.clicks - d.clicks,
      ad_requests = m.ad_requests - d.ad_requests,
      revenue_micros = m.revenue_micros - d.revenue_micros,
      days = m.days - d.days
    FROM (
      SELECT site_id, date_trunc('month', day::timestamp)::date AS month, country,
             sum(impressions) AS impressions, sum(clicks) AS clicks, sum(ad_requests) AS ad_requests,
             sum(revenue_micros) AS revenue_micros, count(*) AS days
      FROM old_rows
      GROUP BY 1, 2, 3
      ORDER BY 1, 2, 3
    ) AS d
    WHERE m.site_id = d.site_id AND m.month = d.month AND m.country = d.country
    RETURNING m.site_id, m.days
  )
  SELECT array_agg(DISTINCT site_id) INTO emptied FROM applied WHERE days = 0;
  IF emptied IS NOT NULL THEN
    DELETE FROM revenue_monthly WHERE site_id = ANY (emptied) AND days = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- TRUNCATE: empty the rollup too. `TRUNCATE sites CASCADE` (the seed) has already emptied it in the same
-- statement, which still holds it open, and a second TRUNCATE would fail: only act when rows are left.
CREATE FUNCTION "revenue_monthly_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT FROM revenue_monthly) THEN
    TRUNCATE revenue_monthly;
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
INSERT INTO "revenue_monthly" (site_id, user_id, month, country, impressions, clicks, ad_requests, revenue_micros, days)
SELECT site_id, user_id, date_trunc('month', day::timestamp)::date, country,
       sum(impressions), sum(clicks), sum(ad_requests), sum(revenue_micros), count(*)
FROM "revenue_daily"
GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_insert" AFTER INSERT ON "revenue_daily"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "revenue_monthly_on_insert"();
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_update" AFTER UPDATE ON "revenue_daily"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "revenue_monthly_on_update"();
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_delete" AFTER DELETE ON "revenue_daily"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "revenue_monthly_on_delete"();
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_truncate" AFTER TRUNCATE ON "revenue_daily"
  FOR EACH STATEMENT EXECUTE FUNCTION "revenue_monthly_on_truncate"();
