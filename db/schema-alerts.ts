import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { people, sites, users } from './schema';

/**
 * Work for the machines, written in the transaction that causes it (lib/jobs): evaluating alerts after an
 * import, and later webhook deliveries and e-mailed reports. Like the mail outbox, a job is done after the
 * commit, with retries, by whichever process claims it first. `dedupeKey` makes queuing idempotent: a key is queued
 * once, ever (the hourly scan, queued by every server, runs once per hour).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    dedupeKey: text('dedupe_key'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }),
    /** The runner gave up after its last attempt; kept for the operator to see. */
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.doneAt} is null and ${t.failedAt} is null`),
    unique('jobs_dedupe_key').on(t.dedupeKey),
  ],
);

/**
 * What the portal tells an account first (lib/alerts): revenue that left its usual band, a site whose data
 * stopped, a statement, a payment, a site's review, a key about to expire. `dedupeKey` names the occurrence
 * (kind, subject, day), so that evaluating again, or importing the same file again, never stores it twice.
 * `siteId` is set for alerts about one site: a site-scoped key and a one-site Viewer see only those of their sites.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    siteId: uuid('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    /** The day the alert is about (a revenue day, the first day without data); null for events of no day. */
    day: date('day', { mode: 'string' }),
    /** The statement, payment or key it is about. */
    subjectId: uuid('subject_id'),
    message: text('message').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    state: text('state', { enum: ['open', 'acknowledged'] })
      .notNull()
      .default('open'),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true, mode: 'date' }),
    acknowledgedBy: uuid('acknowledged_by').references(() => people.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    unique('alerts_account_dedupe_key').on(t.accountId, t.dedupeKey),
    index('alerts_account_created_idx').on(t.accountId, t.createdAt),
    index('alerts_account_day_idx').on(t.accountId, t.day),
    check('alerts_acknowledged_check', sql`(${t.state} = 'acknowledged') = (${t.acknowledgedAt} is not null)`),
  ],
);

/**
 * A publisher's webhook endpoint (lib/webhooks): where the account's events are POSTed, signed as the Standard
 * Webhooks specification says with `secret` (`whsec_…`, shown once at creation; kept to sign, never answered
 * again). `disabledAt`: it failed every attempt of a delivery for about a day, or its address became private.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => people.id, { onDelete: 'set null' }),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    disabledReason: text('disabled_reason'),
  },
  (t) => [index('webhook_endpoints_account_idx').on(t.accountId, t.createdAt)],
);

/**
 * One event for one endpoint: the webhooks' outbox, written in the transaction that causes the event and
 * delivered after it with retries (lib/webhooks/sender.ts). Its id is the message's `webhook-id` (as
 * `msg_<id>`), the same on every attempt. What the endpoint last answered is kept, at most 1 KB of it.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    lastResponse: text('last_response'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.deliveredAt} is null and ${t.failedAt} is null`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
  ],
);

export type AlertRow = typeof alerts.$inferSelect;
export type JobRow = typeof jobs.$inferSelect;
