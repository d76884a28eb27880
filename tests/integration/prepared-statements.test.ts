/**
 * The lookups every request makes run as named prepared statements (db/prepared.ts), and
 * DATABASE_PREPARED_STATEMENTS=0 turns every statement back into an unnamed one, for a transaction-mode pooler
 * that does not keep them. PostgreSQL only: pg_prepared_statements lists a connection's named statements.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres } from '@/db/client';
import { preparedPerDatabase } from '@/db/prepared';
import { users } from '@/db/schema';
import { DEMO_IDS } from '@/db/seed-data';
import { readEnv, setEnv } from '@/lib/platform/env';
import { rows } from '../support/migrations';

const url = process.env.TEST_DATABASE_URL;
const lookup = preparedPerDatabase((db) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('user_by_id'),
);

/** Runs the prepared lookup twice on a one-connection pool; the names of the statements that connection keeps. */
async function namedStatements(environment: Record<string, string>) {
  setEnv(readEnv({ ...process.env, ...environment }));
  const database = await openPostgres(url!, { max: 1 });
  try {
    for (let i = 0; i < 2; i++) {
      expect(await lookup(database.db).execute({ id: DEMO_IDS.users.demo })).toEqual([{ id: DEMO_IDS.users.demo }]);
    }
    return await rows<{ statement: string }>(database.db, sql`select statement from pg_prepared_statements`);
  } finally {
    await database.close();
  }
}

describe.runIf(url)('prepared statements on PostgreSQL', () => {
  afterEach(() => setEnv(undefined));

  it('keeps a prepared lookup as a named statement of its connection, built and planned once', async () => {
    const named = await namedStatements({});
    expect(named.filter((s) => s.statement.includes('from "users" where "users"."id" = $1'))).toHaveLength(1);
  });

  it('sends every statement unnamed with DATABASE_PREPARED_STATEMENTS=0', async () => {
    expect(await namedStatements({ DATABASE_PREPARED_STATEMENTS: '0' })).toEqual([]);
  });
});
