import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite, openPostgres, setDatabase } from '@/db/client';
import { lockPathFor } from '@/db/embedded-lock';
import { DEMO_IDS } from '@/db/seed';
import { hashApiKey } from '@/lib/keys/key-format';
import { setEnv } from '@/lib/platform/env';
import { get } from '../support/api';
import { createPublisher } from '../support/factories';
import { cli } from '../support/cli';
import { testDatabase } from '../support/db';

/**
 * The operator CLI on an embedded database folder of its own and, when TEST_DATABASE_URL is set, on
 * PostgreSQL. Commands run in this process through runCli (what scripts/cli.ts calls), with the
 * environment an operator would set; two smoke tests start the real `tsx scripts/cli.ts` process.
 */

const execute = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/** The CLI as its own process: `tsx scripts/cli.ts …`, for what only a process shows (exit code, streams). */
async function cliProcess(args: string[], environment: Record<string, string | undefined>) {
  try {
    const { stdout, stderr } = await execute(path.join(root, 'node_modules/.bin/tsx'), ['scripts/cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', ...environment },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

afterEach(() => setEnv(undefined));

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';
const KEY_SHAPE = /^rpk_[0-9A-Za-z]{38}$/;

/** Reads through a short-lived connection so the CLI can take the embedded folder in between. */
async function withFolder<T>(dir: string, work: (database: Database) => Promise<T>): Promise<T> {
  const database = await openPglite(dir);
  setDatabase(database);
  try {
    return await work(database);
  } finally {
    setDatabase(undefined);
    await database.close();
  }
}

/** `npm run import -- file --owner … --create-sites` with one row naming `siteName`. */
async function importNamedSite(environment: Record<string, string>, owner: string, siteName: string) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'portal-import-')), 'rows.csv');
  try {
    fs.writeFileSync(
      file,
      `day,siteName,country,impressions,clicks,adRequests,revenue\n2025-10-01,${siteName},US,1,0,1,1\n`,
    );
    return await cli(['import', file, '--owner', owner, '--create-sites'], environment);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

async function keyCount(dir: string): Promise<number> {
  return withFolder(dir, async ({ db }) => (await db.query.apiKeys.findMany()).length);
}

describe('operator CLI on the embedded database', () => {
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    // Start from the seeded template written to disk, rather than paying for a fresh seed.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cli-'));
    dir = path.join(tmp, 'pglite');
    env = { PGLITE_DIR: dir };
    const source = testDatabase();
    if (source.kind === 'pglite') {
      const blob = new Blob([fs.readFileSync(source.templatePath)]);
      await (await openPglite(dir, { loadDataDir: blob })).close();
    }
  });

  afterAll(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  it('creates a key whose raw value is the last line of stdout and which works on the API (own process)', async () => {
    const result = await cliProcess(['apikey', '--email', 'DEMO@example.com', '--label', 'from the cli'], env);
    expect(result.code).toBe(0);
    const raw = lastLine(result.stdout);
    expect(raw).toMatch(KEY_SHAPE);

    await withFolder(dir, async ({ db }) => {
      const stored = await db.query.apiKeys.findFirst({ where: (k, { eq }) => eq(k.keyHash, hashApiKey(raw)) });
      expect(stored?.label).toBe('from the cli');
      expect(stored?.keyPrefix).toBe(raw.slice(0, 12));
      const sites = await get('/api/v1/sites', { key: raw });
      expect(sites.status).toBe(200);
      expect(sites.json.length).toBeGreaterThanOrEqual(5);
    });
  });

  it('creates a site-scoped, expiring key', async () => {
    const siteId = DEMO_IDS.sites.skyHopper;
    const email = 'demo@example.com';
    const result = await cli(['apikey', '--email', email, '--sites', siteId, '--expires', '2099-01-01T00:00:00Z'], env);
    expect(result.code).toBe(0);
    const raw = lastLine(result.stdout);
    await withFolder(dir, async ({ db }) => {
      const stored = await db.query.apiKeys.findFirst({ where: (k, { eq }) => eq(k.keyHash, hashApiKey(raw)) });
      expect(stored?.siteIds).toEqual([siteId]);
      expect(stored?.expiresAt?.toISOString()).toBe('2099-01-01T00:00:00.000Z');
    });
  });

  describe('refusals', () => {
    // Counted before the refusals and after them all (a last test): each opening of the folder costs ~0.5 s.
    let keysBefore: number;
    beforeAll(async () => {
      keysBefore = await keyCount(dir);
    });

    it.each([
      [['apikey', '--email', 'nobody@example.com'], 1, /no user with email nobody@example\.com/],
      [['apikey'], 2, /--email is required/],
      [['apikey', '--email', 'demo@example.com', '--bogus'], 2, /Unknown option '--bogus'/],
      [['apikey', '--email', 'demo@example.com', '--expires', 'tomorrow'], 2, /--expires/],
      [['apikey', '--email', 'demo@example.com', '--expires', '2001-01-01T00:00:00Z'], 1, /must be in the future/],
      [['apikey', '--email', 'demo@example.com', '--sites', 'not-a-uuid'], 2, /--sites/],
      [
        ['apikey', '--email', 'rival@example.com', '--sites', '00000000-0000-4000-8000-000000000000'],
        1,
        /not sites of this account/,
      ],
      [['no-such-command'], 2, /Unknown command/],
    ])('%j exits %i with a clear message', async (args, code, message) => {
      const result = await cli(args, env);
      expect(result.code).toBe(code);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).not.toMatch(/rpk_/);
    });

    it('refuses while another process holds the embedded database', async () => {
      // The process that started this test run is alive and is not this one: to the CLI, a running server.
      fs.writeFileSync(lockPathFor(dir), String(process.ppid));
      try {
        for (const args of [['apikey', '--email', 'demo@example.com'], ['seed']]) {
          const result = await cli(args, env);
          expect(result.code).toBe(1);
          expect(result.stderr).toMatch(/in use by another process \(pid \d+\)/);
        }
      } finally {
        fs.rmSync(lockPathFor(dir));
      }
    });

    it('changed nothing: no key was created by any of them', async () => {
      expect(await keyCount(dir)).toBe(keysBefore);
    });
  });

  it('exits 2 with the usage on standard error when run wrongly (own process)', async () => {
    const result = await cliProcess(['apikey', '--bogus'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Unknown option '--bogus'[\s\S]*Usage: npm run apikey/);
    expect(result.stdout).toBe('');
  });

  it('import refuses a NUL in a siteName, naming line and field, and the next import works', async () => {
    const result = await importNamedSite(env, 'demo@example.com', 'Cli\u0000Game');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^line 2, siteName: contains the control character U\+0000 at character 4;/m);
    expect(result.stderr).toMatch(/nothing was imported: 1 bad line/);
    const good = await importNamedSite(env, 'demo@example.com', 'Cli Game');
    expect(good.stderr).toBe('');
    expect(good.stdout).toMatch(/1 rows: 1 inserted, 0 updated, 0 unchanged, 1 sites created/);
    expect(good.code).toBe(0);
  });

  it('takes over a lock left behind by a process that no longer exists', async () => {
    fs.writeFileSync(lockPathFor(dir), '999999999');
    const result = await cli(['apikey', '--email', 'demo@example.com'], env);
    expect(result.code).toBe(0);
    expect(fs.existsSync(lockPathFor(dir))).toBe(false);
  });
});

