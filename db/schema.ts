import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  char,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { cpmSql, fillRateSql } from './metrics';

export const userRole = pgEnum('user_role', ['publisher', 'admin']);
export const siteStatus = pgEnum('site_status', ['live', 'approved', 'pending']);
/** invited: created by an admin, its owner has not joined yet; deactivated: shut out (no member acts for it, keys answer 401). */
export const accountStatus = pgEnum('account_status', ['invited', 'active', 'deactivated']);

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * An account: it owns sites, revenue rows and API keys. Its id is the spec's `userId`. People act for it as its
 * members (`memberships`); a publisher account is a publisher's business, an admin account the operator's.
 * `email` is the account's contact address; `requireTwoFactor`: every member must sign in with a second factor.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull().unique(), // always stored lower-cased
    name: text('name').notNull(),
    role: userRole('role').notNull().default('publisher'),
    defaultRangeDays: integer('default_range_days').notNull().default(30),
    status: accountStatus('status').notNull().default('active'),
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    /**
     * Bumped, with dataChangedAt, by every write that can change what the account's reports, rows and sites
     * show (triggers on revenue_daily, sites and the default range, db/migrations/0012_data_version.sql):
     * the version the API's validators (ETag, Last-Modified) are made from.
     */
    dataVersion: bigint('data_version', { mode: 'number' }).notNull().default(1),
    dataChangedAt: timestamp('data_changed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  // Reports default to this many days, and the API accepts ranges of at most 731 days.
  (t) => [check('users_default_range_days_check', sql`${t.defaultRangeDays} between 1 and 731`)],
);

/**
 * A person who signs in, with one password and an optional second factor (TOTP, RFC 6238), and acts for the
 * accounts they are a member of. `totpLastStep`: the last time step a code was accepted for, so that no code
 * works twice.
 */
export const people = pgTable('people', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(), // always stored lower-cased
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
  totpSecret: text('totp_secret'),
  totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true, mode: 'date' }),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  /** Wrong second-factor codes in a row, and when the last one came: the step's back-off (lib/identity/two-factor.ts). */
  secondFactorFailures: integer('second_factor_failures').notNull().default(0),
  secondFactorFailedAt: timestamp('second_factor_failed_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
});

/** What a member may do in an account (lib/access/roles.ts says it once). */
export const memberRole = pgEnum('member_role', ['owner', 'admin', 'finance', 'viewer']);

/** A person's place in an account: one role, and for a viewer optionally only some of the account's sites. */
export const memberships = pgTable(
  'memberships',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    personId: uuid('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    role: memberRole('role').notNull(),
    siteIds: uuid('site_ids').array(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.personId] }), index('memberships_person_idx').on(t.personId)],
);

/**
 * An invitation to join an account with a role: a single-use e-mailed link (only its SHA-256 stored). Pending
 * while neither accepted nor revoked and not expired; at most one pending per account and e-mail.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(), // always stored lower-cased
    role: memberRole('role').notNull(),
    siteIds: uuid('site_ids').array(),
    invitedBy: uuid('invited_by').references(() => people.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_pending_idx')
      .on(t.accountId, t.email)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
  ],
);

/** A person's single-use recovery codes for a lost second factor: only their SHA-256 is stored. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    personId: uuid('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.personId, t.codeHash] })],
);

/** A site is a game; its id is the API's siteId and gameId. */
export const sites = pgTable(
  'sites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name'),
    url: text('url'),
    framework: text('framework'),
    status: siteStatus('status'),
    dailyActiveUsers: integer('daily_active_users'),
    monthlyActiveUsers: integer('monthly_active_users'),
    adUnitId: text('ad_unit_id'),
    /** Why an admin sent the site back to pending: shown to the publisher. */
    statusReason: text('status_reason'),
    createdAt: createdAt(),
  },
  // (id, user_id) is unique so that revenue rows can reference both and never disagree with the owner.
  (t) => [index('sites_user_id_idx').on(t.userId), unique('sites_id_user_id_key').on(t.id, t.userId)],
);

/**
 * One row per site × UTC day × viewer country. Volumes and money are bigint: money in micro-dollars,
 * converted to a JSON number only at the HTTP edge.
 * - The primary key (site_id, day, country) serves the aggregated reports: a set of sites and a day range.
 * - The owning account's user_id is repeated on every row (kept true by the foreign key on (site_id, user_id))
 *   so that the rows report, which reads a whole account in (day, site, country) order, walks one index
 *   in that order instead of sorting the account's rows on every page.
 * - Partitioned by the month of `day` (db/migrations/0016_revenue_daily_by_month.sql, which drizzle-kit cannot
 *   describe): each month is a table with these indexes, so an import's new days update a month's small indexes.
 *   A writer makes the months it writes first (db/revenue-months.ts).
 */
