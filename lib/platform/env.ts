import { z } from 'zod';
import { EXPORT_STALL_MS, EXPORT_WALL_CLOCK_MS } from '@/lib/platform/limits';
import { LISTEN_HOST_VARIABLE, STAMP_SECRET_VARIABLE } from '@/lib/platform/own-server.mjs';
import { fieldErrorsOf } from '@/lib/shared/zod-issues';

/** Requests per minute: a positive whole number in decimal digits ("1.5", "0", "1e3" are typos, not limits). */
const perMinute = (fallback: number) =>
  z
    .string()
    .regex(/^[1-9]\d*$/, 'must be a positive whole number')
    .default(String(fallback))
    .transform(Number);

/** A duration in whole seconds (the default given in milliseconds, as lib/platform/limits.ts writes it). */
const seconds = (fallbackMs: number) =>
  z
    .string()
    .regex(/^[1-9]\d*$/, 'must be a positive whole number of seconds')
    .default(String(fallbackMs / 1000))
    .transform(Number);
/** Whole US dollars, 0 or more, converted to micro-dollars (the payout threshold). */
const wholeDollars = (fallback: number) =>
  z
    .string()
    .regex(/^(0|[1-9]\d{0,8})$/, 'must be a whole number of US dollars, e.g. 100')
    .default(String(fallback))
    .transform((v) => Number(v) * 1_000_000);

/** A yes/no switch: 1/true or 0/false. */
const flag = (fallback: '0' | '1' = '0') =>
  z
    .enum(['0', '1', 'true', 'false'])
    .default(fallback)
    .transform((v) => v === '1' || v === 'true');

/**
 * TRUST_PROXY: how many proxies in front of the server append to X-Forwarded-For, so that the client is that
 * many entries from its right. 0/false trusts no proxy; 1/true is one (Vercel's edge, one load balancer).
 */
const proxyHops = z
  .string()
  .regex(
    /^(?:true|false|[0-9]|10)$/,
    'must be 0/false (no proxy), 1/true, or the number of proxies that append to X-Forwarded-For (at most 10)',
  )
  .default('0')
  .transform((v) => (v === 'true' ? 1 : v === 'false' ? 0 : Number(v)));

/**
 * CORS_ORIGINS: the web origins whose pages may call the API from a browser, comma-separated, each exactly as a
 * browser sends it in Origin (`https://app.example.com`, no path, no trailing slash). None by default.
 */
const origins = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .refine((list) => list.every(isOrigin), 'must be comma-separated origins such as https://app.example.com');

function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

/**
 * Configuration, read once from the environment and validated, so a typo fails loudly at start-up
 * instead of as a strange error on the first request.
 */
const schema = z
  .object({
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    /**
     * The same database as the tables' owner, for migrations (`npm run db:migrate`, and the server's own at start-up),
     * when DATABASE_URL is the app's restricted role (db/app-role.ts; README, "Database roles").
     */
    DATABASE_MIGRATION_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    /**
     * The app's role, which the migrator grants its privileges. By default DATABASE_URL's user, when
     * DATABASE_MIGRATION_URL names another one.
     */
    DATABASE_APP_ROLE: z.string().max(63, 'must be a PostgreSQL role name (at most 63 bytes)').optional(),
    /**
     * A streaming replica of DATABASE_URL's database (same database name, user and password): reports, rows,
     * exports and the dashboard's figures read from it, falling back to DATABASE_URL's server while it is
     * unreachable (db/client.ts getReadDatabase).
     */
    DATABASE_REPLICA_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    /**
     * Named prepared statements for the lookups every request makes (db/prepared.ts). 0 for a transaction-mode
     * pooler that does not keep them (PgBouncer before 1.21, or with max_prepared_statements = 0).
     */
    DATABASE_PREPARED_STATEMENTS: flag('1'),
    PGLITE_DIR: z.string().min(1).default('./.data/pglite'),
    UPSTASH_REDIS_REST_URL: z.url().optional(),
    UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
    TRUST_PROXY: proxyHops,
    /** Lets a server that listens beyond loopback start although demo accounts keep their published password. */
    ALLOW_DEMO: flag(),
    /** Set ("1") by Vercel in its builds and functions: the app is on the internet, whatever it listens on. */
    VERCEL: z
      .string()
      .optional()
      .transform((v) => v !== undefined),
    /** Per API key; 120 by default. X-RateLimit-Limit states it. */
    RATE_LIMIT_PER_MINUTE: perMinute(120),
    /** Per client address, for requests without a valid key (and public endpoints). */
    ADDRESS_RATE_LIMIT_PER_MINUTE: perMinute(30),
    /** Megabytes of report results each server process keeps (lib/reports/result-cache.ts); 0 keeps none. */
    REPORT_CACHE_MB: z
      .string()
      .regex(/^(0|[1-9]\d{0,5})$/, 'must be a whole number of megabytes, e.g. 64, or 0 for no cache')
      .default('64')
      .transform(Number),
    /** Browser origins allowed to call the API (lib/http/cors.ts). */
    CORS_ORIGINS: origins,
    /** How long a download may wait for its client to read on (lib/platform/limits.ts). */
    EXPORT_STALL_SECONDS: seconds(EXPORT_STALL_MS),
    /** The longest an export may run (lib/platform/limits.ts); Vercel's maxDuration caps it there. */
    EXPORT_MAX_SECONDS: seconds(EXPORT_WALL_CLOCK_MS),
    /** Where mail goes: smtp://user:pass@host:port, or smtps:// for TLS. Unset: mail waits in the outbox. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^/]/, 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587')
      .optional(),
    /** The sender of every message, e.g. `Publisher Portal <portal@example.com>`. */
    MAIL_FROM: z.string().min(3).default('Publisher Portal <portal@localhost>'),
    /**
     * The portal's address as its users reach it, for links in e-mail: never the request's Host header, which
     * a caller chooses. On Vercel the production domain when unset; locally http://localhost:3000.
     */
    PUBLIC_URL: z
      .url()
      .refine((v) => new URL(v).origin === v.replace(/\/$/, ''), 'must be an origin such as https://portal.example.com')
      .optional(),
    VERCEL_PROJECT_PRODUCTION_URL: z.string().optional(),
    /** Webhooks may go to http:// and to loopback and private addresses: tests and a laptop (lib/webhooks/address.ts). */
    WEBHOOK_ALLOW_PRIVATE: flag(),
    /** The scheduler's secret (Vercel Cron sends it as a Bearer token): turns on /api/cron/hourly (lib/http/cron.ts). */
    CRON_SECRET: z.string().min(16, 'must be at least 16 characters: a random secret').optional(),
    /** A finalized balance below this many US dollars is carried over to the next month (lib/payments). */
    PAYOUT_THRESHOLD_USD: wholeDollars(100),
    /** A payable statement is paid this many days after its month's end. */
    PAYOUT_TERMS_DAYS: z
      .string()
      .regex(/^(0|[1-9]\d{0,2})$/, 'must be a whole number of days from 0 to 999')
      .default('30')
      .transform(Number),
  })
  .refine((e) => !e.DATABASE_MIGRATION_URL || e.DATABASE_URL, {
    message: "the owner's URL is for migrating the app's database: set DATABASE_URL too",
    path: ['DATABASE_MIGRATION_URL'],
  })
  .refine((e) => !e.DATABASE_REPLICA_URL || e.DATABASE_URL, {
    message: 'a replica needs its primary: set DATABASE_URL too',
    path: ['DATABASE_REPLICA_URL'],
  })
  .refine((e) => !e.UPSTASH_REDIS_REST_URL === !e.UPSTASH_REDIS_REST_TOKEN, {
    message: 'set both UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN, or neither',
    path: ['UPSTASH_REDIS_REST_TOKEN'],
  });

