-- Repeat the owning account on every revenue row (see db/schema.ts): add, backfill from sites, then constrain.
ALTER TABLE "sites" ADD CONSTRAINT "sites_id_user_id_key" UNIQUE("id","user_id");--> statement-breakpoint
ALTER TABLE "revenue_daily" DROP CONSTRAINT "revenue_daily_site_id_sites_id_fk";--> statement-breakpoint
ALTER TABLE "revenue_daily" ADD COLUMN "user_id" uuid;--> statement-breakpoint
UPDATE "revenue_daily" AS r SET "user_id" = s."user_id" FROM "sites" AS s WHERE s."id" = r."site_id";--> statement-breakpoint
ALTER TABLE "revenue_daily" ALTER COLUMN "user_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "revenue_daily" ADD CONSTRAINT "revenue_daily_site_owner_fk" FOREIGN KEY ("site_id","user_id") REFERENCES "public"."sites"("id","user_id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "revenue_daily_user_day_idx" ON "revenue_daily" USING btree ("user_id","day","site_id","country");