export const revenueDaily = pgTable(
  'revenue_daily',
  {
    siteId: uuid('site_id').notNull(),
    userId: uuid('user_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    country: char('country', { length: 2 }).notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    clicks: bigint('clicks', { mode: 'number' }).notNull().default(0),
    adRequests: bigint('ad_requests', { mode: 'number' }).notNull().default(0),
    revenueMicros: bigint('revenue_micros', { mode: 'number' }).notNull().default(0),
    /** The ad unit that served the row, when the import named one; otherwise the site's applies. */
    adUnitId: text('ad_unit_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.day, t.country] }),
    foreignKey({
      name: 'revenue_daily_site_owner_fk',
      columns: [t.siteId, t.userId],
      foreignColumns: [sites.id, sites.userId],
    })
      .onDelete('cascade')
      .onUpdate('cascade'),
    index('revenue_daily_user_day_idx').on(t.userId, t.day, t.siteId, t.country),
    // Rows sorted by a metric: their first page reads the top of one of these instead of sorting an
    // account's rows (1.7 s for revenue over a year of 14.6 M rows). Each costs about 3 µs per written row.
    // They end with the feed's tie-breakers (lib/reports/rows-query.ts), so the order is the index's own: with the
    // metric alone, a page among equal values (85,200 rows of big@example.com have no impressions, so cpm 0) sorted
    // the whole run of them (db/migrations/0021_metric_sort_tie_breakers.sql).
    ...(
      [
        ['impressions', t.impressions],
        ['clicks', t.clicks],
        ['ad_requests', t.adRequests],
        ['revenue', t.revenueMicros],
        ['cpm', cpmSql(t.revenueMicros, t.impressions)],
        ['fill_rate', fillRateSql(t.impressions, t.adRequests)],
      ] as const
    ).map(([name, metric]) => index(`revenue_daily_user_${name}_idx`).on(t.userId, metric, t.day, t.siteId, t.country)),
  ],
);

/**
 * revenue_daily pre-summed at the grains the reports ask for, so that no report of a large account reads its
 * daily rows in bulk (lib/reports/revenue-source.ts):
 *
 *   site_id  country  grain  serves
 *   null     null     d, m   totals of a whole account
 *   null     set      d, m   by country of a whole account; the rows' counts by day and country
 *   set      null     d, m   totals of some sites; the rows' counts by site and day
 *   set      set      c      by country of some sites: running totals
 *   set      set      m      no report now (the rollup tests read them; 1/30 as many as the running totals)
 *
 * NULL means "all": all of the account's sites, all countries (the unique key treats NULLs as equal).
 * `period` is the UTC day (grain d), the first day of the UTC month (m), or for the running totals (c) the day
 * through which they sum: on each day a site has rows, each country the site had rows in by then has the sums of
 * its rows from the first through that day, so any range is two rows per site and country
 * (db/migrations/0022_rollup_running_totals.sql). `rows` counts the daily rows folded in, so a group without rows
 * can be told from one whose rows are all zeros; `updated_at` is when a write last changed the group's figures.
 * Never written by the application: statement-level triggers on revenue_daily keep it exact on every
 * INSERT, UPDATE, DELETE and TRUNCATE, in the writing transaction (db/migrations/0004_revenue_rollup.sql); the
 * running totals of a site are computed again from the first day a statement wrote.
 */
export const revenueRollup = pgTable(
  'revenue_rollup',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: uuid('site_id'),
    country: char('country', { length: 2 }),
    grain: char('grain', { length: 1 }).notNull(),
    period: date('period', { mode: 'string' }).notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull().default(0),
    clicks: bigint('clicks', { mode: 'number' }).notNull().default(0),
    adRequests: bigint('ad_requests', { mode: 'number' }).notNull().default(0),
    revenueMicros: bigint('revenue_micros', { mode: 'number' }).notNull().default(0),
    rows: bigint('rows', { mode: 'number' }).notNull().default(0),
    // When a write last changed the group: the account's month rows tell when its figures last changed.
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // Key order: one account and grain, then a contiguous run of periods per site (or for the whole account).
    unique('revenue_rollup_key').on(t.userId, t.grain, t.siteId, t.period, t.country).nullsNotDistinct(),
    // The account's own rows (no site, no country): its first day and last change (lib/reports/data-span.ts), on
    // every dashboard page. In the key they lie among the account's by-country rows: 98 ms for big@example.com.
    index('revenue_rollup_account_idx')
      .on(t.userId, t.grain, t.period, t.updatedAt)
      .where(sql`${t.siteId} is null and ${t.country} is null`),
    // The sites' rows with their figures, so that a subset of sites is read from this index alone: by country,
    // a year of 50 of big@example.com's sites is 110,000 month rows, which the key found on 41,000 heap pages.
    index('revenue_rollup_site_figures_idx')
      .on(
        t.userId,
        t.grain,
        t.siteId,
        t.period,
        t.country,
        t.impressions,
        t.clicks,
        t.adRequests,
        t.revenueMicros,
        t.rows,
      )
      .where(sql`${t.siteId} is not null`),
    // What each site earned by month (statements, lib/payments): the key would walk every country's month rows.
    // Covering (site and revenue in it), so it is read alone: without them the planner preferred the sites'
    // figures index, whose every country's month rows it walked (140 ms for big@example.com instead of ~2).
    index('revenue_rollup_site_month_idx')
      .on(t.userId, t.period, t.siteId, t.revenueMicros)
      .where(sql`${t.grain} = 'm' and ${t.siteId} is not null and ${t.country} is null`),
    check('revenue_rollup_grain_check', sql`${t.grain} in ('d', 'm', 'c')`),
    check('revenue_rollup_month_check', sql`${t.grain} in ('d', 'c') or extract(day from ${t.period}) = 1`),
    // Running totals only for some sites by country, the grain that grows with sites × countries
    // (db/migrations/0022_rollup_running_totals.sql).
    check(
      'revenue_rollup_running_check',
      sql`${t.grain} <> 'c' or (${t.siteId} is not null and ${t.country} is not null)`,
    ),
  ],
);

/** Client API keys: only the SHA-256 of the raw key is stored, plus its first 12 characters to recognise it by. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text('label'),
    keyPrefix: text('key_prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    siteIds: uuid('site_ids').array(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    createdBy: uuid('created_by').references(() => people.id, { onDelete: 'set null' }),
  },
  (t) => [index('api_keys_user_id_idx').on(t.userId, t.createdAt)],
);

/**
 * Dashboard sessions of a person; the cookie carries a random token, the table only its hash. The browser and
 * address are as seen at sign-in, `lastSeenAt` is refreshed at most once a minute (Settings lists them).
 */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** What the list of sessions names a session by (the token's hash never leaves the server). */
    id: uuid('id').notNull().unique().defaultRandom(),
    personId: uuid('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The password was right, the second factor is still to be given: the session opens nothing yet. */
    secondFactorDue: boolean('second_factor_due').notNull().default(false),
    userAgent: text('user_agent'),
    clientAddress: text('client_address'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_person_idx').on(t.personId)],
);

/**
 * Single-use password reset links sent by e-mail: only the SHA-256 of the token is stored. A new link deletes
 * the person's earlier ones; using one deletes it. (Invitations have their own table.)
 */
export const tokenPurpose = pgEnum('token_purpose', ['invitation', 'password_reset']);
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    personId: uuid('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    purpose: tokenPurpose('purpose').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('account_tokens_person_idx').on(t.personId, t.purpose)],
);

/**
 * E-mail to send, written in the same transaction as the action that causes it (lib/mail): a mail server
 * that is away delays mail and loses none. `sentAt` null means still to send, at `nextAttemptAt`.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    /** The message holds a secret link (a password reset): never shown on screen, its body cleared once sent. */
    secret: boolean('secret').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** The sender gave up: the mail server refused it for good (lib/mail/sender.ts). Never sent. */
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null`),
  ],
);

/**
 * The activity log: append-only (a trigger refuses UPDATE and DELETE). No foreign keys, so that events outlive
 * what they name; `actorLabel` keeps who it was (an e-mail, a key's prefix) as it was then.
 */
export const actorKind = pgEnum('actor_kind', ['user', 'key', 'admin', 'system']);
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    actorKind: actorKind('actor_kind').notNull(),
    actorId: uuid('actor_id'),
    actorLabel: text('actor_label'),
    /** The publisher account the event concerns; null for events of no account (an admin's own sign-in). */
    accountId: uuid('account_id'),
    /** What the event is about: a site, a key, a person. */
    subjectId: uuid('subject_id'),
    clientAddress: text('client_address'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('audit_events_account_idx').on(t.accountId, t.at),
    index('audit_events_at_idx').on(t.at),
    index('audit_events_subject_idx').on(t.subjectId, t.at),
  ],
);

export type User = typeof users.$inferSelect;
export type Person = typeof people.$inferSelect;
export type MemberRole = (typeof memberRole.enumValues)[number];
export type Site = typeof sites.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
