-- migrate: no-transaction
-- Built with CONCURRENTLY, one statement at a time outside a transaction (db/migrate.ts): on a large
-- revenue_daily each build takes minutes, and writes (imports) go on meanwhile. A build that fails leaves an
-- INVALID index, which the next run drops and builds again; IF NOT EXISTS skips the ones already built.
-- Sort indexes for the feed ordered by a metric (db/schema.ts): its first page reads the top of one index
-- instead of sorting all of an account's rows. The expressions are db/metrics.ts' and must stay identical to it.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "revenue_daily_user_impressions_idx" ON "revenue_daily" USING btree ("user_id","impressions");--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "revenue_daily_user_clicks_idx" ON "revenue_daily" USING btree ("user_id","clicks");--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "revenue_daily_user_ad_requests_idx" ON "revenue_daily" USING btree ("user_id","ad_requests");--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "revenue_daily_user_revenue_idx" ON "revenue_daily" USING btree ("user_id","revenue_micros");--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "revenue_daily_user_cpm_idx" ON "revenue_daily" USING btree ("user_id",(case when "impressions" = 0 then 0 else "revenue_micros"::numeric / "impressions" / 1000 end));--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "revenue_daily_user_fill_rate_idx" ON "revenue_daily" USING btree ("user_id",(case when "ad_requests" = 0 then 0 else "impressions"::numeric / "ad_requests" end));