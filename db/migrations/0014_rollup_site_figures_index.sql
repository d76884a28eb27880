-- The sites' rollup rows with their figures (db/schema.ts): a subset of sites is read from this index alone.
CREATE INDEX "revenue_rollup_site_figures_idx" ON "revenue_rollup" USING btree ("user_id","grain","site_id","period","country","impressions","clicks","ad_requests","revenue_micros","rows") WHERE "revenue_rollup"."site_id" is not null;--> statement-breakpoint
-- Index-only scans skip the heap only on pages the visibility map calls all-visible: every import updates the
-- rollup rows of its months, so vacuum them after 2 % of the table changed rather than the default 20 %.
ALTER TABLE "revenue_rollup" SET (autovacuum_vacuum_scale_factor = 0.02);
