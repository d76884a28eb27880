import { createHash, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_IDS, DEMO_PASSWORD, DEMO_USERS } from '@/db/seed-data';
import { people, sessions, users } from '@/db/schema';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { setRateLimitStore } from '@/lib/ratelimit';
import { SESSION_DAYS, signOut, personForSession } from '@/lib/identity/sessions';
import { signIn, type SignInResult } from '@/lib/identity/sign-in';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';

const t = useTestDatabase();
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const DAY_MS = 86_400_000;

// Each test gets a fresh in-process throttle, and its own client address, so no test is throttled by another.
let address = 0;
const nextAddress = () => `198.51.100.${++address}`;
beforeEach(() => setRateLimitStore(createMemoryStore()));
afterEach(() => setRateLimitStore(undefined));

/** Tokens of sessions this file opened for the demo users: ended again at the end, leaving the demo data as it was. */
const demoTokens: string[] = [];
afterAll(async () => {
  for (const token of demoTokens) await signOut(token);
});

function tokenOf(result: SignInResult): string {
  if (!result.ok) throw new Error(`sign-in failed: ${JSON.stringify(result)}`);
  return result.token;
}

const sessionRows = (personId: string) => t.db.select().from(sessions).where(eq(sessions.personId, personId));

describe('signIn', () => {
  it.each(DEMO_USERS.map((u) => [u.email, u] as const))(
    'signs the demo user %s in with the demo password',
    async (_, demo) => {
      const before = Date.now();
      const result = await signIn(demo.email, DEMO_PASSWORD, nextAddress());
      const token = tokenOf(result);
      demoTokens.push(token);
      if (!result.ok) return;
      expect(Object.keys(result).sort()).toEqual(['expiresAt', 'ok', 'secondFactor', 'token']);
      expect(result.secondFactor).toBe(false);
      // Sessions last SESSION_DAYS days from sign-in.
      expect(result.expiresAt.getTime()).toBeGreaterThanOrEqual(before + SESSION_DAYS * DAY_MS);
      expect(result.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + SESSION_DAYS * DAY_MS);

      const id = DEMO_IDS.users[demo.key];
      const user = await personForSession(token);
      expect(user).toEqual({
        principal: { userId: id, role: demo.role, personId: id, memberRole: 'owner', siteScope: null, via: 'session' },
        personId: id,
        name: demo.name,
        email: demo.email,
        twoFactor: false,
        memberships: [
          {
            accountId: id,
            accountName: demo.name,
            accountRole: demo.role,
            role: 'owner',
            siteIds: null,
            requiresTwoFactor: false,
          },
        ],
      });
    },
  );

  it('ignores the case of the e-mail address and spaces around it', async () => {
    for (const email of ['DEMO@EXAMPLE.COM', '  Demo@Example.com\t', '\n demo@example.COM ']) {
      const token = tokenOf(await signIn(email, DEMO_PASSWORD, nextAddress()));
      demoTokens.push(token);
      expect((await personForSession(token))?.principal.userId).toBe(DEMO_IDS.users.demo);
    }
  });

  it('keeps the case and spaces of the password: they are part of it', async () => {
    const address = nextAddress();
    expect(await signIn('demo@example.com', DEMO_PASSWORD.toUpperCase(), address)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await signIn('demo@example.com', ` ${DEMO_PASSWORD}`, address)).toEqual({ ok: false, reason: 'invalid' });
    expect(await signIn('demo@example.com', `${DEMO_PASSWORD} `, address)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('stores passwords as argon2id hashes (the demo seed and new accounts alike)', async () => {
    const own = await createPublisher(t.db, { password: 'correct horse battery staple' });
    const ids = [...Object.values(DEMO_IDS.users), own.id];
    for (const id of ids) {
      const [row] = await t.db.select({ passwordHash: people.passwordHash }).from(people).where(eq(people.id, id));
      // PHC string: $argon2id$v=19$m=…,t=…,p=…$salt$hash; the password itself appears nowhere.
      expect(row.passwordHash, id).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
      expect(row.passwordHash).not.toContain(DEMO_PASSWORD);
    }
    expect(tokenOf(await signIn(own.email, 'correct horse battery staple', nextAddress()))).toBeTruthy();
  });

  it('answers a wrong password and an unknown e-mail address in exactly the same shape', async () => {
    const own = await createPublisher(t.db, { password: 'right-password' });
    const address = nextAddress();
    const wrongPassword = await signIn(own.email, 'wrong-password', address);
    const unknownEmail = await signIn(`nobody-${own.id}@test.example`, 'right-password', address);
    const demoWrong = await signIn('demo@example.com', 'not-the-demo-password', address);
    expect(wrongPassword).toEqual({ ok: false, reason: 'invalid' });
    expect(unknownEmail).toEqual(wrongPassword);
    expect(demoWrong).toEqual(wrongPassword);
    expect(Object.keys(unknownEmail)).toEqual(Object.keys(wrongPassword));
    // Nothing was opened for the account.
    expect(await sessionRows(own.id)).toEqual([]);
  });

  it('does not let an account nobody has joined yet (an invited one, no person) sign in, whatever the password', async () => {
    const [own] = await t.db
      .insert(users)
      .values({ email: `invited-${randomUUID()}@test.example`, name: 'Invited', status: 'invited' })
      .returning();
    const address = nextAddress();
    for (const password of ['', 'x', 'null', 'undefined', DEMO_PASSWORD]) {
      expect(await signIn(own.email, password, address)).toEqual({ ok: false, reason: 'invalid' });
    }
    expect(await sessionRows(own.id)).toEqual([]);
  });

  it('does not accept a stored hash that is not a valid argon2 hash', async () => {
    const own = await createPublisher(t.db);
    await t.db.update(people).set({ passwordHash: 'plain-text-password' }).where(eq(people.id, own.id));
    expect(await signIn(own.email, 'plain-text-password', nextAddress())).toEqual({ ok: false, reason: 'invalid' });
  });

  it('returns a random token of at least 32 bytes, base64url, and stores only its SHA-256', async () => {
    const own = await createPublisher(t.db, { password: 'pw-for-tokens' });
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++) tokens.push(tokenOf(await signIn(own.email, 'pw-for-tokens', nextAddress())));

    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);
      expect(Buffer.from(token, 'base64url').toString('base64url')).toBe(token);
    }
    expect(new Set(tokens).size).toBe(tokens.length);

    const rows = await sessionRows(own.id);
    expect(rows.map((r) => r.tokenHash).sort()).toEqual(tokens.map(sha256).sort());
    // The raw tokens appear in no column of the session rows.
    const stored = JSON.stringify(rows);
    for (const token of tokens) expect(stored).not.toContain(token);
    for (const row of rows) {
      expect(row.personId).toBe(own.id);
      expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now() + (SESSION_DAYS - 1) * DAY_MS);
    }
    // Each token leads to its own session.
    for (const token of tokens) expect((await personForSession(token))?.principal.userId).toBe(own.id);
  });

  it("drops the user's expired sessions when the user signs in, and nobody else's", async () => {
    const own = await createPublisher(t.db, { password: 'pw-housekeeping' });
    const other = await createPublisher(t.db, { password: 'pw-other' });
    const old = tokenOf(await signIn(own.email, 'pw-housekeeping', nextAddress()));
    const live = tokenOf(await signIn(own.email, 'pw-housekeeping', nextAddress()));
    const othersOld = tokenOf(await signIn(other.email, 'pw-other', nextAddress()));
    const past = new Date(Date.now() - 60_000);
    await t.db
      .update(sessions)
      .set({ expiresAt: past })
      .where(eq(sessions.tokenHash, sha256(old)));
    await t.db
      .update(sessions)
      .set({ expiresAt: past })
      .where(eq(sessions.tokenHash, sha256(othersOld)));

    const fresh = tokenOf(await signIn(own.email, 'pw-housekeeping', nextAddress()));
    expect((await sessionRows(own.id)).map((r) => r.tokenHash).sort()).toEqual([live, fresh].map(sha256).sort());
    expect((await sessionRows(other.id)).map((r) => r.tokenHash)).toEqual([sha256(othersOld)]);
  });
});

