-- The statements' index of what each site earned by month, made covering (site and revenue in it) so it is read
-- alone: without them the planner preferred the sites' figures index and walked every country's month rows.
DROP INDEX "revenue_rollup_site_month_idx";--> statement-breakpoint
CREATE INDEX "revenue_rollup_site_month_idx" ON "revenue_rollup" USING btree ("user_id","period","site_id","revenue_micros") WHERE "revenue_rollup"."grain" = 'm' and "revenue_rollup"."site_id" is not null and "revenue_rollup"."country" is null;