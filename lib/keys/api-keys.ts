import { hidingParameters } from '@/lib/shared/sql-errors';
import { and, count, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { apiKeys, people, sites, users, type ApiKeyRow } from '@/db/schema';
import { generateApiKey } from '@/lib/keys/key-format';
import { badRequest, conflict, forbidden, notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/query';
import { requireAbility, requireAccountLevel, requireOperator, requireWritable, type Principal } from '@/lib/access';
import { requirePublisher } from '@/lib/accounts';
import { actorOf, recordEvent } from '@/lib/activity';
import type { ApiKeyResponse, CreateApiKeyResponse, RotateApiKeyResponse } from './schemas';

/** Active (neither revoked nor expired) keys an account may hold: a leaked session cannot mint keys without end. */
export const MAX_ACTIVE_KEYS = 100;

/** The create-key request body; shared by the API and the dashboard's server action. */
export const createApiKeyInput = z.strictObject({
  label: z
    .string()
    .trim()
    .max(100, 'must be at most 100 characters')
    .refine((s) => !s.includes('\0'), 'must not contain NUL characters')
    .nullish(),
  siteIds: z
    .array(z.guid('must be a UUID').transform((id) => id.toLowerCase()))
    .max(100, 'at most 100 sites')
    .nullish(),
  expiresAt: z.iso
    .datetime({ offset: true, message: 'must be an ISO-8601 date-time, e.g. 2027-01-31T00:00:00Z' })
    .nullish(),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;

function toResponse(row: ApiKeyRow, now = new Date()): ApiKeyResponse {
  const expired = row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
  return {
    id: row.id,
    label: row.label,
    keyPrefix: row.keyPrefix,
    siteIds: row.siteIds && row.siteIds.length > 0 ? row.siteIds : null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    isActive: row.revokedAt === null && !expired,
  };
}

/** Keys are an account's to manage with an account-level key, or by its Owners and Admins. */
function requireKeyManager(principal: Principal): void {
  requireAbility(principal, 'manageKeys', 'Managing API keys');
  requireAccountLevel(principal, 'Managing API keys');
}

/** Who made a key, as the keys page names them; `member`: whether they still belong to the account. */
export interface KeyAuthor {
  name: string;
  email: string;
  member: boolean;
}

/** The person who made each of the account's keys, by key id (keys made with another key have none). */
export async function keyAuthors(principal: Principal): Promise<Record<string, KeyAuthor>> {
  requireKeyManager(principal);
  const db = await getDb();
  const rows = await db
    .select({
      keyId: apiKeys.id,
      name: people.name,
      email: people.email,
      member: sql<boolean>`exists (select 1 from memberships m
        where m.account_id = ${principal.userId} and m.person_id = ${people.id})`,
    })
    .from(apiKeys)
    .innerJoin(people, eq(people.id, apiKeys.createdBy))
    .where(eq(apiKeys.userId, principal.userId));
  return Object.fromEntries(rows.map(({ keyId, ...author }) => [keyId, author]));
}

/** Every key of the account, newest first, revoked and expired ones included; never raw keys or hashes. */
export async function listApiKeys(principal: Principal): Promise<ApiKeyResponse[]> {
  requireKeyManager(principal);
  const db = await getDb();
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.userId, principal.userId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => toResponse(row));
}

async function insertKey(
  principal: Principal,
  ownerId: string,
  input: CreateApiKeyInput,
  replaces?: ApiKeyRow,
): Promise<CreateApiKeyResponse> {
  requireWritable(principal);
  const now = new Date();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw badRequest('expiresAt', `must be in the future, got ${input.expiresAt}`);
  }
  const siteIds = [...new Set(input.siteIds ?? [])];
  const db = await getDb();
  if (siteIds.length > 0) {
    const owned = await db
      .select({ id: sites.id })
      .from(sites)
      .where(and(eq(sites.userId, ownerId), inArray(sites.id, siteIds)));
    const ownedSet = new Set(owned.map((s) => s.id));
    const foreign = siteIds.filter((id) => !ownedSet.has(id));
    if (foreign.length > 0) throw forbidden(`siteIds: not sites of this account: ${foreign.join(', ')}.`);
  }
  const key = generateApiKey();
  const row = await db.transaction(async (tx) => {
    // The owner's row lock makes concurrent creations count one after another, so the cap is exact.
    const [owner] = await tx.select({ status: users.status }).from(users).where(eq(users.id, ownerId)).for('update');
    // A deactivated account's keys answer 401 (lib/keys/authenticate.ts): a new one would only seem to work.
    if (owner?.status === 'deactivated') {
      throw conflict('The account is deactivated: its API keys do not work. Reactivate it first.');
    }
    const [{ active }] = await tx
      .select({ active: count() })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.userId, ownerId),
          isNull(apiKeys.revokedAt),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
        ),
      );
    if (active >= MAX_ACTIVE_KEYS) {
      throw conflict(
        `The account already has ${MAX_ACTIVE_KEYS} active API keys, the most it may hold; revoke one first.`,
      );
    }
    const [inserted] = await hidingParameters(
      tx
        .insert(apiKeys)
        .values({
          userId: ownerId,
          label: input.label || null,
          keyPrefix: key.prefix,
          keyHash: key.hash,
          siteIds: siteIds.length > 0 ? siteIds : null,
          expiresAt,
          // The person who made it; a key made with another key names nobody (the audit log names the key).
          createdBy: principal.viewedBy ?? principal.personId ?? null,
        })
        .returning(),
    );
    await recordEvent(tx, actorOf(principal), {
      kind: replaces ? 'key.rotated' : 'key.created',
      accountId: ownerId,
      subjectId: inserted.id,
      details: {
        prefix: inserted.keyPrefix,
        label: inserted.label,
        siteIds: inserted.siteIds,
        expiresAt: inserted.expiresAt?.toISOString() ?? null,
        ...(replaces ? { replaces: replaces.id, replacesPrefix: replaces.keyPrefix } : {}),
      },
    });
    return inserted;
  });
  return { key: toResponse(row, now), apiKey: key.raw };
}

