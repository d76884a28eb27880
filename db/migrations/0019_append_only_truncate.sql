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
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_append_only"();
