import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema';

/**
 * Earnings statements and payments (issue 23). Append-only like the activity log (migration 0010): triggers
 * refuse UPDATE, and DELETE except when the account itself goes (its cascade). A correction is never an
 * update: it is an adjustment line on a later statement.
 *
 * A statement is written when the operator closes its calendar month (UTC) for the account; until then its
 * month is an estimate computed from the rollup on every read (lib/payments). Money is integer micro-dollars.
 *   closing = opening + earnings + adjustments
 *   closing ≥ threshold: amount_due = closing, carried = 0, due_on = month end + terms
 *   otherwise:           amount_due = 0, carried = closing (the next statement's opening)
 * The threshold and the due date are written as they were at closing, so that a later setting rewrites nothing.
 */
export const statements = pgTable(
  'statements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The first day of the statement's month. */
    month: date('month', { mode: 'string' }).notNull(),
    openingMicros: bigint('opening_micros', { mode: 'number' }).notNull(),
    earningsMicros: bigint('earnings_micros', { mode: 'number' }).notNull(),
    adjustmentsMicros: bigint('adjustments_micros', { mode: 'number' }).notNull(),
    amountDueMicros: bigint('amount_due_micros', { mode: 'number' }).notNull(),
    carriedMicros: bigint('carried_micros', { mode: 'number' }).notNull(),
    thresholdMicros: bigint('threshold_micros', { mode: 'number' }).notNull(),
    dueOn: date('due_on', { mode: 'string' }),
    finalizedAt: timestamp('finalized_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    unique('statements_account_month_key').on(t.accountId, t.month),
    check('statements_month_check', sql`extract(day from ${t.month}) = 1`),
    check(
      'statements_balance_check',
      sql`${t.amountDueMicros} + ${t.carriedMicros} = ${t.openingMicros} + ${t.earningsMicros} + ${t.adjustmentsMicros}`,
    ),
  ],
);

/**
 * A statement's lines: its month's earnings per site, and adjustments (a finalized month's later change, per
 * month and site). The site's name is kept as it was, like the activity log's labels.
 */
export const statementLines = pgTable(
  'statement_lines',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    statementId: uuid('statement_id')
      .notNull()
      .references(() => statements.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['earnings', 'adjustment'] }).notNull(),
    /** The month the amount was earned in: the statement's own for earnings, an earlier one for adjustments. */
    month: date('month', { mode: 'string' }).notNull(),
    siteId: uuid('site_id').notNull(),
    siteName: text('site_name').notNull(),
    amountMicros: bigint('amount_micros', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('statement_lines_statement_idx').on(t.statementId),
    check('statement_lines_kind_check', sql`${t.kind} in ('earnings', 'adjustment')`),
  ],
);

/** The payment of a statement's amount due: one per statement, recorded by the operator. */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    statementId: uuid('statement_id')
      .notNull()
      .references(() => statements.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').notNull(),
    amountMicros: bigint('amount_micros', { mode: 'number' }).notNull(),
    paidOn: date('paid_on', { mode: 'string' }).notNull(),
    reference: text('reference').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [unique('payments_statement_key').on(t.statementId), index('payments_account_idx').on(t.accountId)],
);

export type StatementRow = typeof statements.$inferSelect;
export type StatementLineRow = typeof statementLines.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