export async function createApiKey(principal: Principal, input: CreateApiKeyInput): Promise<CreateApiKeyResponse> {
  requireKeyManager(principal);
  return insertKey(principal, principal.userId, input);
}

/** Admins create a key that acts for a publisher account (e.g. when onboarding one). */
export async function createApiKeyForUser(
  principal: Principal,
  userId: string,
  input: CreateApiKeyInput,
): Promise<CreateApiKeyResponse> {
  requireOperator(principal, 'operate', 'Creating keys for another account');
  requireKeyManager(principal);
  const target = await requirePublisher(userId);
  return insertKey(principal, target.id, input);
}

/** An unknown id, a malformed one and another account's key all answer alike: nothing says which it was. */
const noSuchKey = (keyId: string) => notFound(`No API key with id ${keyId}.`);

/** The condition for the principal's own key with that id. */
function ownKey(principal: Principal, keyId: string) {
  if (!isUuid(keyId)) throw noSuchKey(keyId);
  return and(eq(apiKeys.id, keyId.toLowerCase()), eq(apiKeys.userId, principal.userId));
}

/** Revokes a key of the account; revoking again is harmless and keeps the first revocation time. */
export async function revokeApiKey(principal: Principal, keyId: string): Promise<ApiKeyResponse> {
  requireKeyManager(principal);
  requireWritable(principal);
  const where = ownKey(principal, keyId);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(where, isNull(apiKeys.revokedAt)))
      .returning();
    if (revoked) {
      await recordEvent(tx, actorOf(principal), {
        kind: 'key.revoked',
        accountId: revoked.userId,
        subjectId: revoked.id,
        details: { prefix: revoked.keyPrefix, label: revoked.label },
      });
      return toResponse(revoked);
    }
    // Revoked before (its first revocation time stays), or none of the account's.
    const [row] = await tx.select().from(apiKeys).where(where);
    if (!row) throw noSuchKey(keyId);
    return toResponse(row);
  });
}

/**
 * "Roll key": a replacement with the key's label, sites and lifetime (an expiring key's replacement expires
 * as long after now as the old one did after its creation, so rotating a key about to expire helps). The old
 * key keeps working, so that its users can switch over before it is revoked (a separate step).
 */
export async function rotateApiKey(principal: Principal, keyId: string): Promise<RotateApiKeyResponse> {
  requireKeyManager(principal);
  const where = ownKey(principal, keyId);
  const db = await getDb();
  const [old] = await db.select().from(apiKeys).where(where);
  if (!old) throw noSuchKey(keyId);
  if (!toResponse(old).isActive) {
    const state = old.revokedAt ? 'revoked' : 'expired';
    throw conflict(`API key ${old.keyPrefix}… is ${state} and cannot be rotated; create a new key instead.`);
  }
  const lifetime = old.expiresAt ? old.expiresAt.getTime() - old.createdAt.getTime() : null;
  const created = await insertKey(
    principal,
    principal.userId,
    {
      label: old.label,
      siteIds: old.siteIds,
      expiresAt: lifetime === null ? null : new Date(Date.now() + lifetime).toISOString(),
    },
    old,
  );
  return { ...created, replaces: old.id };
}
