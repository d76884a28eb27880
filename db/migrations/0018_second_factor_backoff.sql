-- The second-factor step backs off per person after wrong codes (lib/accounts/two-factor.ts).
ALTER TABLE "people" ADD COLUMN "second_factor_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "people" ADD COLUMN "second_factor_failed_at" timestamp with time zone;