/**
 * Two-factor sign-in with a time-based one-time password (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, the
 * authenticator apps' default) and ten single-use recovery codes, only their SHA-256 stored (NIST SP 800-63B
 * 5.1.4 and 5.1.2). A code is accepted one step either side of now, and never twice (the last step used is
 * kept). Wrong codes back off per person, a recovery code always works (lib/identity/second-factor-backoff.ts).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { getDb, type Tx } from '@/db/client';
import { memberships, people, recoveryCodes, users } from '@/db/schema';
import { actorOf, recordEvent } from '@/lib/activity';
import { sha256Hex } from '@/lib/shared/crypto';
import { badRequest, conflict, forbidden, notFound } from '@/lib/shared/errors';
import { ownAccountOf, type Principal, requireAbility, requireOperator } from '@/lib/access';
import {
  clearWrongCodes,
  type CodeTaker,
  recordWrongCode,
  refuseWhileBackingOff,
  throttleAddress,
} from './second-factor-backoff';

const ISSUER = 'Publisher Portal';
const PERIOD_S = 30;
const RECOVERY_CODE_COUNT = 10;

const totpOf = (secret: string, email: string) =>
  new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });

/** Codes as people type them: spaces and dashes dropped, letters lower-cased. */
const normalize = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** A recovery code: 10 random base32 letters and digits (50 bits), shown as two groups of five. */
function newRecoveryCode(): string {
  const text = new Secret({ size: 10 }).base32.slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/** The person behind a session principal; anything else has no second factor to manage. */
function personOf(principal: Principal): string {
  if (principal.via !== 'session' || !principal.personId || principal.viewedBy) {
    throw forbidden('Two-factor sign-in is managed by the person signed in, for themselves.');
  }
  return principal.personId;
}

/** A code from the app: 6 digits once typed spaces and dashes are dropped (a recovery code is 10 letters). */
const isAppCode = (code: string) => /^\d{6}$/.test(normalize(code));

/**
 * Checks a 6-digit code against the secret and, when right, records its time step so that it cannot be
 * used again. False for a wrong, stale or replayed code.
 */
async function acceptCode(
  tx: Tx,
  person: { id: string; email: string; totpSecret: string; totpLastStep: number | null },
  code: string,
): Promise<boolean> {
  const token = normalize(code);
  if (!isAppCode(token)) return false;
  const delta = totpOf(person.totpSecret, person.email).validate({ token, window: 1 });
  if (delta === null) return false;
  const step = Math.floor(Date.now() / 1000 / PERIOD_S) + delta;
  if (person.totpLastStep !== null && step <= person.totpLastStep) return false;
  await tx.update(people).set({ totpLastStep: step }).where(eq(people.id, person.id));
  return true;
}

/**
 * A code from the app under the back-off: refused unread while the person must wait (`rate_limited`); checked
 * otherwise, a wrong one counted and a right one starting the count again, both in `tx`, which the caller
 * must commit even for a wrong code.
 */
async function passAppCode(
  tx: Tx,
  person: CodeTaker & { totpSecret: string; totpLastStep: number | null },
  code: string,
  recoveryCodesTaken: boolean,
): Promise<boolean> {
  refuseWhileBackingOff(person, recoveryCodesTaken);
  if (await acceptCode(tx, person, code)) {
    await clearWrongCodes(tx, person.id);
    return true;
  }
  await recordWrongCode(tx, person);
  return false;
}

const wrongCode = () => badRequest('code', 'This code is not right. Type the 6 digits your app shows now.');

/** Uses up one unused recovery code of the person; false when it is not one. */
async function acceptRecoveryCode(tx: Tx, personId: string, code: string): Promise<boolean> {
  const used = await tx
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.personId, personId),
        eq(recoveryCodes.codeHash, sha256Hex(normalize(code))),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ personId: recoveryCodes.personId });
  return used.length > 0;
}

async function lockPerson(tx: Tx, personId: string) {
  const [person] = await tx
    .select({
      id: people.id,
      email: people.email,
      name: people.name,
      totpSecret: people.totpSecret,
      totpEnabledAt: people.totpEnabledAt,
      totpLastStep: people.totpLastStep,
      secondFactorFailures: people.secondFactorFailures,
      secondFactorFailedAt: people.secondFactorFailedAt,
    })
    .from(people)
    .where(eq(people.id, personId))
    .for('update');
  if (!person) throw notFound('This person no longer exists.');
  return person;
}

export interface TwoFactorSetup {
  /** The secret as text (base32), for typing into an app by hand. */
  secret: string;
  /** The otpauth:// URI the QR code holds. */
  uri: string;
  /** The QR code as an SVG document: no image request leaves the page. */
  qrSvg: string;
}

/** Starts turning two-factor sign-in on: a new secret, kept pending until a code from it is confirmed. */
export async function startTwoFactorSetup(principal: Principal): Promise<TwoFactorSetup> {
  const personId = personOf(principal);
  const db = await getDb();
  const secret = new Secret({ size: 20 }).base32;
  const email = await db.transaction(async (tx) => {
    const person = await lockPerson(tx, personId);
    if (person.totpEnabledAt) throw conflict('Two-factor sign-in is already on.');
    await tx.update(people).set({ totpSecret: secret, totpLastStep: null }).where(eq(people.id, personId));
    return person.email;
  });
  const uri = totpOf(secret, email).toString();
  return { secret, uri, qrSvg: await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) };
}

/**
 * Finishes turning it on with a code from the app: two-factor sign-in is on from now, and ten recovery codes
 * are made, returned this once (only their hashes are kept; earlier ones no longer work).
 */
