-- Append-only means append-only (issue 39): the row triggers of 0007 and 0010 refuse UPDATE and DELETE, but TRUNCATE
-- fires no row trigger, so it emptied the activity log and the ledger. A statement-level trigger refuses it too, with
-- the same functions and message, also when a TRUNCATE … CASCADE of users reaches the ledger. Only the tables' owner
-- can lift it (ALTER TABLE … DISABLE TRIGGER needs ownership), as the demo seed does inside its transaction
-- (db/seed.ts); the app's own role may not even ask (db/app-role.ts grants it SELECT and INSERT there, no more).
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();--> statement-breakpoint
CREATE TRIGGER "statements_no_truncate" BEFORE TRUNCATE ON "statements"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_append_only"();--> statement-breakpoint
CREATE TRIGGER "statement_lines_no_truncate" BEFORE TRUNCATE ON "statement_lines"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_append_only"();--> statement-breakpoint
CREATE TRIGGER "payments_no_truncate" BEFORE TRUNCATE ON "payments"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_append_only"();--> statement-breakpoint
-- The app's own role may not create tables, yet every writer of revenue makes the months it writes (0016): the
-- function runs as its owner, the migrator, on a fixed search_path (pg_temp last), and only roles granted it may
-- call it (db/app-role.ts grants the app's). It makes nothing but empty months of revenue_daily.
ALTER FUNCTION "revenue_daily_add_months"(date, date) SECURITY DEFINER SET search_path = public, pg_temp;--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION "revenue_daily_add_months"(date, date) FROM PUBLIC;
