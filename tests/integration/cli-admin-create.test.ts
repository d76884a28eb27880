import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite, openPostgres, setDatabase } from '@/db/client';
import { auditEvents, invitations, mailOutbox, memberships, users } from '@/db/schema';
import { setEnv } from '@/lib/platform/env';
import { cli } from '../support/cli';
import { testDatabase } from '../support/db';

/**
 * `npm run admin:create` on a fresh embedded database (migrated, no demo data), or on the shared PostgreSQL
 * database with TEST_DATABASE_URL. Tests have no terminal, so the command invites instead of prompting.
 */

let tmp: string;
let env: Record<string, string>;
const source = testDatabase();

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-admin-create-'));
  env = source.kind === 'postgres' ? { DATABASE_URL: source.url } : { PGLITE_DIR: path.join(tmp, 'pglite') };
});
afterEach(() => setEnv(undefined));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Reads through a short-lived connection, so that the CLI can take the embedded folder in between. */
async function read<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const database =
    source.kind === 'postgres' ? await openPostgres(source.url, { max: 1 }) : await openPglite(env.PGLITE_DIR);
  setDatabase(database);
  try {
    return await work(database);
  } finally {
    setDatabase(undefined);
    await database.close();
  }
}

describe('npm run admin:create', () => {
  const email = `first-admin-${randomUUID().slice(0, 8)}@example.com`;

  it('creates the first admin on a fresh database, invited by e-mail when there is no terminal', async () => {
    const result = await cli(['admin-create', '--email', email.toUpperCase(), '--name', 'Root Admin'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/invit/);
    await read(async ({ db }) => {
      const [admin] = await db.select().from(users).where(eq(users.email, email));
      expect(admin).toMatchObject({ role: 'admin', status: 'invited', name: 'Root Admin' });
      // Nobody signs in for it yet: its Owner is invited.
      expect(await db.select().from(memberships).where(eq(memberships.accountId, admin.id))).toEqual([]);
      const [invitation] = await db.select().from(invitations).where(eq(invitations.accountId, admin.id));
      expect(invitation).toMatchObject({ email, role: 'owner', acceptedAt: null });
      const mails = await db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, 'invitation')));
      expect(mails).toHaveLength(1);
      expect(mails[0].text).toMatch(/\/invitation\/[A-Za-z0-9_-]{40,}/);
      // The link goes only into the e-mail, never onto the operator's screen or into a log.
      expect(result.stdout).not.toContain('/invitation/');
      const events = await db
        .select()
        .from(auditEvents)
        .where(inArray(auditEvents.subjectId, [admin.id, invitation.id]))
        .orderBy(auditEvents.id);
      expect(events.map((e) => [e.kind, e.actorKind])).toEqual([
        ['account.created', 'system'],
        ['invitation.sent', 'system'],
      ]);
    });
  });

  it('refuses an e-mail in use, in any letter case, and creates nothing', async () => {
    const again = await cli(['admin-create', '--email', ` ${email} `, '--name', 'Twin', '--invite'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${email} is already the e-mail of an account`);
    await read(async ({ db }) => expect(await db.select().from(users).where(eq(users.email, email))).toHaveLength(1));
  });

  it('exits 2 with the usage for a missing or wrong option', async () => {
    for (const args of [
      ['--name', 'No mail'],
      ['--email', 'not-an-address', '--name', 'X'],
      ['--email', 'a@b.example'],
    ]) {
      const result = await cli(['admin-create', ...args], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Usage: npm run admin:create');
    }
  });
});
