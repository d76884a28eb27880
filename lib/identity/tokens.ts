import { randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { accountTokens } from '@/db/schema';
import { sha256Hex } from '@/lib/shared/crypto';
import { hidingParameters } from '@/lib/shared/sql-errors';

/** How long each kind of e-mailed link stays valid (invitations: lib/accounts/invitations.ts). */
export const TOKEN_LIFETIME_MS = { invitation: 72 * 3_600_000, password_reset: 60 * 60_000 } as const;
export type TokenPurpose = keyof typeof TOKEN_LIFETIME_MS;

/**
 * A new single-use link token for a person (256 random bits, base64url), in the caller's transaction. The
 * person's earlier tokens of the same purpose are void from now on: only the newest link works. Only the
 * SHA-256 is stored; the raw token goes into the e-mail and nowhere else.
 */
export async function issueToken(tx: Tx, personId: string, purpose: TokenPurpose): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await voidTokens(tx, personId, purpose);
  await hidingParameters(
    tx.insert(accountTokens).values({
      tokenHash: sha256Hex(token),
      personId,
      purpose,
      expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS[purpose]),
    }),
  );
  return token;
}

/** Voids every outstanding token of the person for `purpose`, in the caller's transaction (a new password ends reset links). */
export async function voidTokens(tx: Tx, personId: string, purpose: TokenPurpose): Promise<void> {
  await tx.delete(accountTokens).where(and(eq(accountTokens.personId, personId), eq(accountTokens.purpose, purpose)));
}

/**
 * The person a token opens, consuming it (deleted in the caller's transaction: a second use finds nothing),
 * or null when it is unknown, expired, used or superseded, or of another purpose.
 */
export async function consumeToken(tx: Tx, token: string, purpose: TokenPurpose): Promise<string | null> {
  if (!token) return null;
  const [row] = await hidingParameters(
    tx
      .delete(accountTokens)
      .where(
        and(
          eq(accountTokens.tokenHash, sha256Hex(token)),
          eq(accountTokens.purpose, purpose),
          gt(accountTokens.expiresAt, new Date()),
        ),
      )
      .returning({ personId: accountTokens.personId }),
  );
  return row?.personId ?? null;
}

/** The person a token would open, without consuming it: for showing the page the link leads to. */
export async function peekToken(tx: Tx, token: string, purpose: TokenPurpose): Promise<string | null> {
  if (!token) return null;
  const [row] = await hidingParameters(
    tx
      .select({ personId: accountTokens.personId })
      .from(accountTokens)
      .where(
        and(
          eq(accountTokens.tokenHash, sha256Hex(token)),
          eq(accountTokens.purpose, purpose),
          gt(accountTokens.expiresAt, new Date()),
        ),
      ),
  );
  return row?.personId ?? null;
}
