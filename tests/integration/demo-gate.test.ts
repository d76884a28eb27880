import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openConfiguredDatabase, openPostgres } from '@/db/client';
import { DEMO_MEMBERS, DEMO_PASSWORD, DEMO_USERS } from '@/db/seed-data';
import { demoRefusal } from '@/lib/identity/demo-gate';
import { readEnv, setEnv } from '@/lib/platform/env';
import { accountsWithDemoPassword, passwordProblem, setPassword } from '@/lib/identity/passwords';
import { personForSession } from '@/lib/identity/sessions';
import { signIn } from '@/lib/identity/sign-in';
import { testDatabase, useTestDatabase } from '../support/db';
import { createPublisher } from '../support/factories';
import { workerNumber } from '../support/worker-database';

// Issue 18 point 3: a server others can reach refuses to start while demo accounts keep the published password.
// The test database holds the demo seed; tests that change passwords make accounts of their own, since on
// PostgreSQL every later file shares the demo data.
const t = useTestDatabase();
// The demo accounts' people and the teams' members (db/seed-data.ts), sorted.
const DEMO = [...DEMO_USERS, ...DEMO_MEMBERS].map((u) => u.email).sort();
const everywhere = { listenHost: '0.0.0.0', vercel: false, allowDemo: false };

describe('the demo gate on the demo data', () => {
  it('finds the demo accounts that still have the published password', async () => {
    expect(await accountsWithDemoPassword()).toEqual(DEMO);
  });

  it('refuses a server on every interface, in one line that says what to do', async () => {
    expect(await demoRefusal(everywhere)).toBe(
      'Refusing to start: the server is set to listen on 0.0.0.0 (HOST), beyond this machine, and ' +
        `${DEMO.join(', ')} still have the published demo password. Change them (npm run password -- --email ` +
        'admin@example.com), listen on 127.0.0.1 only (unset HOST), or set ALLOW_DEMO=1 to serve the demo on purpose.',
    );
  });

  it('refuses next start (it does not say where it listens) and Vercel, each with its own remedy', async () => {
    const nextStart = await demoRefusal({ vercel: false, allowDemo: false });
    expect(nextStart).toMatch(
      /^Refusing to start: this server was not started by npm start, .* start it with npm start/,
    );
    const vercel = await demoRefusal({ listenHost: '127.0.0.1', vercel: true, allowDemo: false });
    expect(vercel).toMatch(/^Refusing to start: this Vercel deployment is on the internet, .*/);
    expect(vercel).toMatch(/DATABASE_URL=<this deployment's database> npm run password .* ALLOW_DEMO=1 for a preview/);
    for (const line of [nextStart, vercel]) expect(line).not.toContain('\n');
  });

  it('lets loopback servers start, and any server with ALLOW_DEMO=1', async () => {
    for (const listenHost of ['127.0.0.1', '::1', 'localhost']) {
      expect(await demoRefusal({ listenHost, vercel: false, allowDemo: false }), listenHost).toBeNull();
    }
    expect(await demoRefusal({ ...everywhere, allowDemo: true })).toBeNull();
    expect(await demoRefusal({ vercel: true, allowDemo: true })).toBeNull();
  });

  it('reads its defaults from the environment: ALLOW_DEMO, VERCEL, and where our server listens', async () => {
    try {
      setEnv(readEnv({ ...process.env, VERCEL: '1', ALLOW_DEMO: '' }));
      expect(await demoRefusal()).toMatch(/Vercel/);
      setEnv(readEnv({ ...process.env, VERCEL: '1', ALLOW_DEMO: '1' }));
      expect(await demoRefusal()).toBeNull();
    } finally {
      setEnv(undefined);
    }
  });
});

describe('once the demo passwords are changed', () => {
  it('the server may start: the gate checks passwords, not e-mails; the old password and sessions stop working', async () => {
    const accounts = await Promise.all(
      [1, 2].map(() => createPublisher(t.db, { email: `gate-${randomUUID()}@test.example`, password: DEMO_PASSWORD })),
    );
    const demoEmails = accounts.map((a) => a.email).sort();
    const gate = { ...everywhere, demoEmails };
    const session = await signIn(demoEmails[0], DEMO_PASSWORD, '192.0.2.50');
    if (!session.ok) throw new Error('sign-in with the demo password failed');

    expect(await demoRefusal(gate)).toContain(`${demoEmails.join(', ')} still have the published demo password`);
    expect(await setPassword(demoEmails[0], 'a-password-of-its-own')).toBe(true);
    expect(await demoRefusal(gate)).toContain(`${demoEmails[1]} still has the published demo password. Change it`);
    expect(await setPassword(demoEmails[1], 'another-password-of-its-own')).toBe(true);
    expect(await demoRefusal(gate)).toBeNull();

    expect(await personForSession(session.token)).toBeNull();
    expect(await signIn(demoEmails[0], DEMO_PASSWORD, '192.0.2.51')).toEqual({ ok: false, reason: 'invalid' });
    expect((await signIn(demoEmails[0], 'a-password-of-its-own', '192.0.2.52')).ok).toBe(true);
  });

  it('refuses a password that is short or the demo one, and an unknown e-mail', async () => {
    expect(passwordProblem('short')).toBe('must be at least 12 characters');
    expect(passwordProblem(DEMO_PASSWORD)).toBe('must not be the published demo password');
    expect(passwordProblem('long-enough-password')).toBeNull();
    await expect(setPassword('demo@example.com', DEMO_PASSWORD)).rejects.toThrow(/demo password/);
    expect(await setPassword(`nobody-${randomUUID()}@test.example`, 'long-enough-password')).toBe(false);
  });
});

// Only with TEST_DATABASE_URL: a PostgreSQL database is never seeded by opening it; only `npm run db:seed` does.
const source = testDatabase();
describe.runIf(source.kind === 'postgres')('demo accounts only where npm start creates them', () => {
  it('a new PostgreSQL database opened by the app is migrated, with no account at all', async () => {
    if (source.kind !== 'postgres') return;
    // As the owner: making a database, and migrating it when the app opens it.
    const admin = await openPostgres(source.ownerUrl, { max: 1 });
    const scratch = `portal_gate_${process.pid}_w${workerNumber()}`;
    await admin.db.execute(sql.raw(`drop database if exists ${scratch} with (force)`));
    await admin.db.execute(sql.raw(`create database ${scratch}`));
    const url = new URL(source.ownerUrl);
    url.pathname = `/${scratch}`;
    setEnv(readEnv({ ...process.env, DATABASE_URL: url.toString() }));
    try {
      const opened = await openConfiguredDatabase();
      try {
        const rows = (await opened.db.execute(sql`select count(*)::int as n from users`)) as unknown as { n: number }[];
        expect(rows[0].n).toBe(0);
      } finally {
        await opened.close();
      }
    } finally {
      setEnv(undefined);
      await admin.db.execute(sql.raw(`drop database if exists ${scratch} with (force)`));
      await admin.close();
    }
  });
});