export async function confirmTwoFactor(principal: Principal, code: string): Promise<{ recoveryCodes: string[] }> {
  const personId = personOf(principal);
  await throttleAddress(principal.clientAddress);
  const db = await getDb();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  // A wrong code commits its count and is refused after the transaction.
  const accepted = await db.transaction(async (tx) => {
    const person = await lockPerson(tx, personId);
    if (person.totpEnabledAt) throw conflict('Two-factor sign-in is already on.');
    if (!person.totpSecret) throw conflict('Start again: no setup is waiting for a code.');
    if (!(await passAppCode(tx, { ...person, totpSecret: person.totpSecret }, code, false))) return false;
    await tx.update(people).set({ totpEnabledAt: new Date() }).where(eq(people.id, personId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.personId, personId));
    await tx.insert(recoveryCodes).values(codes.map((c) => ({ personId, codeHash: sha256Hex(normalize(c)) })));
    await recordEvent(tx, actorOf(principal), {
      kind: 'two_factor.enabled',
      accountId: ownAccountOf(principal),
      subjectId: personId,
    });
    return true;
  });
  if (!accepted) throw wrongCode();
  return { recoveryCodes: codes };
}

/** Turns two-factor sign-in off, with a current code; not while an account of theirs requires it. */
export async function disableTwoFactor(principal: Principal, code: string): Promise<void> {
  const personId = personOf(principal);
  await throttleAddress(principal.clientAddress);
  const db = await getDb();
  // A wrong code commits its count and is refused after the transaction.
  const accepted = await db.transaction(async (tx) => {
    const person = await lockPerson(tx, personId);
    if (!person.totpEnabledAt || !person.totpSecret) throw conflict('Two-factor sign-in is not on.');
    const [requiring] = await tx
      .select({ name: users.name })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.accountId))
      .where(and(eq(memberships.personId, personId), eq(users.requireTwoFactor, true)));
    if (requiring) throw conflict(`${requiring.name} requires two-factor sign-in of its members: it stays on.`);
    if (!(await passAppCode(tx, { ...person, totpSecret: person.totpSecret }, code, false))) return false;
    await clearSecondFactor(tx, personId);
    await recordEvent(tx, actorOf(principal), {
      kind: 'two_factor.disabled',
      accountId: ownAccountOf(principal),
      subjectId: personId,
    });
    return true;
  });
  if (!accepted) throw wrongCode();
}

async function clearSecondFactor(tx: Tx, personId: string) {
  await tx
    .update(people)
    .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
    .where(eq(people.id, personId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.personId, personId));
  await clearWrongCodes(tx, personId);
}

/**
 * A platform admin resets a person's second factor (a lost phone, no recovery code left) after checking who
 * they are by other means; logged. The person then signs in with the password alone and sets it up again.
 */
export async function resetTwoFactorAsAdmin(principal: Principal, personId: string): Promise<{ email: string }> {
  requireOperator(principal, 'operate', 'Resetting a person’s two-factor sign-in');
  const db = await getDb();
  return db.transaction(async (tx) => {
    const person = await lockPerson(tx, personId);
    if (!person.totpEnabledAt) throw conflict(`${person.email} has no two-factor sign-in to reset.`);
    await clearSecondFactor(tx, person.id);
    await recordEvent(tx, actorOf(principal), {
      kind: 'two_factor.reset',
      accountId: null,
      subjectId: person.id,
      details: { email: person.email },
    });
    return { email: person.email };
  });
}

/**
 * The sign-in's second step: a code from the app, or an unused recovery code. `ok` when it is right. Runs in
 * the caller's transaction, which opens the session, and which must commit on `{ ok: false }` too: it holds
 * the wrong code's count. While the person must wait, a code from the app throws `rate_limited` (nothing to
 * keep); a recovery code is always checked, so the back-off can never keep its owner out.
 */
export async function passSecondFactor(
  tx: Tx,
  personId: string,
  code: string,
  clientAddress: string,
): Promise<{ ok: true; recoveryCodeUsed: boolean } | { ok: false }> {
  await throttleAddress(clientAddress);
  const person = await lockPerson(tx, personId);
  if (!person.totpEnabledAt || !person.totpSecret) return { ok: true, recoveryCodeUsed: false };
  if (isAppCode(code)) {
    const right = await passAppCode(tx, { ...person, totpSecret: person.totpSecret }, code, true);
    return right ? { ok: true, recoveryCodeUsed: false } : { ok: false };
  }
  if (await acceptRecoveryCode(tx, personId, code)) {
    await clearWrongCodes(tx, personId);
    return { ok: true, recoveryCodeUsed: true };
  }
  await recordWrongCode(tx, person);
  return { ok: false };
}

/** How many recovery codes the person has left (Settings shows it). */
export async function recoveryCodesLeft(personId: string): Promise<number> {
  const db = await getDb();
  const rows = await db
    .select({ codeHash: recoveryCodes.codeHash })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.personId, personId), isNull(recoveryCodes.usedAt)));
  return rows.length;
}

/** An Owner requires (or stops requiring) two-factor sign-in of every member of the account; logged. */
export async function setTwoFactorRequired(principal: Principal, required: boolean): Promise<void> {
  personOf(principal);
  requireAbility(principal, 'manageOwners', 'Requiring two-factor sign-in');
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.update(users).set({ requireTwoFactor: required }).where(eq(users.id, principal.userId));
    await recordEvent(tx, actorOf(principal), {
      kind: 'account.two_factor_required',
      accountId: ownAccountOf(principal),
      subjectId: principal.userId,
      details: { required },
    });
  });
}
