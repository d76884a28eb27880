/**
 * Large reads in constant memory from one snapshot (the bulk export): a cursor inside a read-only
 * REPEATABLE READ transaction, read `batchSize` rows at a time, rows as arrays (no per-row mapping).
 * Both drivers run a transaction only inside a callback, so the callback produces the batches and `pull`
 * turns it into an iterator the consumer drives: breaking out of it ends the transaction, which closes the
 * cursor and gives the connection back.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Sql } from 'postgres';

export type StreamRow = unknown[];

export interface StreamOptions {
  /** Rows per fetch from the cursor (and per batch yielded). */
  batchSize: number;
  /** A small query read whole in the same snapshot before the cursor opens; its rows are the first batch. */
  first?: SQL;
}

/** Batches of `query`'s rows; never an empty batch, except the one of `first`. */
export type RunStream = (query: SQL, options: StreamOptions) => AsyncIterable<StreamRow[]>;

const dialect = new PgDialect();

/**
 * The pool's statement_timeout (2 s, db/client.ts) would cut a large export, and a cursor's statement lasts
 * until its last row is read, i.e. as long as the client takes to download. Ten minutes is ample for the
 * largest account (14.6 M rows) over a slow link, yet an abandoned export cannot hold a connection for ever.
 */
const STREAM_STATEMENT_TIMEOUT = '10min';

export function postgresStream(client: Sql): RunStream {
  return (query, { batchSize, first }) =>
    pull((emit) =>
      client.begin('isolation level repeatable read read only', async (tx) => {
        await tx.unsafe(`set local statement_timeout = '${STREAM_STATEMENT_TIMEOUT}'`);
        if (first) {
          const lookup = dialect.sqlToQuery(first);
          if (!(await emit(await tx.unsafe(lookup.sql, lookup.params as never[]).values()))) return;
        }
        const { sql, params } = dialect.sqlToQuery(query);
        // Leaving the loop early calls the cursor's return(), which closes the portal before COMMIT.
        for await (const rows of tx
          .unsafe(sql, params as never[])
          .values()
          .cursor(batchSize)) {
          if (!(await emit(rows))) return;
        }
      }),
    );
}

export function pgliteStream(client: PGlite): RunStream {
  const asArrays = { rowMode: 'array' as const };
  return (query, { batchSize, first }) =>
    pull((emit) =>
      // PGlite is one connection: other queries of the process wait until this transaction ends.
      client.transaction(async (tx) => {
        await tx.query('set transaction isolation level repeatable read, read only');
        if (first) {
          const lookup = dialect.sqlToQuery(first);
          if (!(await emit((await tx.query<StreamRow>(lookup.sql, lookup.params, asArrays)).rows))) return;
        }
        const { sql, params } = dialect.sqlToQuery(query);
        // No explicit CLOSE: the transaction's end closes the cursor, whether it commits or rolls back.
        await tx.query(`declare stream_cursor no scroll cursor for ${sql}`, params);
        for (;;) {
          const { rows } = await tx.query<StreamRow>(`fetch forward ${batchSize} from stream_cursor`, [], asArrays);
          if (rows.length === 0 || !(await emit(rows))) return;
        }
      }),
    );
}

/**
 * Lets a consumer pull the batches that `produce` emits from inside a callback. The producer runs at most one
 * batch ahead (the database fetches the next batch while the consumer formats this one): `emit` resolves once
 * the consumer has taken the batch, with false once the consumer has stopped, so the producer returns and its
 * transaction ends. The iterator throws what the producer threw, and finishes only after the producer has,
 * so when it is done the connection is free.
 */
async function* pull<T>(produce: (emit: (batch: T) => Promise<boolean>) => Promise<unknown>): AsyncGenerator<T> {
  let offered: { batch: T; taken: (more: boolean) => void } | undefined;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  let wake = () => {};
  let woken = new Promise<void>((resolve) => (wake = resolve));
  const emit = (batch: T) =>
    new Promise<boolean>((taken) => {
      if (stopped) return taken(false);
      offered = { batch, taken };
      wake();
    });
  const finished = produce(emit)
    .then(
      () => {},
      (error: unknown) => {
        failure = { error };
      },
    )
    .finally(() => wake());
  try {
    for (;;) {
      await woken;
      woken = new Promise<void>((resolve) => (wake = resolve));
      if (!offered) break;
      const { batch, taken } = offered;
      offered = undefined;
      taken(true);
      yield batch;
    }
    if (failure) throw failure.error;
  } finally {
    stopped = true;
    offered?.taken(false);
    await finished;
  }
}
