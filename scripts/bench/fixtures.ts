import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@/lib/shared/crypto';
import os from 'node:os';
import { count, eq, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { revenueDaily, sessions, sites } from '@/db/schema';
import { createApiKey, revokeApiKey } from '@/lib/keys';
import { signOut } from '@/lib/identity';
import { findAccountByEmail } from '@/lib/accounts';
import type { Principal } from '@/lib/access';

/** Everything here runs inside scripts/open-database.ts `withDatabase`, on the database the server uses. */

export interface Dataset {
  email: string;
  principal: Principal;
  siteCount: number;
  /** The first 90 sites by creation order, for the site-subset cases. */
  siteIds: string[];
  revenueRows: number;
}

/** The account's figures, or null when it does not exist. */
export async function loadDataset(email: string): Promise<Dataset | null> {
  const user = await findAccountByEmail(email);
  if (!user) return null;
  const db = await getDb();
  const [{ n: siteCount }] = await db.select({ n: count() }).from(sites).where(eq(sites.userId, user.id));
  const firstSites = await db
    .select({ id: sites.id })
    .from(sites)
    .where(eq(sites.userId, user.id))
    .orderBy(sites.createdAt, sites.id)
    .limit(90);
  // Counting 14.6 M rows can outlast the connection's 2 s statement_timeout on a slow disk.
  const revenueRows = await db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    const [{ n }] = await tx.select({ n: count() }).from(revenueDaily).where(eq(revenueDaily.userId, user.id));
    return n;
  });
  return {
    email: user.email,
    principal: { userId: user.id, role: user.role, siteScope: null, via: 'commandLine' },
    siteCount,
    siteIds: firstSites.map((s) => s.id),
    revenueRows,
  };
}

interface BenchKey {
  apiKey: string;
  keyId: string;
}

export interface Access {
  /** One per concurrent connection: a key may have only 2 report requests running (lib/http/report-slots.ts). */
  keys: BenchKey[];
  sessionToken: string;
}

/**
 * `keyCount` API keys (through the service, as `npm run apikey` does) and a dashboard session for the run.
 * lib/identity/session-open.ts opens sessions only for a person who proved who they are, so the row is written here the way signIn writes
 * it (SHA-256 of a random token); it is removed with the service's signOut. If anything fails halfway, what
 * was created is removed before the error goes on.
 */
export async function openAccess(dataset: Dataset, keyCount: number): Promise<Access> {
  const access: Access = { keys: [], sessionToken: randomBytes(32).toString('base64url') };
  const label = `npm run bench ${new Date().toISOString()}`;
  try {
    for (let i = 1; i <= keyCount; i++) {
      const created = await createApiKey(dataset.principal, { label: `${label} #${i}` });
      access.keys.push({ apiKey: created.apiKey, keyId: created.key.id });
    }
    const db = await getDb();
    await db.insert(sessions).values({
      tokenHash: sha256Hex(access.sessionToken),
      personId: dataset.principal.userId, // the seeded account's Owner shares its id (db/seed.ts)
      expiresAt: new Date(Date.now() + 86_400_000),
    });
  } catch (err) {
    await closeAccess(dataset, access);
    throw err;
  }
  return access;
}

/** Revokes the run's keys and ends its session (a session that was never written is a no-op). */
export async function closeAccess(dataset: Dataset, access: Access): Promise<void> {
  for (const key of access.keys) await revokeApiKey(dataset.principal, key.keyId);
  await signOut(access.sessionToken);
}

/**
 * Waits until no other session of this database is running a statement, for at most `seconds`: autocannon
 * stops with up to one request per connection still being answered, and those should not slow the next
 * case's warm-up (or fail it at the statement timeout). False when the time ran out first.
 */
export async function waitUntilDatabaseIdle(seconds: number): Promise<boolean> {
  const db = await getDb();
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const result = (await db.execute(sql`
      select count(*)::int as busy from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`)) as unknown;
    if (rowsOf<{ busy: number }>(result)[0]?.busy === 0) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** postgres.js answers with the rows themselves, PGlite with { rows }. */
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryBytes: number;
  platform: string;
  node: string;
  postgres: string;
}

export async function describeMachine(): Promise<Machine> {
  const db = await getDb();
  const rows = rowsOf<{ version: string }>(await db.execute(sql`select version() as version`));
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryBytes: os.totalmem(),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    postgres: rows[0]?.version ?? 'unknown',
  };
}
