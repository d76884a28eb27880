-- Each account's data version: bumped in the writing transaction by every statement that can change what
-- its reports, rows and sites show, so that a validator made from it (lib/http/validators.ts) changes with
-- the data and with nothing else. Triggers, not application code: imports, the CLI, seeds and SQL by hand
-- all bump it alike. Must run on PostgreSQL 15 and PGlite (PostgreSQL 18).
ALTER TABLE "users" ADD COLUMN "data_version" bigint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "data_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- The accounts whose rows a statement wrote (revenue_daily and sites both carry user_id). Rows are locked in
-- id order first, so two statements that touch the same accounts cannot deadlock on them.
CREATE FUNCTION "account_data_bump"(accounts uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM users WHERE id = ANY (accounts) ORDER BY id FOR NO KEY UPDATE;
  UPDATE users SET data_version = data_version + 1, data_changed_at = now() WHERE id = ANY (accounts);
END $$;
--> statement-breakpoint
CREATE FUNCTION "account_data_on_write"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM account_data_bump(ARRAY(SELECT DISTINCT user_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM account_data_bump(ARRAY(SELECT DISTINCT user_id FROM old_rows));
  ELSE
    PERFORM account_data_bump(ARRAY(SELECT user_id FROM new_rows UNION SELECT user_id FROM old_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "account_data_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET data_version = data_version + 1, data_changed_at = now();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_version_insert" AFTER INSERT ON "revenue_daily"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_data_on_write"();
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_version_update" AFTER UPDATE ON "revenue_daily"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_data_on_write"();
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_version_delete" AFTER DELETE ON "revenue_daily"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_data_on_write"();
--> statement-breakpoint
CREATE TRIGGER "revenue_daily_version_truncate" AFTER TRUNCATE ON "revenue_daily"
  FOR EACH STATEMENT EXECUTE FUNCTION "account_data_on_truncate"();
--> statement-breakpoint
CREATE TRIGGER "sites_version_insert" AFTER INSERT ON "sites"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_data_on_write"();
--> statement-breakpoint
CREATE TRIGGER "sites_version_update" AFTER UPDATE ON "sites"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_data_on_write"();
--> statement-breakpoint
CREATE TRIGGER "sites_version_delete" AFTER DELETE ON "sites"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "account_data_on_write"();
--> statement-breakpoint
-- The default range decides what a request that names no dates covers.
CREATE FUNCTION "account_data_on_settings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.data_version := OLD.data_version + 1;
  NEW.data_changed_at := now();
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_version_settings" BEFORE UPDATE OF "default_range_days" ON "users"
  FOR EACH ROW WHEN (OLD.default_range_days IS DISTINCT FROM NEW.default_range_days)
  EXECUTE FUNCTION "account_data_on_settings"();
