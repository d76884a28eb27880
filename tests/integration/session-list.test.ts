import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deviceOf, endSession, listSessions, signIn, personForSession } from '@/lib/identity';
import { setRateLimitStore } from '@/lib/ratelimit';
import { createMemoryStore } from '@/lib/ratelimit/memory';
import { useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { sessionPrincipal } from '../support/keys';

/** Issue 22, point 6: where a person is signed in, and ending one session. */
const t = useTestDatabase();
const PASSWORD = 'sessions list passphrase';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

beforeEach(() => setRateLimitStore(createMemoryStore()));
afterEach(() => setRateLimitStore(undefined));

async function signedIn(email: string, address: string, userAgent: string) {
  const result = await signIn(email, PASSWORD, address, userAgent);
  if (!result.ok) throw new Error('sign-in failed');
  return result.token;
}

describe('sessions of a person', () => {
  it('names each browser and address, marks this one, and ends another at once (logged)', async () => {
    const own = await createPublisher(t.db, { password: PASSWORD });
    const laptop = await signedIn(own.email, '203.0.113.60', CHROME);
    const phone = await signedIn(own.email, '203.0.113.61', SAFARI);
    const principal = sessionPrincipal(own.id);

    const list = await listSessions(principal, laptop);
    expect(list.map((s) => [s.device, s.clientAddress, s.current]).sort()).toEqual(
      [
        ['Chrome 140 on Linux', '203.0.113.60', true],
        ['Safari 18 on iOS', '203.0.113.61', false],
      ].sort(),
    );
    expect(JSON.stringify(list)).not.toContain(laptop);

    const other = list.find((s) => !s.current)!;
    await endSession(principal, other.id);
    expect(await personForSession(phone)).toBeNull();
    expect(await personForSession(laptop)).not.toBeNull();
    expect((await listSessions(principal, laptop)).map((s) => s.current)).toEqual([true]);
  });

  it('cannot end someone else’s session; an unknown or malformed id is not found', async () => {
    const own = await createPublisher(t.db, { password: PASSWORD });
    const other = await createPublisher(t.db, { password: PASSWORD });
    const theirs = await signedIn(other.email, '203.0.113.62', CHROME);
    const [session] = await listSessions(sessionPrincipal(other.id), theirs);
    await expect(endSession(sessionPrincipal(own.id), session.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(endSession(sessionPrincipal(own.id), 'not-an-id')).rejects.toMatchObject({ code: 'not_found' });
    expect(await personForSession(theirs)).not.toBeNull();
  });

  it('words browsers briefly and says nothing for an empty description', () => {
    expect(deviceOf(null)).toBeNull();
    expect(deviceOf('')).toBeNull();
    expect(deviceOf(CHROME)).toBe('Chrome 140 on Linux');
  });
});
