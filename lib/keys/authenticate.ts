import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { preparedPerDatabase } from '@/db/prepared';
import { hidingParameters } from '@/lib/shared/sql-errors';
import { apiKeys, users } from '@/db/schema';
import { hashApiKey, isWellFormedApiKey } from '@/lib/keys/key-format';
import { accountSitesColumns, forOneRequest, type DataVersion, type Principal } from '@/lib/access';

const LAST_USED_RESOLUTION_MS = 60_000;

/** The key's lookup: every API request's one round trip (db/prepared.ts). */
const keyLookup = preparedPerDatabase((db) =>
  db
    .select({
      id: apiKeys.id,
      userId: apiKeys.userId,
      siteIds: apiKeys.siteIds,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      role: users.role,
      // The account's sites and data version come with the key, in the same round trip: what the request's
      // reports are scoped by and its validators made from.
      account: accountSitesColumns,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    // A deactivated account's keys are revoked when it is deactivated; this also refuses one used in
    // that very instant, with the same null (the same 401) as any revoked key.
    .where(and(eq(apiKeys.keyHash, sql.placeholder('keyHash')), ne(users.status, 'deactivated')))
    .limit(1)
    .prepare('api_key_by_hash'),
);

/**
 * Resolves a raw API key to the Principal it acts for (when it was last used, and its account's data version), or null for anything unusable (malformed, bad
 * checksum, unknown, revoked, expired, or of a deactivated account). Nothing is cached: a revoke or an expiry takes effect on the very
 * next request, on every instance.
 */
export async function authenticateApiKey(
  raw: string,
  now = new Date(),
): Promise<{ principal: Principal; lastUsedAt: Date | null; data: DataVersion } | null> {
  if (!isWellFormedApiKey(raw)) return null;
  const db = await getDb();
  const [key] = await hidingParameters(keyLookup(db).execute({ keyHash: hashApiKey(raw) }));
  if (!key || key.revokedAt || (key.expiresAt && key.expiresAt.getTime() <= now.getTime())) return null;
  const principal = forOneRequest(
    {
      userId: key.userId,
      role: key.role,
      siteScope: key.siteIds && key.siteIds.length > 0 ? key.siteIds : null,
      via: 'apiKey',
      keyId: key.id,
    },
    key.account,
  );
  const { version, changedAt } = key.account;
  return { principal, lastUsedAt: key.lastUsedAt, data: { version, changedAt } };
}

// Per-instance memory of recent writes, so a busy key does not even issue the (cheap, guarded) UPDATE.
const recentlyTouched = new Map<string, number>();

/**
 * Records that a key was used, at most once a minute per key. The WHERE clause keeps that true across
 * instances too; callers run this after the response is sent (next/server `after`).
 */
export async function touchApiKey(keyId: string, lastUsedAt: Date | null, now = new Date()): Promise<void> {
  const since = now.getTime() - LAST_USED_RESOLUTION_MS;
  if (lastUsedAt && lastUsedAt.getTime() > since) return;
  if ((recentlyTouched.get(keyId) ?? 0) > since) return;
  recentlyTouched.set(keyId, now.getTime());
  if (recentlyTouched.size > 10_000) recentlyTouched.clear();
  const db = await getDb();
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(since)))));
}