describe('personForSession', () => {
  it("returns the principal of a session with the user's name and e-mail", async () => {
    const own = await createPublisher(t.db, { password: 'pw-principal', name: 'Ünïcode Games Ltd' });
    const token = tokenOf(await signIn(own.email, 'pw-principal', nextAddress()));
    expect(await personForSession(token)).toEqual({
      principal: {
        userId: own.id,
        role: 'publisher',
        personId: own.id,
        memberRole: 'owner',
        siteScope: null,
        via: 'session',
      },
      personId: own.id,
      name: 'Ünïcode Games Ltd',
      email: own.email,
      twoFactor: false,
      memberships: [
        {
          accountId: own.id,
          accountName: 'Ünïcode Games Ltd',
          accountRole: 'publisher',
          role: 'owner',
          siteIds: null,
          requiresTwoFactor: false,
        },
      ],
    });
  });

  it("returns null for no token, an unknown token, a token's hash, and a token with one character changed", async () => {
    const own = await createPublisher(t.db, { password: 'pw-unknown' });
    const token = tokenOf(await signIn(own.email, 'pw-unknown', nextAddress()));
    expect(await personForSession('')).toBeNull();
    expect(await personForSession('x'.repeat(43))).toBeNull();
    expect(await personForSession(sha256(token))).toBeNull();
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await personForSession(flipped)).toBeNull();
    expect(await personForSession(` ${token}`)).toBeNull();
    expect(await personForSession(token)).not.toBeNull();
  });

  it('returns null once the session has expired', async () => {
    const own = await createPublisher(t.db, { password: 'pw-expiry' });
    const token = tokenOf(await signIn(own.email, 'pw-expiry', nextAddress()));
    const setExpiry = (at: Date) =>
      t.db
        .update(sessions)
        .set({ expiresAt: at })
        .where(eq(sessions.tokenHash, sha256(token)));

    await setExpiry(new Date(Date.now() + 60_000));
    expect(await personForSession(token)).not.toBeNull();
    await setExpiry(new Date(Date.now() - 1_000));
    expect(await personForSession(token)).toBeNull();
    await setExpiry(new Date('2000-01-01T00:00:00Z'));
    expect(await personForSession(token)).toBeNull();
  });

  it('returns null once the account is deleted (the person, left with no account, acts for none)', async () => {
    const own = await createPublisher(t.db, { password: 'pw-deleted' });
    const token = tokenOf(await signIn(own.email, 'pw-deleted', nextAddress()));
    await t.db.delete(users).where(eq(users.id, own.id));
    expect(await personForSession(token)).toBeNull();
  });

  it('returns null once the person is deleted (their sessions go with them)', async () => {
    const own = await createPublisher(t.db, { password: 'pw-person-deleted' });
    const token = tokenOf(await signIn(own.email, 'pw-person-deleted', nextAddress()));
    await t.db.delete(people).where(eq(people.id, own.id));
    expect(await personForSession(token)).toBeNull();
    expect(await sessionRows(own.id)).toEqual([]);
  });

  it('follows a role change at once (the role is read per request, not stored in the session)', async () => {
    const own = await createPublisher(t.db, { password: 'pw-role' });
    const token = tokenOf(await signIn(own.email, 'pw-role', nextAddress()));
    await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, own.id));
    expect((await personForSession(token))?.principal.role).toBe('admin');
  });
});

describe('signOut', () => {
  it("deletes the session at once and leaves the user's other sessions alone", async () => {
    const own = await createPublisher(t.db, { password: 'pw-signout' });
    const laptop = tokenOf(await signIn(own.email, 'pw-signout', nextAddress()));
    const phone = tokenOf(await signIn(own.email, 'pw-signout', nextAddress()));

    await signOut(laptop);
    expect(await personForSession(laptop)).toBeNull();
    expect((await sessionRows(own.id)).map((r) => r.tokenHash)).toEqual([sha256(phone)]);
    expect((await personForSession(phone))?.principal.userId).toBe(own.id);

    // Signing out twice, or with an empty or unknown token, is harmless.
    await signOut(laptop);
    await signOut('');
    await signOut('not-a-token');
    expect((await sessionRows(own.id)).map((r) => r.tokenHash)).toEqual([sha256(phone)]);
  });

  it("cannot end another user's session by passing its stored hash", async () => {
    const own = await createPublisher(t.db, { password: 'pw-hash' });
    const token = tokenOf(await signIn(own.email, 'pw-hash', nextAddress()));
    await signOut(sha256(token));
    expect(await personForSession(token)).not.toBeNull();
  });
});
