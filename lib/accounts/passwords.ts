import { hash, verify } from '@node-rs/argon2';
import { eq, inArray } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { sessions, users } from '@/db/schema';
import { DEMO_PASSWORD, DEMO_USERS } from '@/db/seed-data';
import { LARGE } from '@/db/seed-large';
import { hidingParameters } from '@/lib/shared/sql-errors';

/** Every account the demo seeds create with the published password (db/seed.ts, db/seed-large.ts). */
const DEMO_EMAILS: readonly string[] = [...DEMO_USERS.map((u) => u.email), LARGE.email];

/** Shorter than this is refused; the demo password is refused whatever its length. */
export const MIN_PASSWORD_LENGTH = 12;

/**
 * The demo accounts that still sign in with the published demo password, sorted. Only those few e-mails are
 * checked (one argon2 verification each), so the cost does not grow with the number of accounts.
 */
export async function accountsWithDemoPassword(emails: readonly string[] = DEMO_EMAILS): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(inArray(users.email, [...emails]));
  const still = await Promise.all(
    rows.map(async ({ email, passwordHash }) =>
      passwordHash && (await verify(passwordHash, DEMO_PASSWORD).catch(() => false)) ? email : null,
    ),
  );
  return still.filter((email): email is string => email !== null).sort();
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password === DEMO_PASSWORD) return 'must not be the published demo password';
  return null;
}

/**
 * Gives an account a new password (argon2id) and ends all its sessions, in one transaction. False when no
 * account has that e-mail. The caller checks passwordProblem first.
 */
export async function setPassword(email: string, password: string): Promise<boolean> {
  const problem = passwordProblem(password);
  if (problem) throw new Error(`password ${problem}`);
  const passwordHash = await hash(password);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [user] = await hidingParameters(
      tx
        .update(users)
        .set({ passwordHash })
        .where(eq(users.email, email.trim().toLowerCase()))
        .returning({ id: users.id }),
    );
    if (!user) return false;
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    return true;
  });
}
