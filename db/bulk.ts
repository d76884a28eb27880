/**
 * Bulk writes need two things drizzle does not offer on both drivers: COPY … FROM STDIN, and one
 * transaction spanning a stream of them. A BulkSession gives exactly that over the raw driver, so the one
 * revenue write path (lib/revenue-in/write.ts) runs the same SQL on PostgreSQL and on PGlite.
 */
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import type { Sql, TransactionSql } from 'postgres';
import { sql } from 'drizzle-orm';
import type { Db } from './open';

export interface BulkSession {
  /** A statement with $1… parameters; rows come back as plain objects (bigint columns as strings). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** COPY `table (columns)` FROM STDIN, text format: `rows` are a CopyText's lines, or such text. */
  copyIn(table: string, columns: readonly string[], rows: string | Uint8Array<ArrayBuffer>): Promise<void>;
}

/** Runs `work` in one transaction: everything it wrote commits together, or nothing does. */
export type RunBulk = <T>(work: (session: BulkSession) => Promise<T>) => Promise<T>;

export function postgresBulk(client: Sql): RunBulk {
  return (work) =>
    client.begin(async (tx) => {
      // Bulk statements may take longer than the request-sized statement_timeout of the pool (db/client.ts).
      await tx.unsafe('set local statement_timeout = 0');
      return work({
        query: async (text, params = []) => [...(await tx.unsafe(text, params as never[]))] as never,
        copyIn: (table, columns, rows) => copyInPostgres(tx, `copy ${table} (${columns.join(', ')}) from stdin`, rows),
      });
    }) as never;
}

/**
 * COPY … FROM STDIN on postgres.js, settling on failure too. postgres.js 3.4 never settles its writable when
 * the server rejects the data after the last byte was sent (porsager/postgres#1173): the import would wait
 * forever and the transaction would never roll back, leaving the connection "idle in transaction (aborted)".
 * So a probe statement follows the COPY's end on the same connection: the server answers it only after the
 * COPY, with an error when the COPY aborted the transaction. The server's own message is lost on that path
 * (postgres.js drops it), so the probe's error says what happened.
 */
async function copyInPostgres(
  tx: TransactionSql,
  statement: string,
  rows: string | Uint8Array<ArrayBuffer>,
): Promise<void> {
  const stream: Writable = await tx.unsafe(statement).writable();
  const done = finished(stream); // settles on success, and on an error the server reports while data is still sent
  done.catch(() => {}); // awaited below; on the probe's path it may never be
  // The probe may go out only once the end of the data (CopyDone) has: before that, postgres.js refuses any
  // statement. Node calls _final for exactly that moment, so it is wrapped to tell when.
  const endOfData = new Promise<void>((resolve) => {
    const sendEnd = stream._final!.bind(stream);
    stream._final = (callback) => {
      sendEnd(callback);
      resolve();
    };
  });
  stream.end(rows);
  await Promise.race([done, endOfData]);
  try {
    await Promise.all([done, tx.unsafe('select 1')]);
  } catch (error) {
    stream.destroy(); // settles `done` when the probe found the COPY failed
    throw new Error(`${statement} failed, and its transaction was rolled back`, { cause: error });
  }
}

export function pgliteBulk(client: PGlite): RunBulk {
  return (work) =>
    client.transaction((tx) =>
      work({
        query: async (text, params = []) => (await tx.query(text, params)).rows as never,
        copyIn: async (table, columns, rows) => {
          await tx.query(`copy ${table} (${columns.join(', ')}) from '/dev/blob'`, [], { blob: new Blob([rows]) });
        },
      }),
    );
}

/**
 * Runs `work` with a setting changed for it alone, inside the session's transaction (SET LOCAL, then back to the
 * value it had). Not put back when `work` throws: the transaction is aborted then, and rolls back anyway.
 */
export async function withSetting<T>(
  session: Pick<BulkSession, 'query'>,
  name: string,
  value: string,
  work: () => Promise<T>,
): Promise<T> {
  const [{ previous }] = await session.query<{ previous: string }>(
    `select current_setting($1) as previous, set_config($1, $2, true)`,
    [name, value],
  );
  const result = await work();
  await session.query(`select set_config($1, $2, true)`, [name, previous]);
  return result;
}

/** Text-format COPY escaping: backslash, tab, newline and carriage return are escaped; null is \N. */
const escape = (value: string) =>
  value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);

