-- The metric sort indexes end with the feed's tie-breakers (day, site, country; lib/reports/rows-query.ts), so a first
-- page sorted by a metric is read in the index's order. With the metric alone, the page sorted the whole run of equal
-- values first: big@example.com's 85,200 rows without impressions all have cpm 0 and fill rate 0, so cpm ascending
-- over a year sorted ~43,000 rows (Incremental Sort). Built in the migration's transaction: on a large revenue_daily
-- writes wait while the six indexes are built (102 s for 14.6 M rows on 2 cores); reads go on.
DROP INDEX "revenue_daily_user_impressions_idx";--> statement-breakpoint
DROP INDEX "revenue_daily_user_clicks_idx";--> statement-breakpoint
DROP INDEX "revenue_daily_user_ad_requests_idx";--> statement-breakpoint
DROP INDEX "revenue_daily_user_revenue_idx";--> statement-breakpoint
DROP INDEX "revenue_daily_user_cpm_idx";--> statement-breakpoint
DROP INDEX "revenue_daily_user_fill_rate_idx";--> statement-breakpoint
CREATE INDEX "revenue_daily_user_impressions_idx" ON "revenue_daily" USING btree ("user_id","impressions","day","site_id","country");--> statement-breakpoint
CREATE INDEX "revenue_daily_user_clicks_idx" ON "revenue_daily" USING btree ("user_id","clicks","day","site_id","country");--> statement-breakpoint
CREATE INDEX "revenue_daily_user_ad_requests_idx" ON "revenue_daily" USING btree ("user_id","ad_requests","day","site_id","country");--> statement-breakpoint
CREATE INDEX "revenue_daily_user_revenue_idx" ON "revenue_daily" USING btree ("user_id","revenue_micros","day","site_id","country");--> statement-breakpoint
CREATE INDEX "revenue_daily_user_cpm_idx" ON "revenue_daily" USING btree ("user_id",(case when "impressions" = 0 then 0 else "revenue_micros"::numeric / "impressions" / 1000 end),"day","site_id","country");--> statement-breakpoint
CREATE INDEX "revenue_daily_user_fill_rate_idx" ON "revenue_daily" USING btree ("user_id",(case when "ad_requests" = 0 then 0 else "impressions"::numeric / "ad_requests" end),"day","site_id","country");