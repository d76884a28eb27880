-- Earnings statements and payments (issue 23): a month's statement is written when the operator closes the month,
-- payments when they are made. Both are append-only, like the activity log: a correction is an adjustment line on
-- a later statement, never an update. A row goes only with its account (the cascade of deleting the account,
-- which has gone already when its rows' triggers run).
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"statement_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"amount_micros" bigint NOT NULL,
	"paid_on" date NOT NULL,
	"reference" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_statement_key" UNIQUE("statement_id")
);
--> statement-breakpoint
CREATE TABLE "statement_lines" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "statement_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"statement_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"month" date NOT NULL,
	"site_id" uuid NOT NULL,
	"site_name" text NOT NULL,
	"amount_micros" bigint NOT NULL,
	CONSTRAINT "statement_lines_kind_check" CHECK ("statement_lines"."kind" in ('earnings', 'adjustment'))
);
--> statement-breakpoint
CREATE TABLE "statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"month" date NOT NULL,
	"opening_micros" bigint NOT NULL,
	"earnings_micros" bigint NOT NULL,
	"adjustments_micros" bigint NOT NULL,
	"amount_due_micros" bigint NOT NULL,
	"carried_micros" bigint NOT NULL,
	"threshold_micros" bigint NOT NULL,
	"due_on" date,
	"finalized_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "statements_account_month_key" UNIQUE("account_id","month"),
	CONSTRAINT "statements_month_check" CHECK (extract(day from "statements"."month") = 1),
	CONSTRAINT "statements_balance_check" CHECK ("statements"."amount_due_micros" + "statements"."carried_micros" = "statements"."opening_micros" + "statements"."earnings_micros" + "statements"."adjustments_micros")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_statement_id_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."statements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_statement_id_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."statements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statements" ADD CONSTRAINT "statements_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_account_idx" ON "payments" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "statement_lines_statement_idx" ON "statement_lines" USING btree ("statement_id");--> statement-breakpoint
CREATE FUNCTION "ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF TG_TABLE_NAME = 'statement_lines' THEN
      IF NOT EXISTS (SELECT FROM statements WHERE id = OLD.statement_id) THEN RETURN OLD; END IF;
    ELSIF NOT EXISTS (SELECT FROM users WHERE id = OLD.account_id) THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$fn$;--> statement-breakpoint
CREATE TRIGGER "statements_append_only" BEFORE UPDATE OR DELETE ON "statements"
  FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();--> statement-breakpoint
CREATE TRIGGER "statement_lines_append_only" BEFORE UPDATE OR DELETE ON "statement_lines"
  FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();--> statement-breakpoint
CREATE TRIGGER "payments_append_only" BEFORE UPDATE OR DELETE ON "payments"
  FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();
