-- revenue_daily partitioned by the month of `day`, so that an import's new rows, which are the latest days, go into
-- one month's small indexes instead of eight indexes of the whole table. There, inserts land at random places in
-- 450 MB indexes: 200,000 new rows of big@example.com wrote 340,000 full-page images (2.6 GB of WAL) and took
-- 23 s; into a month's table of 600,000 rows with the same indexes, 8.7 s and 12,500 images (docs/scaling.md).
-- Months are made by revenue_daily_add_months(), which every writer calls for the days it writes: a day without
-- its month fails ("no partition of relation revenue_daily found for row") rather than landing in a catch-all.
-- The table is rebuilt: its rows are copied into the months, then the key, indexes and foreign key are built once.
-- The rollup and data-version triggers are made again on the new table after the copy, so the rollup is unchanged.
ALTER TABLE "revenue_daily" RENAME TO "revenue_daily_unpartitioned";--> statement-breakpoint
ALTER TABLE "revenue_daily_unpartitioned" DROP CONSTRAINT "revenue_daily_site_owner_fk";--> statement-breakpoint
ALTER TABLE "revenue_daily_unpartitioned" RENAME CONSTRAINT "revenue_daily_site_id_day_country_pk" TO "revenue_daily_unpartitioned_pk";--> statement-breakpoint
DROP INDEX "revenue_daily_user_day_idx", "revenue_daily_user_impressions_idx", "revenue_daily_user_clicks_idx",
  "revenue_daily_user_ad_requests_idx", "revenue_daily_user_revenue_idx", "revenue_daily_user_cpm_idx",
  "revenue_daily_user_fill_rate_idx";--> statement-breakpoint
CREATE TABLE "revenue_daily" (
  "site_id" uuid NOT NULL,
  "day" date NOT NULL,
  "country" char(2) NOT NULL,
  "impressions" bigint DEFAULT 0 NOT NULL,
  "clicks" bigint DEFAULT 0 NOT NULL,
  "ad_requests" bigint DEFAULT 0 NOT NULL,
  "revenue_micros" bigint DEFAULT 0 NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  "user_id" uuid NOT NULL,
  "ad_unit_id" text
) PARTITION BY RANGE ("day");--> statement-breakpoint
-- The months from `first` to `last` (any days in them), each a partition named revenue_daily_YYYY_MM, made when
-- missing. A month is made as a table and then attached, which locks revenue_daily only against other DDL
-- (CREATE TABLE … PARTITION OF would lock out its readers until the writing transaction ends). Writers making
-- the same month take turns on an advisory lock; the second finds it made.
CREATE FUNCTION "revenue_daily_add_months"(first date, last date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  month date;
  name text;
BEGIN
  FOR month IN SELECT generate_series(date_trunc('month', first), date_trunc('month', last), interval '1 month')::date
  LOOP
    name := 'revenue_daily_' || to_char(month, 'YYYY_MM');
    CONTINUE WHEN to_regclass(quote_ident(name)) IS NOT NULL;
    PERFORM pg_advisory_xact_lock(hashtext('revenue_daily_add_months'));
    CONTINUE WHEN to_regclass(quote_ident(name)) IS NOT NULL;
    EXECUTE format('CREATE TABLE %I (LIKE revenue_daily INCLUDING DEFAULTS)', name);
    EXECUTE format('ALTER TABLE revenue_daily ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
      name, month, (month + interval '1 month')::date);
  END LOOP;
END $$;
--> statement-breakpoint
SELECT revenue_daily_add_months(min("day"), max("day")) FROM "revenue_daily_unpartitioned";--> statement-breakpoint
INSERT INTO "revenue_daily" ("site_id", "day", "country", "impressions", "clicks", "ad_requests", "revenue_micros",
    "updated_at", "user_id", "ad_unit_id")
  SELECT "site_id", "day", "country", "impressions", "clicks", "ad_requests", "revenue_micros", "updated_at",
    "user_id", "ad_unit_id"
  FROM "revenue_daily_unpartitioned";--> statement-breakpoint
DROP TABLE "revenue_daily_unpartitioned";--> statement-breakpoint
ALTER TABLE "revenue_daily" ADD CONSTRAINT "revenue_daily_site_id_day_country_pk" PRIMARY KEY ("site_id", "day", "country");--> statement-breakpoint
ALTER TABLE "revenue_daily" ADD CONSTRAINT "revenue_daily_site_owner_fk" FOREIGN KEY ("site_id", "user_id")
  REFERENCES "public"."sites"("id", "user_id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "revenue_daily_user_day_idx" ON "revenue_daily" USING btree ("user_id","day","site_id","country");--> statement-breakpoint
CREATE INDEX "revenue_daily_user_impressions_idx" ON "revenue_daily" USING btree ("user_id","impressions");--> statement-breakpoint
CREATE INDEX "revenue_daily_user_clicks_idx" ON "revenue_daily" USING btree ("user_id","clicks");--> statement-breakpoint
CREATE INDEX "revenue_daily_user_ad_requests_idx" ON "revenue_daily" USING btree ("user_id","ad_requests");--> statement-breakpoint
CREATE INDEX "revenue_daily_user_revenue_idx" ON "revenue_daily" USING btree ("user_id","revenue_micros");--> statement-breakpoint
CREATE INDEX "revenue_daily_user_cpm_idx" ON "revenue_daily" USING btree ("user_id",(case when "impressions" = 0 then 0 else "revenue_micros"::numeric / "impressions" / 1000 end));--> statement-breakpoint
CREATE INDEX "revenue_daily_user_fill_rate_idx" ON "revenue_daily" USING btree ("user_id",(case when "ad_requests" = 0 then 0 else "impressions"::numeric / "ad_requests" end));--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_insert" AFTER INSERT ON "revenue_daily"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "revenue_rollup_on_write"();--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_update" AFTER UPDATE ON "revenue_daily"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "revenue_rollup_on_write"();--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_delete" AFTER DELETE ON "revenue_daily"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "revenue_rollup_on_write"();--> statement-breakpoint
CREATE TRIGGER "revenue_daily_rollup_truncate" AFTER TRUNCATE ON "revenue_daily"
  FOR EACH STATEMENT EXECUTE FUNCTION "revenue_rollup_on_truncate"();--> statement-breakpoint
CREATE TRIGGER "revenue_daily_version_insert" AFTER INSERT ON "revenue_daily"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_data_on_write"();--> statement-breakpoint
CREATE TRIGGER "revenue_daily_version_update" AFTER UPDATE ON "revenue_daily"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_data_on_write"();--> statement-breakpoint
CREATE TRIGGER "revenue_daily_version_delete" AFTER DELETE ON "revenue_daily"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_data_on_write"();--> statement-breakpoint
CREATE TRIGGER "revenue_daily_version_truncate" AFTER TRUNCATE ON "revenue_daily"
  FOR EACH STATEMENT EXECUTE FUNCTION "account_data_on_truncate"();--> statement-breakpoint
ANALYZE "revenue_daily";
