import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { people } from '@/db/schema';
import { SIGN_IN_LIMITS } from '@/lib/platform/limits';
import { getRateLimitStore, secondsUntilReset } from '@/lib/ratelimit';
import { sha256Hex } from '@/lib/shared/crypto';

export type CredentialCheck =
  | { ok: true; person: { id: string; email: string }; clearFailures: () => Promise<void> }
  /** `personId`: whose password it was not, for the activity log only; never for the answer. */
  | { ok: false; reason: 'invalid'; personId?: string }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

// Verified against when the e-mail is unknown, so a wrong e-mail costs the same time as a wrong password
// and response times do not tell which people exist.
let decoyHash: Promise<string> | undefined;

/**
 * Checks a person's e-mail and password, throttled per (client address, e-mail) and per client address
 * (SIGN_IN_LIMITS): the one gate for signing in and for joining an account with an existing password. The
 * caller clears the pair's count once the whole step succeeded (`clearFailures`).
 */
export async function checkCredentials(
  email: string,
  password: string,
  clientAddress: string,
): Promise<CredentialCheck> {
  const normalized = email.trim().toLowerCase();
  const store = getRateLimitStore();
  const { perAccountAndAddress, perAddress, windowMs } = SIGN_IN_LIMITS;
  // Hashed: the counter's name holds no e-mail address, and no character a store could read as a pattern.
  const pair = `signin:pair:${sha256Hex(`${clientAddress}\n${normalized}`)}`;
  const checks = await Promise.all([
    store.hit(pair, perAccountAndAddress, windowMs),
    store.hit(`signin:addr:${clientAddress}`, perAddress, windowMs),
  ]);
  const blocked = checks.find((c) => !c.success);
  if (blocked) return { ok: false, reason: 'throttled', retryAfterSeconds: secondsUntilReset(store, blocked) };

  const db = await getDb();
  const [person] = await db
    .select({ id: people.id, email: people.email, passwordHash: people.passwordHash })
    .from(people)
    .where(eq(people.email, normalized))
    .limit(1);
  const stored = person?.passwordHash ?? (await (decoyHash ??= hash(randomBytes(16).toString('hex'))));
  const valid = await verify(stored, password).catch(() => false);
  if (!person || !valid) return { ok: false, reason: 'invalid', personId: person?.id };
  return {
    ok: true,
    person: { id: person.id, email: person.email },
    clearFailures: () => store.reset(pair, perAccountAndAddress, windowMs),
  };
}