describe('operator CLI on PostgreSQL', () => {
  it('db:seed refuses a DATABASE_URL on another machine unless --force', async () => {
    const result = await cli(['seed'], { DATABASE_URL: 'postgres://postgres@db.example.com:5432/prod' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refusing to seed .*db\.example\.com.*--force/s);
  });

  // Only when the suite runs on PostgreSQL (TEST_DATABASE_URL); embedded runs cover the CLI above.
  const source = testDatabase();
  if (source.kind !== 'postgres') return;
  it('import refuses a NUL in a siteName on DATABASE_URL, leaves no session in a transaction, and imports next', async () => {
    const database = await openPostgres(source.url, { max: 1 });
    try {
      const owner = await createPublisher(database.db);
      const refused = await importNamedSite({ DATABASE_URL: source.url }, owner.email, 'Cli\u0000Game');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^line 2, siteName: contains the control character U\+0000/m);
      const good = await importNamedSite({ DATABASE_URL: source.url }, owner.email, 'Cli Game');
      expect(good.code, good.stderr).toBe(0);
      const left = await database.db.execute(
        sql`select state from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
      );
      expect([...(left as unknown as unknown[])]).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('creates a key on DATABASE_URL', async () => {
    const result = await cli(['apikey', '--email', 'demo@example.com'], { DATABASE_URL: source.url });
    expect(result.code).toBe(0);
    const raw = lastLine(result.stdout);
    const database = await openPostgres(source.url, { max: 1 });
    try {
      const stored = await database.db.query.apiKeys.findFirst({
        where: (k, { eq }) => eq(k.keyHash, hashApiKey(raw)),
      });
      expect(stored).toBeDefined();
    } finally {
      await database.close();
    }
  });
});