export type Env = z.infer<typeof schema>;

export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty strings (e.g. `DATABASE_URL=` in a .env file) mean "not set".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = fieldErrorsOf(parsed.error, 'environment')
      .map((e) => `${e.parameter}: ${e.detail}`)
      .join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  return parsed.data;
}

let cached: Env | undefined;
export function env(): Env {
  return (cached ??= readEnv());
}

/**
 * Tests install a configuration of their own, e.g. `setEnv(readEnv({ ...process.env, RATE_LIMIT_PER_MINUTE: '5' }))`;
 * undefined reads the environment again on next use.
 */
export function setEnv(value: Env | undefined) {
  cached = value;
}

/**
 * Not configuration: what our own server (scripts/serve.mjs) sets in its process before Next.js loads, read
 * where it is used, never cached. Absent under any other server.
 */
export const ownServer = {
  /** The key that client-address stamps are signed with (lib/http/client-address.ts). */
  stampSecret: (): string | undefined => process.env[STAMP_SECRET_VARIABLE] || undefined,
  /** The address it listens on (lib/identity/demo-gate.ts). */
  listenHost: (): string | undefined => process.env[LISTEN_HOST_VARIABLE] || undefined,
};

/**
 * Who migrates PostgreSQL, and which role the migrator grants the app's privileges (db/migrate.ts, db/app-role.ts):
 * the owner's URL (DATABASE_MIGRATION_URL, else DATABASE_URL's own), and DATABASE_APP_ROLE, else DATABASE_URL's
 * user when the owner's URL names another. Nothing for the embedded database, which has no roles.
 */
export function migrationAccess(): { ownerUrl?: string; appRole?: string } {
  const { DATABASE_URL, DATABASE_MIGRATION_URL, DATABASE_APP_ROLE } = env();
  if (!DATABASE_URL) return {};
  const appUser = userOf(DATABASE_URL);
  const derived = DATABASE_MIGRATION_URL && appUser !== userOf(DATABASE_MIGRATION_URL) ? appUser : undefined;
  return { ownerUrl: DATABASE_MIGRATION_URL, appRole: DATABASE_APP_ROLE ?? derived };
}

/** The user a postgres:// URL names (postgres://user:password@host/db), or undefined when it names none. */
function userOf(url: string): string | undefined {
  const user = /^postgres(?:ql)?:\/\/([^:@/]*)(?::[^@/]*)?@/.exec(url)?.[1];
  return user ? decodeURIComponent(user) : undefined;
}

/** An export's limits in milliseconds (EXPORT_STALL_SECONDS, EXPORT_MAX_SECONDS): how long it may wait for its
 * client to read on, and how long it may run in all. */
export function exportLimits(): { stallMs: number; maxMs: number } {
  const { EXPORT_STALL_SECONDS, EXPORT_MAX_SECONDS } = env();
  return { stallMs: EXPORT_STALL_SECONDS * 1000, maxMs: EXPORT_MAX_SECONDS * 1000 };
}

/** The payout rules as configured: the threshold in micro-dollars, and the days after a month's end it is paid. */
export function payoutRules(): { thresholdMicros: number; termsDays: number } {
  const { PAYOUT_THRESHOLD_USD, PAYOUT_TERMS_DAYS } = env();
  return { thresholdMicros: PAYOUT_THRESHOLD_USD, termsDays: PAYOUT_TERMS_DAYS };
}
