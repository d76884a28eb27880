/**
 * Large reads in constant memory from one snapshot (the bulk export), `batchSize` rows at a time, rows as
 * arrays (no per-row mapping). Nothing is read until the first batch is asked for, so a response whose body
 * is never read (a HEAD) opens nothing; breaking out of the iteration ends the read and frees the connection.
 *
 * PostgreSQL: a cursor inside a read-only REPEATABLE READ transaction, bounded by the export's wall clock
 * (statement_timeout) and, should our own stall timer fail, by PostgreSQL's idle-in-transaction timeout.
 * PGlite has one connection for the whole process: a transaction held open while a client downloads would
 * stop every other request, so the cursor is declared WITH HOLD, which reads the result into a temporary
 * store when its transaction commits; the batches are then fetched between other requests' queries.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Sql } from 'postgres';

export type StreamRow = unknown[];

interface StreamOptions {
  /** Rows per fetch from the cursor (and per batch yielded). */
  batchSize: number;
  /** A small query read whole in the same snapshot before the cursor opens; its rows are the first batch. */
  first?: SQL;
  /** The longest the read may take, start to end (the export's wall clock). */
  maxMs: number;
  /** How long the consumer may leave the read waiting between batches (the export's stall limit). */
  stallMs: number;
}

/** Batches of `query`'s rows; never an empty batch, except the one of `first`. */
export type RunStream = (query: SQL, options: StreamOptions) => AsyncIterable<StreamRow[]>;

const dialect = new PgDialect();

/** The database's own bound on an idle transaction comes a little after ours, so ours normally acts first. */
const DATABASE_STALL_MARGIN_MS = 5_000;

export function postgresStream(client: Sql, observe?: (sql: string) => void): RunStream {
  return (query, { batchSize, first, maxMs, stallMs }) =>
    pull((emit) =>
      client.begin('isolation level repeatable read read only', async (tx) => {
        // A cursor's statement lasts until its last row is read: the request's 2 s would cut any export.
        await tx.unsafe(`set local statement_timeout = ${Math.round(maxMs)}`);
        await tx.unsafe(
          `set local idle_in_transaction_session_timeout = ${Math.round(stallMs + DATABASE_STALL_MARGIN_MS)}`,
        );
        if (first) {
          const lookup = dialect.sqlToQuery(first);
          observe?.(lookup.sql);
          if (!(await emit(await tx.unsafe(lookup.sql, lookup.params as never[]).values()))) return;
        }
        const { sql, params } = dialect.sqlToQuery(query);
        observe?.(sql);
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

/** Cursor names of the process's embedded database: several exports may be open at once. */
let pgliteCursors = 0;

export function pgliteStream(client: PGlite, observe?: (sql: string) => void): RunStream {
  const asArrays = { rowMode: 'array' as const };
  return (query, { batchSize, first }) =>
    (async function* () {
      const cursor = `export_cursor_${++pgliteCursors}`;
      let firstRows: StreamRow[] | undefined;
      await client.transaction(async (tx) => {
        await tx.query('set transaction isolation level repeatable read, read only');
        if (first) {
          const lookup = dialect.sqlToQuery(first);
          observe?.(lookup.sql);
          firstRows = (await tx.query<StreamRow>(lookup.sql, lookup.params, asArrays)).rows;
        }
        const { sql, params } = dialect.sqlToQuery(query);
        observe?.(sql);
        await tx.query(`declare ${cursor} no scroll cursor with hold for ${sql}`, params);
      });
      try {
        if (firstRows) yield firstRows;
        for (;;) {
          const { rows } = await client.query<StreamRow>(`fetch forward ${batchSize} from ${cursor}`, [], asArrays);
          if (rows.length === 0) return;
          yield rows;
        }
      } finally {
        // A held cursor outlives its transaction: it is closed here, or its rows stay until the process ends.
        await client.query(`close ${cursor}`).catch(() => {});
      }
    })();
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
