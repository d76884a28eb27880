/**
 * Bad text in an import never reaches COPY, and a COPY that fails anyway gives its connection back clean.
 * A NUL byte in a siteName used to leave the ingestion request unanswered and its PostgreSQL session
 * "idle in transaction (aborted)" for good (postgres.js never settled the failed COPY, so nothing rolled back).
 */
import { sql } from 'drizzle-orm';
import { CopyText } from '@/db/bulk';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../support/api';
import { useTestDatabase } from '../support/db';
import { createPublisher, createSite } from '../support/factories';
import { adminKey } from '../support/keys';
import { expectProblem, sqlRows } from './reports-helpers';

const t = useTestDatabase();
let admin: string;
let owner: { id: string; email: string };
let siteId: string;

beforeAll(async () => {
  admin = (await adminKey()).raw;
  owner = await createPublisher(t.db);
  siteId = (await createSite(t.db, owner.id, { name: 'Printable Game' })).id;
});

const ingest = (body: string, contentType: string) =>
  callApi('POST', `/api/v1/admin/revenue?owner=${encodeURIComponent(owner.email)}`, {
    key: admin,
    body,
    headers: { 'Content-Type': contentType },
  });

/** Sessions of this database left inside a transaction (none on PGlite, which has no other sessions). */
async function sessionsLeftInTransaction(): Promise<string[]> {
  if (t.kind !== 'postgres') return [];
  const rows = await sqlRows<{ state: string }>(
    t.db,
    sql`select state from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state like 'idle in transaction%'`,
  );
  return rows.map((r) => r.state);
}

/** Answers within `ms`, or fails naming what hung (a hang was the bug). */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('control characters in ingested text', () => {
  const CSV_HEADER = 'day,siteName,country,impressions,clicks,adRequests,revenue,adUnitId';

  it('a NUL in siteName is a 400 naming the line and field, at once; the next import works', async () => {
    const body = `${CSV_HEADER}\n2025-10-01,Printable Game,US,1,0,1,1,\n2025-10-02,Printable\u0000Game,US,1,0,1,1,\n`;
    const res = await within(5_000, 'the ingestion request', ingest(body, 'text/csv'));
    expectProblem(res, 400);
    expect(res.json.errors).toEqual([
      {
        parameter: 'siteName',
        line: 3,
        detail:
          'contains the control character U+0000 at character 10; only printable text is allowed ("Printable\\u0000Game")',
      },
    ]);
    expect(await sessionsLeftInTransaction()).toEqual([]);

    const good = await ingest(`${CSV_HEADER}\n2025-10-01,Printable Game,US,1,0,1,1,\n`, 'text/csv');
    expect(good.status, good.text).toBe(200);
    expect(good.json).toMatchObject({ rows: 1, inserted: 1 });
    expect(await sessionsLeftInTransaction()).toEqual([]);
  });

  it('control characters in any text field of NDJSON: one error per field, nothing imported', async () => {
    const row = { day: '2025-10-05', siteId, country: 'US', impressions: 1, clicks: 0, adRequests: 1, revenue: 1 };
    const lines = [
      { ...row, country: 'U\u0000S' },
      { ...row, day: '2025-10-06', adUnitId: 'unit\u001b[31m' },
      { ...row, day: '2025-10-07', siteId: undefined, siteName: 'Printable\u0085Game' },
    ];
    const res = await ingest(lines.map((l) => JSON.stringify(l)).join('\n'), 'application/x-ndjson');
    expectProblem(res, 400);
    expect(res.json.errors.map((e: { line: number; parameter: string }) => [e.line, e.parameter])).toEqual([
      [1, 'country'],
      [2, 'adUnitId'],
      [3, 'siteName'],
    ]);
    const stored = await sqlRows(
      t.db,
      sql`select 1 from revenue_daily where site_id = ${siteId} and day between '2025-10-05' and '2025-10-07'`,
    );
    expect(stored).toEqual([]);
  });
});

describe('a COPY the database rejects (db/bulk.ts)', () => {
  // Past the import's checks only a broken caller can send bad COPY text; a NUL is the case that hung.
  const badCopy = (rows: string) =>
    t.database.bulk(async (session) => {
      await session.query('create temp table copy_probe (name text) on commit drop');
      await session.copyIn('copy_probe', ['name'], rows);
      return 'committed';
    });

  it.each([
    ['at its end', 'bad\u0000name\n'],
    ['early in a large batch', 'bad\u0000name\n' + 'good name\n'.repeat(500_000)],
  ])('fails its transaction %s, rolls back, and the connection works on', async (_, rows) => {
    await expect(within(10_000, 'the failed COPY', badCopy(rows))).rejects.toThrow(/0x00|failed/);
    expect(await sessionsLeftInTransaction()).toEqual([]);
    // The same pool (on PGlite: the one connection) takes the next bulk write at once.
    const next = await within(
      10_000,
      'the next COPY',
      t.database.bulk(async (session) => {
        await session.query('create temp table copy_probe (name text) on commit drop');
        await session.copyIn('copy_probe', ['name'], 'fine\nalso fine\n');
        return session.query<{ n: string }>('select count(*)::text as n from copy_probe');
      }),
    );
    expect(next).toEqual([{ n: '2' }]);
  });
});

describe('a CopyText batch (db/bulk.ts)', () => {
  it('reaches the database exactly as its values were, past its first MiB and after being handed over', async () => {
    const names = ['plain'.padEnd(36, '.'), 'Café 東京 🎮', 'tab\there', 'line\nbreak\r\n', 'back\\slash \\N', null];
    // 60,000 lines of ~20 bytes: the batch grows past its first 1 MiB of memory.
    const first = Array.from({ length: 60_000 }, (_, i) => [i, names[i % names.length]] as const);
    const second = [[60_000, '🎮 last'] as const];
    const text = new CopyText();
    first.forEach((values) => text.add(values));
    expect(text.lines).toBe(first.length);
    const firstBytes = text.take();
    expect(firstBytes.length).toBeGreaterThan(1 << 20);
    expect(text.lines).toBe(0);
    // Written after the first batch was handed over: it must not land in the first batch's memory.
    second.forEach((values) => text.add(values));
    const stored = await t.database.bulk(async (session) => {
      await session.query('create temp table copy_text (n bigint, name text) on commit drop');
      await session.copyIn('copy_text', ['n', 'name'], firstBytes);
      await session.copyIn('copy_text', ['n', 'name'], text.take());
      return session.query<{ n: string; name: string | null }>(
        'select n::text, name from copy_text order by copy_text.n',
      );
    });
    expect(stored).toEqual([...first, ...second].map(([n, name]) => ({ n: String(n), name })));
  });
});
