import { and, asc, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './open';

/** An outbox table as the claim reads it: rows with an id, a due time, an attempt count and a creation time. */
interface Outbox<T extends PgTable> {
  table: T;
  columns: { id: AnyPgColumn; nextAttemptAt: AnyPgColumn; attempts: AnyPgColumn; createdAt: AnyPgColumn };
  /** Still to do: neither done nor given up. */
  open: SQL;
}

/**
 * Claims up to `batch` rows of an outbox that are due at `now`, oldest first, so that no two workers (two server
 * processes, a server and the CLI) take the same one: `FOR UPDATE SKIP LOCKED` in a short transaction that moves
 * the row's next attempt a lease ahead (its worker died if it is still there then) and counts the attempt.
 * The work happens outside any transaction. Due up to the end of `now`'s millisecond: the column keeps
 * microseconds, and a row written in that very millisecond would otherwise wait for the next run.
 */
export async function claimDue<T extends PgTable>(
  db: Db,
  { table, columns, open }: Outbox<T>,
  now: Date,
  { batch, leaseMs }: { batch: number; leaseMs: number },
): Promise<T['$inferSelect'][]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: columns.id })
      .from(table as PgTable)
      .where(and(open, lt(columns.nextAttemptAt, new Date(now.getTime() + 1))))
      .orderBy(asc(columns.createdAt), asc(columns.id))
      .limit(batch)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const claimed = (await tx
      .update(table)
      .set({ nextAttemptAt: new Date(now.getTime() + leaseMs), attempts: sql`${columns.attempts} + 1` } as never)
      .where(
        inArray(
          columns.id,
          due.map((row) => row.id),
        ),
      )
      .returning()) as { createdAt: Date }[];
    return claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()) as T['$inferSelect'][];
  });
}
