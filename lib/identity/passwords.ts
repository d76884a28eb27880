import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { eq, inArray } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { people, sessions } from '@/db/schema';
import { DEMO_MEMBERS, DEMO_PASSWORD, DEMO_USERS } from '@/db/seed-data';
import { LARGE } from '@/db/seed-large';
import { hidingParameters } from '@/lib/shared/sql-errors';

/** Every account the demo seeds create with the published password (db/seed.ts, db/seed-large.ts). */
const DEMO_EMAILS: readonly string[] = [...[...DEMO_USERS, ...DEMO_MEMBERS].map((u) => u.email), LARGE.email];

/** Shorter than this is refused; the demo password is refused whatever its length. */
export const MIN_PASSWORD_LENGTH = 12;
/** Longer than this is refused: NIST SP 800-63B asks for at least 64; argon2 need not hash a megabyte. */
const MAX_PASSWORD_LENGTH = 256;

/**
 * The demo accounts that still sign in with the published demo password, sorted. Only those few e-mails are
 * checked (one argon2 verification each), so the cost does not grow with the number of accounts.
 */
export async function accountsWithDemoPassword(emails: readonly string[] = DEMO_EMAILS): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ email: people.email, passwordHash: people.passwordHash })
    .from(people)
    .where(inArray(people.email, [...emails]));
  const still = await Promise.all(
    rows.map(async ({ email, passwordHash }) =>
      (await verify(passwordHash, DEMO_PASSWORD).catch(() => false)) ? email : null,
    ),
  );
  return still.filter((email): email is string => email !== null).sort();
}

// The bundled list of common passwords (zxcvbn-ts, ~49,000, lower-case); only those long enough to pass the
// length rule can matter, a few hundred, kept as a set the first time a password is checked.
let commonPasswords: Set<string> | undefined;
const isCommon = (password: string) =>
  (commonPasswords ??= new Set(
    dictionary['passwords-common'].filter((p) => p.length >= MIN_PASSWORD_LENGTH).map((p) => p.toLowerCase()),
  )).has(password.toLowerCase());

/**
 * Why a new password is refused, or null when it is acceptable (NIST SP 800-63B: a length, a list of known
 * passwords, no composition rules). Length counts characters as a person does (code points, not UTF-16 units).
 */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.toLowerCase() === DEMO_PASSWORD) return 'must not be the published demo password';
  if (isCommon(password)) return 'is on a list of commonly used passwords; choose one that is harder to guess';
  return null;
}

/**
 * Gives a person a new password (argon2id) and ends all their sessions, in one transaction. False when
 * nobody signs in with that e-mail. The caller checks passwordProblem first.
 */
export async function setPassword(email: string, password: string): Promise<boolean> {
  const problem = passwordProblem(password);
  if (problem) throw new Error(`password ${problem}`);
  const passwordHash = await hash(password);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [person] = await hidingParameters(
      tx
        .update(people)
        .set({ passwordHash })
        .where(eq(people.email, email.trim().toLowerCase()))
        .returning({ id: people.id }),
    );
    if (!person) return false;
    await tx.delete(sessions).where(eq(sessions.personId, person.id));
    return true;
  });
}