/** One line of COPY text format for the values, in column order. */
function copyLine(values: readonly (string | number | null)[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    line += (i > 0 ? '\t' : '') + (v === null ? '\\N' : typeof v === 'number' ? String(v) : escape(v));
  }
  return `${line}\n`;
}

/** Lines of a CopyText written to its bytes at once (64 and 1,024 are as fast). */
const LINES_PER_WRITE = 256;

/**
 * A batch of COPY lines gathered as UTF-8 bytes. Gathered as one string, each of a batch's 20,000 lines stayed
 * alive until the batch was sent, for the garbage collector to copy again and again: 40 % of an import's parsing
 * time (200,000 rows read in 0.46 s instead of 0.65–0.83 s).
 */
export class CopyText {
  private bytes = Buffer.allocUnsafe(1 << 20);
  private length = 0;
  private count = 0;
  /** The latest lines, not yet in `bytes`: a write per line cost 10 % of an import's parsing. */
  private recent = '';

  /** How many lines the batch holds. */
  get lines(): number {
    return this.count;
  }

  /** One line of the values, in the COPY's column order. */
  add(values: readonly (string | number | null)[]): void {
    this.recent += copyLine(values);
    if (++this.count % LINES_PER_WRITE === 0) this.flush();
  }

  /** The lines so far, handed over; the batch starts again empty (in fresh memory, as a COPY may still read these). */
  take(): Uint8Array<ArrayBuffer> {
    this.flush();
    const taken = this.bytes.subarray(0, this.length);
    [this.bytes, this.length, this.count] = [Buffer.allocUnsafe(this.bytes.length), 0, 0];
    return taken;
  }

  private flush(): void {
    const { recent } = this;
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    if (this.length + recent.length * 3 > this.bytes.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + recent.length * 3));
      this.bytes.copy(larger, 0, 0, this.length);
      this.bytes = larger;
    }
    this.length += this.bytes.write(recent, this.length);
    this.recent = '';
  }
}

/**
 * Runs a very large load into `table` with its foreign keys and secondary indexes set aside, then puts them
 * back: building an index once by sorting, and checking a foreign key with one join, is several times
 * faster than maintaining them row by row. Their definitions are read from the catalog, so nothing here
 * repeats the schema. Inside the session's transaction: if anything fails, the drops roll back too. Readers
 * of `table` wait until the transaction ends, so this is for loads that replace the data (the seeds) only.
 */
export async function withoutSecondaryIndexes<T>(
  session: Pick<BulkSession, 'query'>,
  table: 'revenue_daily',
  work: () => Promise<T>,
): Promise<T> {
  // `table` is one of a fixed set of names, so it can stand in the text: no parameters keeps `session` minimal.
  const foreignKeys = await session.query<{ name: string; definition: string }>(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
     where conrelid = '${table}'::regclass and contype = 'f'`,
  );
  const indexes = await session.query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition from pg_index i
     where i.indrelid = '${table}'::regclass and not exists (select from pg_constraint c where c.conindid = i.indexrelid)`,
  );
  for (const fk of foreignKeys) await session.query(`alter table ${table} drop constraint ${fk.name}`);
  for (const index of indexes) await session.query(`drop index ${index.name}`);
  const result = await work();
  // A partitioned table's index reads back as `CREATE INDEX … ON ONLY revenue_daily`: made so, it would be an
  // invalid index of the parent alone, and no month would have it.
  for (const index of indexes) await session.query(index.definition.replace(/ ON ONLY /, ' ON '));
  for (const fk of foreignKeys) await session.query(`alter table ${table} add constraint ${fk.name} ${fk.definition}`);
  return result;
}

/**
 * After a load that rewrote much of revenue_rollup (the large seed, a backfill): its table and indexes rewritten
 * compact, then vacuumed. Each batch's triggers updated the same rollup rows again, so they were several times
 * their size (the sites' covering index 363 MB instead of 63). VACUUM FULL alone leaves the visibility map empty,
 * and then every index-only scan of the rollup reads the table as well, until a plain VACUUM (which autovacuum
 * does not start on a table nothing has changed since) marks its pages all-visible.
 */
export async function compactRollup(db: Pick<Db, 'execute'>): Promise<void> {
  await db.execute(sql`vacuum (full, analyze) revenue_rollup`);
  await db.execute(sql`vacuum revenue_rollup`);
}
