import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './open';

/** Raw SQL through drizzle, rows as objects: postgres.js returns them as an array, PGlite in `rows`. */
export async function queryRows<T>(db: Pick<Db, 'execute'>, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** Uuids as one array parameter (`= any(…)`, `unnest(…)`): one statement text whatever their number. */
export const uuidArraySql = (ids: readonly string[]): SQL => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** UTC days (YYYY-MM-DD) as one array parameter, likewise. */
export const dateArraySql = (days: readonly string[]): SQL => sql`${`{${days.join(',')}}`}::date[]`;
