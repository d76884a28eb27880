import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testDatabase, useTestDatabase } from '../support/db';
import { databaseOfWorker, workerNumber } from '../support/worker-database';

/** On PostgreSQL every worker reads and writes its own copy of the seeded database, by either way to it. */
describe.runIf(process.env.TEST_DATABASE_URL)('a worker’s own database', () => {
  const t = useTestDatabase();

  it('TEST_DATABASE_URL, its companions and the injected source all name this worker’s copy', async () => {
    const source = testDatabase();
    if (source.kind !== 'postgres') throw new Error('expected PostgreSQL');
    expect(process.env.TEST_DATABASE_URL).toBe(databaseOfWorker(process.env.TEST_DATABASE_URL_SHARED!));
    expect(process.env.TEST_DATABASE_URL).toBe(source.url);
    if (process.env.TEST_DATABASE_MIGRATION_URL) expect(source.ownerUrl).toBe(process.env.TEST_DATABASE_MIGRATION_URL);
    const rows = (await t.db.execute(sql`select current_database() as name`)) as unknown as { name: string }[];
    expect(rows[0].name).toMatch(new RegExp(`_w${workerNumber()}$`));
    // A copy of the seeded database: the demo accounts are there.
    const users = (await t.db.execute(sql`select count(*)::int as n from users`)) as unknown as { n: number }[];
    expect(users[0].n).toBeGreaterThan(0);
  });
});
